#include "hetscale/mpi/speed_functions.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <fmt/core.h>

#include "hetscale/io/host_and_time.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/measure/device_workload.hpp"
#include "hetscale/measure/speed_function_benchmark.hpp"
#include "hetscale/measure/hold_back.hpp"
#include "hetscale/mpi/farm.hpp"
#include "polite.hpp"
#include "io/provenance_json.hpp"

namespace hetscale::mpi {

namespace {

// A point on the wire: size, speed, interval, repetitions, other load,
// precise, CPU seconds, seconds held back.
constexpr int fields = 8;

}  // namespace

void validate_speed_function_benchmark(const SpeedFunctionBenchmark& benchmark, int ranks) {
  try {  // the kernel's name, a command's {size}
    measure::share_workload(benchmark.kernel, std::max<std::size_t>(benchmark.order, 1), 1);
  } catch (const std::invalid_argument& error) {
    throw InputError("kernel", "", error.what());
  }
  const std::string& device = benchmark.device_kernel;
  if (!device.empty() && device != "mm" &&
      !(device.rfind("command:", 0) == 0 && device.find("{size}") != std::string::npos))
    throw InputError("device", "",
                     fmt::format("'{}': allowed: mm (hetscale's offloaded matrix product) or command:PROGRAM with "
                                 "{{size}} (and {{device}}, the device's number)",
                                 device));
  if (benchmark.kernel.rfind("command:", 0) != 0 && benchmark.order == 0)
    throw InputError("order", "", "the kernels need N, the matrix order or row length (a whole number >= 1)");
  if (benchmark.sizes.empty()) throw InputError("sizes", "", "no sizes given");
  if (!benchmark.emulated_speeds.empty() && benchmark.emulated_speeds.size() != static_cast<std::size_t>(ranks))
    throw InputError("speeds", "",
                     fmt::format("has {} values for {} ranks; give one per rank", benchmark.emulated_speeds.size(),
                                 ranks));
  for (const double speed : benchmark.emulated_speeds)
    if (!(speed > 0.0 && speed <= 1.0)) throw InputError("speeds", "", fmt::format("must be in (0, 1], got {}", speed));
  const auto& precision = benchmark.precision;
  if (!(precision.relative_half_width > 0.0 && precision.relative_half_width < 1.0))
    throw InputError("precision", "", fmt::format("must be in (0, 1), got {}", precision.relative_half_width));
  if (precision.max_repetitions < 3)
    throw InputError("max-repetitions", "", fmt::format("must be >= 3, got {}", precision.max_repetitions));
  if (!(precision.max_seconds > 0.0))
    throw InputError("max-seconds", "", fmt::format("must be > 0, got {}", precision.max_seconds));
}

std::optional<SpeedModel> measure_speed_functions(const SpeedFunctionBenchmark& benchmark) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const double speed =
      benchmark.emulated_speeds.empty() ? 1.0 : benchmark.emulated_speeds[static_cast<std::size_t>(rank)];
  const auto work = measure::share_workload(benchmark.kernel, benchmark.order, benchmark.sizes.back());
  // The rank's device, as one more processor: every rank's must run, or all stop.
  const bool with_device = !benchmark.device_kernel.empty();
  int device = rank;
  measure::ShareWorkload device_work;
  if (with_device)
    on_every_rank_for_all([&] {
      std::shared_ptr<const measure::DeviceKernels> kernels;
      if (benchmark.device_kernel.rfind("command:", 0) != 0) {
        kernels = std::make_shared<const measure::DeviceKernels>(benchmark.device_library);
        if (kernels->devices() < 1) throw InputError("device", "", "the OpenMP runtime offers no target device");
        device = rank % kernels->devices();
      }
      try {
        device_work = measure::device_share_workload(benchmark.device_kernel, benchmark.order, benchmark.sizes.back(),
                                                     device, kernels);
      } catch (const std::invalid_argument& error) {
        throw InputError("device", "", fmt::format("rank {}: {}", rank, error.what()));
      }
    });

  std::vector<double> own;
  // Each point; with a device, each processor's while the other computes a
  // share of the same size (they share the node's caches and memory, as
  // FuPerMod measures a GPU's host cores with the GPU at work).
  auto measure_points = [&](const measure::ShareWorkload& share, double at_speed,
                            const measure::ShareWorkload* partner) {
    for (const std::size_t size : benchmark.sizes) {
      std::atomic<bool> done{false};
      std::thread busy;
      if (partner)
        busy = std::thread([&] {
          measure::EmulatedProcessor at_full_speed(1.0);
          while (!done.load(std::memory_order_relaxed)) (*partner)(size, at_full_speed);
        });
      const auto point = measure::measure_speed_point(share, size, at_speed, benchmark.precision);
      done = true;
      if (busy.joinable()) busy.join();
      own.insert(own.end(), {point.point.size, point.point.speed, point.point.interval,
                             static_cast<double>(point.repetitions), point.other_load, point.precise ? 1.0 : 0.0,
                             point.cpu_seconds, point.held_seconds});
    }
  };
  // A device computes at its own speed: no emulation holds it back.
  auto measure_all = [&] {
    measure_points(work, speed, with_device ? &device_work : nullptr);
    if (with_device) measure_points(device_work, 1.0, &work);
  };
  if (benchmark.one_at_a_time) {
    // Rank r measures while the others wait asleep (a polite barrier: a
    // spinning MPI_Barrier would take the CPU the measured rank needs).
    for (int turn = 0; turn < ranks; ++turn) {
      if (turn == rank) measure_all();
      polite::barrier(MPI_COMM_WORLD);
    }
  } else {
    polite::barrier(MPI_COMM_WORLD);
    measure_all();
  }

  const std::size_t processors = with_device ? 2 : 1;  // per rank: its cores, its device
  const int count = static_cast<int>(benchmark.sizes.size() * processors) * fields;
  std::vector<double> all(rank == 0 ? static_cast<std::size_t>(count) * static_cast<std::size_t>(ranks) : 0);
  polite::gather(own.data(), all.data(), count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<int> devices(rank == 0 ? static_cast<std::size_t>(ranks) : 0);
  polite::gather(&device, devices.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) return std::nullopt;

  SpeedModel model;
  model.unit = benchmark.kernel.rfind("command:", 0) == 0 ? "units" : "rows";
  model.interpolation = benchmark.sizes.size() >= 5 ? model::Interpolation::akima : model::Interpolation::linear;
  const std::string host = io::host_name();
  std::size_t imprecise = 0, repetitions = 0;
  nlohmann::ordered_json achieved = nlohmann::ordered_json::array(), computed = nlohmann::ordered_json::array();
  const std::size_t points = benchmark.sizes.size();
  for (int r = 0; r < ranks; ++r)
    for (std::size_t processor = 0; processor < processors; ++processor) {
      NodeSpeedModel node;
      double cpu = 0.0, held = 0.0;
      node.name = fmt::format("{}:{}", host, r);
      if (processor == 1) {
        node.device = fmt::format("openmp:{}", devices[static_cast<std::size_t>(r)]);
        node.name += ":device-" + std::to_string(devices[static_cast<std::size_t>(r)]);
      }
      for (std::size_t k = 0; k < points; ++k) {
        const double* point =
            all.data() + ((static_cast<std::size_t>(r) * processors + processor) * points + k) * fields;
        node.points.push_back({point[0], point[1], point[2]});
        repetitions += static_cast<std::size_t>(point[3]);
        node.other_load.push_back(point[4]);
        if (point[5] == 0.0) ++imprecise;
        cpu += point[6];
        held += point[7];
      }
      if (processor == 0) {
        achieved.push_back(measure::achieved_speed(cpu, held, 1.0));
        computed.push_back(cpu);
      }
      model.nodes.push_back(std::move(node));
    }
  nlohmann::ordered_json context{{"tool", "hetscale bench fpm"},
                                 {"kernel", benchmark.kernel},
                                 {"order", benchmark.order},
                                 {"ranks", ranks},
                                 {"measured", benchmark.one_at_a_time ? "one rank at a time" : "all ranks at once"},
                                 {"emulated_speeds", benchmark.emulated_speeds},
                                 {"precision", benchmark.precision.relative_half_width},
                                 {"max_repetitions", benchmark.precision.max_repetitions},
                                 {"repetitions", repetitions},
                                 {"points_short_of_precision", imprecise},
                                 {"host", host},
                                 {"date", io::utc_now()}};
  if (with_device)
    context["device"] = {{"kernel", benchmark.device_kernel},
                         {"measured",
                          "the rank's cores while the device computes a share of the same size, then the device "
                          "while the cores do; the copies to and from the device included"}};
  // The speed each rank achieved: its computations' CPU time (cpu_seconds)
  // against that time plus the time they were held back.
  if (!benchmark.emulated_speeds.empty())
    context["emulation"] = {{"mechanism",
                             "hold-back: after each computation, its CPU time (and that of the commands it ran) "
                             "times 1/v - 1 asleep"},
                            {"asked", benchmark.emulated_speeds},
                            {"achieved", achieved},
                            {"cpu_seconds", computed}};
  model.context = io::provenance_from(context);
  return model;
}

}  // namespace hetscale::mpi
