#pragma once
// The threads of the process that make no MPI call (a worker, OpenMP's pool,
// the MPI library's own): all their time on a CPU is computation and all
// their run-queue delay a wait for a CPU. Read from /proc/self/task/TID/schedstat
// (time on a CPU and run-queue delay, ns) through descriptors kept open;
// the threads are looked for again at most every 100 ms (by the thread that
// initialised MPI, at its MPI calls) and at each snapshot, so a thread that
// begins and ends between two looks is not seen, and one that ended keeps
// what it had at the last look.
#include <atomic>
#include <map>
#include <mutex>
#include <set>

#include "tick_clock.hpp"

namespace hetscale::interpose {

class OtherThreads {
 public:
  struct Times {
    double on_cpu_ns = 0.0, delay_ns = 0.0;  // since measuring began (or the thread did)
  };
  OtherThreads() = default;
  OtherThreads(const OtherThreads&) = delete;
  OtherThreads& operator=(const OtherThreads&) = delete;
  ~OtherThreads();

  // The threads there are now: what they did before is not counted.
  void start(Ticks now, Ticks rescan_interval);
  // Looks again when the last look is older than the interval (never blocks:
  // a thread taking a snapshot meanwhile skips it).
  void look_if_due(Ticks now) {
    if (now - last_look_.load(std::memory_order_relaxed) >= rescan_interval_) look_now(now);
  }
  // Looks now; each thread's times so far, by thread id, less the threads in `tracked`.
  std::map<int, Times> snapshot(Ticks now, const std::set<int>& tracked);
  // A thread that now calls MPI: from here on it times itself.
  void forget(int thread);

 private:
  struct Thread {
    int file = -1;
    double base_cpu_ns = 0.0, base_delay_ns = 0.0;
    Times last;
  };
  void look(Ticks now, bool count_new_from_start);
  void look_now(Ticks now);
  std::mutex mutex_;
  std::map<int, Thread> threads_;
  std::set<int> forgotten_;
  std::atomic<Ticks> last_look_{0};
  Ticks rescan_interval_ = 0;
};

}  // namespace hetscale::interpose
