/* The cost of measuring, for bench/measure_overhead: CALLS small
 * MPI_Allreduce calls (one double) after a warm-up, timed with MPI_Wtime;
 * rank 0 prints the slowest rank's loop time.
 *   allreduce_loop CALLS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long calls = argc > 1 ? atol(argv[1]) : 100000;
  double mine = rank, total = 0.0;
  for (long i = 0; i < calls / 10; ++i) MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long i = 0; i < calls; ++i) MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double loop = MPI_Wtime() - start, slowest = 0.0;
  MPI_Reduce(&loop, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("allreduce_loop: %ld calls in %.6f s\n", calls, slowest);
  MPI_Finalize();
  return 0;
}
