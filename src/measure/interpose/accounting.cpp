#include "accounting.hpp"
#include "rank_state.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "hetscale/measure/hold_back.hpp"
#include "gathered.hpp"
#include "cupti_activity.hpp"
#include "offload_devices.hpp"
#include "hetscale/measure/measure_settings.hpp"
#include "openmp_states.hpp"
#include "other_threads.hpp"
#include "record_writers.hpp"
#include "run_sampler.hpp"
#include "thread_clock.hpp"
#include "thread_registry.hpp"
#include "tick_clock.hpp"
#include "trace_hooks.hpp"
#include "transfer_model.hpp"

namespace hetscale::interpose {

const measure::MeasureSettings& settings() {
  static const measure::MeasureSettings read = measure::MeasureSettings::from_environment();
  return read;
}

double speed_of_rank(const std::vector<double>& speeds, int rank) {
  return speeds.empty() ? 1.0 : speeds[static_cast<std::size_t>(rank) % speeds.size()];
}

TickClock tick_clock;
double ticks_per_second = 1e9;

ThreadRegistry<ThreadRecord>& registry() {
  static auto* instance = new ThreadRegistry<ThreadRecord>;
  return *instance;
}

thread_local ThreadRecord* this_thread __attribute__((tls_model("initial-exec"))) = nullptr;
ThreadRecord& register_this_thread() { return *(this_thread = &registry().add()); }

ProcessState& process() {
  static auto* instance = new ProcessState;
  return *instance;
}

namespace {

// Whether this thread has returned from MPI_Init (initial-exec, as this_thread).
thread_local bool this_thread_initialised_mpi __attribute__((tls_model("initial-exec"))) = false;

// This rank's emulated speed (--emulate-speeds; 1: none), set in MPI_Init.
std::atomic<double> emulated_speed{1.0};

// The transfer model (transfer_model.hpp), set once in MPI_Init before any
// call is accounted, and the same in ticks, for each call's cost.
TransferModel transfer_model;
double latency_ticks = 0.0, ticks_per_byte = 0.0;

// Whether runs of short calls leave most calls untimed
// (measure/short_calls.hpp): not while tracing (a trace needs each
// computation burst), nor on a rank of an emulated speed (each computation
// is held back exactly), nor with --time-every-call. Set once in MPI_Init.
bool short_call_runs = false;
// Short: a call or a computation under 2 us.
constexpr double short_call_seconds = 2e-6;
// The sampler of the runs looks every 2 ms (run_sampler.hpp), while they are allowed.
constexpr std::chrono::microseconds run_sample_period{2000};
RunSampler run_sampler;

// Runs of short calls for a thread whose clock starts now (this thread).
void start_short_calls(ThreadRecord& thread) {
  thread.short_calls = measure::ShortCalls(short_call_seconds * ticks_per_second, function_count);
  thread.short_calls.sampled_every(std::chrono::duration<double>(run_sample_period).count() * ticks_per_second);
  this_thread_runs = short_call_runs ? &thread.short_calls : nullptr;
}

// The polls counted but not timed since the thread's last boundary were in
// this computation segment: each gets the mean time of its function's timed
// polls, taken out of the segment's time on a CPU (never more than all of
// it) and counted as waiting, with the function's calls and seconds.
void polls_end(ThreadRecord& thread, Split& split) {
  const auto untimed_ticks = [&](std::size_t f) {
    return thread.timed_polls[f] > 0.0 ? thread.untimed_polls[f] * thread.timed_poll_ticks[f] / thread.timed_polls[f]
                                       : 0.0;
  };
  double estimated = 0.0;
  for (const auto f : thread.polled) estimated += untimed_ticks(f);
  const double taken = std::min(estimated, split.on_cpu);
  const double fit = estimated > 0.0 ? taken / estimated : 0.0;
  for (const auto f : thread.polled) {
    thread.seconds[f].add(fit * untimed_ticks(f));
    thread.calls[f].add(thread.untimed_polls[f]);
    thread.untimed_polls[f] = 0.0;
  }
  thread.polled.clear();
  split.on_cpu -= taken;
  thread.idle.add(taken);
}

// The time of `calls` calls, to their function and by its class to t_setup,
// t_comm or t_idle.
void charge_call(ThreadRecord& thread, std::size_t function, double spent, double bytes, double calls) {
  thread.seconds[function].add(spent);
  switch (functions[function].kind) {
    case CallClass::setup:
      thread.setup.add(spent);
      break;
    case CallClass::transfer: {
      const double transfer = std::min(spent, calls * latency_ticks + bytes * ticks_per_byte);
      thread.comm.add(transfer);
      thread.idle.add(spent - transfer);
      break;
    }
    case CallClass::wait:
      thread.idle.add(spent);
      break;
    case CallClass::io:
      thread.comm.add(spent);
      break;
  }
}

// Leaves a split `rest` of its wall time and `on_cpu` of its time on a CPU:
// what is taken off its waits comes from the wait for a CPU first.
void keep_only(Split& split, double rest, double on_cpu) {
  const double waits = (split.wall - rest) - (split.on_cpu - on_cpu);
  split.delay -= std::min(std::max(waits, 0.0), std::max(split.delay, 0.0));
  split.wall = rest;
  split.on_cpu = on_cpu;
  split.blocked = std::max(0.0, split.wall - split.on_cpu - split.delay);
}

// Charges calls counted in a run of short calls to their function.
auto charge_counted(ThreadRecord& thread) {
  return [&thread](std::size_t function, double ticks, double calls, double bytes) {
    thread.calls[function].add(calls);
    thread.bytes[function].add(bytes);
    charge_call(thread, function, ticks, bytes, calls);
  };
}

}  // namespace

Split segment_until(ThreadRecord& thread, Ticks now) {
  Split split = thread.clock.lap(now);
  if (!thread.short_calls.any_counted()) return split;
  const auto rest = thread.short_calls.split(split.wall, split.on_cpu, charge_counted(thread));
  keep_only(split, rest.ticks, rest.on_cpu);
  return split;
}

// The end of a computation segment of `thread` (its split from the thread's
// clock): on a CPU, waiting for one, blocked. Under an emulated speed v the
// thread is held back (measure/hold_back.hpp): its wait for a CPU and then a
// sleep make the computation take 1/v as long; its waits in MPI stay as they
// are. `now` moves past the sleep.
void computation_ends(ThreadRecord& thread, Split split, Ticks& now) {
  if (!thread.polled.empty()) polls_end(thread, split);
  thread.on_cpu.add(split.on_cpu);
  if (trace::on) trace::computed(split.on_cpu / ticks_per_second);
  const bool left = split.wall != split.on_cpu;  // the thread left its CPU
  const double speed = emulated_speed_of_rank();
  if (speed >= 1.0) {  // not emulated: every wait for a CPU is other load
    if (left) {
      thread.other.add(split.delay);
      thread.blocked.add(split.blocked);
    }
    return;
  }
  if (speed != thread.hold_back.speed())
    thread.hold_back = measure::HoldBack(speed, hold_back_quantum * ticks_per_second);
  const double waited_as_owed = thread.hold_back.computed(split.on_cpu, left ? split.delay : 0.0);
  if (left) {
    thread.held.add(waited_as_owed);
    thread.other.add(split.delay - waited_as_owed);
    thread.blocked.add(split.blocked);
  }
  thread.held.add(sleep_owed(thread.hold_back, thread.clock, now));
  thread.overslept.set(thread.hold_back.overslept());
}

namespace {

// A thread's first MPI call after MPI_Init (MPI_THREAD_MULTIPLE): from now on
// it times itself; what it did since it began (after MPI_Init) is
// computation, held back like any other.
void start_thread_clock(ThreadRecord& thread, Ticks& now) {
  Split before = thread.clock.start(tick_clock, now, ticks_per_second * 1e-9);
  start_short_calls(thread);
  process().other_threads.forget(thread.id);
  const double since_measuring = static_cast<double>(now - process().start);
  const double shown = before.on_cpu + before.delay;
  const double fit = shown > since_measuring && shown > 0.0 ? since_measuring / shown : 1.0;
  before.on_cpu *= fit;
  before.delay *= fit;
  computation_ends(thread, before, now);
}

// Every region name any rank used, in order, on every rank.
std::vector<std::string> all_region_names(const std::vector<std::string>& mine, int rank, int ranks) {
  std::string packed;
  for (const auto& name : mine) packed += name + '\n';
  int length = static_cast<int>(packed.size());
  std::vector<int> lengths(rank == 0 ? ranks : 0), offsets(rank == 0 ? ranks : 0);
  PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < static_cast<int>(lengths.size()); ++r) {
    offsets[r] = total;
    total += lengths[r];
  }
  std::vector<char> everyone(static_cast<std::size_t>(total) + 1);
  PMPI_Gatherv(packed.data(), length, MPI_CHAR, everyone.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
               MPI_COMM_WORLD);
  std::set<std::string> names;
  std::string current;
  for (int i = 0; i < total; ++i) {
    if (everyone[i] == '\n') {
      names.insert(current);
      current.clear();
    } else {
      current += everyone[i];
    }
  }
  std::string joined;
  for (const auto& name : names) joined += name + '\n';
  int joined_length = static_cast<int>(joined.size());
  PMPI_Bcast(&joined_length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  joined.resize(static_cast<std::size_t>(joined_length));
  PMPI_Bcast(joined.data(), joined_length, MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> result;
  std::istringstream lines(joined);
  for (std::string line; std::getline(lines, line);) result.push_back(line);
  return result;
}

}  // namespace

bool poll_untimed(std::size_t function) {
  ThreadRecord* const thread = this_thread;
  if (!thread || !thread->clock.started() || !process().measuring.load(std::memory_order_relaxed)) return false;
  if (trace::on) return false;  // a trace needs each completion
  if ((thread->polls++ & 15u) == 0) return false;
  if (thread->untimed_polls[function]++ == 0.0) thread->polled.push_back(function);
  return true;
}

double emulated_speed_of_rank() { return emulated_speed.load(std::memory_order_relaxed); }

void sleep_seconds(double seconds) {
  timespec pause{static_cast<time_t>(seconds), static_cast<long>((seconds - std::floor(seconds)) * 1e9)};
  while (nanosleep(&pause, &pause) != 0) {
  }
}

double sleep_owed(measure::HoldBack& hold_back, ThreadClock& clock, Ticks& now) {
  const double due = hold_back.due();
  if (due <= 0.0) return 0.0;
  sleep_seconds(due / ticks_per_second);
  now = tick_clock.now();
  const double slept = clock.pause_ends(now);
  hold_back.slept(slept);
  return slept;
}

bool computation_boundary() {
  if (!process().measuring.load(std::memory_order_relaxed) || !this_thread || !this_thread->clock.started())
    return false;
  Ticks now = tick_clock.now();
  computation_ends(*this_thread, segment_until(*this_thread, now), now);
  return true;
}

thread_local measure::ShortCalls* this_thread_runs __attribute__((tls_model("initial-exec"))) = nullptr;

void Call::begin() {
  start_ = tick_clock.now();
  if (!process().measuring.load(std::memory_order_relaxed)) return;
  auto& thread = this_thread_record();
  if (!thread.clock.started()) {
    start_thread_clock(thread, start_);
    left_ = true;  // its computation before is not split by the thread's own clock: no short call
  } else {
    const Split before = segment_until(thread, start_);
    computation_ = before.wall;
    left_ = before.wall != before.on_cpu;
    computation_ends(thread, before, start_);
    if (this_thread_initialised_mpi) process().other_threads.look_if_due(start_);
  }
  timed_ = true;
}

void Call::count_messages() { this_thread_record().messages[function_].add(messages_); }

void Call::end() {
  auto& thread = this_thread_record();
  if (messages_ > 0.0) thread.messages[function_].add(messages_);
  thread.calls[function_].add(1.0);
  thread.bytes[function_].add(bytes_);
  Ticks end = tick_clock.now();
  if (!timed_) {  // before MPI_Init returned or after MPI_Finalize began
    thread.seconds[function_].add(static_cast<double>(end - start_));
    return;
  }
  // In MPI: waiting, on a CPU or not; the read of the thread's counters, if
  // any, is the call's.
  const Split inside = thread.clock.lap_through_read(end);
  const double spent = static_cast<double>(end - start_);
  if (functions[function_].poll) {
    // The untimed polls get the timed ones' time on a CPU (a timed poll that
    // was descheduled would lend its wait to polls that were not).
    thread.timed_poll_ticks[function_] += inside.on_cpu;
    thread.timed_polls[function_] += 1.0;
  } else if (short_call_runs) {  // polls have their own sampling: never in a run
    thread.short_calls.timed(function_, spent, computation_, left_ || inside.wall != inside.on_cpu);
  }
  charge_call(thread, function_, spent, bytes_, 1.0);
}

void* next_symbol(const char* name) {
  void* symbol = dlsym(RTLD_NEXT, name);
  if (!symbol) {
    std::fprintf(stderr, "hetscale: measure: the program calls %s, which no library after hetscale's defines\n", name);
    _exit(70);
  }
  return symbol;
}

void initializing() {
  auto& state = process();
  if (state.started) return;
  state.started = true;
  tick_clock.start();
  state.start = tick_clock.now();
}

void initialized() {
  auto& state = process();
  if (state.measuring) return;
  // The transfer model's ping-pong is hetscale's work, not the program's: its
  // time is setup, with MPI_Init's.
  transfer_model = chosen_transfer_model(settings());
  ticks_per_second = 1.0 / tick_clock.seconds_per_tick();
  latency_ticks = transfer_model.latency * ticks_per_second;
  ticks_per_byte = ticks_per_second / transfer_model.bandwidth;
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  emulated_speed = std::min(1.0, speed_of_rank(settings().emulated_speeds, rank));
  // Opening the thread's counters (perf_event_open took 11 ms here once) and
  // the first look at the other threads are hetscale's work too: setup; the
  // program's computation starts when they are done.
  auto& thread = this_thread_record();
  // What it did before MPI_Init is not the run's.
  thread.clock.start(tick_clock, tick_clock.now(), ticks_per_second * 1e-9);
  this_thread_initialised_mpi = true;
  state.other_threads.start(tick_clock.now(), static_cast<Ticks>(ticks_per_second / 10.0));
  state.other_threads.forget(thread.id);
  trace::open(rank);               // opening its file is setup too
  offload::start_cuda_activity();  // and CUPTI's, when the program is a CUDA one
  short_call_runs = !trace::on && emulated_speed.load() >= 1.0 && !settings().time_every_call;
  start_short_calls(thread);
  if (short_call_runs) run_sampler.start(run_sample_period);
  Ticks now = tick_clock.now();
  thread.clock.pause_ends(now);  // the computation's first segment begins here
  thread.setup.add(static_cast<double>(now - state.start));
  state.computing = now;
  state.measuring = true;
}

void region_begin(const char* name) {
  auto& state = process();
  if (!state.measuring || !name) return;
  const Ticks now = tick_clock.now();
  std::lock_guard lock(state.regions_mutex);
  open_region(state.regions[name], now);
}

void region_end(const char* name) {
  auto& state = process();
  if (!state.measuring || !name) return;
  const Ticks now = tick_clock.now();
  std::lock_guard lock(state.regions_mutex);
  const auto found = state.regions.find(name);
  if (found != state.regions.end()) close_region(found->second, now);
}

void measuring_control(int level) {
  auto& state = process();
  if (!state.measuring) return;
  const Ticks now = tick_clock.now();
  std::lock_guard lock(state.regions_mutex);
  if (level == 0 && state.paused.depth == 0) open_region(state.paused, now);
  if (level != 0 && state.paused.depth > 0) close_region(state.paused, now);
}

namespace {

// Every rank's rows of its own length, gathered at rank 0.
void gather_rows(const std::vector<double>& mine, int rank, int ranks, RankRows& gathered) {
  int count = static_cast<int>(mine.size());
  if (rank == 0) {
    gathered.counts.resize(static_cast<std::size_t>(ranks));
    gathered.offsets.resize(static_cast<std::size_t>(ranks));
  }
  PMPI_Gather(&count, 1, MPI_INT, gathered.counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (std::size_t r = 0; r < gathered.counts.size(); ++r) {
    gathered.offsets[r] = total;
    total += gathered.counts[r];
  }
  if (rank == 0) gathered.values.resize(static_cast<std::size_t>(total));
  PMPI_Gatherv(mine.data(), count, MPI_DOUBLE, gathered.values.data(), gathered.counts.data(), gathered.offsets.data(),
               MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

}  // namespace

void finalizing() {
  auto& state = process();
  if (!state.measuring) return;
  offload::flush_cuda_activity();  // the devices' last records, counted while measuring
  int rank = 0, ranks = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // The last computation ends here (and is held back to an emulated speed);
  // regions still open, and measuring still off, end here too.
  Ticks barrier = tick_clock.now();
  auto& me = this_thread_record();
  if (me.clock.started()) computation_ends(me, segment_until(me, barrier), barrier);
  this_thread_runs = nullptr;
  run_sampler.stop();
  // Other threads have made their last calls (MPI_Finalize comes after
  // them): the calls they counted since their last timed one get their means.
  registry().for_each([&](ThreadRecord& thread) {
    if (&thread != &me) thread.short_calls.settle(charge_counted(thread));
  });
  std::vector<std::string> names;
  {
    std::lock_guard lock(state.regions_mutex);
    for (auto& [name, region] : state.regions) {
      while (region.depth > 0) close_region(region, barrier);
      names.push_back(name);
    }
    while (state.paused.depth > 0) close_region(state.paused, barrier);
  }
  state.measuring = false;
  // The final wait is the last idle time of a rank that finished early.
  PMPI_Barrier(MPI_COMM_WORLD);
  const Ticks end = tick_clock.now();
  me.idle.add(static_cast<double>(end - barrier));
  ThreadRecord* const calling = this_thread;
  this_thread = nullptr;  // nothing more to settle: the barrier's wait is counted
  Totals run = totals_until(end);
  this_thread = calling;
  if (state.paused.sum) run.add(*state.paused.sum, -1.0);
  const double seconds_per_tick = tick_clock.seconds_per_tick();
  const double paused_seconds = state.paused.sum ? state.paused.sum->elapsed * seconds_per_tick : 0.0;

  Gathered gathered;
  gathered.ranks = ranks;
  gathered.region_names = all_region_names(names, rank, ranks);
  std::vector<double> mine = row_of(run, seconds_per_tick, rank, paused_seconds);
  const OpenMpTotals openmp = openmp_totals(me.id, own_times(me), seconds_per_tick);
  for (const auto& [field, value] : {std::pair{omp_team, openmp.team},
                                     {omp_useful, openmp.useful},
                                     {omp_mpi, openmp.mpi},
                                     {omp_imbalance, openmp.imbalance},
                                     {omp_scheduling, openmp.scheduling},
                                     {omp_serialization, openmp.serialization},
                                     {omp_other, openmp.other},
                                     {omp_in_regions, openmp.in_regions}})
    mine[field] = value;
  const OffloadRuntime offload = offload_runtime();
  mine[offload_seconds] = offload.seconds;
  mine[offload_waited] = offload.waited_for_cpu;
  mine[offload_calls] = offload.calls;
  mine[offload_on_mpi_threads] = offload.on_mpi_threads;
  for (const auto& name : gathered.region_names) {
    const auto found = state.regions.find(name);
    const bool measured = found != state.regions.end() && found->second.sum;
    const auto row = row_of(measured ? *found->second.sum : Totals{}, seconds_per_tick, rank, 0.0);
    mine.insert(mine.end(), row.begin(), row.end());
  }
  std::vector<char> host(MPI_MAX_PROCESSOR_NAME, '\0');
  int length = 0;
  PMPI_Get_processor_name(host.data(), &length);
  if (rank == 0) {
    gathered.rows.resize(mine.size() * static_cast<std::size_t>(ranks));
    gathered.hosts.resize(MPI_MAX_PROCESSOR_NAME * static_cast<std::size_t>(ranks));
  }
  PMPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, gathered.rows.data(),
              static_cast<int>(mine.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  PMPI_Gather(host.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, gathered.hosts.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
              MPI_COMM_WORLD);
  gather_rows(thread_rows_of(run, seconds_per_tick), rank, ranks, gathered.threads);
  gather_rows(openmp_thread_rows(seconds_per_tick), rank, ranks, gathered.openmp_threads);
  gather_rows(device_rows(), rank, ranks, gathered.devices);
  if (rank == 0 && !settings().out.empty())
    write_run_record(gathered, settings(), transfer_model.source, tick_clock.name());
  if (rank == 0 && !settings().talp_json.empty()) write_talp_json(gathered, settings().talp_json);
  trace::close(rank, ranks, static_cast<double>(end - state.computing) * seconds_per_tick, gathered.hosts);
}

}  // namespace hetscale::interpose
