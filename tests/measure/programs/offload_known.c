/* An MPI program that offloads work to an OpenMP target device (built with
 * clang -fopenmp -fopenmp-targets=x86_64-pc-linux-gnu: LLVM's host plugin
 * runs the target regions on this machine's CPUs as a device), its kernels
 * and the bytes it maps known by construction. Every rank, STEPS times:
 *   a target region mapping A (N doubles) to the device and B (N doubles)
 *   from it: one kernel, one copy of 8N bytes each way;
 * then once a target data region mapping C (N doubles) to and from the
 * device, with STEPS target regions inside (C already there: no copies) and
 * a `target update from` of C after each: STEPS kernels, 1 + STEPS copies
 * from the device, 1 to it. Each kernel computes WORK seconds of its thread's
 * CPU clock. Rank 0 prints what it knows and what its own clock measured:
 *   per rank: kernels K, copies to the device T (X bytes), from it F (Y bytes)
 *   own timers: kernels S s, target constructs R s
 *   offload_known [STEPS [N [WORK]]]   (4 100000 0.02) */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_busy.h" /* compute(seconds): on the thread's own CPU clock */

/* A kernel's work: WORK seconds of its thread's CPU clock on a host device;
 * a GPU has no such clock, and loops 1e8 x WORK times instead. */
#if defined(__NVPTX__) || defined(__AMDGCN__)
static double kernel_work(double seconds) {
  double sink = 0.0;
  for (long i = 0; i < (long)(seconds * 1e8); ++i) sink += 1e-9 * (double)i;
  return sink;
}
#else
static double kernel_work(double seconds) { return compute(seconds); }
#endif

/* A kernel: B = 2 A, and WORK seconds of CPU. */
static double scale(const double* a, double* b, int n, double work) {
  double sink = 0.0;
#pragma omp target map(to : a [0:n]) map(from : b [0:n]) map(tofrom : sink)
  {
    for (int i = 0; i < n; ++i) b[i] = 2.0 * a[i];
    sink = kernel_work(work);
  }
  return sink;
}

int main(int argc, char** argv) {
  int rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int steps = argc > 1 ? atoi(argv[1]) : 4, n = argc > 2 ? atoi(argv[2]) : 100000;
  const double work = argc > 3 ? atof(argv[3]) : 0.02;
  int fine = steps > 0 && n > 0 && work >= 0.0 && omp_get_num_devices() > 0;
  MPI_Allreduce(MPI_IN_PLACE, &fine, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!fine) {
    if (rank == 0)
      fprintf(stderr, "usage: offload_known [STEPS (> 0) [N (> 0) [WORK (s >= 0)]]], with an offload device (%d)\n",
              omp_get_num_devices());
    MPI_Finalize();
    return 2;
  }
  double* a = malloc(sizeof(double) * (size_t)n);
  double* b = malloc(sizeof(double) * (size_t)n);
  double* c = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i) a[i] = c[i] = i;
  double sink = 0.0, constructs = 0.0;
  for (int step = 0; step < steps; ++step) {
    const double began = omp_get_wtime();
    sink += scale(a, b, n, work);
    constructs += omp_get_wtime() - began;
    MPI_Allreduce(MPI_IN_PLACE, &sink, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  const double began = omp_get_wtime();
#pragma omp target data map(tofrom : c [0:n])
  {
    for (int step = 0; step < steps; ++step) {
#pragma omp target map(tofrom : sink)
      {
        for (int i = 0; i < n; ++i) c[i] += 1.0;
        sink += kernel_work(work);
      }
#pragma omp target update from(c [0:n])
    }
  }
  constructs += omp_get_wtime() - began;
  /* The kernels alone, run on the host by the same code: what the program's own clock says they take. */
  const double alone = omp_get_wtime();
  for (int step = 0; step < 2 * steps; ++step) sink += compute(work);
  const double kernels = omp_get_wtime() - alone;
  MPI_Allreduce(MPI_IN_PLACE, &sink, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    const long bytes = 8L * n;
    /* Each `map(tofrom: sink)` is one copy of 8 bytes each way a kernel. */
    printf("per rank: kernels %d, copies to the device %d (%ld bytes), from it %d (%ld bytes)\n", 2 * steps,
           steps + 2 * steps + 1, steps * bytes + 2L * steps * 8 + bytes, steps + 2 * steps + 1 + steps,
           steps * bytes + 2L * steps * 8 + bytes + steps * bytes);
    printf("own timers: kernels %.6f s, target constructs %.6f s\n", kernels, constructs);
  }
  free(a);
  free(b);
  free(c);
  MPI_Finalize();
  return sink < 0.0;
}
