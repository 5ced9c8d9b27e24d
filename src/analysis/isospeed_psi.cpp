// Chen et al. 2008 Definition 3: the isospeed-efficiency scalability psi between configurations.
#include "hetscale/analysis/isospeed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"
#include "hetscale/model/isospeed.hpp"
#include "analysis/isospeed_source.hpp"
#include "model/statistics.hpp"

namespace hetscale {

// --- configurations and psi ------------------------------------------------------

bool target_missed(double verified_speed_efficiency, double target) {
  return std::abs(verified_speed_efficiency - target) > kTargetTolerance * std::abs(target);
}

bool prediction_error_flagged(const std::optional<double>& relative_error) {
  return relative_error && std::abs(*relative_error) > kPredictionErrorFlag;
}

std::optional<double> sweep_target_size(const Sweep& sweep) {
  if (!sweep.target) return std::nullopt;
  if (sweep.target->verified) return sweep.target->verified->size;
  return sweep.target->size;
}

ScalingConfiguration configuration_from_sweep(const Sweep& sweep) {
  ScalingConfiguration configuration;
  configuration.name = sweep.configuration;
  configuration.marked_speed = sweep.marked_speed();
  configuration.size = sweep_target_size(sweep);
  if (!configuration.size)
    throw InputError(sweep_source(sweep), "target.N",
                     sweep.target ? fmt::format("the trend line never reached the target E_s = {:g}; no N to "
                                                "compare (sweep larger sizes or lower the target)",
                                                sweep.target->speed_efficiency)
                                  : std::string("missing: the sweep has no target N (`hetscale scale fit` reads one "
                                                "off its trend line)"));
  configuration.processes = sweep.processes();
  configuration.process_marked_speeds = sweep.marked_speeds;
  configuration.source = sweep_source(sweep);
  return configuration;
}

PsiTable isospeed_psi(const std::string& kernel, const std::vector<ScalingConfiguration>& configurations) {
  return isospeed_psi(kernel_workload_of(kernel, "kernel", ""), configurations);
}

PsiTable isospeed_psi(const ProgramWorkload& program, const std::vector<ScalingConfiguration>& configurations) {
  if (!program.work) throw InputError("workload", "", fmt::format("is required: psi needs {}'s W(N)", program.name));
  const auto& workload = program.work;
  if (configurations.size() < 2)
    throw InputError(configurations.empty() ? "configs" : configurations.front().source, "",
                     "psi compares two or more configurations");
  PsiTable table;
  table.kernel = program.name;
  table.workload = program;
  table.configurations = configurations;
  for (const auto& configuration : configurations) {
    if (!configuration.size)
      throw InputError(configuration.source, configuration.name, "has no N; psi needs every configuration's N");
    if (table.sources.empty() || table.sources.back() != configuration.source)
      table.sources.push_back(configuration.source);
    table.works.push_back(workload(*configuration.size));
  }
  for (std::size_t i = 0; i + 1 < configurations.size(); ++i) {
    const auto &from = configurations[i], &to = configurations[i + 1];
    PsiStep step{from.name,          to.name, from.marked_speed, to.marked_speed, *from.size, *to.size, table.works[i],
                 table.works[i + 1], 0.0};
    step.psi = model::isospeed_efficiency_scalability(step.marked_speed, step.work, step.scaled_marked_speed,
                                                      step.scaled_work);
    table.steps.push_back(step);
  }
  return table;
}

namespace isospeed_sweeps {

// One kernel for all the sweeps; returns it.
std::string common_kernel(const std::vector<Sweep>& sweeps) {
  for (const auto& sweep : sweeps)
    if (sweep.kernel != sweeps.front().kernel || sweep.users_program != sweeps.front().users_program ||
        sweep.workload != sweeps.front().workload)
      throw InputError(sweep_source(sweep), "kernel",
                       fmt::format("is {}{} but {} is {}{}: psi compares one workload across configurations",
                                   sweep.kernel, sweep.workload.empty() ? "" : " (W(N) = " + sweep.workload + ")",
                                   sweep_source(sweeps.front()), sweeps.front().kernel,
                                   sweeps.front().workload.empty() ? "" : " (W(N) = " + sweeps.front().workload + ")"));
  return sweeps.front().kernel;
}

void require_two_sweeps(const std::vector<Sweep>& sweeps) {
  if (sweeps.size() < 2)
    throw InputError(sweeps.empty() ? "SWEEP" : sweep_source(sweeps.front()), "",
                     "two or more sweeps are needed, one per configuration, in scaling order");
}

// A prediction starts from the base's N holding its target.
void require_base_held_its_target(const Sweep& base) {
  if (const auto problem = base_target_problem(base)) throw InputError(sweep_source(base), "target.verified", *problem);
}

}  // namespace isospeed_sweeps

using namespace isospeed_sweeps;

// A verified run that missed its target (by more than kTargetTolerance) gives no N to start from.
std::optional<std::string> base_target_problem(const Sweep& base) {
  if (!base.target || !base.target->verified || !(base.target->verified->seconds > 0.0)) return std::nullopt;
  const auto& verified = *base.target->verified;
  const double measured = verified.work / (verified.seconds * base.marked_speed() * 1e6);
  if (!target_missed(measured, base.target->speed_efficiency)) return std::nullopt;
  return fmt::format("E_s {:.4g} at N = {:g} missed the target {:g} by more than {:g} %: the base's N does not hold "
                     "its target, so there is nothing to predict from (sweep it again)",
                     measured, verified.size, base.target->speed_efficiency, 100.0 * kTargetTolerance);
}

PsiTable psi_from_sweeps(const std::vector<Sweep>& sweeps) {
  require_two_sweeps(sweeps);
  common_kernel(sweeps);
  const auto workload = sweep_workload(sweeps.front());
  std::vector<ScalingConfiguration> configurations;
  for (const auto& sweep : sweeps) configurations.push_back(configuration_from_sweep(sweep));
  return isospeed_psi(workload, configurations);
}

}  // namespace hetscale
