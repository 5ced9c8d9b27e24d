/* A strong-scaling MPI program for bench/prediction_accuracy, to be measured
 * with `hetscale measure --emulate-speeds`: SECONDS of CPU work in all (on a
 * node of speed 1), the same whatever the rank count, in STEPS steps. Each
 * step's work is split over the ranks in proportion to the relative speeds
 * given (as a program that knows its nodes' marked speeds splits its rows),
 * so on nodes emulated at those speeds every rank's share takes the same wall
 * time, SECONDS / (STEPS x sum of speeds); after it, every rank joins an
 * MPI_Allreduce of one double. The work is a busy loop on the thread's CPU
 * clock (tests/measure/programs/cpu_busy.h): a rank held back by its emulated
 * speed or by other load takes longer in wall time, not in CPU time.
 *   split_work SECONDS STEPS v1,v2,...   (at least one speed per rank)
 * Rank 0 prints one line. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu_busy.h"

/* The speed of `rank` and the sum of the first `ranks` speeds in `list`
 * (v1,v2,...); 0 when the list is too short or a speed is not > 0. */
static int read_speeds(const char* list, int rank, int ranks, double* speed, double* speed_sum) {
  *speed = 0.0;
  *speed_sum = 0.0;
  const char* at = list;
  for (int r = 0; r < ranks; ++r) {
    char* end = NULL;
    const double value = strtod(at, &end);
    if (end == at || !(value > 0.0)) return 0;
    if (r == rank) *speed = value;
    *speed_sum += value;
    if (r + 1 < ranks) {
      if (*end != ',') return 0;
      at = end + 1;
    }
  }
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  double speed = 0.0, speed_sum = 0.0;
  const double seconds = argc > 1 ? atof(argv[1]) : 0.0;
  const int steps = argc > 2 ? atoi(argv[2]) : 0;
  if (argc != 4 || !(seconds > 0.0) || steps < 1 || !read_speeds(argv[3], rank, ranks, &speed, &speed_sum)) {
    if (rank == 0)
      fprintf(stderr,
              "split_work: usage: split_work SECONDS STEPS v1,v2,... (SECONDS > 0, STEPS >= 1, a speed > 0 "
              "for each of the %d ranks)\n",
              ranks);
    MPI_Finalize();
    return 2;
  }
  double sink = 0.0, total = 0.0;
  for (int step = 0; step < steps; ++step) {
    sink += compute(seconds / steps * speed / speed_sum);
    MPI_Allreduce(&sink, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("split_work: %g s of work in %d steps on %d ranks (sum of speeds %g)%s\n", seconds, steps, ranks, speed_sum,
           total > 0.0 ? "" : " ");
  MPI_Finalize();
  return 0;
}
