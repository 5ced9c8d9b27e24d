// The OMPT tool (openmp_states.hpp). Built when OpenMP's omp-tools.h is
// found (HETSCALE_HAVE_OMPT); without it the totals are zero.
#include "openmp_states.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <vector>

#include "accounting.hpp"
#include "rank_state.hpp"
#include "thread_clock.hpp"

#ifdef HETSCALE_HAVE_OMPT
#include <omp-tools.h>
#endif

namespace hetscale::interpose {
namespace {

// The rank's sums, in ticks (threads add at the ends of their regions).
struct RankSums {
  std::atomic<unsigned> team{0};
  Accumulator useful, other, imbalance, scheduling;
  // The calling thread's own times inside the outermost regions (the rest
  // of the run is outside them).
  Accumulator calling_computation, calling_blocked, calling_other, calling_mpi;
};
RankSums& sums() {
  static auto* instance = new RankSums;  // never destroyed: a thread may end a region while the process exits
  return *instance;
}

void keep_largest(std::atomic<unsigned>& value, unsigned candidate) {
  unsigned seen = value.load(std::memory_order_relaxed);
  while (candidate > seen && !value.compare_exchange_weak(seen, candidate, std::memory_order_relaxed)) {
  }
}

#ifdef HETSCALE_HAVE_OMPT

// One thread of a team in one region: its waits at the region's barriers.
struct Slot {
  double useful = 0.0;  // ticks on a CPU (or blocked) computing
  double waited = 0.0;  // ticks, waits ended
  Ticks waiting_since = 0;
  bool waiting = false;
};

// An outermost parallel region, from its begin to the end of the last of its
// threads' implicit tasks (LLVM's runtime tells a worker that its task ended
// when it wakes for the next region: the region's end closes the waits).
struct Region {
  explicit Region(unsigned requested) : slots(requested) {}
  std::mutex lock;
  std::vector<Slot> slots;
  std::size_t team = 0;  // the threads that ran it (the first `team` slots)
  bool closed = false;
  std::atomic<int> holders{1};  // the region's end and each implicit task
  // The calling thread's own times at the region's begin.
  CallingThreadTimes calling_at_begin;
  bool calling = false;
};

void release(Region* region) {
  if (region->holders.fetch_sub(1, std::memory_order_acq_rel) == 1) delete region;
}

// A thread of the runtime: its own clock, and the region and slot it works in.
struct OpenMpThread {
  ThreadClock clock;
  Region* region = nullptr;
  unsigned index = 0;
};
thread_local OpenMpThread* this_openmp_thread __attribute__((tls_model("initial-exec"))) = nullptr;

bool measuring() { return process().measuring.load(std::memory_order_relaxed); }

// The calling thread's clock, started at its first use while measuring.
OpenMpThread* timed_thread(Ticks now) {
  if (!this_openmp_thread) this_openmp_thread = new OpenMpThread;  // lives as long as the thread may call
  OpenMpThread* thread = this_openmp_thread;
  if (!thread->clock.started()) thread->clock.start(tick_clock, now, ticks_per_second * 1e-9);
  return thread;
}

// The segment since the thread's last boundary was useful work (its slot's
// lock held).
void computed(OpenMpThread& thread, Slot& slot, Ticks now) {
  const Split split = thread.clock.lap(now);
  slot.useful += split.on_cpu + split.blocked;
  sums().useful.add(split.on_cpu + split.blocked);
  sums().other.add(split.delay);
}

// The calling thread's own times so far: its last computation ends here.
CallingThreadTimes calling_times() {
  computation_boundary();
  return times_of(*this_thread);
}

bool is_calling_thread() { return this_thread && this_thread->clock.started(); }

void on_parallel_begin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel_data, unsigned requested, int,
                       const void*) {
  parallel_data->ptr = nullptr;
  if (!measuring() || (this_openmp_thread && this_openmp_thread->region)) return;  // outermost regions only
  auto* region = new Region(std::max(requested, 1u));
  if (is_calling_thread()) {
    region->calling = true;
    region->calling_at_begin = calling_times();
  }
  parallel_data->ptr = region;
}

void on_parallel_end(ompt_data_t* parallel_data, ompt_data_t*, int, const void*) {
  auto* region = static_cast<Region*>(parallel_data->ptr);
  if (!region) return;
  const Ticks now = tick_clock.now();
  {
    // Each thread's waits, a wait not yet ended counted to now. The least of
    // them all the team waited together: scheduling (as TALP). Of the rest,
    // imbalance is what the threads' work on a CPU makes them wait (each
    // for the busiest); what is left they waited because a thread waited
    // for a CPU: other load.
    std::lock_guard hold(region->lock);
    region->closed = true;
    double least = std::numeric_limits<double>::infinity(), waited = 0.0, busiest = 0.0, useful = 0.0;
    const std::size_t team = std::min(region->team, region->slots.size());
    for (std::size_t i = 0; i < team; ++i) {
      Slot& slot = region->slots[i];
      if (slot.waiting) slot.waited += static_cast<double>(now - slot.waiting_since);
      slot.waiting = false;
      least = std::min(least, slot.waited);
      waited += slot.waited;
      busiest = std::max(busiest, slot.useful);
      useful += slot.useful;
    }
    if (team > 0) {
      const double scheduling = least * static_cast<double>(team);
      const double imbalance = std::min(busiest * static_cast<double>(team) - useful, waited - scheduling);
      sums().scheduling.add(scheduling);
      sums().imbalance.add(imbalance);
      sums().other.add(waited - scheduling - imbalance);
    }
  }
  if (region->calling && is_calling_thread()) {
    const CallingThreadTimes now_times = calling_times(), &then = region->calling_at_begin;
    sums().calling_computation.add(now_times.computation - then.computation);
    sums().calling_blocked.add(now_times.blocked - then.blocked);
    sums().calling_other.add(now_times.other - then.other);
    sums().calling_mpi.add(now_times.mpi - then.mpi);
  }
  release(region);
}

void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data, ompt_data_t* task_data,
                      unsigned actual, unsigned index, int flags) {
  if (flags & ompt_task_initial) return;
  const Ticks now = tick_clock.now();
  if (endpoint == ompt_scope_begin) {
    task_data->ptr = nullptr;
    auto* region = parallel_data ? static_cast<Region*>(parallel_data->ptr) : nullptr;
    if (!region || index >= region->slots.size()) return;
    OpenMpThread* thread = timed_thread(now);
    if (thread->region) return;  // a nested region's task: its time is the outer region's
    thread->clock.lap(now);      // the runtime's time before the task: not the program's
    thread->region = region;
    thread->index = index;
    region->holders.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard hold(region->lock);
      region->team = std::max<std::size_t>(region->team, actual);
    }
    keep_largest(sums().team, actual);
    task_data->ptr = region;
    return;
  }
  auto* region = static_cast<Region*>(task_data->ptr);
  OpenMpThread* thread = this_openmp_thread;
  if (!region || !thread || thread->region != region) return;
  {
    std::lock_guard hold(region->lock);
    Slot& slot = region->slots[thread->index];
    if (slot.waiting || region->closed) {
      thread->clock.lap(now);  // its wait (counted) and, after the region's end, the time idle since
    } else {
      computed(*thread, slot, now);
    }
    if (slot.waiting) slot.waited += static_cast<double>(now - slot.waiting_since);
    slot.waiting = false;
  }
  thread->region = nullptr;
  release(region);
}

void on_sync_region_wait(ompt_sync_region_t, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t* task_data,
                         const void*) {
  OpenMpThread* thread = this_openmp_thread;
  auto* region = static_cast<Region*>(task_data ? task_data->ptr : nullptr);
  if (!thread || !region || thread->region != region) return;
  const Ticks now = tick_clock.now();
  std::lock_guard hold(region->lock);
  Slot& slot = region->slots[thread->index];
  if (region->closed) return;
  if (endpoint == ompt_scope_begin) {
    computed(*thread, slot, now);
    slot.waiting = true;
    slot.waiting_since = now;
    return;
  }
  if (slot.waiting) slot.waited += static_cast<double>(now - slot.waiting_since);
  slot.waiting = false;
  thread->clock.lap(now);  // the wait's own split: all of it is the wait's
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
  return {thread.on_cpu.get() + thread.held.get() - thread.overslept.get(), thread.blocked.get(),
          thread.other.get() + thread.overslept.get(), thread.comm.get() + thread.idle.get()};
}

OpenMpTotals openmp_totals(const CallingThreadTimes& whole_run, double seconds_per_tick) {
  auto& rank = sums();
  OpenMpTotals totals;
  const double team = rank.team.load();
  if (team < 1.0) return totals;
  const double idle_threads = team - 1.0;
  // Outside the regions the calling thread stands for its team.
  const double computation = whole_run.computation - rank.calling_computation.get();
  const double blocked = whole_run.blocked - rank.calling_blocked.get();
  const double other = whole_run.other - rank.calling_other.get();
  const double mpi = whole_run.mpi - rank.calling_mpi.get();
  totals.team = team;
  totals.useful = (rank.useful.get() + computation + blocked) * seconds_per_tick;
  totals.serialization = idle_threads * (computation + blocked) * seconds_per_tick;
  totals.mpi = team * mpi * seconds_per_tick;
  totals.imbalance = rank.imbalance.get() * seconds_per_tick;
  totals.scheduling = rank.scheduling.get() * seconds_per_tick;
  totals.other = (rank.other.get() + team * other) * seconds_per_tick;
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
