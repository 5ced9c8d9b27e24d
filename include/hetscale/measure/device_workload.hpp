#pragma once
// A device's share of a workload, for its functional performance model: the
// kernel offloaded to an OpenMP target device (hetscale/programs/
// device_kernels.h, loaded from libhetscale_device_kernels.so at run time:
// hetscale is built with GCC, the kernels by clang's offload, and LLVM's
// OpenMP runtime stays out of every command that measures no device), or a
// user's command that offloads its own. The copies to and from the device
// are part of the device's time.
#include <cstddef>
#include <memory>
#include <string>

#include "hetscale/measure/speed_function_benchmark.hpp"

namespace hetscale::measure {

class DeviceKernels {
 public:
  // std::invalid_argument naming the library when it cannot be loaded or
  // lacks the kernels' entry points.
  explicit DeviceKernels(const std::string& library);
  DeviceKernels(const DeviceKernels&) = delete;
  DeviceKernels& operator=(const DeviceKernels&) = delete;
  ~DeviceKernels();

  int devices() const;  // the target devices the OpenMP runtime offers
  // Rows [0, rows) of C = A B on `device` (device_kernels.h); false when the
  // runtime ran them on the host instead.
  bool multiply(const double* a, const double* b, double* c, std::size_t rows, std::size_t order, int device) const;

 private:
  void* handle_ = nullptr;
  int (*count_)() = nullptr;
  int (*multiply_)(const double*, const double*, double*, long, long, int) = nullptr;
};

// Device `device`'s share of `size` rows:
//   mm:              rows of C = A B (order N) offloaded through `kernels`;
//   command:PROGRAM: PROGRAM run by /bin/sh with {size} and {device}
//                    replaced (the user's own offloaded kernel).
// std::invalid_argument for another kernel name (allowed: mm,
// command:PROGRAM), N = 0, mm without kernels, a device the runtime does not
// offer, or (at the first share) a kernel the runtime ran on the host.
ShareWorkload device_share_workload(const std::string& kernel, std::size_t order, std::size_t largest_size, int device,
                                    std::shared_ptr<const DeviceKernels> kernels);

}  // namespace hetscale::measure
