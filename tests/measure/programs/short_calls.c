/* Runs of short MPI calls, for `hetscale measure`: on 2 ranks, 50,000
 * MPI_Allreduce of one double back to back, then 0.3 s of computation on
 * the thread's CPU clock, then 20,000 more with rank 1 late once, by 0.2 s of
 * computation, half way. Each rank prints its computation as its own CPU
 * clock read it:
 *   short_calls: rank R computed S s */
#include <mpi.h>
#include <stdio.h>

#include "cpu_busy.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double mine = rank, total = 0.0, computed = 0.0, kept = 0.0;
  for (int i = 0; i < 50000; ++i) MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double start = thread_cpu_seconds();
  kept += compute(0.3);
  computed += thread_cpu_seconds() - start;
  for (int i = 0; i < 20000; ++i) {
    if (rank == 1 && i == 10000) {
      start = thread_cpu_seconds();
      kept += compute(0.2);
      computed += thread_cpu_seconds() - start;
    }
    MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  printf("short_calls: rank %d computed %.6f s%s\n", rank, computed, kept < 0.0 ? " " : "");
  MPI_Finalize();
  return 0;
}
