#include "tick_clock.hpp"

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

namespace hetscale::interpose {
namespace {

// Whether the kernel reports the time-stamp counter invariant: the same rate
// on every core, in every power state.
bool invariant_tsc() {
#ifdef HETSCALE_HAVE_TSC
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line);
    bool constant = false, nonstop = false;
    for (std::string word; words >> word;) {
      constant = constant || word == "constant_tsc";
      nonstop = nonstop || word == "nonstop_tsc";
    }
    return constant && nonstop;
  }
#endif
  return false;
}

}  // namespace

Ticks TickClock::steady_nanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void TickClock::start() {
  tsc_ = invariant_tsc();
  start_steady_ = steady_nanoseconds();
  start_ticks_ = now();
}

double TickClock::seconds_per_tick() const {
  if (!tsc_) return 1e-9;
  Ticks steady = steady_nanoseconds();
  while (steady - start_steady_ < 5'000'000) steady = steady_nanoseconds();
  const Ticks ticks = now();
  return 1e-9 * static_cast<double>(steady - start_steady_) / static_cast<double>(ticks - start_ticks_);
}

}  // namespace hetscale::interpose
