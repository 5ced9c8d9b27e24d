#pragma once
// Per-rank measurement of a real run: where a process's wall-clock time goes.
// The clock is always in one activity; switching reads the monotonic clock. A
// switch costs one clock read; the process's run-queue delay
// (/proc/self/schedstat, second field) is read when computation begins or
// ends, otherwise at most once per `delay_read_interval` (and when the window
// closes), and is shared by the rule of measure::RunQueueSplit, as `hetscale
// measure` shares it: the share of computation and set-up work is other load,
// taken out of them; the share of communication and idle time stays in them.
// In the simulator (hetscale-smpi) the clock is the simulated time
// (MPI_Wtime) and there is no run-queue delay to read.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "hetscale/measure/run_queue_split.hpp"

namespace hetscale::measure {

enum class Activity : std::size_t {
  computation,    // fitness evaluation
  communication,  // in MPI calls that move data
  idle,           // waiting for a message or a partner
  setup,          // the run's own overhead (GA operators on the server, lost duplicates)
};
inline constexpr std::size_t activity_count = 4;

struct TimeBreakdown {
  std::array<double, activity_count> seconds{};  // by Activity, run-queue delay removed
  double other_load = 0.0;                       // ready to run but not running, while working
  double elapsed = 0.0;                          // wall-clock time of the window
  std::size_t switches = 0;                      // activity switches
  std::size_t delay_reads = 0;                   // reads of /proc/self/schedstat
  bool other_load_measured = false;              // /proc/self/schedstat was readable

  double operator[](Activity activity) const { return seconds[static_cast<std::size_t>(activity)]; }
};

class RankClock {
 public:
  RankClock();
  ~RankClock();
  RankClock(const RankClock&) = delete;
  RankClock& operator=(const RankClock&) = delete;

  // Opens the window in `activity`.
  void start(Activity activity);
  // The time since the last switch goes to the current activity.
  void switch_to(Activity activity);
  Activity current() const { return current_; }
  // Closes the window; the clock can be started again.
  TimeBreakdown stop();
  // Seconds of wall-clock time since start().
  double elapsed() const;

  // The run-queue delay of this process so far, in seconds (0 if unreadable).
  double run_queue_delay() const;

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds delay_read_interval{1};
  void account(Clock::time_point now, bool read_delay);

  int schedstat_fd_ = -1;
  Activity current_ = Activity::idle;
  Clock::time_point window_start_{}, last_switch_{}, last_delay_read_{};
  double last_delay_ = 0.0;
  RunQueueSplit split_;
  TimeBreakdown totals_;
};

// What measuring costs on this machine: one switch_to() (a clock read) and
// one read of the run-queue delay, each averaged over `repetitions`.
struct ClockCosts {
  double switch_seconds = 0.0;
  double delay_read_seconds = 0.0;
  // The time `times` spent measuring.
  double of(const TimeBreakdown& times) const {
    return static_cast<double>(times.switches) * switch_seconds +
           static_cast<double>(times.delay_reads) * delay_read_seconds;
  }
};
ClockCosts measure_clock_costs(std::size_t repetitions = 100000);

}  // namespace hetscale::measure
