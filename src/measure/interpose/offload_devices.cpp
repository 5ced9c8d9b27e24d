// The rank's devices and its time in the offload runtime (offload_devices.hpp).
#include "offload_devices.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>

#include "accounting.hpp"
#include "device_activity.hpp"
#include "rank_state.hpp"
#include "schedstat.hpp"
#include "tick_clock.hpp"

namespace hetscale::interpose {
namespace {

using offload::Activity;

struct Device {
  double kernels = 0.0, kernel_seconds = 0.0, transfer_seconds = 0.0;
  double to_count = 0.0, to_bytes = 0.0, from_count = 0.0, from_bytes = 0.0;
};

// Devices' activity comes from the plugin's calls, a few a target region:
// a lock is cheap beside them.
struct Devices {
  std::mutex mutex;
  std::map<int, Device> devices;
  double runtime_seconds = 0.0, runtime_delay = 0.0, runtime_calls = 0.0;
  double runtime_on_mpi_threads = 0.0;  // of runtime_seconds, on threads that call MPI
};
Devices& devices() {
  static auto* instance = new Devices;  // never destroyed: a device may finish work while the process exits
  return *instance;
}

// The outermost entry point a thread is in (libomptarget's entry points call each other).
thread_local int runtime_depth __attribute__((tls_model("initial-exec"))) = 0;
// The thread's schedstat, open while it lives (-2: not yet opened).
thread_local int schedstat_file __attribute__((tls_model("initial-exec"))) = -2;

// The calling thread's run-queue delay so far, s (0 when it cannot be read): its waits for a CPU.
double waited_for_cpu() {
  if (schedstat_file == -2) schedstat_file = open_schedstat(static_cast<long>(syscall(SYS_gettid)));
  double on_cpu_ns = 0.0, delay_ns = 0.0;
  return read_schedstat(schedstat_file, on_cpu_ns, delay_ns) ? delay_ns * 1e-9 : 0.0;
}

// Times a call of the offload runtime's entry point: the host in its device runtime.
template <class Call>
auto in_runtime(Call call) {
  const bool outermost = runtime_depth++ == 0;
  const double waited = outermost ? waited_for_cpu() : 0.0;
  const Ticks began = tick_clock.now();
  struct Leave {
    bool outermost;
    double waited;
    Ticks began;
    ~Leave() {
      --runtime_depth;
      if (!outermost || !process().measuring.load(std::memory_order_relaxed)) return;
      const Ticks ended = tick_clock.now();
      const double delay = waited_for_cpu() - waited;
      auto& all = devices();
      std::lock_guard lock(all.mutex);
      const double seconds = static_cast<double>(ended - began) * tick_clock.seconds_per_tick();
      all.runtime_seconds += seconds;
      if (this_thread) all.runtime_on_mpi_threads += seconds;  // inside that thread's rank timeline
      all.runtime_delay += std::max(0.0, delay);
      all.runtime_calls += 1.0;
    }
  } leave{outermost, waited, began};
  return call();
}

template <class Real>
Real next(const char* name) {
  return reinterpret_cast<Real>(next_symbol(name));
}

}  // namespace

std::vector<double> device_rows() {
  auto& all = devices();
  std::lock_guard lock(all.mutex);
  std::vector<double> rows;
  for (const auto& [number, d] : all.devices)
    rows.insert(rows.end(), {static_cast<double>(number), d.kernels, d.kernel_seconds, d.to_count, d.to_bytes,
                             d.from_count, d.from_bytes, d.transfer_seconds});
  return rows;
}

OffloadRuntime offload_runtime() {
  auto& all = devices();
  std::lock_guard lock(all.mutex);
  return {all.runtime_seconds, all.runtime_delay, all.runtime_calls, all.runtime_on_mpi_threads};
}

}  // namespace hetscale::interpose

using hetscale::interpose::in_runtime;
using hetscale::interpose::next;

#define HETSCALE_EXPORT extern "C" __attribute__((visibility("default")))

// What the offload runtime's plugin tells: one kernel or copy of `device`.
HETSCALE_EXPORT void hetscale_device_activity(int device, int kind, double seconds, std::int64_t bytes) {
  if (kind < 0 || kind >= hetscale::offload::activity_kinds) return;
  hetscale::interpose::device_activity_seen(device, static_cast<hetscale::offload::Activity>(kind), seconds, bytes);
}

namespace hetscale::interpose {

void device_activity_seen(int device, offload::Activity kind, double seconds, std::int64_t bytes) {
  if (!process().measuring.load(std::memory_order_relaxed)) return;
  auto& all = devices();
  std::lock_guard lock(all.mutex);
  auto& d = all.devices[device];
  switch (kind) {
    case Activity::kernel:
      d.kernels += 1.0;
      d.kernel_seconds += seconds;
      break;
    case Activity::to_device:
      d.to_count += 1.0;
      d.to_bytes += static_cast<double>(bytes);
      d.transfer_seconds += seconds;
      break;
    case Activity::from_device:
      d.from_count += 1.0;
      d.from_bytes += static_cast<double>(bytes);
      d.transfer_seconds += seconds;
      break;
  }
}

void device_runtime_seen(double seconds) {
  if (!process().measuring.load(std::memory_order_relaxed)) return;
  auto& all = devices();
  std::lock_guard lock(all.mutex);
  all.runtime_seconds += seconds;
  all.runtime_on_mpi_threads += seconds;  // CUPTI's records are flushed later: the rank's thread is taken as the caller
  all.runtime_calls += 1.0;
}

}  // namespace hetscale::interpose

// LLVM libomptarget's entry points that clang's OpenMP target constructs call
// (omptarget.h): a target region (with teams), and target data regions'
// begin, end and update; each also without waiting (nowait, with its
// dependences). Pointers to the runtime's own types are void* here.
#define HETSCALE_TARGET_ARGUMENTS                                                                                      \
  void *loc, std::int64_t device, void *host, std::int32_t count, void **bases, void **arguments, std::int64_t *sizes, \
      std::int64_t *types, void **names, void **mappers
#define HETSCALE_TARGET_PASSED loc, device, host, count, bases, arguments, sizes, types, names, mappers
#define HETSCALE_DATA_ARGUMENTS                                                                            \
  void *loc, std::int64_t device, std::int32_t count, void **bases, void **arguments, std::int64_t *sizes, \
      std::int64_t *types, void **names, void **mappers
#define HETSCALE_DATA_PASSED loc, device, count, bases, arguments, sizes, types, names, mappers
#define HETSCALE_DEPENDENCES std::int32_t dependences, void *list, std::int32_t no_alias, void *no_alias_list
#define HETSCALE_DEPENDENCES_PASSED dependences, list, no_alias, no_alias_list

HETSCALE_EXPORT int __tgt_target_mapper(HETSCALE_TARGET_ARGUMENTS) {
  static const auto real = next<decltype(&__tgt_target_mapper)>("__tgt_target_mapper");
  return in_runtime([&] { return real(HETSCALE_TARGET_PASSED); });
}

HETSCALE_EXPORT int __tgt_target_nowait_mapper(HETSCALE_TARGET_ARGUMENTS, HETSCALE_DEPENDENCES) {
  static const auto real = next<decltype(&__tgt_target_nowait_mapper)>("__tgt_target_nowait_mapper");
  return in_runtime([&] { return real(HETSCALE_TARGET_PASSED, HETSCALE_DEPENDENCES_PASSED); });
}

HETSCALE_EXPORT int __tgt_target_teams_mapper(HETSCALE_TARGET_ARGUMENTS, std::int32_t teams, std::int32_t limit) {
  static const auto real = next<decltype(&__tgt_target_teams_mapper)>("__tgt_target_teams_mapper");
  return in_runtime([&] { return real(HETSCALE_TARGET_PASSED, teams, limit); });
}

HETSCALE_EXPORT int __tgt_target_teams_nowait_mapper(HETSCALE_TARGET_ARGUMENTS, std::int32_t teams, std::int32_t limit,
                                                     HETSCALE_DEPENDENCES) {
  static const auto real = next<decltype(&__tgt_target_teams_nowait_mapper)>("__tgt_target_teams_nowait_mapper");
  return in_runtime([&] { return real(HETSCALE_TARGET_PASSED, teams, limit, HETSCALE_DEPENDENCES_PASSED); });
}

// A target data construct's entry points: NAME and NAME's nowait form.
#define HETSCALE_TARGET_DATA(NAME, NOWAIT)                                        \
  HETSCALE_EXPORT void NAME(HETSCALE_DATA_ARGUMENTS) {                            \
    static const auto real = next<decltype(&NAME)>(#NAME);                        \
    in_runtime([&] { real(HETSCALE_DATA_PASSED); });                              \
  }                                                                               \
  HETSCALE_EXPORT void NOWAIT(HETSCALE_DATA_ARGUMENTS, HETSCALE_DEPENDENCES) {    \
    static const auto real = next<decltype(&NOWAIT)>(#NOWAIT);                    \
    in_runtime([&] { real(HETSCALE_DATA_PASSED, HETSCALE_DEPENDENCES_PASSED); }); \
  }

HETSCALE_TARGET_DATA(__tgt_target_data_begin_mapper, __tgt_target_data_begin_nowait_mapper)
HETSCALE_TARGET_DATA(__tgt_target_data_end_mapper, __tgt_target_data_end_nowait_mapper)
HETSCALE_TARGET_DATA(__tgt_target_data_update_mapper, __tgt_target_data_update_nowait_mapper)
