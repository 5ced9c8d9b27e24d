#include "hetscale/measure/device_workload.hpp"

#include <dlfcn.h>
#include <stdlib.h>

#include <stdexcept>
#include <vector>

#include <fmt/core.h>

#include "hetscale/programs/kernels/dense.hpp"

namespace hetscale::measure {

DeviceKernels::DeviceKernels(const std::string& library) {
  // The runtime's threads sleep as soon as a kernel ends, unless the user
  // says otherwise: spinning for LLVM's default 200 ms, they would take the
  // CPU of the cores measured after them, or of another rank measuring.
  setenv("KMP_BLOCKTIME", "0", 0);
  handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) throw std::invalid_argument(fmt::format("{}: cannot be loaded: {}", library, dlerror()));
  count_ = reinterpret_cast<int (*)()>(dlsym(handle_, "hetscale_device_count"));
  multiply_ = reinterpret_cast<int (*)(const double*, const double*, double*, long, long, int)>(
      dlsym(handle_, "hetscale_device_multiply"));
  if (!count_ || !multiply_) {
    dlclose(handle_);
    throw std::invalid_argument(fmt::format(
        "{}: has no hetscale_device_count / hetscale_device_multiply (not hetscale's device kernels)", library));
  }
}

// The OpenMP runtime it loaded stays: its threads may outlive an unload.
DeviceKernels::~DeviceKernels() = default;

int DeviceKernels::devices() const { return count_(); }

bool DeviceKernels::multiply(const double* a, const double* b, double* c, std::size_t rows, std::size_t order,
                             int device) const {
  return multiply_(a, b, c, static_cast<long>(rows), static_cast<long>(order), device) == 1;
}

ShareWorkload device_share_workload(const std::string& kernel, std::size_t order, std::size_t largest_size, int device,
                                    std::shared_ptr<const DeviceKernels> kernels) {
  if (device < 0) throw std::invalid_argument(fmt::format("a device number must be >= 0, got {}", device));
  if (kernel.rfind("command:", 0) == 0)
    return share_workload(with_field(kernel, "{device}", std::to_string(device)), order, largest_size);
  if (kernel != "mm")
    throw std::invalid_argument(fmt::format("unknown device kernel '{}'; allowed: mm, command:PROGRAM", kernel));
  if (order == 0) throw std::invalid_argument("the problem's order N must be >= 1, got 0");
  if (!kernels) throw std::invalid_argument("the device kernel mm needs hetscale's device kernels library");
  if (device >= kernels->devices())
    throw std::invalid_argument(
        fmt::format("device {}: the OpenMP runtime offers {} target devices", device, kernels->devices()));
  namespace dense = programs::kernels;
  auto a = std::make_shared<std::vector<double>>(dense::generate_matrix(largest_size, order, 21));
  auto b = std::make_shared<std::vector<double>>(dense::generate_matrix(order, order, 22));
  auto c = std::make_shared<std::vector<double>>(largest_size * order);
  if (!kernels->multiply(a->data(), b->data(), c->data(), 1, order, device))
    throw std::invalid_argument(fmt::format("device {}: the OpenMP runtime ran the kernel on the host", device));
  return [a, b, c, order, device, kernels](std::size_t size, EmulatedProcessor& processor) {
    processor.compute([&] { kernels->multiply(a->data(), b->data(), c->data(), size, order, device); });
  };
}

}  // namespace hetscale::measure
