// OpenMP teams held back to an emulated speed. GNU libgomp starts each
// parallel region through one of the GOMP_parallel* entry points below (the
// compiler's outlined function, its data, then the region's own arguments);
// the wrappers run the outlined function inside one that, on each thread of
// the team, holds the thread back by (1/v - 1) x the CPU time it spent in its
// part before it reaches the region's closing barrier, so the region takes 1/v
// as long as here. A thread that times itself (it calls MPI) ends its
// computation segment there, held back as at an MPI call; the pool's threads
// pay from what they owe, once it reaches the hold-back quantum. Without an
// emulated speed the wrappers call libgomp's entry point as it was called.
// (GCC's entry points before 4.9, GOMP_parallel_start/_end, and LLVM's
// __kmpc_fork_call are not wrapped: their teams are not held back.)
#include <time.h>

#include <atomic>
#include <optional>

#include "accounting.hpp"
#include "hetscale/measure/hold_back.hpp"
#include "thread_registry.hpp"

namespace hetscale::interpose {
namespace {

using Outlined = void (*)(void*);

struct Part {
  Outlined function;
  void* data;
};

// A pool thread: its hold-back paid, and of it what was slept beyond what was
// owed (other load), seconds (it writes, the record's writer reads).
struct PoolThread {
  int id = 0;
  std::atomic<double> held{0.0}, overslept{0.0};
};

// Never destroyed: a pool thread may finish a region while the process exits.
ThreadRegistry<PoolThread>& pool() {
  static auto* instance = new ThreadRegistry<PoolThread>;
  return *instance;
}

// The calling pool thread's entry (made at its first sleep) and its hold-back, seconds.
thread_local PoolThread* this_pool_thread __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local std::optional<measure::HoldBack> hold_back __attribute__((tls_model("initial-exec")));

double seconds_of(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// The pool's threads are held back by their part's CPU time (their waits
// for a CPU are not read: all of it is slept).
void pay_owed(double speed, double cpu) {
  if (!hold_back || hold_back->speed() != speed) hold_back.emplace(speed, hold_back_quantum);
  hold_back->computed(cpu, 0.0);
  const double due = hold_back->due();
  if (due <= 0.0) return;
  const double from = seconds_of(CLOCK_MONOTONIC);
  sleep_seconds(due);
  const double held = seconds_of(CLOCK_MONOTONIC) - from;
  hold_back->slept(held);
  auto& thread = this_pool_thread ? *this_pool_thread : *(this_pool_thread = &pool().add());
  thread.held.store(thread.held.load(std::memory_order_relaxed) + held, std::memory_order_relaxed);
  thread.overslept.store(hold_back->overslept(), std::memory_order_relaxed);
}

void held_back(void* argument) {
  const auto& part = *static_cast<const Part*>(argument);
  const double cpu = seconds_of(CLOCK_THREAD_CPUTIME_ID);
  part.function(part.data);
  if (computation_boundary()) return;
  const double speed = emulated_speed_of_rank();
  if (speed < 1.0) pay_owed(speed, seconds_of(CLOCK_THREAD_CPUTIME_ID) - cpu);
}

template <class Result, class... Rest>
Result team(Result (*real)(Outlined, void*, Rest...), Outlined function, void* data, Rest... rest) {
  if (emulated_speed_of_rank() >= 1.0) return real(function, data, rest...);
  Part part{function, data};  // the entry points return when the region ends
  return real(held_back, &part, rest...);
}

template <class Real>
Real next(const char* name) {
  return reinterpret_cast<Real>(next_symbol(name));
}

}  // namespace

std::vector<std::pair<int, double>> pool_threads_held() {
  std::vector<std::pair<int, double>> held;
  pool().for_each([&](const PoolThread& thread) {
    held.emplace_back(thread.id,
                      thread.held.load(std::memory_order_relaxed) - thread.overslept.load(std::memory_order_relaxed));
  });
  return held;
}

}  // namespace hetscale::interpose

using hetscale::interpose::next;
using hetscale::interpose::Outlined;
using hetscale::interpose::team;

// Exported (the library is built with hidden visibility).
#define HETSCALE_EXPORT __attribute__((visibility("default")))

extern "C" {

HETSCALE_EXPORT void GOMP_parallel(Outlined fn, void* data, unsigned threads, unsigned flags) {
  static const auto real = next<decltype(&GOMP_parallel)>("GOMP_parallel");
  team(real, fn, data, threads, flags);
}

HETSCALE_EXPORT unsigned GOMP_parallel_reductions(Outlined fn, void* data, unsigned threads, unsigned flags) {
  static const auto real = next<decltype(&GOMP_parallel_reductions)>("GOMP_parallel_reductions");
  return team(real, fn, data, threads, flags);
}

HETSCALE_EXPORT void GOMP_parallel_sections(Outlined fn, void* data, unsigned threads, unsigned count, unsigned flags) {
  static const auto real = next<decltype(&GOMP_parallel_sections)>("GOMP_parallel_sections");
  team(real, fn, data, threads, count, flags);
}

// The loops with a schedule and chunk: start, end, increment, chunk, flags.
#define HETSCALE_PARALLEL_LOOP(NAME)                                                                     \
  HETSCALE_EXPORT void NAME(Outlined fn, void* data, unsigned threads, long start, long end, long incr,    \
                            long chunk, unsigned flags) {                                                \
    static const auto real = next<decltype(&NAME)>(#NAME);                                               \
    team(real, fn, data, threads, start, end, incr, chunk, flags);                                       \
  }
// The loops with the runtime schedule: no chunk.
#define HETSCALE_PARALLEL_RUNTIME_LOOP(NAME)                                                             \
  HETSCALE_EXPORT void NAME(Outlined fn, void* data, unsigned threads, long start, long end, long incr,    \
                            unsigned flags) {                                                            \
    static const auto real = next<decltype(&NAME)>(#NAME);                                               \
    team(real, fn, data, threads, start, end, incr, flags);                                              \
  }

HETSCALE_PARALLEL_LOOP(GOMP_parallel_loop_static)
HETSCALE_PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
HETSCALE_PARALLEL_LOOP(GOMP_parallel_loop_guided)
HETSCALE_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
HETSCALE_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
HETSCALE_PARALLEL_RUNTIME_LOOP(GOMP_parallel_loop_runtime)
HETSCALE_PARALLEL_RUNTIME_LOOP(GOMP_parallel_loop_nonmonotonic_runtime)
HETSCALE_PARALLEL_RUNTIME_LOOP(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

}  // extern "C"
