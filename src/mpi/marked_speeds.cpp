#include "hetscale/mpi/marked_speeds.hpp"

#include <mpi.h>

#include <cstddef>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "hetscale/io/host_and_time.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/mpi/kernels.hpp"

namespace hetscale::mpi {

std::vector<double> given_marked_speeds(const MarkedSpeedOptions& options, int ranks) {
  if (!options.platform.empty() && !options.list.empty())
    throw InputError("marked", "", "give the marked speeds in a platform file or as a list, not both");
  std::vector<double> speeds;
  if (!options.list.empty()) speeds = io::parse_positive_list(options.list, "marked-speeds");
  if (!options.platform.empty()) speeds = read_marked_speeds(options.platform);
  if (!speeds.empty() && speeds.size() != static_cast<std::size_t>(ranks))
    throw InputError(options.platform.empty() ? "marked-speeds" : options.platform, "",
                     fmt::format("has {} marked speeds for {} MPI ranks; give one per rank", speeds.size(), ranks));
  if (!(options.seconds > 0.0 && options.seconds <= 60.0))
    throw InputError("speed-seconds", "", fmt::format("must be in (0, 60], got {:g}", options.seconds));
  return speeds;
}

std::vector<double> marked_speeds_for_run(std::vector<double> given, const std::vector<double>& emulated,
                                          double seconds) {
  if (!given.empty()) return given;
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const double own = emulated.empty() ? 1.0 : emulated[static_cast<std::size_t>(rank)];
  const auto measured = measure_marked_speeds(own, seconds);
  std::vector<double> speeds(static_cast<std::size_t>(ranks));
  if (measured)
    for (std::size_t r = 0; r < speeds.size(); ++r) speeds[r] = (*measured)[r].marked_mflops;
  share_from_rank_zero(speeds);
  return speeds;
}

MeasuredPlatform measured_speed_platform(const std::vector<measure::SpeedMeasurement>& measured,
                                         const std::vector<double>& emulated, const std::string& name) {
  MeasuredPlatform out;
  out.platform.name = name;
  out.platform.speed_kind = SpeedKind::marked;
  const std::string host = io::host_name();
  for (std::size_t r = 0; r < measured.size(); ++r) {
    PlatformNode node;
    node.name = fmt::format("{}:{}", host, r);
    node.speed = measured[r].marked_mflops;
    out.platform.nodes.push_back(node);
    out.kernel_mflops.emplace_back();
    for (const auto& kernel : measured[r].kernels) out.kernel_mflops.back().push_back(kernel.mflops);
  }
  out.description = fmt::format(
      "marked speeds measured by `hetscale bench speed` on {} ranks: the average of the elimination, dgemm and fft "
      "kernels' Mflop/s; emulated relative speeds {}",
      measured.size(), emulated.empty() ? std::string("none") : fmt::format("{}", fmt::join(emulated, ",")));
  return out;
}

}  // namespace hetscale::mpi
