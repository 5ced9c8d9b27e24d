/* A C MPI program with known answers, for `hetscale measure`: in each of
 * STEPS steps rank r computes (r + 1) x 0.1 s of CPU time (a busy loop on
 * the thread's CPU clock: on a loaded machine the loop takes longer, and the
 * extra is run-queue delay, not computation), then every rank sends rank 0 a message and waits for its reply
 * (point-to-point). Rank 0 of 2 waits 0.1 s a step for rank 1; POP load
 * balance = mean / max computation = 0.15 / 0.2 = 0.75.
 *   known_wait [STEPS [EXIT_CODE [abort|signal]]]
 * prints one line per rank and exits with EXIT_CODE after MPI_Finalize
 * (default 0); "abort" calls MPI_Abort(MPI_COMM_WORLD, 4) instead of
 * finalizing, "signal" dies of SIGTERM on every rank. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_busy.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int steps = argc > 1 ? atoi(argv[1]) : 5;
  const int exit_code = argc > 2 ? atoi(argv[2]) : 0;
  double sink = 0.0;
  for (int step = 0; step < steps; ++step) {
    sink += compute((rank + 1) * 0.1);
    int token = step;
    if (rank == 0) {
      for (int other = 1; other < size; ++other)
        MPI_Recv(&token, 1, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int other = 1; other < size; ++other) MPI_Send(&token, 1, MPI_INT, other, 1, MPI_COMM_WORLD);
    } else {
      MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  printf("known_wait: rank %d of %d did %d steps (%g)\n", rank, size, steps, sink > 0 ? 1.0 : 0.0);
  fflush(stdout);
  if (argc > 3 && strcmp(argv[3], "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 4);
  if (argc > 3 && strcmp(argv[3], "signal") == 0) raise(SIGTERM);
  MPI_Finalize();
  return exit_code;
}
