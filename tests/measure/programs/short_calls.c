/* Runs of short MPI calls, for `hetscale measure`: on 2 ranks, 50,000
 * MPI_Allreduce of one double back to back, then 0.3 s of computation on
 * the thread's CPU clock, then 20,000 more with rank 1 late once, by 0.2 s of
 * computation, half way. Each rank prints its computation as its own CPU
 * clock read it:
 *   short_calls: rank R computed S s
 * With --fewer, a tenth of the calls (for more ranks than cores, where
 * each call waits for a CPU).
 * With --thread (MPI_THREAD_MULTIPLE): a second thread makes 50,000 short
 * Allreduces on a duplicate of MPI_COMM_WORLD and ends, then the main
 * thread finalizes; nothing is printed. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cpu_busy.h"

static MPI_Comm worker_comm;

static void* worker(void* unused) {
  double mine = 1.0, total = 0.0;
  for (int i = 0; i < 50000; ++i) MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, worker_comm);
  return unused;
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "--thread") == 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_dup(MPI_COMM_WORLD, &worker_comm);
    pthread_t thread;
    pthread_create(&thread, NULL, worker, NULL);
    pthread_join(thread, NULL);
    MPI_Comm_free(&worker_comm);
    MPI_Finalize();
    return provided == MPI_THREAD_MULTIPLE ? 0 : 4;
  }
  const int fewer = argc > 1 && strcmp(argv[1], "--fewer") == 0 ? 10 : 1;
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double mine = rank, total = 0.0, computed = 0.0, kept = 0.0;
  for (int i = 0; i < 50000 / fewer; ++i) MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double start = thread_cpu_seconds();
  kept += compute(0.3);
  computed += thread_cpu_seconds() - start;
  for (int i = 0; i < 20000 / fewer; ++i) {
    if (rank == 1 && i == 10000 / fewer) {
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
