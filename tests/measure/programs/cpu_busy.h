/* CPU work for the test programs of `hetscale measure`: a busy loop on the
 * thread's CPU clock, so that on a loaded machine the loop takes longer in
 * wall time and the extra is run-queue delay, not computation. */
#ifndef HETSCALE_TEST_CPU_BUSY_H
#define HETSCALE_TEST_CPU_BUSY_H

#include <time.h>

static double thread_cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Computes for `seconds` of this thread's CPU time; the result keeps the loop. */
static double compute(double seconds) {
  const double end = thread_cpu_seconds() + seconds;
  double x = 0.0;
  while (thread_cpu_seconds() < end)
    for (int i = 0; i < 1000; ++i) x += 1e-9 * i;
  return x;
}

#endif
