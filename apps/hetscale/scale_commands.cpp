// hetscale scale psi | predict | fit: Chen et al. 2008's isospeed-efficiency
// scalability from sweeps, configuration files and communication profiles
// (docs/scalability.md). No MPI: `scale sweep` is in kernel_commands.cpp.
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/model/isospeed.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/record/comm_profile.hpp"
#include "hetscale/record/step_costs.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/report/isospeed_report.hpp"

namespace hetscale::cli {
namespace {

std::vector<Sweep> read_sweeps(const std::vector<std::string>& paths) {
  std::vector<Sweep> sweeps;
  for (const auto& path : paths) sweeps.push_back(read_sweep(path));
  return sweeps;
}

// A kernel named on the command line, one with a workload W(N).
std::string kernel_option(const std::string& kernel) {
  named_choice(model::kernel_workload, kernel, "--kernel");
  return kernel;
}

// Where psi and predict read their configurations: a CSV file (with --kernel,
// or --program and --workload) or sweep files (which carry their workload).
struct ConfigurationInputs {
  std::vector<std::string> sweeps;
  std::string kernel, program, workload, configs;
  explicit ConfigurationInputs(const Arguments& arguments)
      : sweeps(arguments.texts("SWEEP")),
        kernel(arguments.text("--kernel")),
        program(arguments.text("--program")),
        workload(arguments.text("--workload")),
        configs(arguments.text("--configs")) {}
};

// The workload of a CSV configurations file: --kernel, or --program with --workload; sweeps not taken with it.
ProgramWorkload configs_workload(const ConfigurationInputs& inputs, std::string_view kernels) {
  if (!inputs.sweeps.empty()) throw InputError("--configs", "", "give a configurations file or sweep files, not both");
  if (inputs.kernel.empty() == inputs.program.empty())
    throw InputError(
        inputs.kernel.empty() ? "--kernel" : "--program", "",
        fmt::format("give one of --kernel ({}) and --program NAME --workload EXPR with --configs", kernels));
  if (!inputs.kernel.empty()) {
    if (!inputs.workload.empty())
      throw InputError("--workload", "", fmt::format("goes with --program; kernel {} has its own W(N)", inputs.kernel));
    return kernel_workload_of(kernel_option(inputs.kernel), "--kernel", "");
  }
  if (inputs.workload.empty())
    throw InputError(
        "--workload", "",
        fmt::format("is required with --program {} --configs: W(N) as an expression in N, e.g. 2*N^3", inputs.program));
  return program_workload(inputs.program, inputs.workload, "--workload");
}

// Sweeps carry their workload: --kernel, if given, must agree, and --program/--workload are not taken.
void sweeps_only(const ConfigurationInputs& inputs, const std::vector<Sweep>& sweeps) {
  if (!inputs.program.empty() || !inputs.workload.empty())
    throw InputError(inputs.program.empty() ? "--workload" : "--program", "",
                     "applies to --configs only; sweeps carry their program and workload");
  if (!inputs.kernel.empty() && kernel_option(inputs.kernel) != sweeps.front().kernel)
    throw InputError(
        "--kernel", "",
        fmt::format("is {} but {} is a sweep of {}", inputs.kernel, sweeps.front().source, sweeps.front().kernel));
}

// --- scale psi -------------------------------------------------------------------
}  // namespace

Output run_scale_psi(const Arguments& arguments) {
  const ConfigurationInputs command(arguments);
  PsiTable table;
  if (!command.configs.empty()) {
    table = isospeed_psi(configs_workload(command, "ge, mm or conv"), read_configurations(command.configs));
  } else {
    if (command.sweeps.empty())
      throw InputError("scale psi", "",
                       "needs --kernel ge|mm|conv --configs FILE (or --program NAME --workload EXPR --configs FILE), "
                       "or two or more sweep files");
    const auto sweeps = read_sweeps(command.sweeps);
    sweeps_only(command, sweeps);
    table = psi_from_sweeps(sweeps);
  }
  return {arguments.flag("--json") ? report::psi_json(table) : report::psi_table(table)};
}

// --- scale predict ----------------------------------------------------------------
// --profile is required unless --step-costs gives T_o.
const std::string& profile_option(const std::string& profile) {
  if (profile.empty())
    throw InputError("--profile", "",
                     "is required: the communication costs of T_o (bench comm), or the kernel's steps --step-costs");
  return profile;
}

Output run_scale_predict(const Arguments& arguments) {
  const ConfigurationInputs command(arguments);
  const auto &profile_path = arguments.text("--profile"), &step_costs = arguments.text("--step-costs");
  const auto &base = arguments.text("--base"), &overhead = arguments.text("--overhead");
  IsospeedPrediction prediction;
  if (!command.configs.empty()) {
    const auto workload = configs_workload(command, "ge or mm");
    if (!step_costs.empty())
      throw InputError("--step-costs", "", "applies to sweeps (ge's or mm's, one file per sweep), not to --configs");
    const auto profile = read_comm_profile(profile_option(profile_path));
    prediction = with_options_named({"kernel", "workload", "configs", "overhead", "base"}, [&] {
      return predict_isospeed(profile.costs, workload, read_configurations(command.configs), base, overhead);
    });
    prediction.profile_source = profile.source;
  } else {
    if (command.sweeps.size() < 2)
      throw InputError("scale predict", "",
                       "needs --configs FILE --kernel ge|mm (or --program NAME --workload EXPR --overhead EXPR), or "
                       "two or more sweep files (the first is the base)");
    if (!command.kernel.empty() || !base.empty())
      throw InputError(command.kernel.empty() ? "--base" : "--kernel", "",
                       "applies to --configs only; with sweeps the kernel is theirs and the first sweep is the base");
    const auto sweeps = read_sweeps(command.sweeps);
    sweeps_only(command, sweeps);
    if (!step_costs.empty()) {
      if (!profile_path.empty() || !overhead.empty())
        throw InputError(profile_path.empty() ? "--overhead" : "--profile", "",
                         "and --step-costs are two ways to T_o; give one");
      std::vector<StepCosts> costs;
      for (const auto path : io::split_at(step_costs, ',')) costs.push_back(read_step_costs(std::string(path)));
      prediction = with_options_named({"step-costs"}, [&] { return predict_from_step_costs(sweeps, costs); });
    } else {
      const auto profile = read_comm_profile(profile_option(profile_path));
      prediction = with_options_named({"overhead"}, [&] { return predict_from_sweeps(profile, sweeps, overhead); });
    }
  }
  return {arguments.flag("--json") ? report::prediction_json(prediction) : report::prediction_table(prediction)};
}

// --- scale fit ---------------------------------------------------------------------
Output run_scale_fit(const Arguments& arguments) {
  const std::size_t degree =
      arguments.given("--degree") ? io::parse_count(arguments.text("--degree"), "--degree") : default_trend_degree;
  const double target = io::parse_one_number(arguments.text("--target"), "--target");
  CsvSweepOptions csv;  // what a CSV sweep leaves out
  csv.marked_speed = arguments.text("--marked-speed");
  csv.kernel = arguments.text("--kernel");
  csv.program = arguments.text("--program");
  csv.workload = arguments.text("--workload");
  csv.configuration = arguments.text("--configuration");
  const auto& out = arguments.text("--out");
  Sweep sweep = with_options_named({"marked-speed", "kernel", "configuration", "program", "workload"},
                                   [&] { return read_sweep_file(arguments.text("--sweep"), csv); });
  sweep.trend = with_options_named({"degree"}, [&] { return fit_speed_efficiency_trend(sweep, degree); });
  auto found = with_options_named({"target"}, [&] { return find_target_size(sweep, *sweep.trend, target); });
  // The verifying runs stay with the sweep when they were run for the same target E_s.
  if (sweep.target && sweep.target->verified && sweep.target->speed_efficiency == target) {
    found.verified = sweep.target->verified;
    found.verifying_runs = sweep.target->verifying_runs;
  }
  sweep.target = found;
  return written_and_shown(sweep_json(sweep), out, arguments.flag("--json"), [&] {
    return report::sweep_fit_table(sweep) +
           (out.empty() ? "" : fmt::format("sweep with its trend line and target written to {}\n", out));
  });
}

}  // namespace hetscale::cli
