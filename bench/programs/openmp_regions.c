/* The cost of measuring OpenMP, for bench/measure_overhead: REGIONS parallel
 * regions in a row on one rank, each thread of the team doing WORK steps of
 * arithmetic in each (about 10 us a region here with the defaults), after a
 * warm-up; the regions run in CHUNKS chunks timed with omp_get_wtime, and the
 * loop's time is the median chunk's times CHUNKS (a neighbour's burst
 * slows a chunk or two, not the median); prints it and a region's time.
 *   openmp_regions [REGIONS [WORK [CHUNKS]]]   (100000 5000 20; CHUNKS divides REGIONS) */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double step(long work, double x) {
  for (long i = 0; i < work; ++i) x = x * 0.999999 + 1e-9;
  return x;
}

static int ascending(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long regions = argc > 1 ? atol(argv[1]) : 100000, work = argc > 2 ? atol(argv[2]) : 5000;
  const long chunks = argc > 3 ? atol(argv[3]) : 20;
  if (regions < 1 || work < 0 || chunks < 1 || regions % chunks != 0) {
    fprintf(stderr, "openmp_regions: REGIONS >= 1, WORK >= 0, CHUNKS >= 1 dividing REGIONS (%s %s %s)\n",
            argc > 1 ? argv[1] : "", argc > 2 ? argv[2] : "", argc > 3 ? argv[3] : "");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double sink = 0.0;
  for (long r = 0; r < regions / 10; ++r) {
#pragma omp parallel reduction(+ : sink)
    sink += step(work, 1.0);
  }
  double* times = malloc((size_t)chunks * sizeof *times);
  for (long c = 0; c < chunks; ++c) {
    const double start = omp_get_wtime();
    for (long r = 0; r < regions / chunks; ++r) {
#pragma omp parallel reduction(+ : sink)
      sink += step(work, 1.0);
    }
    times[c] = omp_get_wtime() - start;
  }
  qsort(times, (size_t)chunks, sizeof *times, ascending);
  const double loop = times[chunks / 2] * (double)chunks;
  printf("openmp_regions: %ld regions in %.6f s (%.2f us a region, the median of %ld chunks)\n", regions, loop,
         loop / (double)regions * 1e6, chunks);
  if (sink < 0.0) printf("openmp_regions: %g\n", sink);  // the work is used
  free(times);
  MPI_Finalize();
  return 0;
}
