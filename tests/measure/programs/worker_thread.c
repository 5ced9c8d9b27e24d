/* A C MPI program whose computation runs on a second thread, for `hetscale
 * measure`: the main thread starts a worker (which lives on, as a thread of
 * a pool would) that computes 0.4 s of CPU time; the main thread waits for
 * it asleep, never ready to run, then meets the other ranks in MPI_Barrier
 * and lets the worker end. When the worker shares its CPU with other work,
 * only its own run-queue delay shows that: the rank's t_other must hold it,
 * and its t_comp stay near the worker's 0.4 s of CPU. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "cpu_busy.h"

static int done[2], finish[2];  /* pipes: the worker's "done", the main thread's "finish" */
static double result = 0.0;

static void* work(void* unused) {
  (void)unused;
  result = compute(0.4);
  char signal = 'd';
  if (write(done[1], &signal, 1) != 1) return NULL;
  if (read(finish[0], &signal, 1) != 1) return NULL;
  return NULL;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (pipe(done) != 0 || pipe(finish) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
  pthread_t worker;
  pthread_create(&worker, NULL, work, NULL);
  char signal = 0;
  if (read(done[0], &signal, 1) != 1) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  signal = 'f';
  if (write(finish[1], &signal, 1) != 1) MPI_Abort(MPI_COMM_WORLD, 1);
  pthread_join(worker, NULL);
  printf("worker_thread: rank %d (%g)\n", rank, result > 0 ? 1.0 : 0.0);
  MPI_Finalize();
  return 0;
}
