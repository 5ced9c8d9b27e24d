#include "run_sampler.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include "rank_state.hpp"

namespace hetscale::interpose {
namespace {

// While no thread is in a run, the sampler looks this many times less often.
constexpr int idle_factor = 10;

}  // namespace

void RunSampler::start(std::chrono::nanoseconds every) {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this, every] { look_until_stopped(every); });
}

void RunSampler::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void RunSampler::look_until_stopped(std::chrono::nanoseconds every) {
  process().other_threads.forget(static_cast<int>(syscall(SYS_gettid)));
  const double period = std::chrono::duration<double>(every).count() * ticks_per_second;
  const double ticks_per_ns = ticks_per_second * 1e-9;
  std::map<const ThreadRecord*, double> last_on_cpu_ns;  // of each thread in a run, at the last look
  Ticks last = tick_clock.now();
  bool any_run = false;
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, any_run ? every : idle_factor * every, [this] { return stopping_; })) {
    const Ticks now = tick_clock.now();
    // A look that came late (the sampler waited for a CPU) stands for the
    // whole time since the last; after an idle one, for a period (a run
    // began since).
    const auto since = any_run ? static_cast<double>(now - last) : std::min(static_cast<double>(now - last), period);
    last = now;
    any_run = false;
    registry().for_each([&](ThreadRecord& thread) {
      if (!thread.short_calls.in_run()) {
        last_on_cpu_ns.erase(&thread);
        return;
      }
      any_run = true;
      double on_cpu_ns = 0.0, delay_ns = 0.0;
      if (!thread.clock.schedstat(on_cpu_ns, delay_ns)) return;
      const auto [known, first] = last_on_cpu_ns.try_emplace(&thread, on_cpu_ns);
      // A thread's first look in a run: its time on a CPU since is not known; taken as all of it.
      const double on_cpu = first ? since : (on_cpu_ns - known->second) * ticks_per_ns;
      known->second = on_cpu_ns;
      thread.short_calls.sample(since, std::clamp(on_cpu, 0.0, since));
    });
  }
}

}  // namespace hetscale::interpose
