// The OMPT tool (openmp_states.hpp). Built when OpenMP's omp-tools.h is
// found (HETSCALE_HAVE_OMPT); without it the totals are zero.
#include "openmp_states.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "accounting.hpp"
#include "hetscale/measure/hold_back.hpp"
#include "rank_state.hpp"
#include "thread_clock.hpp"
#include "thread_registry.hpp"

#ifdef HETSCALE_HAVE_OMPT
#include <omp-tools.h>
#endif

namespace hetscale::interpose {
namespace {

#ifdef HETSCALE_HAVE_OMPT

// A thread's part in one outermost region, as the thread wrote it (ticks):
// its useful time, its waits that ended before its last, and the start of
// its last wait, which the region's end ends (LLVM's runtime tells a worker
// that its last wait, the region's closing barrier, ended only when it wakes
// for the next region).
struct Part {
  std::uint64_t region = 0;  // the region's number; 0: none
  double useful = 0.0, waited = 0.0;
  Ticks last_wait = 0;  // 0: none
};
// Each thread keeps its parts in a ring by region number; the regions'
// parts are summed in batches, once as many regions again have begun (so
// no thread still writes them): the threads never read each other's parts
// while the regions run, which would cost each region a line of memory
// passed between cores.
constexpr std::uint64_t kRing = 4096, kBatch = 1024, kLag = 1024;

// A thread of the runtime, its own to write: its clock; the region it works
// in (0: none), the team it last worked in and its number there, its last
// wait in the region; its parts; its hold-back to an emulated speed
// (--emulate-thread-speeds); its sums (ticks): the work done (on a CPU or
// blocked) and the time held back (useful time, both), waits for a CPU, and
// its time in regions by its clock (on a CPU, waiting for one, blocked: of
// the MPI-calling thread, the part of its own times that is not outside the
// regions).
struct OpenMpThread {
  int id = 0;
  ThreadClock clock;
  std::uint64_t region = 0;
  const ompt_data_t* team = nullptr;
  std::atomic<int> number{0};
  Ticks wait_began = 0, wait_ended = 0;
  std::vector<Part> parts = std::vector<Part>(kRing);
  std::optional<measure::HoldBack> hold_back;
  Accumulator work, held, overslept, other, inside_on_cpu, inside_delay, inside_blocked;
  Part& part() { return parts[region % kRing]; }
  double useful() const { return work.get() + held.get(); }
};

// The rank's outermost regions, begun one at a time (a region begun while
// another is under way is not counted): the last region's number, each
// region's end, the regions summed so far and their sums (ticks), the
// largest team.
struct Regions {
  std::atomic<bool> open{false};
  std::uint64_t number = 0, summed = 0;
  std::vector<Ticks> ends = std::vector<Ticks>(kRing);
  Accumulator imbalance, scheduling, other;
  std::atomic<unsigned> team{0};
};
Regions& regions() {
  static auto* instance = new Regions;  // never destroyed: a thread may end a region while the process exits
  return *instance;
}

ThreadRegistry<OpenMpThread>& threads() {
  static auto* instance = new ThreadRegistry<OpenMpThread>;  // never destroyed, as the regions
  return *instance;
}
thread_local OpenMpThread* this_openmp_thread __attribute__((tls_model("initial-exec"))) = nullptr;

// What the callbacks read, kept as the tool starts (the callbacks run between
// the regions' work, so each costs the program its time): the process's
// state, the regions, the runtime's omp_get_thread_num and whether threads
// are held back to emulated speeds (--emulate-thread-speeds).
ProcessState* state = nullptr;
Regions* counted = nullptr;
int (*thread_number)() = nullptr;
bool emulating_threads = false;

bool measuring() { return state->measuring.load(std::memory_order_relaxed); }

// Thread `number`'s emulated speed: the list's item, 1 past its end.
double emulated_speed_of_thread(int number) {
  const auto& speeds = settings().emulated_thread_speeds;
  return number >= 0 && static_cast<std::size_t>(number) < speeds.size() ? speeds[number] : 1.0;
}

// The calling thread's entry, made and its clock started at its first use.
__attribute__((noinline)) OpenMpThread* first_timed(Ticks now) {
  OpenMpThread* thread = this_openmp_thread = &threads().add();
  thread->clock.start(tick_clock, now, ticks_per_second * 1e-9);
  return thread;
}
inline OpenMpThread* timed_thread(Ticks now) {
  OpenMpThread* thread = this_openmp_thread;
  return __builtin_expect(thread != nullptr, 1) ? thread : first_timed(now);
}

// A segment of the thread's in a region, by its clock (most are on a CPU
// throughout: only their on-CPU sum changes).
inline __attribute__((always_inline)) Split inside(OpenMpThread& thread, Ticks now) {
  const Split split = thread.clock.lap(now);
  thread.inside_on_cpu.add(split.on_cpu);
  if (split.on_cpu == split.wall) return split;
  thread.inside_delay.add(split.delay);
  thread.inside_blocked.add(split.blocked);
  return split;
}

// The segment since the thread's last boundary was useful work. A thread of
// an emulated speed v is then held back as a rank is (measure/hold_back.hpp):
// its wait for a CPU paid from what it owes, then a sleep once a quantum is
// owed, so its work takes 1/v as long; the time held back is useful (the
// slower core's computing); `now` moves past the sleep.
void computed(OpenMpThread& thread, Ticks& now) {
  const Split split = inside(thread, now);
  double useful = split.on_cpu + split.blocked, waited = split.delay;
  thread.work.add(useful);
  const double speed =
      emulating_threads ? emulated_speed_of_thread(thread.number.load(std::memory_order_relaxed)) : 1.0;
  if (speed < 1.0) {
    if (!thread.hold_back || thread.hold_back->speed() != speed)
      thread.hold_back.emplace(speed, hold_back_quantum * ticks_per_second);
    const double waited_as_owed = thread.hold_back->computed(split.on_cpu, split.delay);
    const double slept = sleep_owed(*thread.hold_back, thread.clock, now);
    thread.inside_blocked.add(slept);
    const double held = waited_as_owed + slept;
    thread.held.add(held);
    thread.overslept.set(thread.hold_back->overslept());
    useful += held;
    waited -= waited_as_owed;
  }
  thread.part().useful += useful;
  if (waited != 0.0) thread.other.add(waited);
}

// Sums the regions after the last summed up to `last`. Each thread's waits
// in a region, its last ended by the region's end: the least of them all
// the team waited together, scheduling (as TALP). Of the rest, imbalance is
// what the threads' work on a CPU makes them wait (each for the busiest);
// what is left they waited because a thread waited for a CPU: other load.
void sum_regions(Regions& all, std::uint64_t last) {
  if (last <= all.summed) return;
  std::vector<const OpenMpThread*> team;
  threads().for_each([&](const OpenMpThread& thread) { team.push_back(&thread); });
  for (std::uint64_t region = all.summed + 1; region <= last; ++region) {
    double least = std::numeric_limits<double>::infinity(), waited = 0.0, busiest = 0.0, useful = 0.0;
    unsigned size = 0;
    const Ticks end = all.ends[region % kRing];
    for (const OpenMpThread* thread : team) {
      const Part& part = thread->parts[region % kRing];
      if (part.region != region) continue;
      const double wait =
          part.waited + (part.last_wait && end > part.last_wait ? static_cast<double>(end - part.last_wait) : 0.0);
      least = std::min(least, wait);
      waited += wait;
      busiest = std::max(busiest, part.useful);
      useful += part.useful;
      ++size;
    }
    if (size == 0) continue;
    const double scheduling = least * size;
    const double imbalance = std::max(0.0, std::min(busiest * size - useful, waited - scheduling));
    all.scheduling.add(scheduling);
    all.imbalance.add(imbalance);
    all.other.add(std::max(0.0, waited - scheduling - imbalance));
    if (size > all.team.load(std::memory_order_relaxed)) all.team.store(size, std::memory_order_relaxed);
  }
  all.summed = std::max(all.summed, last);
}

// A thread of the team starts its clock as it starts (a worker's first
// region's work is then counted from there).
void on_thread_begin(ompt_thread_t, ompt_data_t*) {
  if (measuring()) timed_thread(tick_clock.now());
}

void on_parallel_begin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel_data, unsigned, int, const void*) {
  parallel_data->value = 0;
  Regions& all = *counted;
  if (!measuring() || all.open.exchange(true, std::memory_order_acquire)) return;  // one at a time, outermost
  parallel_data->value = ++all.number;
  const Ticks now = tick_clock.now();
  timed_thread(now)->clock.lap(now);  // its serial part: not in the region
}

void on_parallel_end(ompt_data_t* parallel_data, ompt_data_t*, int, const void*) {
  const std::uint64_t region = parallel_data->value;
  if (region == 0) return;
  Regions& all = *counted;
  const Ticks now = tick_clock.now();
  inside(*timed_thread(now), now);  // from its last wait's end
  all.ends[region % kRing] = now;
  if (region % kBatch == 0 && region > kLag) sum_regions(all, region - kLag);
  all.open.store(false, std::memory_order_release);
}

// A thread's waits mark its part of a region: its work in the region is its
// time from its last boundary (the region's begin, for the thread that began
// it; the end of its wait at the region before, which LLVM's runtime tells a
// worker as it wakes for this one) to its first wait, and between waits.
void on_sync_region_wait(ompt_sync_region_t, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data, ompt_data_t*,
                         const void*) {
  Ticks now = tick_clock.now();
  if (endpoint == ompt_scope_begin) {
    const std::uint64_t region = parallel_data ? parallel_data->value : 0;
    if (region == 0 || !measuring()) return;  // a nested region's, or one not counted
    OpenMpThread* thread = timed_thread(now);
    if (thread->region != region) {
      thread->region = region;
      // A thread keeps its number in a team (the runtime reuses the team of
      // the outermost regions, resized in place): it is read again when the
      // team changes, or each region when the number sets its speed.
      if (thread->team != parallel_data || emulating_threads) {
        thread->team = parallel_data;
        if (thread_number) thread->number.store(thread_number(), std::memory_order_relaxed);
      }
      thread->wait_began = thread->wait_ended = 0;
      thread->part() = Part{region};
    }
    computed(*thread, now);
    Part& part = thread->part();
    if (thread->wait_ended) part.waited += static_cast<double>(thread->wait_ended - thread->wait_began);
    thread->wait_began = now;
    thread->wait_ended = 0;
    part.last_wait = now;
    return;
  }
  OpenMpThread* thread = this_openmp_thread;
  if (!thread || !thread->region || !thread->wait_began || thread->wait_ended) return;
  thread->wait_ended = now;
  inside(*thread, now);  // the wait's own split: all of it is the wait's
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set_callback) return 0;
  state = &process();
  counted = &regions();
  thread_number = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_thread_num"));
  emulating_threads = !settings().emulated_thread_speeds.empty();
  set_callback(ompt_callback_thread_begin, reinterpret_cast<ompt_callback_t>(&on_thread_begin));
  set_callback(ompt_callback_parallel_begin, reinterpret_cast<ompt_callback_t>(&on_parallel_begin));
  set_callback(ompt_callback_parallel_end, reinterpret_cast<ompt_callback_t>(&on_parallel_end));
  set_callback(ompt_callback_sync_region_wait, reinterpret_cast<ompt_callback_t>(&on_sync_region_wait));
  return 1;  // the tool stays
}

void finalize(ompt_data_t*) {}

#endif  // HETSCALE_HAVE_OMPT

}  // namespace

OpenMpTotals openmp_totals(int calling_thread, const measure::ThreadTimes& whole_run, double seconds_per_tick) {
  double team = 0.0, useful = 0.0, waiting_for_cpu = 0.0, imbalance = 0.0, scheduling = 0.0, overslept = 0.0;
  // The calling thread's time in the regions, by its OpenMP clock.
  double inside_on_cpu = 0.0, inside_delay = 0.0, inside_blocked = 0.0;
#ifdef HETSCALE_HAVE_OMPT
  Regions& all = regions();
  sum_regions(all, all.number);  // the threads work in no region now
  team = all.team.load();
  imbalance = all.imbalance.get();
  scheduling = all.scheduling.get();
  waiting_for_cpu = all.other.get();
  threads().for_each([&](const OpenMpThread& thread) {
    useful += thread.useful();
    waiting_for_cpu += thread.other.get();
    overslept += thread.overslept.get();  // held back beyond what was owed: other load
    if (thread.id != calling_thread) return;
    inside_on_cpu = thread.inside_on_cpu.get();
    inside_delay = thread.inside_delay.get();
    inside_blocked = thread.inside_blocked.get();
  });
#endif
  OpenMpTotals totals;
  if (team < 1.0) return totals;
  const double idle_threads = team - 1.0;
  // Outside the regions the calling thread stands for its team: its own
  // times less its time in them (it calls MPI outside them).
  const double computation = std::max(0.0, whole_run.computation() - inside_on_cpu);
  const double blocked = std::max(0.0, whole_run.blocked - inside_blocked);
  const double other = std::max(0.0, whole_run.other - inside_delay);
  const double mpi = whole_run.comm + whole_run.idle;
  totals.team = team;
  totals.useful = (useful - overslept + computation + blocked) * seconds_per_tick;
  totals.serialization = idle_threads * (computation + blocked) * seconds_per_tick;
  totals.mpi = team * mpi * seconds_per_tick;
  totals.imbalance = imbalance * seconds_per_tick;
  totals.scheduling = scheduling * seconds_per_tick;
  totals.other = (waiting_for_cpu + overslept + team * other) * seconds_per_tick;
  totals.in_regions = (inside_on_cpu + inside_delay + inside_blocked) * seconds_per_tick;
  return totals;
}

std::vector<double> openmp_thread_rows(double seconds_per_tick) {
  std::vector<double> rows;
#ifdef HETSCALE_HAVE_OMPT
  threads().for_each([&](const OpenMpThread& thread) {
    if (!(thread.useful() > 0.0)) return;  // it worked in no counted region
    const int number = thread.number.load(std::memory_order_relaxed);
    const double held = thread.held.get() - thread.overslept.get();
    rows.insert(rows.end(), {static_cast<double>(number), emulated_speed_of_thread(number),
                             thread.work.get() * seconds_per_tick, held * seconds_per_tick});
  });
#else
  (void)seconds_per_tick;
#endif
  return rows;
}

}  // namespace hetscale::interpose

#ifdef HETSCALE_HAVE_OMPT
// The OpenMP runtime looks this up when it starts (OpenMP 5.0, 4.2.1).
extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(unsigned, const char*) {
  static ompt_start_tool_result_t tool{&hetscale::interpose::initialize, &hetscale::interpose::finalize, {}};
  return &tool;
}
#endif
