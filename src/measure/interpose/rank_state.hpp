#pragma once
// The state of libhetscale_measure.so that the accounting of each call
// (accounting.cpp) and the totals over threads (thread_totals.cpp) share: the
// settings, the clock, each thread's record and the process's regions. The
// hot path's accessors are inline here, as they were in one file.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "accounting.hpp"
#include "hetscale/measure/hold_back.hpp"
#include "hetscale/measure/measure_settings.hpp"
#include "hetscale/measure/short_calls.hpp"
#include "other_threads.hpp"
#include "thread_clock.hpp"
#include "thread_registry.hpp"
#include "thread_totals.hpp"
#include "tick_clock.hpp"

namespace hetscale::interpose {

// The settings `hetscale measure` handed over (measure/measure_settings.hpp).
const measure::MeasureSettings& settings();
// Rank `rank`'s of `speeds` (cycled; none: 1).
double speed_of_rank(const std::vector<double>& speeds, int rank);

// The clock of every call, started entering MPI_Init, and its rate as known
// when MPI_Init returns (for the transfer model, the thread clocks and the
// hold-back); the record's times use the rate measured over the whole run.
extern TickClock tick_clock;
extern double ticks_per_second;

// A sum one thread adds to and any thread may read (a region's boundary).
class Accumulator {
 public:
  void add(double value) { sum_.store(get() + value, std::memory_order_relaxed); }
  double get() const { return sum_.load(std::memory_order_relaxed); }
  void set(double value) { sum_.store(value, std::memory_order_relaxed); }

 private:
  std::atomic<double> sum_{0.0};
};

// One thread that calls MPI: its clock and its times, in ticks. Registered at
// its first call; only the thread itself writes, any thread reads.
struct ThreadRecord {
  int id = 0;                             // the kernel's thread id
  ThreadClock clock;                      // the thread's own
  measure::HoldBack hold_back{1.0, 0.0};  // to the rank's emulated speed (ticks; the thread's own)
  // Polls (the thread's own): counted since the last timed boundary, and the
  // timed ones' time and count, per function.
  std::uint32_t polls = 0;
  std::vector<std::size_t> polled;  // functions with untimed polls pending
  std::vector<double> untimed_polls = std::vector<double>(function_count);
  std::vector<double> timed_poll_ticks = std::vector<double>(function_count);
  std::vector<double> timed_polls = std::vector<double>(function_count);
  // Runs of short calls (measure/short_calls.hpp; set when its clock starts).
  measure::ShortCalls short_calls{1.0, function_count};
  Accumulator on_cpu, held, other, blocked, setup, comm, idle;
  Accumulator overslept;  // of `held`, slept beyond what was owed (HoldBack::overslept): other load
  std::vector<Accumulator> seconds = std::vector<Accumulator>(function_count);
  std::vector<Accumulator> bytes = std::vector<Accumulator>(function_count);
  std::vector<Accumulator> calls = std::vector<Accumulator>(function_count);
  std::vector<Accumulator> messages = std::vector<Accumulator>(function_count);
};

// Never destroyed: a thread may make an MPI call while the process exits.
ThreadRegistry<ThreadRecord>& registry();

// The library is preloaded, so its thread-local variables can be reached
// without a call to __tls_get_addr (initial-exec); it starts null.
extern thread_local ThreadRecord* this_thread __attribute__((tls_model("initial-exec")));
ThreadRecord& register_this_thread();
inline ThreadRecord& this_thread_record() { return this_thread ? *this_thread : register_this_thread(); }

struct Region {
  int depth = 0;  // open begins
  std::unique_ptr<Totals> at_begin, sum;
};

struct ProcessState {
  bool started = false;
  std::atomic<bool> measuring{false};
  Ticks start = 0;      // entering MPI_Init
  Ticks computing = 0;  // MPI_Init done: the program's first computation begins
  OtherThreads other_threads;
  std::mutex regions_mutex;
  std::map<std::string, Region> regions;
  Region paused;  // MPI_Pcontrol(0) until MPI_Pcontrol(1)
};
// Made at its first use, never destroyed (as the registry): a thread may
// make an MPI call while the process exits, and an OpenMP runtime that a
// library's constructor starts calls the tool before this library's own
// constructors have run.
ProcessState& process();

// Ends the thread's segment at `now`: its split, less the part of the calls
// counted but not timed in it (charged to their functions).
Split segment_until(ThreadRecord& thread, Ticks now);

// The end of a computation segment of `thread` (its split from the thread's
// clock), held back to the rank's emulated speed; `now` moves past the sleep.
void computation_ends(ThreadRecord& thread, Split split, Ticks& now);

}  // namespace hetscale::interpose
