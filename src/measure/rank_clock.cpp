#include "hetscale/measure/rank_clock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#ifdef HETSCALE_SMPI
#include <mpi.h>
#endif

namespace hetscale::measure {

namespace {

// The clock the activities are timed with: this machine's monotonic clock,
// or, in the simulator (hetscale-smpi), the simulated time (MPI_Wtime).
std::chrono::steady_clock::time_point clock_now() {
#ifdef HETSCALE_SMPI
  const std::chrono::duration<double> simulated(MPI_Wtime());
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(simulated));
#else
  return std::chrono::steady_clock::now();
#endif
}

// Which activities work on the CPU: their share of the run-queue delay is other load.
RunQueueSplit activity_split() {
  std::vector<bool> works_on_cpu(activity_count, false);
  works_on_cpu[static_cast<std::size_t>(Activity::computation)] = true;
  works_on_cpu[static_cast<std::size_t>(Activity::setup)] = true;
  return RunQueueSplit(works_on_cpu);
}

}  // namespace

RankClock::RankClock() : split_(activity_split()) {
#ifndef HETSCALE_SMPI
  // In the simulator no other load delays a process: nothing to read.
  schedstat_fd_ = ::open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);
#endif
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
  split_ = activity_split();
  current_ = activity;
  window_start_ = last_switch_ = last_delay_read_ = clock_now();
  last_delay_ = run_queue_delay();
}

void RankClock::account(Clock::time_point now, bool read_delay) {
  split_.add(static_cast<std::size_t>(current_), std::chrono::duration<double>(now - last_switch_).count());
  last_switch_ = now;
  ++totals_.switches;
  if (!read_delay && now - last_delay_read_ < delay_read_interval) return;
  const double delay = run_queue_delay();
  ++totals_.delay_reads;
  split_.found(delay - last_delay_);
  for (std::size_t a = 0; a < activity_count; ++a) totals_.seconds[a] = split_.kept()[a];
  totals_.other_load = split_.other_load();
  last_delay_ = delay;
  last_delay_read_ = now;
}

void RankClock::switch_to(Activity activity) {
  if (activity == current_) return;
  // Computation is bracketed by exact reads, so its time is never charged
  // with delay that happened around it.
  account(clock_now(), activity == Activity::computation || current_ == Activity::computation);
  current_ = activity;
}

TimeBreakdown RankClock::stop() {
  const auto now = clock_now();
  account(now, true);
  totals_.elapsed = std::chrono::duration<double>(now - window_start_).count();
  return totals_;
}

double RankClock::elapsed() const { return std::chrono::duration<double>(clock_now() - window_start_).count(); }

ClockCosts measure_clock_costs(std::size_t repetitions) {
  if (repetitions == 0) repetitions = 1;
  ClockCosts costs;
  RankClock clock;
  clock.start(Activity::idle);
  auto begin = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < repetitions; ++i) clock.switch_to(i % 2 ? Activity::idle : Activity::communication);
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const TimeBreakdown times = clock.stop();
  costs.switch_seconds = seconds / static_cast<double>(repetitions);
  begin = std::chrono::steady_clock::now();
  double sink = 0.0;
  for (std::size_t i = 0; i < repetitions / 10 + 1; ++i) sink += clock.run_queue_delay();
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  costs.delay_read_seconds = seconds / static_cast<double>(repetitions / 10 + 1) + (sink < 0.0 ? 1.0 : 0.0);
  // The switch loop included its own delay reads; count them at their cost.
  costs.switch_seconds =
      std::max(0.0, costs.switch_seconds - costs.delay_read_seconds * static_cast<double>(times.delay_reads) /
                                               static_cast<double>(repetitions));
  return costs;
}

}  // namespace hetscale::measure
