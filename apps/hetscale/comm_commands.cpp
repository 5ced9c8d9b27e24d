// hetscale bench comm and bench steps: Chen et al. 2008 Section 4.5's
// communication costs and a kernel's step costs measured on MPI, printed as
// tables or JSON, written as hetscale.comm-profile/1 and step-costs/1 files.
#include <string>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/analysis/comm_fit.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "hetscale/record/comm_profile.hpp"
#include "hetscale/report/comm_profile_report.hpp"
#include "hetscale/report/isospeed_report.hpp"
#include "hetscale/mpi/comm_benchmark.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/mpi/step_benchmark.hpp"

namespace hetscale::cli {

int run_bench_comm(const Arguments& arguments, int& argc, char**& argv) {
  mpi::CommBenchmarkOptions options;
  const auto& timing = arguments.text("--timing");
  return mpi::run_on_every_rank(
      argc, argv,
      [&](int, int ranks) {
        if (arguments.given("--sizes"))
          options.sizes =
              with_options_named({"sizes"}, [&] { return mpi::parse_message_sizes(arguments.text("--sizes")); });
        if (arguments.given("--repetitions"))
          options.repetitions = io::parse_count(arguments.text("--repetitions"), "--repetitions");
        if (arguments.given("--min-seconds"))
          options.min_seconds = io::parse_one_number(arguments.text("--min-seconds"), "--min-seconds");
        arguments.take("--label", options.label);
        options.timing = with_options_named({"timing"}, [&] { return mpi::parse_comm_timing(timing); });
        with_options_named({"sizes", "repetitions", "min-seconds"},
                           [&] { mpi::validate_comm_benchmark_options(options, ranks); });
        io::check_writable({arguments.text("--out"), arguments.text("--platform-out")});
      },
      [&](int rank, int) {
        auto profile = mpi::run_comm_benchmark(options);
        if (rank != 0) return 0;
        fit_measured_profile(*profile, options.structures);
        if (const auto& path = arguments.text("--platform-out"); !path.empty())
          io::write_file_atomically(path,
                                    platform_json(platform_of_profile(*profile, io::host_name(), io::cores_online())));
        return print(written_and_shown(comm_profile_json(*profile), arguments.text("--out"), arguments.flag("--json"),
                                       [&] { return report::comm_profile_table(*profile); }));
      });
}

int run_bench_steps(const Arguments& arguments, int& argc, char**& argv) {
  mpi::StepBenchmark benchmark;
  const auto& kernel = arguments.text("--kernel");
  const std::size_t steps = arguments.whole("--steps"), fastest_of = arguments.whole("--fastest-of");
  return mpi::run_on_every_rank(
      argc, argv,
      [&](int, int ranks) {
        if (kernel != "ge" && kernel != "mm")
          throw InputError("--kernel", "", fmt::format("unknown kernel '{}'; allowed: ge, mm", kernel));
        benchmark.kernel = kernel;
        benchmark.lengths = io::parse_size_list(arguments.text("--lengths"), "--lengths");
        if (steps < 1) throw InputError("--steps", "", "must be >= 1");
        benchmark.steps = steps;
        if (fastest_of != 1 && kernel != "mm")
          throw InputError("--fastest-of", "", "applies to mm (each step a whole product); ge's steps are summed");
        if (fastest_of < 1 || steps % fastest_of != 0)
          throw InputError("--fastest-of", "",
                           fmt::format("must be >= 1 and divide --steps {}, got {}", steps, fastest_of));
        benchmark.fastest_of = fastest_of;
        benchmark.emulated_speeds = io::parse_emulated_speeds(arguments.text("--speeds"), "--speeds", ranks);
        benchmark.marked_speeds =
            io::parse_per_rank_speeds(arguments.text("--marked-speeds"), "--marked-speeds", ranks);
      },
      [&](int, int) {
        const auto costs = mpi::measure_step_costs(benchmark);
        if (!costs) return 0;
        return print(written_and_shown(step_costs_json(*costs), arguments.text("--out"), arguments.flag("--json"),
                                       [&] { return report::step_costs_table(*costs); }));
      });
}

}  // namespace hetscale::cli
