#pragma once
// A rank's times and MPI profile summed over its threads: since MPI_Init or
// over an interval (a region), and as the rows rank 0 gathers
// (gathered.hpp): the rank's parts as one timeline (measure/rank_timeline.hpp),
// each thread's own, the functions' seconds, calls, bytes and messages.
#include <map>
#include <vector>

#include "accounting.hpp"
#include "hetscale/measure/rank_timeline.hpp"
#include "tick_clock.hpp"

namespace hetscale::interpose {

// A rank's times and MPI profile since MPI_Init, or over an interval (the
// difference of two), in ticks: per thread, the calling threads' and the
// others'.
struct Totals {
  double elapsed = 0.0;
  double counted_calls = 0.0, unsplit = 0.0;    // runs of short calls (unsplit: ticks)
  std::map<int, measure::ThreadTimes> threads;  // by thread id
  std::vector<double> seconds = std::vector<double>(function_count);
  std::vector<double> calls = std::vector<double>(function_count);
  std::vector<double> bytes = std::vector<double>(function_count);
  std::vector<double> messages = std::vector<double>(function_count);

  void add(const Totals& other, double sign) {
    elapsed += sign * other.elapsed;
    counted_calls += sign * other.counted_calls;
    unsplit += sign * other.unsplit;
    for (const auto& [id, times] : other.threads) {
      auto& mine = threads[id];
      mine.calls_mpi = mine.calls_mpi || times.calls_mpi;
      mine.on_cpu += sign * times.on_cpu;
      mine.held += sign * times.held;
      mine.other += sign * times.other;
      mine.blocked += sign * times.blocked;
      mine.setup += sign * times.setup;
      mine.comm += sign * times.comm;
      mine.idle += sign * times.idle;
    }
    for (std::size_t f = 0; f < function_count; ++f) {
      seconds[f] += sign * other.seconds[f];
      calls[f] += sign * other.calls[f];
      bytes[f] += sign * other.bytes[f];
      messages[f] += sign * other.messages[f];
    }
  }
};

struct ThreadRecord;
// A thread that calls MPI: its own times so far, in ticks.
measure::ThreadTimes own_times(const ThreadRecord& thread);

// Everything measured since MPI_Init, up to `now` (outside any MPI call of
// the calling thread, whose computation until now is counted first).
Totals totals_until(Ticks now);

struct Region;
// A region's begin and end (nested: the outermost counts).
void open_region(Region& region, Ticks now);
void close_region(Region& region, Ticks now);

// The rank's row of the record (gathered.hpp's fields, then each function's
// seconds, calls, bytes and messages), in seconds (`seconds_per_tick`).
std::vector<double> row_of(const Totals& totals, double seconds_per_tick, int rank, double paused_seconds);
// Each thread worth a line: its part of the rows (gathered.hpp's thread fields).
std::vector<double> thread_rows_of(const Totals& totals, double seconds_per_tick);

}  // namespace hetscale::interpose
