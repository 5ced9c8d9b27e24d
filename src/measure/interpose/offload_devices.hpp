#pragma once
// A rank's offloaded work: what its devices did (each kernel run and each
// copy between host and device memory, as the offload runtime's plugin
// tells it: src/measure/offload/device_activity.hpp) and how long its
// threads were in the offload runtime (LLVM's libomptarget entry points,
// which the library wraps: launching target regions, mapping data; the host
// blocked on its devices, TALP's "device runtime" time).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "device_activity.hpp"

namespace hetscale::interpose {

// The rank's devices, eight values each: the device's number, its kernels
// and their seconds, its copies to the device and their bytes, its copies
// from it and their bytes, and the copies' seconds.
std::vector<double> device_rows();
constexpr std::size_t device_values = 8;

// The rank's time in the offload runtime's entry points (s), of it the
// time its threads waited for a CPU there (s), and their calls.
struct OffloadRuntime {
  double seconds = 0.0, waited_for_cpu = 0.0, calls = 0.0;
  double on_mpi_threads = 0.0;  // of the seconds, on threads that called MPI (in their rank timeline)
};
OffloadRuntime offload_runtime();

// A device's kernel or copy (seconds, bytes), and a call of the host into a
// device runtime that its records time (seconds), as a backend saw them:
// counted while the rank is measured.
void device_activity_seen(int device, offload::Activity kind, double seconds, std::int64_t bytes);
void device_runtime_seen(double seconds);

}  // namespace hetscale::interpose
