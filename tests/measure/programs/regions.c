/* A C MPI program with named regions (hetscale/measure.h) and a stretch
 * measured off (MPI_Pcontrol), for `hetscale measure`. In each of 4 steps,
 * region "compute": rank r computes (r + 1) x 0.1 s of CPU time; region
 * "exchange": every rank meets the others in MPI_Allreduce, where rank 0 of 2
 * waits 0.1 s for rank 1. Then, measuring off, every rank computes 0.3 s.
 * The regions' known answers on 2 ranks: "compute" has POP load balance 0.75
 * and no MPI call; "exchange" has MPI_Allreduce only (8 calls) and rank 0
 * waits 0.4 s in it. Built with the header, it runs without the library too. */
#include <mpi.h>
#include <stdio.h>

#include "cpu_busy.h"
#include "hetscale/measure.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double sink = 0.0, total = 0.0;
  for (int step = 0; step < 4; ++step) {
    hetscale_region_begin("compute");
    sink += compute((rank + 1) * 0.1);
    hetscale_region_end("compute");
    hetscale_region_begin("exchange");
    double mine = rank;
    MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    hetscale_region_end("exchange");
  }
  MPI_Pcontrol(0);
  sink += compute(0.3);
  MPI_Pcontrol(1);
  printf("regions: rank %d of %d, sum %g (%g)\n", rank, size, total, sink > 0 ? 1.0 : 0.0);
  MPI_Finalize();
  return 0;
}
