/* An MPI program that stands for a CUDA one: linked with the stand-in
 * libcupti.so (cupti_stub.c), so that at MPI_Init hetscale's CUDA backend
 * finds CUPTI loaded and takes its activity records. It computes 0.1 s of
 * its CPU clock, so that the run is longer than its devices' records. */
#include <mpi.h>

#include "cpu_busy.h" /* compute(seconds): on the thread's own CPU clock */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  double sink = compute(0.1);
  MPI_Allreduce(MPI_IN_PLACE, &sink, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return sink < 0.0;
}
