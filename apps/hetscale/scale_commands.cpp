// hetscale scale psi | predict | fit: Chen et al. 2008's isospeed-efficiency
// scalability from sweeps, configuration files and communication profiles
// (docs/scalability.md). No MPI: `scale sweep` is in kernel_commands.cpp.
#include <memory>
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
  bool json = false;
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
Output scale_psi(const ConfigurationInputs& command) {
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
  return {command.json ? report::psi_json(table) : report::psi_table(table)};
}

// --- scale predict ----------------------------------------------------------------
// --profile is required unless --step-costs gives T_o.
const std::string& profile_option(const std::string& profile) {
  if (profile.empty())
    throw InputError("--profile", "",
                     "is required: the communication costs of T_o (bench comm), or the kernel's steps --step-costs");
  return profile;
}

struct PredictCommand : ConfigurationInputs {
  std::string profile, base, overhead, step_costs;
};

Output scale_predict(const PredictCommand& command) {
  IsospeedPrediction prediction;
  if (!command.configs.empty()) {
    const auto workload = configs_workload(command, "ge or mm");
    if (!command.step_costs.empty())
      throw InputError("--step-costs", "", "applies to sweeps (ge's or mm's, one file per sweep), not to --configs");
    const auto profile = read_comm_profile(profile_option(command.profile));
    prediction = with_options_named({"kernel", "workload", "configs", "overhead", "base"}, [&] {
      return predict_isospeed(profile.costs, workload, read_configurations(command.configs), command.base,
                              command.overhead);
    });
    prediction.profile_source = profile.source;
  } else {
    if (command.sweeps.size() < 2)
      throw InputError("scale predict", "",
                       "needs --configs FILE --kernel ge|mm (or --program NAME --workload EXPR --overhead EXPR), or "
                       "two or more sweep files (the first is the base)");
    if (!command.kernel.empty() || !command.base.empty())
      throw InputError(command.kernel.empty() ? "--base" : "--kernel", "",
                       "applies to --configs only; with sweeps the kernel is theirs and the first sweep is the base");
    const auto sweeps = read_sweeps(command.sweeps);
    sweeps_only(command, sweeps);
    if (!command.step_costs.empty()) {
      if (!command.profile.empty() || !command.overhead.empty())
        throw InputError(command.profile.empty() ? "--overhead" : "--profile", "",
                         "and --step-costs are two ways to T_o; give one");
      std::vector<StepCosts> step_costs;
      for (const auto path : io::split_at(command.step_costs, ','))
        step_costs.push_back(read_step_costs(std::string(path)));
      prediction = with_options_named({"step-costs"}, [&] { return predict_from_step_costs(sweeps, step_costs); });
    } else {
      const auto profile = read_comm_profile(profile_option(command.profile));
      prediction =
          with_options_named({"overhead"}, [&] { return predict_from_sweeps(profile, sweeps, command.overhead); });
    }
  }
  return {command.json ? report::prediction_json(prediction) : report::prediction_table(prediction)};
}

// --- scale fit ---------------------------------------------------------------------
struct FitCommand {
  std::string sweep, degree = std::to_string(default_trend_degree), target = "0.3";
  CsvSweepOptions csv;  // what a CSV sweep leaves out
  std::string out;
  bool json = false;
};

Output scale_fit(const FitCommand& command) {
  const std::size_t degree = count_option(command.degree, "--degree");
  const double target = single_number(command.target, "--target");
  Sweep sweep = with_options_named({"marked-speed", "kernel", "configuration", "program", "workload"},
                                   [&] { return read_sweep_file(command.sweep, command.csv); });
  sweep.trend = with_options_named({"degree"}, [&] { return fit_speed_efficiency_trend(sweep, degree); });
  auto found = with_options_named({"target"}, [&] { return find_target_size(sweep, *sweep.trend, target); });
  // The verifying runs stay with the sweep when they were run for the same target E_s.
  if (sweep.target && sweep.target->verified && sweep.target->speed_efficiency == target) {
    found.verified = sweep.target->verified;
    found.verifying_runs = sweep.target->verifying_runs;
  }
  sweep.target = found;
  return written_and_shown(sweep_json(sweep), command.out, command.json, [&] {
    return report::sweep_fit_table(sweep) +
           (command.out.empty() ? "" : fmt::format("sweep with its trend line and target written to {}\n", command.out));
  });
}

}  // namespace

void add_scale_commands(CLI::App& scale, Actions& actions) {
  auto psi = std::make_shared<ConfigurationInputs>();
  auto* psi_command = scale.add_subcommand(
      "psi",
      "how scalable the program is from one configuration to the next: isospeed-efficiency psi(C, C') from sweeps "
      "or a CSV file (Chen et al. 2008, Definition 3)");
  psi_command->add_option("SWEEP", psi->sweeps,
                          "sweep files (hetscale.sweep/1) in scaling order, each with a target N");
  psi_command->add_option("--kernel", psi->kernel, "ge | mm | conv: the workload W(N) (with --configs)");
  psi_command->add_option("--program", psi->program, "your program's name, instead of --kernel (with --configs)");
  psi_command->add_option("--workload", psi->workload, "your program's W(N), an expression in N: 2*N^3 + 40*N^2");
  psi_command->add_option("--configs", psi->configs,
                          "CSV with the header name,marked_speed,N[,processes], in scaling order");
  psi_command->add_flag("--json", psi->json, "print JSON (schema hetscale.psi/1) instead of tables");
  psi_command->callback([&actions, psi] { actions.action = [psi] { return scale_psi(*psi); }; });

  auto predict = std::make_shared<PredictCommand>();
  auto* predict_command = scale.add_subcommand(
      "predict",
      "the problem size N' a larger configuration needs to keep the base's speed-efficiency, and psi', from "
      "communication costs (Chen et al. 2008, Section 4.5); for the time of a larger run use `hetscale predict`");
  predict_command->add_option("SWEEP", predict->sweeps,
                              "sweep files in scaling order; the first (with its target N) is the base");
  predict_command->add_option(
      "--profile", predict->profile,
      "communication profile (hetscale.comm-profile/1, from `hetscale bench comm`); required unless "
      "--step-costs");
  predict_command->add_option("--step-costs", predict->step_costs,
                              "ge's or mm's sweeps: the steps' costs measured on each configuration "
                              "(hetscale.step-costs/1, from `hetscale bench steps`), one file per sweep in the same "
                              "order, comma-separated: T_o from them (ge: summed over the steps; mm: at N), T_c "
                              "fitted on the base (mm: on the measured computation)");
  predict_command->add_option("--configs", predict->configs,
                              "CSV with the header name,marked_speed,N,processes, in scaling order");
  predict_command->add_option("--kernel", predict->kernel, "ge | mm (with --configs)");
  predict_command->add_option("--program", predict->program,
                              "your program's name, instead of --kernel (with --configs)");
  predict_command->add_option("--workload", predict->workload,
                              "your program's W(N), an expression in N (with --configs)");
  predict_command->add_option("--overhead", predict->overhead,
                              "your program's T_o, an expression in N and p over the profile's costs bcast(p), "
                              "send(n), recv(n), barrier(p) (n doubles): required for a program of yours");
  predict_command->add_option("--base", predict->base, "the base configuration's name (default: the first)");
  predict_command->add_flag("--json", predict->json, "print JSON (schema hetscale.isospeed-prediction/1) instead of tables");
  predict_command->callback([&actions, predict] { actions.action = [predict] { return scale_predict(*predict); }; });

  auto fit = std::make_shared<FitCommand>();
  auto* fit_command = scale.add_subcommand(
      "fit",
      "the problem size N that reaches a target speed-efficiency E_s on one configuration: the trend line of a "
      "sweep (Chen et al. 2008, Section 4.4)");
  fit_command->add_option("--sweep", fit->sweep, "sweep file (hetscale.sweep/1), or CSV with N and T_ms or T_s")
      ->required();
  fit_command->add_option("--degree", fit->degree,
                          fmt::format("degree of the polynomial trend line, 1 to {} (default {})",
                                      SweepTrend::max_degree, default_trend_degree));
  fit_command->add_option("--target", fit->target, "target speed-efficiency E_s in (0, 1] (default 0.3)");
  fit_command->add_option("--marked-speed", fit->csv.marked_speed,
                          "CSV sweeps: C in Mflop/s, or one marked speed per process C_1,C_2,...");
  fit_command->add_option("--kernel", fit->csv.kernel, "CSV sweeps: ge | mm | conv, for W(N)");
  fit_command->add_option("--program", fit->csv.program, "CSV sweeps of your program: its name, instead of --kernel");
  fit_command->add_option("--workload", fit->csv.workload,
                          "CSV sweeps of your program: W(N), an expression in N (else the CSV's W column)");
  fit_command->add_option("--configuration", fit->csv.configuration, "CSV sweeps: its name (default: the file's stem)");
  fit_command->add_option("--out", fit->out, "write the sweep with its trend line and target here (JSON)");
  fit_command->add_flag("--json", fit->json, "print the sweep (hetscale.sweep/1) with its trend line and target");
  fit_command->callback([&actions, fit] { actions.action = [fit] { return scale_fit(*fit); }; });
}

}  // namespace hetscale::cli
