/* The offloaded matrix product (hetscale/programs/device_kernels.h), built
 * with clang -fopenmp -fopenmp-targets=...: a plain loop nest the device's
 * compiler parallelizes over its teams and threads. */
#include "hetscale/programs/device_kernels.h"

#include <omp.h>

int hetscale_device_count(void) { return omp_get_num_devices(); }

int hetscale_device_multiply(const double* a, const double* b, double* c, long rows, long order, int device) {
  if (device < 0 || rows < 1 || order < 1) return -1;
  int on_device = 0;
#pragma omp target teams distribute parallel for device(device) map(to                                         \
                                                                    : a [0:rows * order], b [0:order * order]) \
    map(from                                                                                                   \
        : c [0:rows * order]) map(tofrom                                                                       \
                                  : on_device)
  for (long i = 0; i < rows; ++i) {
    if (i == 0) on_device = !omp_is_initial_device();
    for (long j = 0; j < order; ++j) c[i * order + j] = 0.0;
    for (long k = 0; k < order; ++k) {
      const double scale = a[i * order + k];
      for (long j = 0; j < order; ++j) c[i * order + j] += scale * b[k * order + j];
    }
  }
  return on_device;
}
