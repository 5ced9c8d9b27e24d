/* An MPI + OpenMP program that shares a loop of equal units between the
 * threads of its team in chunks it is given: every rank, STEPS times, runs a
 * parallel region in which thread t computes its chunk of UNITS units, each
 * UNIT seconds of its own CPU clock (so the work is known however the threads
 * share the cores), then joins an MPI_Allreduce. SHARES w_0,w_1,... give
 * thread t the units between round(UNITS x (w_0 + .. + w_(t-1)) / sum w) and
 * round(UNITS x (w_0 + .. + w_t) / sum w); without them, OpenMP's static
 * schedule (equal chunks). Rank 0 prints its team, each thread's units and
 * the time its regions took by its own wall clock:
 *   openmp_chunks [STEPS [UNITS [UNIT [SHARES]]]]   (10 120 0.001) */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_busy.h" /* compute(seconds): on the thread's own CPU clock */

enum { kMaxThreads = 256 };

/* SHARES as weights; returns how many were read (0 when one is not a number > 0). */
static int read_shares(const char* text, double* shares) {
  int count = 0;
  const char* at = text;
  while (*at && count < kMaxThreads) {
    char* end = NULL;
    const double share = strtod(at, &end);
    if (end == at || !(share > 0.0) || (*end != ',' && *end != '\0')) return 0;
    shares[count++] = share;
    at = *end == ',' ? end + 1 : end;
  }
  return count;
}

int main(int argc, char** argv) {
  int provided = 0, rank = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int steps = argc > 1 ? atoi(argv[1]) : 10, units = argc > 2 ? atoi(argv[2]) : 120;
  const double unit = argc > 3 ? atof(argv[3]) : 0.001;
  double shares[kMaxThreads];
  const int given = argc > 4 ? read_shares(argv[4], shares) : 0;
  const int team = omp_get_max_threads();
  int fine = steps > 0 && units > 0 && unit > 0.0 && (argc <= 4 || given == team) && team <= kMaxThreads;
  MPI_Allreduce(MPI_IN_PLACE, &fine, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!fine) {
    if (rank == 0)
      fprintf(stderr,
              "usage: openmp_chunks [STEPS (> 0) [UNITS (> 0) [UNIT (s > 0) [SHARES (one > 0 per thread: %d)]]]]\n",
              team);
    MPI_Finalize();
    return 2;
  }
  int first[kMaxThreads + 1];
  double total = 0.0, sum = 0.0, sink = 0.0;
  for (int t = 0; t < team; ++t) total += given ? shares[t] : 1.0;
  for (int t = 0; t <= team; ++t) {
    first[t] = (int)(units * sum / total + 0.5);
    if (t < team) sum += given ? shares[t] : 1.0;
  }
  double in_regions = 0.0;
  for (int step = 0; step < steps; ++step) {
    const double began = omp_get_wtime();
    if (given) {
#pragma omp parallel reduction(+ : sink)
      {
        const int t = omp_get_thread_num();
        for (int u = first[t]; u < first[t + 1]; ++u) sink += compute(unit);
      }
    } else {
#pragma omp parallel for schedule(static) reduction(+ : sink)
      for (int u = 0; u < units; ++u) sink += compute(unit);
    }
    in_regions += omp_get_wtime() - began;
    MPI_Allreduce(MPI_IN_PLACE, &sink, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    printf("team %d, units per thread:", team);
    for (int t = 0; t < team; ++t) printf(" %d", given ? first[t + 1] - first[t] : units / team + (t < units % team));
    printf("\nregions took %.6f s (wall clock, rank 0)\n", in_regions);
  }
  MPI_Finalize();
  return sink < 0.0;
}
