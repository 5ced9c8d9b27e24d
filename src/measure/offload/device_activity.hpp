#pragma once
// What a device did, as an offload runtime's plugin tells the interposition
// library (src/measure/offload/host_plugin.cpp tells it; offload_devices.cpp
// in the library counts it): one call of
//   extern "C" void hetscale_device_activity(int device, int kind, double seconds, int64_t bytes)
// for each kernel run and each transfer between host and device memory.
#include <cstdint>

namespace hetscale::offload {

enum class Activity : int {
  kernel = 0,       // a kernel ran on the device (bytes 0)
  to_device = 1,    // host memory copied to the device's
  from_device = 2,  // the device's memory copied to the host's
};
inline constexpr int activity_kinds = 3;

inline constexpr const char* activity_sink = "hetscale_device_activity";
using ActivitySink = void (*)(int device, int kind, double seconds, std::int64_t bytes);

}  // namespace hetscale::offload
