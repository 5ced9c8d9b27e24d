// The OMPT tool (openmp_states.hpp). Built when OpenMP's omp-tools.h is
// found (HETSCALE_HAVE_OMPT); without it the totals are zero.
#include "openmp_states.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <cstdint>
#include <vector>

#include "accounting.hpp"
#include "rank_state.hpp"
#include "thread_clock.hpp"
#include "thread_registry.hpp"

#ifdef HETSCALE_HAVE_OMPT
#include <omp-tools.h>
#endif

namespace hetscale::interpose {
namespace {

// The rank's largest team.
struct RankSums {
  std::atomic<unsigned> team{0};
};
RankSums& sums() {
  static auto* instance = new RankSums;  // never destroyed: a thread may end a region while the process exits
  return *instance;
}

#ifdef HETSCALE_HAVE_OMPT

// A thread of the runtime. What it does in the outermost region it works in
// only it writes, between two steps of `version` (odd while it writes), and
// the region's end reads (again when the version moved): the region's
// number, its useful time and waits there, the start of a wait under way.
// Its sums over the run (ticks), its own to write too: useful time, waits
// for a CPU, and for the regions it began, their imbalance and scheduling.
struct OpenMpThread {
  int id = 0;
  ThreadClock clock;
  struct Team* team = nullptr;  // the outermost region's, while it works in it
  std::atomic<std::uint64_t> version{0};
  std::atomic<std::uint64_t> region{0};
  std::atomic<double> useful_here{0.0}, waited_here{0.0};
  std::atomic<Ticks> waiting_since{0};  // 0: not waiting
  Accumulator useful, other, imbalance, scheduling;
  // Its time in outermost regions, by its clock: on a CPU (computing or
  // waiting), waiting for a CPU, blocked (ticks): of the MPI-calling thread,
  // the part of its own times that is not outside the regions.
  Accumulator inside_on_cpu, inside_delay, inside_blocked;

  void begin_writing() {
    version.store(version.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  void end_writing() { version.store(version.load(std::memory_order_relaxed) + 1, std::memory_order_release); }
};

// The outermost regions a thread begins, one after the other: the team's
// threads by their number in it, the region under way (its number, and the
// last one ended). Made once for each thread that begins regions, never
// freed (a worker tells of a region's end when it wakes for the next).
struct Team {
  std::vector<std::atomic<OpenMpThread*>> members;
  std::atomic<std::uint64_t> number{0}, ended{0};
};

ThreadRegistry<OpenMpThread>& threads() {
  static auto* instance = new ThreadRegistry<OpenMpThread>;  // never destroyed, as the sums
  return *instance;
}
thread_local OpenMpThread* this_openmp_thread __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local Team* this_team __attribute__((tls_model("initial-exec"))) = nullptr;  // the regions it begins

bool measuring() { return process().measuring.load(std::memory_order_relaxed); }

// The calling thread's entry, its clock started at its first use.
OpenMpThread* timed_thread(Ticks now) {
  if (!this_openmp_thread) this_openmp_thread = &threads().add();
  OpenMpThread* thread = this_openmp_thread;
  if (!thread->clock.started()) thread->clock.start(tick_clock, now, ticks_per_second * 1e-9);
  return thread;
}

// A segment of the thread's in a region, by its clock.
Split inside(OpenMpThread& thread, Ticks now) {
  const Split split = thread.clock.lap(now);
  thread.inside_on_cpu.add(split.on_cpu);
  thread.inside_delay.add(split.delay);
  thread.inside_blocked.add(split.blocked);
  return split;
}

// The segment since the thread's last boundary was useful work (it is writing).
void computed(OpenMpThread& thread, Ticks now) {
  const Split split = inside(thread, now);
  const double useful = split.on_cpu + split.blocked;
  thread.useful_here.store(thread.useful_here.load(std::memory_order_relaxed) + useful, std::memory_order_relaxed);
  thread.useful.add(useful);
  thread.other.add(split.delay);
}

// The wait under way, if any, ends at `now` (the thread is writing).
void wait_ends(OpenMpThread& thread, Ticks now) {
  const Ticks since = thread.waiting_since.load(std::memory_order_relaxed);
  if (since == 0) return;
  thread.waited_here.store(thread.waited_here.load(std::memory_order_relaxed) + static_cast<double>(now - since),
                           std::memory_order_relaxed);
  thread.waiting_since.store(0, std::memory_order_relaxed);
}

// Whether the thread's region has ended (a worker told late).
bool region_ended(const OpenMpThread& thread) {
  return thread.team->ended.load(std::memory_order_acquire) >= thread.region.load(std::memory_order_relaxed);
}

void on_parallel_begin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel_data, unsigned requested, int,
                       const void*) {
  parallel_data->ptr = nullptr;
  if (!measuring() || (this_openmp_thread && this_openmp_thread->team)) return;  // outermost regions only
  if (!this_team) this_team = new Team;
  Team& team = *this_team;
  // Its threads keep their places from region to region (each writes its
  // place only when it changes); a place of an earlier region is told by
  // its region's number.
  if (team.members.size() < requested) team.members = std::vector<std::atomic<OpenMpThread*>>(requested);
  team.number.store(team.number.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  parallel_data->ptr = &team;
}

// A member's region part as it stands (read again while it writes).
struct Part {
  std::uint64_t region = 0;
  double useful = 0.0, waited = 0.0;
  Ticks waiting_since = 0;
};
Part part_of(const OpenMpThread& member) {
  for (;;) {
    const std::uint64_t before = member.version.load(std::memory_order_acquire);
    Part part{member.region.load(std::memory_order_relaxed), member.useful_here.load(std::memory_order_relaxed),
              member.waited_here.load(std::memory_order_relaxed), member.waiting_since.load(std::memory_order_relaxed)};
    std::atomic_thread_fence(std::memory_order_acquire);
    if (before % 2 == 0 && member.version.load(std::memory_order_relaxed) == before) return part;
  }
}

void on_parallel_end(ompt_data_t* parallel_data, ompt_data_t*, int, const void*) {
  auto* team = static_cast<Team*>(parallel_data->ptr);
  if (!team) return;
  const Ticks now = tick_clock.now();
  const std::uint64_t number = team->number.load(std::memory_order_relaxed);
  // Each thread's waits, a wait not yet ended counted to now. The least of
  // them all the team waited together: scheduling (as TALP). Of the rest,
  // imbalance is what the threads' work on a CPU makes them wait (each for
  // the busiest); what is left they waited because a thread waited for a
  // CPU: other load.
  double least = std::numeric_limits<double>::infinity(), waited = 0.0, busiest = 0.0, useful = 0.0;
  unsigned size = 0;
  for (const auto& slot : team->members) {
    const OpenMpThread* member = slot.load(std::memory_order_acquire);
    if (!member) continue;
    const Part part = part_of(*member);
    if (part.region != number) continue;
    const double wait = part.waited + (part.waiting_since ? static_cast<double>(now - part.waiting_since) : 0.0);
    least = std::min(least, wait);
    waited += wait;
    busiest = std::max(busiest, part.useful);
    useful += part.useful;
    ++size;
  }
  team->ended.store(number, std::memory_order_release);
  OpenMpThread* const ending = timed_thread(now);
  if (size > 0) {
    const double scheduling = least * size;
    const double imbalance = std::min(busiest * size - useful, waited - scheduling);
    ending->scheduling.add(scheduling);
    ending->imbalance.add(imbalance);
    ending->other.add(waited - scheduling - imbalance);
    if (size > sums().team.load(std::memory_order_relaxed)) sums().team.store(size, std::memory_order_relaxed);
  }
}

void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data, ompt_data_t* task_data, unsigned,
                      unsigned index, int flags) {
  if (flags & ompt_task_initial) return;
  const Ticks now = tick_clock.now();
  if (endpoint == ompt_scope_begin) {
    task_data->ptr = nullptr;
    auto* team = parallel_data ? static_cast<Team*>(parallel_data->ptr) : nullptr;
    if (!team || index >= team->members.size()) return;
    OpenMpThread* thread = timed_thread(now);
    if (thread->team) return;  // a nested region's task: its time is the outer region's
    thread->clock.lap(now);    // the runtime's time before the task: not the program's
    thread->begin_writing();
    thread->region.store(team->number.load(std::memory_order_acquire), std::memory_order_relaxed);
    thread->useful_here.store(0.0, std::memory_order_relaxed);
    thread->waited_here.store(0.0, std::memory_order_relaxed);
    thread->waiting_since.store(0, std::memory_order_relaxed);
    thread->end_writing();
    thread->team = team;
    if (team->members[index].load(std::memory_order_relaxed) != thread)
      team->members[index].store(thread, std::memory_order_release);
    task_data->ptr = team;
    return;
  }
  OpenMpThread* thread = this_openmp_thread;
  if (!task_data->ptr || !thread || thread->team != task_data->ptr) return;
  if (region_ended(*thread) || thread->waiting_since.load(std::memory_order_relaxed) != 0) {
    thread->begin_writing();
    wait_ends(*thread, now);
    thread->end_writing();
    // Its wait (counted) and, after the region's end, the time idle since.
    if (region_ended(*thread))
      thread->clock.lap(now);
    else
      inside(*thread, now);
  } else {
    thread->begin_writing();
    computed(*thread, now);
    thread->end_writing();
  }
  thread->team = nullptr;
}

void on_sync_region_wait(ompt_sync_region_t, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t* task_data,
                         const void*) {
  OpenMpThread* thread = this_openmp_thread;
  if (!thread || !task_data || !thread->team || task_data->ptr != thread->team || region_ended(*thread)) return;
  const Ticks now = tick_clock.now();
  thread->begin_writing();
  if (endpoint == ompt_scope_begin) {
    computed(*thread, now);
    thread->waiting_since.store(now, std::memory_order_relaxed);
  } else {
    wait_ends(*thread, now);
  }
  thread->end_writing();
  if (endpoint != ompt_scope_begin) inside(*thread, now);  // the wait's own split: all of it is the wait's
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set_callback) return 0;
  set_callback(ompt_callback_parallel_begin, reinterpret_cast<ompt_callback_t>(&on_parallel_begin));
  set_callback(ompt_callback_parallel_end, reinterpret_cast<ompt_callback_t>(&on_parallel_end));
  set_callback(ompt_callback_implicit_task, reinterpret_cast<ompt_callback_t>(&on_implicit_task));
  set_callback(ompt_callback_sync_region_wait, reinterpret_cast<ompt_callback_t>(&on_sync_region_wait));
  return 1;  // the tool stays
}

void finalize(ompt_data_t*) {}

#endif  // HETSCALE_HAVE_OMPT

}  // namespace

CallingThreadTimes times_of(const ThreadRecord& thread) {
  return {thread.id, thread.on_cpu.get() + thread.held.get() - thread.overslept.get(), thread.blocked.get(),
          thread.other.get() + thread.overslept.get(), thread.comm.get() + thread.idle.get()};
}

OpenMpTotals openmp_totals(const CallingThreadTimes& whole_run, double seconds_per_tick) {
  auto& rank = sums();
  double useful = 0.0, waiting_for_cpu = 0.0, imbalance = 0.0, scheduling = 0.0;
  // The calling thread's time in the regions, by its OpenMP clock.
  double inside_on_cpu = 0.0, inside_delay = 0.0, inside_blocked = 0.0;
#ifdef HETSCALE_HAVE_OMPT
  threads().for_each([&](const OpenMpThread& thread) {
    useful += thread.useful.get();
    waiting_for_cpu += thread.other.get();
    imbalance += thread.imbalance.get();
    scheduling += thread.scheduling.get();
    if (thread.id != whole_run.id) return;
    inside_on_cpu = thread.inside_on_cpu.get();
    inside_delay = thread.inside_delay.get();
    inside_blocked = thread.inside_blocked.get();
  });
#endif
  OpenMpTotals totals;
  const double team = rank.team.load();
  if (team < 1.0) return totals;
  const double idle_threads = team - 1.0;
  // Outside the regions the calling thread stands for its team: its own
  // times less its time in them (it calls MPI outside them).
  const double computation = std::max(0.0, whole_run.computation - inside_on_cpu);
  const double blocked = std::max(0.0, whole_run.blocked - inside_blocked);
  const double other = std::max(0.0, whole_run.other - inside_delay);
  const double mpi = whole_run.mpi;
  totals.team = team;
  totals.useful = (useful + computation + blocked) * seconds_per_tick;
  totals.serialization = idle_threads * (computation + blocked) * seconds_per_tick;
  totals.mpi = team * mpi * seconds_per_tick;
  totals.imbalance = imbalance * seconds_per_tick;
  totals.scheduling = scheduling * seconds_per_tick;
  totals.other = (waiting_for_cpu + team * other) * seconds_per_tick;
  return totals;
}

}  // namespace hetscale::interpose

#ifdef HETSCALE_HAVE_OMPT
// The OpenMP runtime looks this up when it starts (OpenMP 5.0, 4.2.1).
extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(unsigned, const char*) {
  static ompt_start_tool_result_t tool{&hetscale::interpose::initialize, &hetscale::interpose::finalize, {}};
  return &tool;
}
#endif
