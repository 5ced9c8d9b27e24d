#pragma once
// The clock that times each MPI call: the CPU's time-stamp counter where the
// kernel reports it invariant (constant_tsc and nonstop_tsc in /proc/cpuinfo),
// read in about 7 ns here against 16 ns for steady_clock; else steady_clock's
// nanoseconds. Ticks become seconds by the counter's rate against
// steady_clock, measured over the run (bench/measure_overhead shows the cost).
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HETSCALE_HAVE_TSC 1
#endif

namespace hetscale::interpose {

using Ticks = std::int64_t;

class TickClock {
 public:
  // Chooses the counter and marks the start; before the first now().
  void start();
  Ticks now() const {
#ifdef HETSCALE_HAVE_TSC
    if (tsc_) return static_cast<Ticks>(__rdtsc());
#endif
    return steady_nanoseconds();
  }
  // Seconds per tick, measured from start() to this call against
  // steady_clock; waits until 5 ms have passed since start() so that the
  // rate is known to a few parts in a million.
  double seconds_per_tick() const;
  // "the time-stamp counter" or "steady_clock", for the record.
  const char* name() const { return tsc_ ? "the CPU's invariant time-stamp counter" : "steady_clock"; }

 private:
  static Ticks steady_nanoseconds();
  bool tsc_ = false;
  Ticks start_ticks_ = 0, start_steady_ = 0;
};

}  // namespace hetscale::interpose
