#include "hetscale/report/isospeed_report.hpp"

#include <cmath>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/model/isospeed.hpp"
#include "hetscale/record/work_distribution.hpp"
#include "hetscale/report/table.hpp"

namespace hetscale::report {
namespace {

using nlohmann::ordered_json;

std::string kernel_description(const std::string& kernel) {
  if (kernel == "ge") return "Gaussian elimination (ge), W(N) = 2/3 N^3 - 1/2 N^2 - 19/6 N + 3";
  if (kernel == "mm") return "matrix multiplication (mm), W(N) = 2 N^3";
  if (kernel == "conv") return "2D convolution (conv), W(N) = 66 N^2 lg N + 21 N^2 + 84 N lg N";
  if (kernel == "mc") return "Monte Carlo photon transport (mc)";
  return kernel;
}

// The workload as the titles name it: the kernel's, or the user's program as they named it.
std::string workload_description(const ProgramWorkload& workload) {
  if (!workload.users_program) return kernel_description(workload.name);
  if (!workload.expression.empty()) return fmt::format("{}, W(N) = {} (given)", workload.name, workload.expression);
  return fmt::format("{}, W(N) from the measured W (a power law between the sizes measured)", workload.name);
}

std::string sweep_description(const Sweep& sweep) {
  if (!sweep.users_program) return kernel_description(sweep.kernel);
  if (!sweep.workload.empty()) return fmt::format("{}, W(N) = {} (given)", sweep.kernel, sweep.workload);
  return fmt::format("{}, W as measured", sweep.kernel);
}

std::string check_text(const SweepPoint& point) {
  if (!point.checked) return "-";
  return point.check_passed ? "passed" : "FAILED";
}

// "kernel": the name, or "program" and "workload" for a user's program.
void put_workload(ordered_json& out, const ProgramWorkload& workload) {
  if (!workload.users_program) {
    out["kernel"] = workload.name;
    return;
  }
  out["program"] = workload.name;
  out["workload"] = workload.expression.empty() ? ordered_json(nullptr) : ordered_json(workload.expression);
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string psi_name(const std::string& from, const std::string& to) { return fmt::format("psi({}, {})", from, to); }
std::string mflops(double value) { return fmt::format("{:.2f}", value); }
std::string size(double value) { return fmt::format("{:.0f}", value); }
std::string fraction(double value) { return fmt::format("{:.4f}", value); }
std::string percent(const std::optional<double>& value) {
  return value ? fmt::format("{:+.1f}", 100.0 * *value) : std::string("-");
}
// "within 10 % of the target" or "MISSED: 29 % below the target E_s = 0.1 (tolerance 10 %)".
std::string target_verdict(const SweepTarget& target, double marked_speed) {
  const double measured = target.verified->speed_efficiency(marked_speed);
  const double off = (measured - target.speed_efficiency) / target.speed_efficiency;
  if (!target_missed(measured, target.speed_efficiency))
    return fmt::format("within {:g} % of the target E_s = {:g}", 100.0 * kTargetTolerance, target.speed_efficiency);
  return fmt::format("MISSED: {:.0f} % {} the target E_s = {:g} (tolerance {:g} %)", 100.0 * std::abs(off),
                     off < 0 ? "below" : "above", target.speed_efficiency, 100.0 * kTargetTolerance);
}

template <typename T>
ordered_json or_null(const std::optional<T>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

// A result document: schema, then where it came from.
ordered_json result_document(std::string_view schema, ordered_json inputs) {
  return {{"schema", schema},
          {"context", {{"tool", "hetscale"}, {"version", HETSCALE_VERSION}, {"inputs", std::move(inputs)}}}};
}

}  // namespace

std::string psi_table(const PsiTable& table) {
  std::string out = fmt::format("Chen et al. 2008, Definition 3: isospeed-efficiency scalability of {}\n",
                                workload_description(table.workload));
  out += fmt::format("configurations from {}\n\n", joined(table.sources));
  TextTable configurations({"configuration", "C (Mflop/s)", "p", "N", "W"});
  for (std::size_t i = 0; i < table.configurations.size(); ++i) {
    const auto& c = table.configurations[i];
    configurations.add_row({c.name, mflops(c.marked_speed), c.processes ? fmt::format("{}", *c.processes) : "-",
                            fmt::format("{:g}", *c.size), fmt::format("{:.0f}", table.works[i])});
  }
  out += configurations.render();
  out += "\npsi(C, C') = C' W / (C W'), between consecutive configurations\n";
  TextTable psi({"scaling", "psi"});
  for (const auto& step : table.steps) psi.add_row({psi_name(step.from, step.to), fraction(step.psi)});
  return out + psi.render();
}

std::string psi_json(const PsiTable& table) {
  auto out = result_document("hetscale.psi/1", {{"configurations", table.sources}});
  put_workload(out, table.workload);
  out["configurations"] = ordered_json::array();
  for (std::size_t i = 0; i < table.configurations.size(); ++i) {
    const auto& c = table.configurations[i];
    out["configurations"].push_back({{"name", c.name},
                                     {"marked_speed", c.marked_speed},
                                     {"processes", or_null(c.processes)},
                                     {"N", *c.size},
                                     {"W", table.works[i]}});
  }
  out["psi"] = ordered_json::array();
  for (const auto& step : table.steps)
    out["psi"].push_back({{"from", step.from},
                          {"to", step.to},
                          {"psi", step.psi},
                          {"C", step.marked_speed},
                          {"C_scaled", step.scaled_marked_speed},
                          {"N", step.size},
                          {"N_scaled", step.scaled_size},
                          {"W", step.work},
                          {"W_scaled", step.scaled_work}});
  return out.dump(2) + "\n";
}

std::string prediction_table(const IsospeedPrediction& p) {
  const auto& base = p.configurations.front();
  std::string out =
      fmt::format("Chen et al. 2008, Section 4.5: isospeed-efficiency prediction (Corollary 2, alpha = 0) of {}\n",
                  workload_description(p.workload));
  out +=
      p.step_cost_sources.empty()
          ? fmt::format("costs from {}; configurations from {}\n", p.profile_source, joined(p.sources))
          : fmt::format("step costs from {}; configurations from {}\n", joined(p.step_cost_sources), joined(p.sources));
  out += fmt::format("computation: {}\n", p.computation);
  out += fmt::format("overhead: {}\n", p.overhead);
  out += fmt::format("base {}: C = {} Mflop/s, p = {:g}, N = {:g}: T_c = {:.4g} s, T_o = {:.4g} s, model E_s = {}\n",
                     base.name, mflops(base.marked_speed), base.processes, base.size, base.computation_time,
                     base.overhead, fraction(base.speed_efficiency));
  // A marked speed is the mean over bench speed's kernels: a program faster
  // than that mean (mm's dgemm) has E_s above 1 with no mistake made.
  if (base.speed_efficiency > 1.0)
    out += fmt::format(
        "note: the model's E_s exceeds 1: T_c is shorter than W / C, the program computes faster than the marked "
        "speeds (each node's mean over the benchmark kernels){}\n",
        p.step_cost_sources.empty() ? "; or was t_c measured on another machine?" : "");
  if (p.measured_target)
    out += fmt::format(
        "target E_s = {}: the base's as its sweep measured it at N = {:g}\n"
        "N' solves W' / ((T_c' + T_o') C') = {} on each larger configuration\n\n",
        fraction(*p.measured_target), base.size, fraction(*p.measured_target));
  else
    out += "N' solves W / ((T_c + T_o) C) = W' / ((T_c' + T_o') C') on each larger configuration\n\n";
  TextTable sizes(
      {"configuration", "C (Mflop/s)", "p", "N' predicted", "N measured", "error (%)", "T_c (s)", "T_o (s)"});
  for (const auto& c : p.configurations)
    sizes.add_row({c.name, mflops(c.marked_speed), fmt::format("{:g}", c.processes), size(c.size),
                   c.measured_size ? fmt::format("{:g}", *c.measured_size) : "-", percent(c.size_error),
                   fmt::format("{:.4f}", c.computation_time), fmt::format("{:.4f}", c.overhead)});
  out += sizes.render();
  out +=
      "\npsi' = C' W(N) / (C W(N')) over the predicted sizes (Definition 3) and T_o / T_o' (Corollary 2);\n"
      "psi measured from the measured sizes\n";
  TextTable psi({"scaling", "psi' (Def. 3)", "psi' (Cor. 2)", "psi measured", "error (%)"});
  for (const auto& step : p.steps)
    psi.add_row({psi_name(step.from, step.to), fraction(step.psi_definition), fraction(step.psi_corollary2),
                 step.measured_psi ? fraction(*step.measured_psi) : "-", percent(step.psi_error)});
  out += psi.render();

  std::vector<std::string> flagged;
  for (const auto& c : p.configurations)
    if (prediction_error_flagged(c.size_error))
      flagged.push_back(fmt::format("N' of {} {} %", c.name, percent(c.size_error)));
  for (const auto& step : p.steps)
    if (prediction_error_flagged(step.psi_error))
      flagged.push_back(fmt::format("{} {} %", psi_name(step.from, step.to), percent(step.psi_error)));
  if (!flagged.empty())
    out += fmt::format(
        "\nerrors over {:g} %: {}. The model misses the measurement there: a prediction to take as a rough guide "
        "(docs/scalability.md, \"When a prediction misses\")\n",
        100.0 * kPredictionErrorFlag, joined(flagged));
  return out;
}

std::string prediction_json(const IsospeedPrediction& p) {
  const bool from_steps = !p.step_cost_sources.empty();
  auto out = result_document("hetscale.isospeed-prediction/1",
                             {{from_steps ? "step_costs" : "profile",
                               from_steps ? ordered_json(p.step_cost_sources) : ordered_json(p.profile_source)},
                              {"configurations", p.sources}});
  put_workload(out, p.workload);
  out["overhead"] = p.overhead;
  out["computation"] = p.computation;
  if (p.computation_ratio) out["r"] = *p.computation_ratio;
  const auto& costs = p.costs;
  if (!from_steps)
    out["costs"] = {
        {"broadcast", {{"intercept", costs.broadcast_intercept}, {"per_process", costs.broadcast_per_process}}},
        {"send", {{"intercept", costs.send_intercept}, {"per_element", costs.send_per_element}}},
        {"receive", {{"intercept", costs.receive_intercept}, {"per_element", costs.receive_per_element}}},
        {"barrier", {{"per_process", costs.barrier_per_process}}},
        {"unit_computation", costs.unit_computation},
        {"reference_marked_speed", or_null(costs.reference_marked_speed)}};
  out["base"] = p.configurations.front().name;
  out["E_s"] = p.configurations.front().speed_efficiency;
  out["target_E_s"] = p.measured_target.value_or(p.configurations.front().speed_efficiency);
  out["configurations"] = ordered_json::array();
  for (const auto& c : p.configurations)
    out["configurations"].push_back({{"name", c.name},
                                     {"marked_speed", c.marked_speed},
                                     {"processes", static_cast<std::size_t>(c.processes)},
                                     {"N", c.size},
                                     {"N_measured", or_null(c.measured_size)},
                                     {"N_error", or_null(c.size_error)},
                                     {"N_error_flagged", prediction_error_flagged(c.size_error)},
                                     {"W", c.work},
                                     {"T_c_s", c.computation_time},
                                     {"T_o_s", c.overhead},
                                     {"E_s", c.speed_efficiency}});
  out["psi"] = ordered_json::array();
  for (const auto& step : p.steps)
    out["psi"].push_back({{"from", step.from},
                          {"to", step.to},
                          {"psi", step.psi_definition},
                          {"psi_corollary2", step.psi_corollary2},
                          {"psi_measured", or_null(step.measured_psi)},
                          {"psi_error", or_null(step.psi_error)},
                          {"psi_error_flagged", prediction_error_flagged(step.psi_error)}});
  return out.dump(2) + "\n";
}

std::string sweep_fit_table(const Sweep& sweep) {
  const double c = sweep.marked_speed();
  std::string out = fmt::format("sweep {}: {}, configuration {}, C = {} Mflop/s\n\n", sweep.source,
                                sweep_description(sweep), sweep.configuration, mflops(c));
  TextTable points({"N", "W", "T (s)", "speed (Mflop/s)", "E_s", "trend E_s", "check"});
  for (const auto& point : sweep.points)
    points.add_row({fmt::format("{:g}", point.size), fmt::format("{:.0f}", point.work),
                    fmt::format("{:.6f}", point.seconds), fmt::format("{:.3f}", point.achieved_speed_mflops()),
                    fmt::format("{:.3f}", point.speed_efficiency(c)),
                    sweep.trend ? fmt::format("{:.3f}", trend_speed_efficiency(*sweep.trend, point.size)) : "-",
                    check_text(point)});
  out += points.render();
  if (sweep.trend) {
    const auto& trend = *sweep.trend;
    std::string terms, coefficients;
    for (std::size_t k = 0; k < trend.coefficients.size(); ++k) {
      terms += k == 0 ? "c0" : k == 1 ? " + c1 N" : fmt::format(" + c{} N^{}", k, k);
      coefficients += fmt::format("{}c{} = {:.6g}", k ? ", " : "", k, trend.coefficients[k]);
    }
    out += fmt::format("\ntrend line E_s(N) = {} (least squares, degree {}): r^2 = {:.5f}\n  {}\n", terms, trend.degree,
                       trend.r_squared, coefficients);
  }
  if (sweep.target) {
    const auto& target = *sweep.target;
    if (target.size)
      out += fmt::format("target E_s = {:g}: N = {:g} read off the trend line{}\n", target.speed_efficiency,
                         *target.size, target.extrapolated ? " (extrapolated beyond the sizes swept)" : "");
    else
      out += fmt::format("target E_s = {:g}: the trend line does not reach it up to twice the largest N\n",
                         target.speed_efficiency);
    if (target.verified)
      out += fmt::format("verified: a run at N = {:g} gave E_s = {:.3f}{}; {}\n", target.verified->size,
                         target.verified->speed_efficiency(c),
                         target.verified->checked && !target.verified->check_passed ? " (check FAILED)" : "",
                         target_verdict(target, c));
  }
  return out;
}

std::string sweep_point_line(const SweepPoint& point, double marked_speed, const std::string& kernel) {
  if (kernel == "mc")
    return fmt::format("N {:>9g}  T {:9.4f} s  check {}", point.size, point.seconds, check_text(point));
  return fmt::format("N {:>6g}  W {:>14.0f}  T {:9.4f} s  speed {:9.2f} Mflop/s  E_s {:.3f}  check {}", point.size,
                     point.work, point.seconds, point.achieved_speed_mflops(), point.speed_efficiency(marked_speed),
                     check_text(point));
}

std::string step_costs_table(const StepCosts& costs) {
  const bool product = costs.kernel == "mm";
  std::string text =
      fmt::format("{}: {} ranks, {} steps a {}; seconds per step\n{:>8} {:>12} {:>12} {:>12}\n", costs.kernel,
                  costs.ranks, costs.steps, product ? "size (the whole product)" : "length", product ? "N" : "length",
                  "step", "computation", "overhead");
  for (const auto& cost : costs.costs)
    text += fmt::format("{:>8g} {:>12.4g} {:>12.4g} {:>12.4g}\n", cost.length, cost.step_seconds,
                        cost.computation_seconds, cost.overhead_seconds);
  return text;
}

std::string kernel_run_summary(const std::string& kernel, int ranks, const SweepPoint& point, double marked_speed,
                               const KernelCheck& check, const RunRecord& record, const std::string& out) {
  // Rows shared by a functional model: said (by the marked speeds, the default: not).
  const auto distribution = record.context.distribution();
  const std::string shared_by =
      distribution && !distribution->model_path().empty() ? "\n  rows shared by " + distribution->describe() : "";
  return fmt::format(
      "kernel {} on {} processes (C = {:.2f} Mflop/s): {}\n  check: {} = {:.3g} (tolerance {:.3g}){}{}\n", kernel,
      ranks, marked_speed, sweep_point_line(point, marked_speed, kernel), check.quantity, check.value, check.tolerance,
      shared_by, out.empty() ? "" : fmt::format("\n  run record in {}", out));
}

std::string sweep_run_table(const Sweep& sweep, std::size_t repetitions, const std::string& point_choice) {
  const double c = sweep.marked_speed();
  const std::string model = WorkDistribution{sweep.context.distribution, {}}.model_path();
  std::string text = fmt::format(
      "sweep of {} on configuration {} ({} processes, C = {:.2f} Mflop/s{}{})\n", sweep.kernel, sweep.configuration,
      sweep.processes(), c,
      repetitions > 1 ? fmt::format("; each point the {} of {} runs", point_choice, repetitions) : std::string(),
      model.empty() ? "" : "; rows shared by the functional performance model " + model + ", partitioned at each N");
  for (const auto& point : sweep.points) text += "  " + sweep_point_line(point, c, sweep.kernel) + "\n";
  if (sweep.trend)
    text += fmt::format("trend line E_s(N), degree {}: R^2 = {:.4f}\n", sweep.trend->degree, sweep.trend->r_squared);
  if (sweep.target) {
    const auto& target = *sweep.target;
    if (!sweep.trend)
      text +=
          fmt::format("target E_s = {:g}: no trend line, too few sizes passed their check\n", target.speed_efficiency);
    else if (target.size)
      text += fmt::format("target E_s = {:g}: N = {:.0f}{}\n", target.speed_efficiency, *target.size,
                          target.extrapolated ? " (extrapolated beyond the sweep)" : "");
    else
      text += fmt::format("target E_s = {:g}: not reached by the trend line up to N = {:g}\n", target.speed_efficiency,
                          2.0 * sweep.points.back().size);
    if (target.verifying_runs.size() > 1) {
      text += "  verifying runs (the next where the measured E_s crosses the target):\n";
      for (const auto& run : target.verifying_runs) text += "    " + sweep_point_line(run, c, sweep.kernel) + "\n";
    }
    if (target.verified)
      text += "  verified: " + sweep_point_line(*target.verified, c, sweep.kernel) + "\n  " +
              target_verdict(target, c) + "\n";
  }
  return text;
}

std::string marked_speeds_table(const Platform& platform, const std::vector<double>& emulated,
                                const std::vector<std::vector<double>>& kernel_mflops) {
  std::string text = fmt::format("marked speeds of {} ranks (Mflop/s)\n", platform.nodes.size());
  text += fmt::format("{:<20} {:>9} {:>12} {:>9} {:>9} {:>9}\n", "node", "emulated", "elimination", "dgemm", "fft",
                      "marked");
  std::vector<double> marked;
  for (std::size_t r = 0; r < platform.nodes.size(); ++r) {
    const auto& node = platform.nodes[r];
    const auto& kernels = kernel_mflops.at(r);
    text +=
        fmt::format("{:<20} {:>9g} {:>12.1f} {:>9.1f} {:>9.1f} {:>9.1f}\n", node.name,
                    emulated.empty() ? 1.0 : emulated.at(r), kernels.at(0), kernels.at(1), kernels.at(2), node.speed);
    marked.push_back(node.speed);
  }
  text += fmt::format("C = {:.1f} Mflop/s\n", model::marked_speed(marked));
  return text;
}

}  // namespace hetscale::report
