// libomptarget.rtl.x86_64.so as `hetscale measure` puts it first in the
// measured program's LD_LIBRARY_PATH: LLVM's offload runtime (libomptarget)
// opens its device plugins by name, and this one stands in for its host
// plugin, which runs OpenMP target regions on this machine's CPUs as
// devices. Every call goes to the real plugin (its path found when hetscale
// was built); the calls that are a device's work, a kernel run
// (run_target_region, run_target_team_region) and a copy between host and
// device memory (data_submit: to the device, data_retrieve: from it), are
// timed and told to the interposition library (device_activity.hpp) when it
// is loaded: what CUPTI's activity records give for a CUDA device, every
// kernel and copy the runtime made, with its bytes. It exports the host
// plugin's ten functions and no more (libomptarget looks for others, and
// would call them).
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "device_activity.hpp"

namespace {

using hetscale::offload::Activity;

void* real_plugin() {
  static void* const library = [] {
    void* opened = dlopen(HETSCALE_OMPTARGET_HOST_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    if (!opened) {  // libomptarget cannot run a target region without it
      std::fprintf(stderr, "hetscale: cannot open LLVM's offload host plugin %s: %s\n", HETSCALE_OMPTARGET_HOST_PLUGIN,
                   dlerror());
      std::abort();
    }
    return opened;
  }();
  return library;
}

template <class Function>
Function real(const char* name) {
  return reinterpret_cast<Function>(dlsym(real_plugin(), name));
}

double seconds_now() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Tells the interposition library, when it is loaded, what the device did since `began`.
void tell(std::int32_t device, Activity kind, double began, std::int64_t bytes) {
  static const auto sink =
      reinterpret_cast<hetscale::offload::ActivitySink>(dlsym(RTLD_DEFAULT, hetscale::offload::activity_sink));
  if (sink) sink(device, static_cast<int>(kind), seconds_now() - began, bytes);
}

// Runs `call` (a device's kernel or copy) and tells what it did.
template <class Call>
std::int32_t told(std::int32_t device, Activity kind, std::int64_t bytes, Call call) {
  const double began = seconds_now();
  const std::int32_t result = call();
  tell(device, kind, began, bytes);
  return result;
}

}  // namespace

#define HETSCALE_EXPORT extern "C" __attribute__((visibility("default")))
// The real plugin's function NAME, looked up once.
#define HETSCALE_REAL(NAME) static const auto real_##NAME = real<decltype(&NAME)>(#NAME)

HETSCALE_EXPORT std::int32_t __tgt_rtl_is_valid_binary(void* image) {
  HETSCALE_REAL(__tgt_rtl_is_valid_binary);
  return real___tgt_rtl_is_valid_binary(image);
}

HETSCALE_EXPORT std::int32_t __tgt_rtl_number_of_devices() {
  HETSCALE_REAL(__tgt_rtl_number_of_devices);
  return real___tgt_rtl_number_of_devices();
}

HETSCALE_EXPORT std::int32_t __tgt_rtl_init_device(std::int32_t device) {
  HETSCALE_REAL(__tgt_rtl_init_device);
  return real___tgt_rtl_init_device(device);
}

HETSCALE_EXPORT void* __tgt_rtl_load_binary(std::int32_t device, void* image) {
  HETSCALE_REAL(__tgt_rtl_load_binary);
  return real___tgt_rtl_load_binary(device, image);
}

HETSCALE_EXPORT void* __tgt_rtl_data_alloc(std::int32_t device, std::int64_t size, void* host, std::int32_t kind) {
  HETSCALE_REAL(__tgt_rtl_data_alloc);
  return real___tgt_rtl_data_alloc(device, size, host, kind);
}

HETSCALE_EXPORT std::int32_t __tgt_rtl_data_delete(std::int32_t device, void* target) {
  HETSCALE_REAL(__tgt_rtl_data_delete);
  return real___tgt_rtl_data_delete(device, target);
}

HETSCALE_EXPORT std::int32_t __tgt_rtl_data_submit(std::int32_t device, void* target, void* host, std::int64_t size) {
  HETSCALE_REAL(__tgt_rtl_data_submit);
  return told(device, Activity::to_device, size,
              [&] { return real___tgt_rtl_data_submit(device, target, host, size); });
}

HETSCALE_EXPORT std::int32_t __tgt_rtl_data_retrieve(std::int32_t device, void* host, void* target, std::int64_t size) {
  HETSCALE_REAL(__tgt_rtl_data_retrieve);
  return told(device, Activity::from_device, size,
              [&] { return real___tgt_rtl_data_retrieve(device, host, target, size); });
}

HETSCALE_EXPORT std::int32_t __tgt_rtl_run_target_region(std::int32_t device, void* entry, void** arguments,
                                                         std::ptrdiff_t* offsets, std::int32_t count) {
  HETSCALE_REAL(__tgt_rtl_run_target_region);
  return told(device, Activity::kernel, 0,
              [&] { return real___tgt_rtl_run_target_region(device, entry, arguments, offsets, count); });
}

HETSCALE_EXPORT std::int32_t __tgt_rtl_run_target_team_region(std::int32_t device, void* entry, void** arguments,
                                                              std::ptrdiff_t* offsets, std::int32_t count,
                                                              std::int32_t teams, std::int32_t thread_limit,
                                                              std::uint64_t trip_count) {
  HETSCALE_REAL(__tgt_rtl_run_target_team_region);
  return told(device, Activity::kernel, 0, [&] {
    return real___tgt_rtl_run_target_team_region(device, entry, arguments, offsets, count, teams, thread_limit,
                                                 trip_count);
  });
}
