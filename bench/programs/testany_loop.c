/* The cost of measuring a polling loop, for bench/measure_overhead: each
 * rank posts a receive from its partner (itself on one rank) and polls it
 * with MPI_Testany CALLS times before the matching send is made, so the
 * calls find nothing (on 2 ranks, but the last few of the rank that ends
 * later); timed with MPI_Wtime, rank 0 prints the slowest rank's loop time.
 * WORK, when given, is that many steps of arithmetic between two polls
 * (a program that computes while it waits for a message; 100 make a poll
 * and its arithmetic about 0.4 us here).
 *   testany_loop CALLS [WORK] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const long calls = argc > 1 ? atol(argv[1]) : 1000000;
  const long work = argc > 2 ? atol(argv[2]) : 0;
  volatile double x = 1.0;
  const int partner = ranks > 1 ? (rank + 1) % 2 : 0;
  int sent = rank, received = -1, index = 0, flag = 0;
  MPI_Request request;
  MPI_Irecv(&received, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, &request);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  long found = 0;
  for (long i = 0; i < calls; ++i) {
    MPI_Testany(1, &request, &index, &flag, MPI_STATUS_IGNORE);
    found += flag;
    for (long k = 0; k < work; ++k) x = x * 0.999999 + 1e-9;
  }
  double loop = MPI_Wtime() - start, slowest = 0.0;
  MPI_Send(&sent, 1, MPI_INT, partner, 0, MPI_COMM_WORLD);
  if (!found) MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Reduce(&loop, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("testany_loop: %ld calls in %.6f s\n", calls, slowest);
  MPI_Finalize();
  return 0;
}
