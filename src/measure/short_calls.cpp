#include "hetscale/measure/short_calls.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/core.h>

namespace hetscale::measure {

ShortCalls::ShortCalls(double short_ticks, std::size_t functions, std::uint32_t needed, std::uint32_t most_needed,
                       std::uint32_t one_in)
    : short_ticks_(short_ticks),
      needed_(needed),
      least_needed_(needed),
      most_needed_(most_needed),
      one_in_(one_in),
      mean_(functions, -1.0),
      count_(functions, 0.0),
      bytes_(functions, 0.0) {
  if (!(short_ticks > 0.0)) throw std::invalid_argument(fmt::format("short calls: short {}: must be > 0", short_ticks));
  if (needed < 1 || needed > most_needed)
    throw std::invalid_argument(
        fmt::format("short calls: needed {} and at most {}: need 1 <= needed <= at most", needed, most_needed));
  if (one_in == 0 || (one_in & (one_in - 1)) != 0)
    throw std::invalid_argument(fmt::format("short calls: one call in {}: must be a power of 2", one_in));
}

void ShortCalls::timed(std::size_t function, double call, double computation, bool left) {
  sampler_.in_calls.store(0.0, std::memory_order_relaxed);  // nothing seen before a timed call is the next interval's
  auto& mean = mean_[function];
  mean = mean < 0.0 ? call : mean + (call - mean) / 8.0;
  const double each = computation / gaps_;  // the computation between two calls
  gaps_ = 1.0;
  if (left || call >= short_ticks_ || each >= short_ticks_) {
    streak_ = 0;
    set_in_run(false);
    return;
  }
  if (++streak_ >= needed_) set_in_run(true);
}

void ShortCalls::sampled_every(double ticks) {
  if (!(ticks > 0.0)) throw std::invalid_argument(fmt::format("short calls: sampled every {}: must be > 0", ticks));
  sample_ticks_ = ticks;
}

void ShortCalls::broke(double unsplit) {
  unsplit_ += unsplit;
  carried_ = 0.0;
  set_in_run(false);
  streak_ = 0;
  run_length_ = 0;
  needed_ = std::min(most_needed_, 2 * needed_);
}

}  // namespace hetscale::measure
