// hetscale partition, model fpm and bench fpm: sharing units of work by
// functional performance models, and measuring them (docs/partitioning.md).
#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/distribute/functional_partition.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/mpi/speed_functions.hpp"
#include "hetscale/analysis/thread_partition.hpp"
#include "hetscale/report/partition_report.hpp"

namespace hetscale::cli {

Output run_partition(const Arguments& arguments) {
  const SpeedModel model = read_partition_model(arguments.text("--model"));
  const std::size_t units = arguments.whole("--units");
  if (units == 0) throw InputError("--units", "", "must be a whole number >= 1, got 0");
  const auto algorithm =
      named_choice(distribute::partition_algorithm_from_string, arguments.text("--algorithm"), "--algorithm");
  try {
    const auto report = report::make_partition_report(model, arguments.text("--model"), units, algorithm,
                                                      arguments.flag("--extrapolate"));
    return {arguments.flag("--json") ? report::partition_json(report) : report::partition_text(report)};
  } catch (const std::invalid_argument& error) {
    throw InputError(
        "--units", "",
        fmt::format("{}{}", error.what(),
                    algorithm == distribute::PartitionAlgorithm::exhaustive ? "" : " (--extrapolate to take them so)"));
  }
}

Output run_model_fpm(const Arguments& arguments) {
  const SpeedModel model = read_speed_model(arguments.text("MODEL"));
  std::vector<double> sizes;
  if (arguments.given("--sizes"))
    for (const std::size_t size : io::parse_size_list(arguments.text("--sizes"), "--sizes"))
      sizes.push_back(static_cast<double>(size));
  return {arguments.flag("--json") ? report::speed_model_view_json(model, sizes)
                                   : report::speed_model_text(model, sizes)};
}

int run_bench_fpm(const Arguments& arguments, int& argc, char**& argv) {
  mpi::SpeedFunctionBenchmark benchmark;
  return mpi::run_on_every_rank(
      argc, argv,
      [&](int, int ranks) {
        benchmark.kernel = arguments.text("--kernel");
        benchmark.order = arguments.whole("--order");
        benchmark.sizes = io::parse_size_list(arguments.text("--sizes"), "--sizes");
        benchmark.emulated_speeds = io::parse_emulated_speeds(arguments.text("--speeds"), "--speeds", ranks);
        benchmark.one_at_a_time = !arguments.flag("--all-at-once");
        benchmark.precision.relative_half_width = arguments.number("--precision");
        benchmark.precision.max_repetitions = arguments.whole("--max-repetitions");
        benchmark.precision.max_seconds = arguments.number("--max-seconds");
        benchmark.device_kernel = arguments.text("--device");
        benchmark.device_library = helper_path("libhetscale_device_kernels.so");
        with_options_named(
            {"kernel", "order", "sizes", "speeds", "precision", "max-repetitions", "max-seconds", "device"},
            [&] { mpi::validate_speed_function_benchmark(benchmark, ranks); });
      },
      [&](int, int) {
        const auto model = mpi::measure_speed_functions(benchmark);
        if (!model) return 0;
        return print(written_and_shown(speed_model_json(*model), arguments.text("--out"), arguments.flag("--json"),
                                       [&] { return report::speed_model_text(*model, {}); }));
      });
}

}  // namespace hetscale::cli
