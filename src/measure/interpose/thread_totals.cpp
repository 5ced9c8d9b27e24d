#include "thread_totals.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "gathered.hpp"
#include "rank_state.hpp"

namespace hetscale::interpose {

measure::ThreadTimes own_times(const ThreadRecord& thread) {
  measure::ThreadTimes times;
  times.calls_mpi = true;
  times.on_cpu = thread.on_cpu.get();
  // A hold-back sleep's overshoot not paid back yet is other load.
  const double overslept = thread.overslept.get();
  times.held = thread.held.get() - overslept;
  times.other = thread.other.get() + overslept;
  times.blocked = thread.blocked.get();
  times.setup = thread.setup.get();
  times.comm = thread.comm.get();
  times.idle = thread.idle.get();
  return times;
}

Totals totals_until(Ticks now) {
  Totals totals;
  if (this_thread && this_thread->clock.started())
    computation_ends(*this_thread, segment_until(*this_thread, now), now);
  totals.elapsed = static_cast<double>(now - process().start);
  std::set<int> tracked;
  registry().for_each([&](const ThreadRecord& thread) {
    tracked.insert(thread.id);
    totals.threads[thread.id] = own_times(thread);
    totals.counted_calls += thread.short_calls.counted_calls();
    totals.unsplit += thread.short_calls.unsplit();
    for (std::size_t f = 0; f < function_count; ++f) {
      totals.seconds[f] += thread.seconds[f].get();
      totals.calls[f] += thread.calls[f].get();
      totals.bytes[f] += thread.bytes[f].get();
      totals.messages[f] += thread.messages[f].get();
    }
  });
  const double ticks_per_ns = ticks_per_second * 1e-9;
  for (const auto& [id, times] : process().other_threads.snapshot(now, tracked)) {
    auto& thread = totals.threads[id];
    thread.on_cpu = times.on_cpu_ns * ticks_per_ns;
    thread.other = times.delay_ns * ticks_per_ns;
  }
  for (const auto& [id, held] : pool_threads_held())
    if (!tracked.contains(id)) totals.threads[id].held = held * ticks_per_second;
  return totals;
}

void open_region(Region& region, Ticks now) {
  if (region.depth++ == 0) region.at_begin = std::make_unique<Totals>(totals_until(now));
}

void close_region(Region& region, Ticks now) {
  if (region.depth == 0 || --region.depth > 0) return;
  if (!region.sum) region.sum = std::make_unique<Totals>();
  region.sum->add(totals_until(now), 1.0);
  region.sum->add(*region.at_begin, -1.0);
}

namespace {

int allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

// Threads worth a line: those that call MPI, and others with a millisecond of CPU time.
std::vector<measure::ThreadTimes> threads_of(const Totals& totals) {
  std::vector<measure::ThreadTimes> threads;
  for (const auto& [id, times] : totals.threads)
    if (times.calls_mpi || times.on_cpu > 1e-3 * ticks_per_second) threads.push_back(times);
  return threads;
}

}  // namespace

std::vector<double> row_of(const Totals& totals, double seconds_per_tick, int rank, double paused_seconds) {
  std::vector<double> row(width, 0.0);
  const auto threads = threads_of(totals);
  const auto rank_times = measure::rank_timeline(threads, std::max(0.0, totals.elapsed));
  row[elapsed] = totals.elapsed * seconds_per_tick;
  row[comp] = rank_times.t_comp() * seconds_per_tick;
  row[comm] = rank_times.comm * seconds_per_tick;
  row[setup] = rank_times.setup * seconds_per_tick;
  row[idle] = rank_times.idle * seconds_per_tick;
  row[other] = rank_times.other * seconds_per_tick;
  row[blocked] = rank_times.blocked * seconds_per_tick;
  row[speed] = speed_of_rank(settings().speeds.empty() ? settings().emulated_speeds : settings().speeds, rank);
  row[process_id] = static_cast<double>(getpid());
  row[paused] = paused_seconds;
  row[emulated] = emulated_speed_of_rank();
  for (const auto& thread : threads) {
    if (!thread.calls_mpi) continue;
    row[calling_on_cpu] += thread.on_cpu * seconds_per_tick;
    row[calling_held] += thread.held * seconds_per_tick;
  }
  row[counted_calls] = totals.counted_calls;
  row[unsplit] = totals.unsplit * seconds_per_tick;
  row[cpus] = allowed_cpus();
  row[host_cpus] = static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN));
  row[threads_seen] = static_cast<double>(std::count_if(threads.begin(), threads.end(), [&](const auto& thread) {
    return thread.computation() >= 0.05 * totals.elapsed;
  }));
  for (std::size_t f = 0; f < function_count; ++f) {
    row[fields + f] = totals.seconds[f] * seconds_per_tick;
    row[fields + function_count + f] = totals.calls[f];
    row[fields + 2 * function_count + f] = totals.bytes[f];
    row[fields + 3 * function_count + f] = totals.messages[f];
  }
  return row;
}

std::vector<double> thread_rows_of(const Totals& totals, double seconds_per_tick) {
  std::vector<double> rows;
  for (const auto& thread : threads_of(totals)) {
    rows.insert(rows.end(),
                {thread.calls_mpi ? 1.0 : 0.0, thread.on_cpu * seconds_per_tick, thread.held * seconds_per_tick,
                 thread.other * seconds_per_tick, thread.blocked * seconds_per_tick, thread.setup * seconds_per_tick,
                 thread.comm * seconds_per_tick, thread.idle * seconds_per_tick});
  }
  return rows;
}

}  // namespace hetscale::interpose
