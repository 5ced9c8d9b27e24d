/* A 1-D stencil that times its own computation, for checking `hetscale
 * measure` against the program's own clocks (bench/measure_accuracy and the
 * shared-core, thread and emulation tests).
 *
 *   stencil [--steps N] [--cells C] [--split w0,w1,...] [--threads single|multiple|openmp]
 *
 * Rank r owns a share w_r / sum(w) of C cells (an even split by default) and
 * each step relaxes them (a fixed amount of arithmetic a cell) and then swaps
 * halo cells with its two neighbours on a ring (MPI_Sendrecv) and joins an
 * MPI_Allreduce of its residual. --threads multiple: two threads of a rank
 * (MPI_THREAD_MULTIPLE) each relax half the cells and each swaps its own halo
 * (tag 1 or 2): two threads in MPI at once, while the main thread waits to
 * join them. --threads openmp: the relaxation is an OpenMP loop (static
 * schedule) and the main thread swaps the halos. Each thread times its
 * relaxation with its own CPU clock; at the end each rank prints one line
 *   stencil rank R cpu S threads K
 * S the largest computation time of any of its threads (s), which is what
 * hetscale measure's t_comp of the rank must be (divided by an emulated speed). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu_busy.h"

enum { single, multiple, openmp };
static int steps = 40, mode = single, rank = 0, ranks = 1;
static long cells = 4000000, first = 0, mine = 0;
static double* field = NULL;

static double relax(long from, long to) {
  double residual = 0.0;
  for (long i = from; i < to; ++i) {
    double x = field[i];
    for (int k = 0; k < 8; ++k) x = 0.5 * x + 0.25 * (x * x < 4.0 ? x : 1.0) + 1e-3;
    residual += x - field[i];
    field[i] = x;
  }
  return residual;
}

static void halo(int tag, double* edge) {
  const int next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
  double in = 0.0;
  MPI_Sendrecv(edge, 1, MPI_DOUBLE, next, tag, &in, 1, MPI_DOUBLE, previous, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  *edge += 1e-9 * in;
}

struct half {
  int index;
  double cpu;
};

static void* half_worker(void* argument) {
  struct half* h = argument;
  const long from = first + h->index * (mine / 2), to = h->index == 0 ? first + mine / 2 : first + mine;
  for (int s = 0; s < steps; ++s) {
    const double start = thread_cpu_seconds();
    double residual = relax(from, to);
    h->cpu += thread_cpu_seconds() - start;
    halo(1 + h->index, &field[from]);
    double total = 0.0;
    MPI_Comm comm = h->index == 0 ? MPI_COMM_WORLD : MPI_COMM_SELF;
    MPI_Allreduce(&residual, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  }
  return NULL;
}

int main(int argc, char** argv) {
  const char* split = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--steps")) steps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--cells")) cells = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "--split")) split = argv[i + 1];
    else if (!strcmp(argv[i], "--threads"))
      mode = !strcmp(argv[i + 1], "multiple") ? multiple : !strcmp(argv[i + 1], "openmp") ? openmp : single;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, mode == multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (mode == multiple && provided < MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "stencil: MPI_THREAD_MULTIPLE not provided\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double weight_sum = 0.0, my_weight = 1.0, before = 0.0;
  for (int r = 0; r < ranks; ++r) {
    double w = 1.0;
    if (split) {
      const char* p = split;
      for (int k = 0; k < r && p; ++k) p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
      w = p ? atof(p) : 1.0;
    }
    if (r < rank) before += w;
    if (r == rank) my_weight = w;
    weight_sum += w;
  }
  first = (long)(cells * before / weight_sum);
  mine = (long)(cells * my_weight / weight_sum);
  field = calloc((size_t)cells, sizeof *field);
  double cpu = 0.0;
  int threads = 1;
  if (mode == multiple) {
    struct half halves[2] = {{0, 0.0}, {1, 0.0}};
    pthread_t workers[2];
    for (int t = 0; t < 2; ++t) pthread_create(&workers[t], NULL, half_worker, &halves[t]);
    for (int t = 0; t < 2; ++t) pthread_join(workers[t], NULL);
    cpu = halves[0].cpu > halves[1].cpu ? halves[0].cpu : halves[1].cpu;
    threads = 2;
    if (getenv("STENCIL_THREADS")) printf("stencil rank %d halves %.6f %.6f\n", rank, halves[0].cpu, halves[1].cpu);
  } else {
    double per_thread[64] = {0};
    for (int s = 0; s < steps; ++s) {
      double residual = 0.0;
#ifdef _OPENMP
      if (mode == openmp) {
#pragma omp parallel reduction(+ : residual)
        {
          const int t = omp_get_thread_num(), n = omp_get_num_threads();
          const double start = thread_cpu_seconds();
          residual += relax(first + mine * t / n, first + mine * (t + 1) / n);
          if (t < 64) per_thread[t] += thread_cpu_seconds() - start;
#pragma omp master
          threads = n;
        }
      } else
#endif
      {
        const double start = thread_cpu_seconds();
        residual = relax(first, first + mine);
        per_thread[0] += thread_cpu_seconds() - start;
      }
      halo(0, &field[first]);
      double total = 0.0;
      MPI_Allreduce(&residual, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    for (int t = 0; t < 64; ++t)
      if (per_thread[t] > cpu) cpu = per_thread[t];
  }
  printf("stencil rank %d cpu %.6f threads %d\n", rank, cpu, threads);
  free(field);
  MPI_Finalize();
  return 0;
}
