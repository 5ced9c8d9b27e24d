/* The cost of measuring OpenMP, for bench/measure_overhead: REGIONS parallel
 * regions in a row on one rank, each thread of the team doing WORK steps of
 * arithmetic in each (about 10 us a region here with the defaults), timed
 * with omp_get_wtime after a warm-up; prints the loop's time and a region's.
 *   openmp_regions [REGIONS [WORK]]   (20000 5000) */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double step(long work, double x) {
  for (long i = 0; i < work; ++i) x = x * 0.999999 + 1e-9;
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long regions = argc > 1 ? atol(argv[1]) : 20000, work = argc > 2 ? atol(argv[2]) : 5000;
  double sink = 0.0;
  for (long r = 0; r < regions / 10; ++r) {
#pragma omp parallel reduction(+ : sink)
    sink += step(work, 1.0);
  }
  const double start = omp_get_wtime();
  for (long r = 0; r < regions; ++r) {
#pragma omp parallel reduction(+ : sink)
    sink += step(work, 1.0);
  }
  const double loop = omp_get_wtime() - start;
  printf("openmp_regions: %ld regions in %.6f s (%.2f us a region)\n", regions, loop, loop / regions * 1e6);
  if (sink < 0.0) printf("openmp_regions: %g\n", sink);  // the work is used
  MPI_Finalize();
  return 0;
}
