// hetscale scale psi | predict | fit: Chen et al. 2008's isospeed-efficiency
// scalability from sweeps, configuration files and communication profiles
// (docs/scalability.md). No MPI: `scale sweep` is in kernel_commands.cpp.
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/model/isospeed.hpp"
#include "hetscale/record/comm_profile.hpp"
#include "hetscale/record/step_costs.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/report/isospeed_report.hpp"

namespace hetscale::cli {
namespace {

std::vector<Sweep> read_sweeps(const Arguments& arguments) {
  std::vector<Sweep> sweeps;
  for (const auto& path : arguments.texts("SWEEP")) sweeps.push_back(read_sweep(path));
  return sweeps;
}

// A kernel named on the command line, one with a workload W(N).
std::string kernel_option(const std::string& kernel) {
  named_choice(model::kernel_workload, kernel, "--kernel");
  return kernel;
}

// The workload of a CSV configurations file: --kernel's (one of `kernels`),
// or --program's --workload (the list's rules refuse the rest).
ProgramWorkload configs_workload(const Arguments& arguments, std::string_view kernels) {
  const auto &kernel = arguments.text("--kernel"), &program = arguments.text("--program");
  if (!kernel.empty()) return kernel_workload_of(kernel_option(kernel), "--kernel", "");
  if (program.empty())
    throw InputError(
        "--kernel", "",
        fmt::format("give one of --kernel ({}) and --program NAME --workload EXPR with --configs", kernels));
  if (!arguments.given("--workload"))
    throw InputError(
        "--workload", "",
        fmt::format("is required with --program {} --configs: W(N) as an expression in N, e.g. 2*N^3", program));
  return program_workload(program, arguments.text("--workload"), "--workload");
}

// Two or more sweeps (they carry their workload): --kernel, if given, must agree.
std::vector<Sweep> sweeps_only(const Arguments& arguments, std::size_t at_least, const char* command,
                               const char* needs) {
  if (arguments.texts("SWEEP").size() < at_least) throw InputError(command, "", needs);
  auto sweeps = read_sweeps(arguments);
  const auto& kernel = arguments.text("--kernel");
  if (!kernel.empty() && kernel_option(kernel) != sweeps.front().kernel)
    throw InputError(
        "--kernel", "",
        fmt::format("is {} but {} is a sweep of {}", kernel, sweeps.front().source, sweeps.front().kernel));
  return sweeps;
}

// --profile is required unless --step-costs gives T_o.
CommProfile profile_option(const Arguments& arguments) {
  if (!arguments.given("--profile"))
    throw InputError("--profile", "",
                     "is required: the communication costs of T_o (bench comm), or the kernel's steps --step-costs");
  return read_comm_profile(arguments.text("--profile"));
}

}  // namespace

Output run_scale_psi(const Arguments& arguments) {
  const auto& configs = arguments.text("--configs");
  const PsiTable table =
      configs.empty() ? psi_from_sweeps(sweeps_only(arguments, 1, "scale psi",
                                                    "needs --kernel ge|mm|conv --configs FILE (or --program NAME "
                                                    "--workload EXPR --configs FILE), or two or more sweep files"))
                      : isospeed_psi(configs_workload(arguments, "ge, mm or conv"), read_configurations(configs));
  return {arguments.flag("--json") ? report::psi_json(table) : report::psi_table(table)};
}

Output run_scale_predict(const Arguments& arguments) {
  const auto &configs = arguments.text("--configs"), &overhead = arguments.text("--overhead");
  IsospeedPrediction prediction;
  if (!configs.empty()) {
    const auto workload = configs_workload(arguments, "ge or mm");
    const auto profile = profile_option(arguments);
    prediction = with_options_named({"kernel", "workload", "configs", "overhead", "base"}, [&] {
      return predict_isospeed(profile.costs, workload, read_configurations(configs), arguments.text("--base"),
                              overhead);
    });
    prediction.profile_source = profile.source;
  } else {
    const auto sweeps = sweeps_only(arguments, 2, "scale predict",
                                    "needs --configs FILE --kernel ge|mm (or --program NAME --workload "
                                    "EXPR --overhead EXPR), or two or more sweep files (the first is the base)");
    if (arguments.given("--step-costs")) {
      std::vector<StepCosts> costs;
      for (const auto path : io::split_at(arguments.text("--step-costs"), ','))
        costs.push_back(read_step_costs(std::string(path)));
      prediction = with_options_named({"step-costs"}, [&] { return predict_from_step_costs(sweeps, costs); });
    } else {
      const auto profile = profile_option(arguments);
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
