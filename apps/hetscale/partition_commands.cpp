// hetscale partition and hetscale model fpm: sharing units of work by
// functional performance models (docs/partitioning.md).
#include <string>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/distribute/functional_partition.hpp"
#include "hetscale/io/number_list.hpp"
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

}  // namespace

void add_partition_commands(CLI::App& app, CLI::App& model, Actions& actions) {
  auto partition_command = std::make_shared<PartitionCommand>();
  auto* partition_app = app.add_subcommand(
      "partition",
      "share N units of work by functional performance models (speed as a function of share size): d_1..d_p that "
      "finish together, beside the constant-speed split");
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
