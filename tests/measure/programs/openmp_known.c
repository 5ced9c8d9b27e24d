/* An MPI + OpenMP program whose OpenMP efficiencies are known by
 * construction: every rank, STEPS times, computes SERIAL / STEPS seconds
 * alone (its team idle), then a parallel region in which thread t of the
 * team computes (t + 1) x UNEVEN seconds (1:2 with two threads), then a
 * balanced region in which each thread computes EVEN seconds, then joins an
 * MPI_Allreduce. Every amount is time on the computing thread's own CPU
 * clock, so the known values hold however the threads share the cores.
 * With a team of N threads, summed over them, per rank:
 *   useful         SERIAL + STEPS x (UNEVEN x N (N + 1) / 2 + EVEN x N)
 *   serialization  SERIAL x (N - 1)            (the team idle in the serial part)
 *   imbalance      STEPS x UNEVEN x N (N - 1) / 2  (threads waiting for the last)
 * and rank 0 prints them with the factors they give (MPI time left out).
 *   openmp_known [STEPS [SERIAL [UNEVEN [EVEN]]]]   (4 0.2 0.05 0.1) */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_busy.h" /* compute(seconds): on the thread's own CPU clock */

int main(int argc, char** argv) {
  int provided = 0, rank = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int steps = argc > 1 ? atoi(argv[1]) : 4;
  const double serial = argc > 2 ? atof(argv[2]) : 0.2, uneven = argc > 3 ? atof(argv[3]) : 0.05,
               even = argc > 4 ? atof(argv[4]) : 0.1;
  int fine = steps > 0 && serial >= 0.0 && uneven >= 0.0 && even >= 0.0;
  MPI_Allreduce(MPI_IN_PLACE, &fine, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!fine) {
    if (rank == 0) fprintf(stderr, "usage: openmp_known [STEPS (> 0) [SERIAL [UNEVEN [EVEN]]]] (seconds >= 0)\n");
    MPI_Finalize();
    return 2;
  }
  int team = 1;
  double sink = 0.0, total = 0.0;
  for (int step = 0; step < steps; ++step) {
    sink += compute(serial / steps);
#pragma omp parallel reduction(+ : sink)
    {
#pragma omp single nowait
      team = omp_get_num_threads();
      sink += compute((omp_get_thread_num() + 1) * uneven);
    }
#pragma omp parallel reduction(+ : sink)
    sink += compute(even);
    MPI_Allreduce(&sink, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    const double n = team, useful = serial + steps * (uneven * n * (n + 1) / 2 + even * n);
    const double serialization = serial * (n - 1), imbalance = steps * uneven * n * (n - 1) / 2;
    printf(
        "openmp_known: team %d, per rank: useful %.4f s, serialization %.4f s, imbalance %.4f s; "
        "serialization efficiency %.4f, load balance %.4f, their product %.4f\n",
        team, useful, serialization, imbalance, useful / (useful + serialization),
        (useful + serialization) / (useful + serialization + imbalance), useful / (useful + serialization + imbalance));
  }
  MPI_Finalize();
  return 0;
}
