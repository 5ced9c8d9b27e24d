#include "hetscale/run/rank_clock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace hetscale::run {

RankClock::RankClock() {
  schedstat_fd_ = ::open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);
  totals_.other_load_measured = schedstat_fd_ >= 0;
}

RankClock::~RankClock() {
  if (schedstat_fd_ >= 0) ::close(schedstat_fd_);
}

double RankClock::run_queue_delay() const {
  if (schedstat_fd_ < 0) return 0.0;
  // "<time on cpu ns> <time waiting on a run queue ns> <timeslices>"
  char text[128];
  const ssize_t size = ::pread(schedstat_fd_, text, sizeof text - 1, 0);
  if (size <= 0) return 0.0;
  text[size] = '\0';
  char* end = nullptr;
  std::strtoull(text, &end, 10);
  const unsigned long long waiting_ns = std::strtoull(end, nullptr, 10);
  return static_cast<double>(waiting_ns) * 1e-9;
}

void RankClock::start(Activity activity) {
  totals_ = TimeBreakdown{};
  totals_.other_load_measured = schedstat_fd_ >= 0;
  current_ = activity;
  window_start_ = last_switch_ = Clock::now();
  last_delay_ = run_queue_delay();
}

void RankClock::account(Clock::time_point now, double delay) {
  const double wall = std::chrono::duration<double>(now - last_switch_).count();
  // Delay can only be counted up to the wall time it happened in.
  const double waited = std::min(std::max(delay - last_delay_, 0.0), wall);
  totals_.seconds[static_cast<std::size_t>(current_)] += wall - waited;
  totals_.other_load += waited;
  ++totals_.switches;
  last_switch_ = now;
  last_delay_ = delay;
}

void RankClock::switch_to(Activity activity) {
  if (activity == current_) return;
  account(Clock::now(), run_queue_delay());
  current_ = activity;
}

TimeBreakdown RankClock::stop() {
  const auto now = Clock::now();
  account(now, run_queue_delay());
  totals_.elapsed = std::chrono::duration<double>(now - window_start_).count();
  return totals_;
}

double RankClock::elapsed() const { return std::chrono::duration<double>(Clock::now() - window_start_).count(); }

double measure_switch_cost(std::size_t switches) {
  RankClock clock;
  clock.start(Activity::idle);
  const auto begin = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < switches; ++i)
    clock.switch_to(i % 2 ? Activity::idle : Activity::communication);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  clock.stop();
  return seconds / static_cast<double>(switches == 0 ? 1 : switches);
}

}  // namespace hetscale::run
