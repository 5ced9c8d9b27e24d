/* hetscale/programs/device_kernels.h: the kernels hetscale offloads to an
 * OpenMP target device (libhetscale_device_kernels.so, built with clang's
 * -fopenmp-targets): what `hetscale bench fpm --device mm` times for a
 * device's speed function, and what a program that shares its rows between
 * a rank's cores and its device may call for the device's share. */
#ifndef HETSCALE_DEVICE_KERNELS_H
#define HETSCALE_DEVICE_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The target devices the OpenMP runtime offers (omp_get_num_devices). */
int hetscale_device_count(void);

/* Rows [0, rows) of C = A B on device `device`, A rows x order, B and C
 * order x order row-major (C rows x order): A's rows and B mapped to the
 * device, C's rows mapped back, each call (the copies are part of the
 * device's time, as a GPU's are). Returns 1 when the rows were computed on
 * the device, 0 when the runtime ran them on the host instead (no such
 * device, or offload refused), -1 for a device number < 0 or rows/order < 1. */
int hetscale_device_multiply(const double* a, const double* b, double* c, long rows, long order, int device);

#ifdef __cplusplus
}
#endif

#endif
