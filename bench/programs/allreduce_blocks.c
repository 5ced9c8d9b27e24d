/* The cost of measuring on the loop's path, for bench/measure_overhead:
 * under `hetscale measure`, 20 blocks of 5,000 MPI_Allreduce calls of one
 * double through the library (MPI_Allreduce) and 20 around it
 * (PMPI_Allreduce), in turn, in one run: both see the same processes on the
 * same cores, which pairs of separate runs do not. Rank 0 prints the sums of
 * each kind's block times:
 *   allreduce_blocks: around A s through T s */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double mine = rank, total = 0.0, seconds[2] = {0.0, 0.0};
  const int blocks = 20, calls = 5000;
  for (int i = 0; i < 10000; ++i) MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int block = 0; block < blocks; ++block) {
    for (int through = 0; through < 2; ++through) {
      PMPI_Barrier(MPI_COMM_WORLD);
      const double start = PMPI_Wtime();
      if (through)
        for (int i = 0; i < calls; ++i) MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      else
        for (int i = 0; i < calls; ++i) PMPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      seconds[through] += PMPI_Wtime() - start;
    }
  }
  if (rank == 0) printf("allreduce_blocks: around %.6f s through %.6f s\n", seconds[0], seconds[1]);
  MPI_Finalize();
  return 0;
}
