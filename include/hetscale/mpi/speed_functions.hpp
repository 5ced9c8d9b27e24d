#pragma once
// `hetscale bench fpm`: every rank's functional performance model (its speed
// at each of a list of share sizes, measure/speed_function_benchmark.hpp),
// measured one rank at a time (the others wait: each rank has the machine to
// itself) or all at once (as the ranks run together in a real run), written
// as a hetscale.fpm/1 model. mpi.h stays private to the .cpp file.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/measure/speed_function_benchmark.hpp"
#include "hetscale/platform/speed_model.hpp"

namespace hetscale::mpi {

struct SpeedFunctionBenchmark {
  std::string kernel;                   // ge, mm, conv or command:PROGRAM
  std::size_t order = 0;                // N of the kernels (not used by a command)
  std::vector<std::size_t> sizes;       // share sizes, increasing
  std::vector<double> emulated_speeds;  // one per rank, in (0, 1]; empty: all 1
  bool one_at_a_time = true;
  measure::PointPrecision precision;
  // A device per rank as one more processor (measure/device_workload.hpp):
  // its kernel (mm or command:PROGRAM; empty: no device), rank r's device
  // number r mod the devices offered, and the device kernels library.
  std::string device_kernel;
  std::string device_library;
};

// Every check that needs no communication, for `ranks` ranks: the kernel's
// name (or a command with {size}), N for the kernels, the sizes, one emulated
// speed per rank in (0, 1], the precision in (0, 1), at least 3 repetitions
// and a time > 0. InputError naming the setting (kernel, order, sizes,
// speeds, precision, max-repetitions, max-seconds).
void validate_speed_function_benchmark(const SpeedFunctionBenchmark& benchmark, int ranks);

// Collective. On rank 0 the model (a node per rank, named host:rank, the
// points in `sizes` order, each point's other load; with a device kernel
// each rank's device follows it as a node of its own, named
// host:rank:device-d; the context says how it was measured), std::nullopt
// on the other ranks. A device that cannot run the kernel is an InputError
// on every rank (setting device).
std::optional<SpeedModel> measure_speed_functions(const SpeedFunctionBenchmark& benchmark);

}  // namespace hetscale::mpi
