// hetscale partition and hetscale model fpm: sharing units of work by
// functional performance models (docs/partitioning.md).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/distribute/functional_partition.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/mpi/speed_functions.hpp"
#include "hetscale/platform/speed_model.hpp"
#include "hetscale/report/partition_report.hpp"

namespace hetscale::cli {

namespace {

struct PartitionCommand {
  std::string model, algorithm = "geometric";
  std::size_t units = 0;
  bool extrapolate = false, json = false;
};

Output partition(const PartitionCommand& command) {
  const SpeedModel model = read_speed_model(command.model);
  if (command.units == 0) throw InputError("--units", "", "must be a whole number >= 1, got 0");
  report::PartitionReport report;
  report.model_path = command.model;
  report.model = &model;
  report.units = command.units;
  report.algorithm = named_choice(distribute::partition_algorithm_from_string, command.algorithm, "--algorithm");
  report.extrapolate = command.extrapolate;
  const auto functions = model.functions();
  try {
    report.partition = distribute::partition_by_speed(functions, command.units, report.algorithm, command.extrapolate);
  } catch (const std::invalid_argument& error) {
    throw InputError(
        "--units", "",
        fmt::format(
            "{}{}", error.what(),
            report.algorithm == distribute::PartitionAlgorithm::exhaustive ? "" : " (--extrapolate to take them so)"));
  }
  report.constant =
      distribute::partition_by_speed(functions, command.units, distribute::PartitionAlgorithm::constant, true);
  return {command.json ? report::partition_json(report) : report::partition_text(report)};
}

struct ModelFpmCommand {
  std::string model, sizes;
  bool json = false;
};

Output model_fpm(const ModelFpmCommand& command) {
  const SpeedModel model = read_speed_model(command.model);
  std::vector<double> sizes;
  if (!command.sizes.empty())
    for (const std::size_t size : io::parse_size_list(command.sizes, "--sizes"))
      sizes.push_back(static_cast<double>(size));
  return {command.json ? report::speed_model_view_json(model, sizes) : report::speed_model_text(model, sizes)};
}

struct BenchFpmCommand {
  std::string kernel, sizes, speeds, out;
  std::size_t order = 0;
  bool all_at_once = false, one_at_a_time = false, json = false;
  double precision = 0.05, max_seconds = 10.0;
  std::size_t max_repetitions = 30;
};

int bench_fpm(const BenchFpmCommand& command, int& argc, char**& argv) {
  mpi::SpeedFunctionBenchmark benchmark;
  return run_mpi_command(
      argc, argv,
      [&](int, int ranks) {
        if (command.all_at_once && command.one_at_a_time)
          throw InputError("--all-at-once", "", "and --one-at-a-time are two ways; give one");
        benchmark.kernel = command.kernel;
        benchmark.order = command.order;
        benchmark.sizes = io::parse_size_list(command.sizes, "--sizes");
        benchmark.emulated_speeds = emulated_speeds_option(command.speeds, ranks);
        benchmark.one_at_a_time = !command.all_at_once;
        benchmark.precision.relative_half_width = command.precision;
        benchmark.precision.max_repetitions = command.max_repetitions;
        benchmark.precision.max_seconds = command.max_seconds;
        with_options_named({"kernel", "order", "sizes", "speeds", "precision", "max-repetitions", "max-seconds"},
                           [&] { mpi::validate_speed_function_benchmark(benchmark, ranks); });
      },
      [&](int, int) {
        const auto model = mpi::measure_speed_functions(benchmark);
        if (!model) return 0;
        return print(written_and_shown(speed_model_json(*model), command.out, command.json,
                                       [&] { return report::speed_model_text(*model, {}); }));
      });
}

}  // namespace

void add_bench_fpm_command(CLI::App& bench, Actions& actions) {
  auto command = std::make_shared<BenchFpmCommand>();
  auto* fpm = bench.add_subcommand(
      "fpm",
      "how each rank's speed changes with the size of its share (run under mpiexec): a speed model (functional "
      "performance model) for partition");
  fpm->add_option("--kernel", command->kernel, "ge | mm | conv | command:'PROGRAM {size}'")->required();
  fpm->add_option("--sizes", command->sizes, "share sizes (rows, units): a list or FIRST:LAST:STEP")->required();
  fpm->add_option("--order", command->order, "N: the kernels' matrix order or row length");
  fpm->add_flag("--one-at-a-time", command->one_at_a_time, "one rank measures while the others wait (the default)");
  fpm->add_flag("--all-at-once", command->all_at_once, "every rank measures at the same time");
  fpm->add_option("--speeds", command->speeds, "emulated relative speed per rank, in (0, 1] (or @FILE)");
  fpm->add_option("--precision", command->precision,
                  "a point is repeated until its time's 95 % interval is within this fraction (default 0.05)");
  fpm->add_option("--max-repetitions", command->max_repetitions, "per point (default 30)");
  fpm->add_option("--max-seconds", command->max_seconds, "per point: no repetition begun past it (default 10)");
  fpm->add_option("--out", command->out, "write the model (JSON, hetscale.fpm/1) here");
  fpm->add_flag("--json", command->json, "print the model JSON");
  fpm->callback([command, &actions] {
    actions.mpi_action = [command](int& argc, char**& argv) { return bench_fpm(*command, argc, argv); };
  });
}

void add_partition_commands(CLI::App& partition_command_app, CLI::App& model, Actions& actions) {
  auto partition_command = std::make_shared<PartitionCommand>();
  auto* partition_app = &partition_command_app;
  partition_app->footer(
      "Shares d_1..d_p of the N units that finish together by functional performance models (each node's speed as "
      "a function of its share), beside the split by constant speeds.");
  partition_app->add_option("--model", partition_command->model, "speed model (JSON, hetscale.fpm/1)")->required();
  partition_app->add_option("--units", partition_command->units, "N, the units of work to share")->required();
  partition_app->add_option("--algorithm", partition_command->algorithm,
                            "geometric (default) | numerical | constant | exhaustive (small cases)");
  partition_app->add_flag("--extrapolate", partition_command->extrapolate,
                          "take more units than the models cover, past a node's last size at its last speed");
  partition_app->add_flag("--json", partition_command->json, "print JSON (hetscale.partition/1)");
  partition_app->callback([partition_command, &actions] {
    actions.action = [partition_command] { return partition(*partition_command); };
  });

  auto fpm_command = std::make_shared<ModelFpmCommand>();
  auto* fpm_app = model.add_subcommand("fpm",
                                       "a functional performance model: each node's points, and its "
                                       "interpolated speeds at the sizes asked");
  fpm_app->add_option("MODEL", fpm_command->model, "speed model (JSON, hetscale.fpm/1)")->required();
  fpm_app->add_option("--sizes", fpm_command->sizes, "sizes to interpolate at: a list or FIRST:LAST:STEP");
  fpm_app->add_flag("--json", fpm_command->json, "print JSON (hetscale.fpm-view/1)");
  fpm_app->callback([fpm_command, &actions] { actions.action = [fpm_command] { return model_fpm(*fpm_command); }; });
}

}  // namespace hetscale::cli
