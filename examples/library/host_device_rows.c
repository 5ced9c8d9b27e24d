/* A hybrid MPI program (in C) that shares the rows of C = A B between each
 * rank's cores and its accelerator by a functional performance model at run
 * time (hetscale/share_by_speed.h, hetscale_share_with_device): the cores
 * compute their rows with BLAS while a thread of the rank offloads the
 * device's rows (hetscale/programs/device_kernels.h), both at once, five
 * times as an iterative program would. Each rank prints what it computed,
 * how long each processor took (the median iteration) against the model's
 * prediction; rank 0 checks that every row was computed once and right.
 *
 *   hetscale bench fpm --kernel mm --order 400 --sizes 20:400:40 --device mm --out model.json
 *   mpiexec -np 1 ./host_device_rows model.json 400 400 numerical
 *
 * SPLIT: numerical, geometric or constant (the partition's algorithm), or
 * even (every processor the same rows, no model consulted for the split). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <mpi.h>

#include "hetscale/programs/device_kernels.h"
#include "hetscale/share_by_speed.h"

static double entry(long i, long j, long salt) { return (double)((i * 7 + j * 3 + salt) % 11) / 11.0; }

struct device_rows {
  const double *a, *b;
  double* c;
  long rows, order;
  int device, on_device;
  double seconds;
};

static void* compute_on_device(void* argument) {
  struct device_rows* work = argument;
  const double start = MPI_Wtime();
  work->on_device =
      work->rows == 0 ? 1 : hetscale_device_multiply(work->a, work->b, work->c, work->rows, work->order, work->device);
  work->seconds = MPI_Wtime() - start;
  return NULL;
}

static int by_value(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

static double median(double* values, int count) {
  qsort(values, (size_t)count, sizeof *values, by_value);
  return values[count / 2];
}

/* Row i of A B computed plainly, against the row computed: within 1e-9. */
static int row_right(const double* b, const double* row, long i, long order) {
  for (long j = 0; j < order; ++j) {
    double sum = 0.0;
    for (long k = 0; k < order; ++k) sum += entry(i, k, 1) * b[k * order + j];
    const double error = sum - row[j];
    if (error > 1e-9 * (1.0 + sum) || -error > 1e-9 * (1.0 + sum)) return 0;
  }
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc != 5) {
    if (rank == 0) fprintf(stderr, "host_device_rows: usage: host_device_rows MODEL ROWS ORDER SPLIT\n");
    MPI_Finalize();
    return 2;
  }
  const long n = atol(argv[2]), order = atol(argv[3]);
  const int even = strcmp(argv[4], "even") == 0;
  hetscale_share cores, device;
  char error[256];
  if (order < 1 || hetscale_share_with_device(MPI_COMM_WORLD, argv[1], n, even ? "constant" : argv[4], &cores, &device,
                                              error, sizeof error)) {
    if (rank == 0) fprintf(stderr, "host_device_rows: %s\n", order < 1 ? "ORDER: must be >= 1" : error);
    MPI_Finalize();
    return 2;
  }
  if (even) { /* 2 x ranks processors, rank order, each n / (2 ranks) rows (the first ones one more) */
    const long processors = 2L * ranks, base = n / processors, extra = n % processors;
    const long mine = 2L * rank;
    cores.first = mine * base + (mine < extra ? mine : extra);
    cores.units = base + (mine < extra);
    device.first = cores.first + cores.units;
    device.units = base + (mine + 1 < extra);
  }
  /* The rank's rows of A, all of B; its rows of C in block order. */
  const long rows = cores.units + device.units, first = cores.first;
  double* a = malloc(sizeof(double) * (size_t)(rows > 0 ? rows : 1) * (size_t)order);
  double* b = malloc(sizeof(double) * (size_t)order * (size_t)order);
  double* c = malloc(sizeof(double) * (size_t)(rows > 0 ? rows : 1) * (size_t)order);
  for (long i = 0; i < rows; ++i)
    for (long k = 0; k < order; ++k) a[i * order + k] = entry(first + i, k, 1);
  for (long k = 0; k < order; ++k)
    for (long j = 0; j < order; ++j) b[k * order + j] = entry(k, j, 2);

  /* As an iterative program does: the product ITERATIONS times, its
   * median iteration reported (the first touches C's pages and starts the
   * device's runtime). */
  enum { ITERATIONS = 5 };
  const int device_number = rank % (hetscale_device_count() > 0 ? hetscale_device_count() : 1);
  double cores_times[ITERATIONS], device_times[ITERATIONS], walls[ITERATIONS];
  struct device_rows offloaded = {
      a + cores.units * order, b, c + cores.units * order, device.units, order, device_number, 0, 0.0};
  for (int iteration = 0; iteration < ITERATIONS; ++iteration) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    pthread_t thread;
    pthread_create(&thread, NULL, compute_on_device, &offloaded);
    if (cores.units > 0)
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)cores.units, (int)order, (int)order, 1.0, a,
                  (int)order, b, (int)order, 0.0, c, (int)order);
    cores_times[iteration] = MPI_Wtime() - start;
    pthread_join(thread, NULL);
    device_times[iteration] = offloaded.seconds;
    const double wall = MPI_Wtime() - start;
    MPI_Allreduce(&wall, &walls[iteration], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  const double cores_seconds = median(cores_times, ITERATIONS), device_seconds = median(device_times, ITERATIONS);
  const double makespan = median(walls, ITERATIONS), predicted = even ? 0.0 : cores.makespan;

  /* Every row once, and right: the first and last of each block checked. */
  long long counted = 0, computed = rows, sum = 0, total = 0, right = 1;
  for (long i = 0; i < cores.units; ++i) sum += cores.first + i;
  for (long i = 0; i < device.units; ++i) sum += device.first + i;
  if (cores.units > 0)
    right &=
        row_right(b, c, first, order) & row_right(b, c + (cores.units - 1) * order, first + cores.units - 1, order);
  if (device.units > 0)
    right &= row_right(b, c + cores.units * order, device.first, order) &
             row_right(b, c + (rows - 1) * order, device.first + device.units - 1, order);
  right &= device.units == 0 || offloaded.on_device == 1;
  long long all_right = 0;
  MPI_Reduce(&computed, &counted, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&right, &all_right, 1, MPI_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
  printf(
      "host_device_rows: rank %d: cores %ld rows in %.6f s (predicted %.6f s), device %ld rows in %.6f s "
      "(predicted %.6f s)\n",
      rank, cores.units, cores_seconds, even ? 0.0 : cores.predicted_seconds, device.units, device_seconds,
      even ? 0.0 : device.predicted_seconds);
  fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf(
        "host_device_rows: %ld rows (order %ld), %s split: makespan %.6f s (predicted %.6f s); every row once: "
        "%s; rows right, on the device: %s\n",
        n, order, argv[4], makespan, predicted, counted == n && total == (long long)n * (n - 1) / 2 ? "yes" : "NO",
        all_right ? "yes" : "NO");
  free(a);
  free(b);
  free(c);
  MPI_Finalize();
  return 0;
}
