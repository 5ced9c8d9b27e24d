/* hetscale/measure.h: named regions for `hetscale measure` (docs/measure.md).
 *
 *   hetscale_region_begin("solve");
 *   ... computation and MPI calls ...
 *   hetscale_region_end("solve");
 *
 * Each region gets its own time breakdown per rank and its own MPI profile in
 * the run record (`hetscale analyze RUN --region solve`). A program built
 * with this header runs with or without libhetscale_measure.so: the library's
 * functions are weak references here, called only when it is loaded. That
 * needs a position-independent executable (Debian's default) or -fPIC code;
 * in a -no-pie executable the check is fixed at link time and the regions are
 * never seen. C and C++; from Fortran, MPI_Pcontrol(0) / (1) turns measuring
 * off and on. */
#ifndef HETSCALE_MEASURE_H
#define HETSCALE_MEASURE_H

#ifdef __cplusplus
extern "C" {
#endif

void hetscale_measure_region_begin(const char* name) __attribute__((weak));
void hetscale_measure_region_end(const char* name) __attribute__((weak));

/* Regions may nest; a region entered again while open counts once, and time
 * in a region entered many times adds up. */
static inline void hetscale_region_begin(const char* name) {
  if (hetscale_measure_region_begin) hetscale_measure_region_begin(name);
}

static inline void hetscale_region_end(const char* name) {
  if (hetscale_measure_region_end) hetscale_measure_region_end(name);
}

#ifdef __cplusplus
}
#endif

#endif /* HETSCALE_MEASURE_H */
