#include "hetscale/analysis/isospeed.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <set>
#include <utility>
#include <stdexcept>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/expression.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/model/isospeed.hpp"
#include "io/strict_json.hpp"
#include "analysis/isospeed_source.hpp"
#include "model/statistics.hpp"
#include "io/provenance_json.hpp"

namespace hetscale {
namespace {

// A W column may differ from W(N) by this much: the paper prints three
// significant figures (1.44E+08).
constexpr double printed_work_tolerance = 0.005;

// --- kernels ----------------------------------------------------------------

// The workload W(N) of a kernel; an unknown kernel is bad input to `source`.
model::Workload workload_of(const std::string& kernel, const std::string& source, const std::string& field) {
  try {
    return model::kernel_workload(kernel);
  } catch (const std::invalid_argument& error) {
    throw InputError(source, field, error.what());
  }
}


// W(N) through measured (N, W): log W linear in log N between consecutive
// sizes, the nearest segment's power law beyond them.
std::function<double(double)> measured_work(std::vector<std::pair<double, double>> points) {
  std::sort(points.begin(), points.end());
  points.erase(
      std::unique(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
      points.end());
  return [points](double n) {
    if (points.size() == 1) return points.front().second * n / points.front().first;
    std::size_t right = 1;
    while (right + 1 < points.size() && points[right].first < n) ++right;
    const auto& [n0, w0] = points[right - 1];
    const auto& [n1, w1] = points[right];
    const double exponent = std::log(w1 / w0) / std::log(n1 / n0);
    return w0 * std::pow(n / n0, exponent);
  };
}

std::string names_of(const std::vector<ScalingConfiguration>& configurations) {
  std::string names;
  for (const auto& configuration : configurations) names += (names.empty() ? "" : ", ") + configuration.name;
  return names;
}

// --- prediction -----------------------------------------------------------------

// T_o of Corollary 2: a kernel's model (ge, mm), or the user's expression in N
// and p over the measured costs.
struct OverheadModel {
  std::string kernel;
  std::optional<io::Expression> expression;
  std::string description;
  double operator()(const model::CommunicationCosts& costs, double n, double processes, double root_share) const {
    if (expression) {
      const double values[] = {n, processes};
      const io::Expression::Function functions[] = {
          [&](double p) { return model::broadcast_time(costs, p); },
          [&](double elements) { return model::send_time(costs, elements); },
          [&](double elements) { return model::receive_time(costs, elements); },
          [&](double p) { return model::barrier_time(costs, p); }};
      return expression->evaluate(values, functions);
    }
    if (kernel == "ge") return model::gaussian_elimination_overhead(costs, n, processes);
    return model::matrix_multiplication_overhead(costs, n, processes, root_share);
  }
};

// The overhead model of a workload: `overhead` for a user's program (required),
// the kernel's own for ge and mm (and then no --overhead).
OverheadModel overhead_model(const ProgramWorkload& workload, const std::string& overhead, const std::string& source,
                             const std::string& field) {
  OverheadModel model;
  model.kernel = workload.name;
  if (!workload.users_program) {
    if (!overhead.empty())
      throw InputError("overhead", "",
                       fmt::format("is for a program of yours; {} has its own overhead model", workload.name));
    if (workload.name != "ge" && workload.name != "mm")
      throw InputError(source, field,
                       fmt::format("prediction needs an overhead model T_o; hetscale has one for ge (Chen et al. 2008 "
                                   "Section 4.5) and mm, not for {}",
                                   workload.name));
    model.description = workload.name == "ge" ? "T_o of ge (Chen et al. 2008, Section 4.5)" : "T_o of mm (hetscale's)";
    return model;
  }
  if (overhead.empty())
    throw InputError("overhead", "",
                     fmt::format("is required to predict {}: T_o as an expression in N and p over the measured costs "
                                 "bcast(p), send(n), recv(n), barrier(p) (docs/scalability.md)",
                                 workload.name));
  try {
    model.expression = io::Expression::parse(overhead, {"N", "p"}, {"bcast", "send", "recv", "barrier"});
  } catch (const std::invalid_argument& error) {
    throw InputError("overhead", "", fmt::format("\"{}\" is not an expression in N and p: {}", overhead, error.what()));
  }
  model.description = "T_o = " + overhead + " (given)";
  return model;
}

// The largest N the condition is solved for.
constexpr double largest_size = 1e9;

// The smallest N >= 1 where speed_efficiency(N) reaches `target`: a geometric
// scan (2 % steps) brackets the first crossing, bisection refines it.
std::optional<double> smallest_size_reaching(const std::function<double(double)>& speed_efficiency, double target) {
  double below = 1.0;
  if (speed_efficiency(below) >= target) return below;
  for (double above = below * 1.02; above <= largest_size; below = above, above *= 1.02) {
    if (speed_efficiency(above) < target) continue;
    for (int i = 0; i < 200 && above - below > 1e-12 * above; ++i) {
      const double middle = 0.5 * (below + above);
      (speed_efficiency(middle) < target ? below : above) = middle;
    }
    return above;
  }
  return std::nullopt;
}

struct PredictionInput {
  ScalingConfiguration configuration;
  double processes = 0.0, root_share = 0.0;
};

PredictionInput prediction_input(const ScalingConfiguration& configuration) {
  if (!configuration.processes)
    throw InputError(configuration.source, configuration.name,
                     "prediction needs the process count p of every configuration (the column processes)");
  PredictionInput input{configuration, static_cast<double>(*configuration.processes), 0.0};
  input.root_share = configuration.process_marked_speeds.empty()
                         ? 1.0 / input.processes
                         : configuration.process_marked_speeds.front() / configuration.marked_speed;
  return input;
}

}  // namespace

// --- workloads -----------------------------------------------------------------------

ProgramWorkload kernel_workload_of(const std::string& kernel, const std::string& source, const std::string& field) {
  const auto work = workload_of(kernel, source, field);
  return ProgramWorkload{kernel, false, "", work};
}

ProgramWorkload program_workload(const std::string& name, const std::string& expression, const std::string& option) {
  if (name.empty()) throw InputError("program", "", "must not be empty: the name of your program");
  ProgramWorkload workload{name, true, expression, nullptr};
  if (expression.empty()) return workload;
  try {
    auto parsed = io::Expression::parse(expression, {"N"});
    workload.work = [parsed](double n) {
      const double values[] = {n};
      return parsed.evaluate(values);
    };
  } catch (const std::invalid_argument& error) {
    throw InputError(option, "", fmt::format("\"{}\" is not an expression in N: {}", expression, error.what()));
  }
  return workload;
}

ProgramWorkload sweep_workload(const Sweep& sweep) {
  if (!sweep.users_program) return kernel_workload_of(sweep.kernel, sweep_source(sweep), "kernel");
  if (!sweep.workload.empty()) return program_workload(sweep.kernel, sweep.workload, sweep_source(sweep));
  std::vector<std::pair<double, double>> measured;
  for (const auto& point : sweep.points) measured.emplace_back(point.size, point.work);
  if (sweep.target && sweep.target->verified)
    measured.emplace_back(sweep.target->verified->size, sweep.target->verified->work);
  if (measured.empty()) throw InputError(sweep_source(sweep), "points", "none: W(N) is known nowhere");
  ProgramWorkload workload{sweep.kernel, true, "", measured_work(std::move(measured))};
  return workload;
}

Sweep parse_sweep_csv(std::string_view text, const std::string& source, const std::string& kernel,
                      const std::vector<double>& marked_speeds, const std::string& configuration) {
  return parse_sweep_csv(text, source, kernel_workload_of(kernel, "kernel", ""), marked_speeds, configuration);
}

Sweep parse_sweep_csv(std::string_view text, const std::string& source, const ProgramWorkload& workload,
                      const std::vector<double>& marked_speeds, const std::string& configuration) {
  const std::string& kernel = workload.name;
  if (marked_speeds.empty()) throw InputError("marked-speed", "", "is required: C in Mflop/s, or one per process");
  for (std::size_t i = 0; i < marked_speeds.size(); ++i)
    if (!std::isfinite(marked_speeds[i]) || marked_speeds[i] <= 0.0)
      throw InputError("marked-speed", fmt::format("item {}", i + 1),
                       fmt::format("must be a number > 0 (Mflop/s), got {:g}", marked_speeds[i]));
  const SweepCsv csv = parse_sweep_csv_rows(text, source);
  if (!workload.work && !csv.has_work_column)
    throw InputError(
        source, csv.header_field,
        fmt::format("header is '{}': {} has no workload W(N) given, so W must come from a column W (allowed: {})",
                    csv.header_text, kernel, sweep_csv_columns));
  Sweep sweep;
  sweep.source = source;
  sweep.kernel = kernel;
  sweep.users_program = workload.users_program;
  sweep.workload = workload.expression;
  sweep.configuration = configuration;
  sweep.marked_speeds = marked_speeds;
  sweep.context = io::provenance_from(nlohmann::json{{"read_from", source}, {"format", "csv"}});
  for (const auto& row : csv.rows) {
    SweepPoint point;
    point.size = row.size;
    point.checked = !workload.users_program;  // hetscale checks its kernels; a user's sweep was not checked
    point.seconds = row.seconds;
    if (workload.work) {
      point.work = workload.work(point.size);
      if (!std::isfinite(point.work) || point.work <= 0.0)
        throw InputError(
            workload.expression.empty() ? "kernel" : "workload", "",
            fmt::format("W({:g}) = {:g}: W(N) must be a number > 0 at every N of {}", point.size, point.work, source));
    }
    if (row.work) {
      const double printed = *row.work;
      if (!workload.work)
        point.work = printed;
      else if (std::abs(printed - point.work) > printed_work_tolerance * point.work)
        throw InputError(source, row.field,
                         fmt::format("W = {:g} is not W(N) = {:.0f} of {} {} at N = {:g} (0.5 % allowed); "
                                     "is the {} right?",
                                     printed, point.work, workload.users_program ? "the workload of" : "kernel", kernel,
                                     point.size, workload.users_program ? "workload" : "kernel"));
    }
    sweep.points.push_back(point);
  }
  return sweep;
}

Sweep read_sweep_csv(const std::string& path, const std::string& kernel, const std::vector<double>& marked_speeds,
                     const std::string& configuration) {
  return parse_sweep_csv(io::read_text_file(path), path, kernel, marked_speeds, configuration);
}

Sweep read_sweep_file(const std::string& path, const CsvSweepOptions& csv) {
  const std::string text = io::read_text_file(path);
  if (io::looks_like_json(text)) {
    for (const auto& [option, value] : {std::pair{"marked-speed", &csv.marked_speed}, std::pair{"kernel", &csv.kernel},
                                        std::pair{"configuration", &csv.configuration},
                                        std::pair{"program", &csv.program}, std::pair{"workload", &csv.workload}})
      if (!value->empty())
        throw InputError(option, "",
                         fmt::format("applies to CSV sweeps only; {} is a sweep file that carries it", path));
    return parse_sweep(text, path);
  }
  if (csv.marked_speed.empty())
    throw InputError("marked-speed", "",
                     fmt::format("is required for the CSV sweep {}: the configuration's marked speed C in Mflop/s "
                                 "(or one per process)",
                                 path));
  if (csv.kernel.empty() == csv.program.empty())
    throw InputError(csv.kernel.empty() ? "kernel" : "program", "",
                     fmt::format("give either a kernel (ge, mm or conv) or a program of yours (W from its workload "
                                 "or a W column) for the CSV sweep {}",
                                 path));
  if (!csv.kernel.empty() && !csv.workload.empty())
    throw InputError("workload", "",
                     fmt::format("goes with a program of yours; kernel {} has its own W(N)", csv.kernel));
  const auto workload =
      csv.kernel.empty() ? program_workload(csv.program, csv.workload) : kernel_workload_of(csv.kernel, "kernel", "");
  const auto marked_speeds = io::parse_positive_list(csv.marked_speed, "marked-speed");
  const std::string configuration =
      csv.configuration.empty() ? std::filesystem::path(path).stem().string() : csv.configuration;
  return parse_sweep_csv(text, path, workload, marked_speeds, configuration);
}

// --- prediction -------------------------------------------------------------------

using namespace isospeed_sweeps;

IsospeedPrediction predict_isospeed(const model::CommunicationCosts& costs, const std::string& kernel,
                                    const std::vector<ScalingConfiguration>& configurations,
                                    const std::string& base_name) {
  return predict_isospeed(costs, kernel_workload_of(kernel, "kernel", ""), configurations, base_name, "");
}

namespace {

// T_c or T_o of a configuration at size N (W = W(N)).
using TimeAt = std::function<double(const PredictionInput& input, double n, double work)>;

// The isospeed prediction from a model of T_c and T_o: the target is the
// base's E_s as measured when given, else the model's at the base's N; each
// larger configuration's N' the smallest N whose model E_s reaches it.
IsospeedPrediction predict_by(const ProgramWorkload& program, const std::vector<ScalingConfiguration>& configurations,
                              const std::string& base_name, const TimeAt& computation, const TimeAt& overhead,
                              std::optional<double> measured_target = std::nullopt) {
  if (!program.work)
    throw InputError("workload", "", fmt::format("is required: the prediction needs {}'s W(N)", program.name));
  if (configurations.empty()) throw InputError("configs", "", "no configurations to predict for");
  std::size_t base = 0;
  if (!base_name.empty()) {
    const auto found = std::find_if(configurations.begin(), configurations.end(),
                                    [&](const ScalingConfiguration& c) { return c.name == base_name; });
    if (found == configurations.end())
      throw InputError(
          "base", "",
          fmt::format("no configuration named '{}'; the configurations are {}", base_name, names_of(configurations)));
    base = static_cast<std::size_t>(found - configurations.begin());
  }
  if (base + 1 >= configurations.size())
    throw InputError(
        base_name.empty() ? configurations.front().source : "base", "",
        fmt::format("the base {} has no larger configuration after it to predict for", configurations[base].name));
  if (!configurations[base].size)
    throw InputError(configurations[base].source, configurations[base].name,
                     "the base configuration needs its N (the size that holds the target E_s)");

  const auto& workload = program.work;
  IsospeedPrediction prediction;
  prediction.kernel = program.name;
  prediction.workload = program;
  for (std::size_t i = base; i < configurations.size(); ++i)
    if (prediction.sources.empty() || prediction.sources.back() != configurations[i].source)
      prediction.sources.push_back(configurations[i].source);

  // The model's E_s on a configuration at size N.
  const auto evaluate = [&](const PredictionInput& input, double n) {
    PredictedConfiguration result;
    result.name = input.configuration.name;
    result.marked_speed = input.configuration.marked_speed;
    result.processes = input.processes;
    result.root_share = input.root_share;
    result.size = n;
    result.work = workload(n);
    result.computation_time = computation(input, n, result.work);
    result.overhead = overhead(input, n, result.work);
    result.speed_efficiency = model::predicted_speed_efficiency(result.work, result.computation_time, result.overhead,
                                                                result.marked_speed * 1e6);
    result.measured_size = input.configuration.size;
    return result;
  };
  const auto base_input = prediction_input(configurations[base]);
  prediction.configurations.push_back(evaluate(base_input, *configurations[base].size));
  prediction.measured_target = measured_target;
  const double target = measured_target.value_or(prediction.configurations.front().speed_efficiency);
  for (std::size_t i = base + 1; i < configurations.size(); ++i) {
    const auto input = prediction_input(configurations[i]);
    const auto size = smallest_size_reaching(
        // W(N) <= 0 at the smallest N (GE: W(1) = W(2) = 0) counts as no speed-efficiency.
        [&](double n) { return workload(n) > 0.0 ? evaluate(input, n).speed_efficiency : 0.0; }, target);
    if (!size)
      throw InputError(input.configuration.source, input.configuration.name,
                       fmt::format("the isospeed-efficiency condition E_s = {:.6g} has no solution N' <= {:g}: on "
                                   "this configuration the model's E_s never reaches the base's",
                                   target, largest_size));
    auto predicted = evaluate(input, *size);
    if (predicted.measured_size)
      predicted.size_error = (predicted.size - *predicted.measured_size) / *predicted.measured_size;
    prediction.configurations.push_back(predicted);
  }

  for (std::size_t i = 0; i + 1 < prediction.configurations.size(); ++i) {
    const auto &from = prediction.configurations[i], &to = prediction.configurations[i + 1];
    PredictedStep step;
    step.from = from.name;
    step.to = to.name;
    step.psi_definition =
        model::isospeed_efficiency_scalability(from.marked_speed, from.work, to.marked_speed, to.work);
    step.psi_corollary2 = model::scalability_from_overheads(from.overhead, to.overhead);
    if (from.measured_size && to.measured_size) {
      step.measured_psi = model::isospeed_efficiency_scalability(from.marked_speed, workload(*from.measured_size),
                                                                 to.marked_speed, workload(*to.measured_size));
      step.psi_error = (step.psi_definition - *step.measured_psi) / *step.measured_psi;
    }
    prediction.steps.push_back(step);
  }
  return prediction;
}

}  // namespace

IsospeedPrediction predict_isospeed(const model::CommunicationCosts& costs, const ProgramWorkload& program,
                                    const std::vector<ScalingConfiguration>& configurations,
                                    const std::string& base_name, const std::string& overhead_expression) {
  const OverheadModel overhead = overhead_model(program, overhead_expression, "kernel", "");
  auto prediction = predict_by(
      program, configurations, base_name,
      [&](const PredictionInput& input, double, double work) {
        return model::computation_time(costs, work, input.processes, input.configuration.marked_speed);
      },
      [&](const PredictionInput& input, double n, double) {
        return overhead(costs, n, input.processes, input.root_share);
      });
  prediction.overhead = overhead.description;
  prediction.costs = costs;
  prediction.computation = costs.reference_marked_speed
                               ? fmt::format("T_c = W t_c C_ref / C, t_c = {:.6g} s, C_ref = {:g} Mflop/s",
                                             costs.unit_computation, *costs.reference_marked_speed)
                               : fmt::format("T_c = W t_c / p, t_c = {:.6g} s", costs.unit_computation);
  return prediction;
}

namespace {

// The base's configuration (its target N) first, then every larger one with
// its measured N, if any.
std::vector<ScalingConfiguration> configurations_from_sweeps(const std::vector<Sweep>& sweeps) {
  std::vector<ScalingConfiguration> configurations{configuration_from_sweep(sweeps.front())};
  for (std::size_t i = 1; i < sweeps.size(); ++i) {
    ScalingConfiguration configuration;
    configuration.name = sweeps[i].configuration;
    configuration.marked_speed = sweeps[i].marked_speed();
    configuration.size = sweep_target_size(sweeps[i]);
    configuration.processes = sweeps[i].processes();
    configuration.process_marked_speeds = sweeps[i].marked_speeds;
    configuration.source = sweep_source(sweeps[i]);
    configurations.push_back(std::move(configuration));
  }
  return configurations;
}

// The integral of the piecewise-linear o from a to b (a <= b), o flat past the ends.
double overhead_integral(const StepCosts& costs, double a, double b) {
  const auto& points = costs.costs;
  const auto o = [&](double length) {
    if (length <= points.front().length) return points.front().overhead_seconds;
    if (length >= points.back().length) return points.back().overhead_seconds;
    std::size_t j = 1;
    while (points[j].length < length) ++j;
    const auto &left = points[j - 1], &right = points[j];
    return left.overhead_seconds +
           (right.overhead_seconds - left.overhead_seconds) * (length - left.length) / (right.length - left.length);
  };
  // Breakpoints between a and b: the trapezoid rule is exact on each piece.
  std::vector<double> at{a};
  for (const auto& point : points)
    if (point.length > a && point.length < b) at.push_back(point.length);
  at.push_back(b);
  double total = 0.0;
  for (std::size_t i = 1; i < at.size(); ++i) total += 0.5 * (o(at[i - 1]) + o(at[i])) * (at[i] - at[i - 1]);
  return total;
}

}  // namespace

double elimination_step_overheads(const StepCosts& costs, double n) {
  if (costs.costs.empty()) throw InputError(costs.source, "costs", "has no measured lengths");
  return n < 1.5 ? 0.0 : overhead_integral(costs, 1.5, n + 0.5);
}

double product_step_part(const StepCosts& costs, double n, double StepCost::*part) {
  const auto& points = costs.costs;
  if (points.size() < 2)
    throw InputError(costs.source, "costs",
                     fmt::format("has {} measured size{}; mm's step needs two or more to follow N", points.size(),
                                 points.size() == 1 ? "" : "s"));
  std::size_t j = 1;  // the piece [j - 1, j] that holds n, or the end piece past it
  while (j + 1 < points.size() && points[j].length < n) ++j;
  const auto &left = points[j - 1], &right = points[j];
  const double y0 = left.*part, y1 = right.*part;
  if (y0 > 0.0 && y1 > 0.0 && n > 0.0)
    return y0 * std::pow(y1 / y0, std::log(n / left.length) / std::log(right.length / left.length));
  return y0 + (y1 - y0) * (n - left.length) / (right.length - left.length);
}

IsospeedPrediction predict_from_step_costs(const std::vector<Sweep>& sweeps, const std::vector<StepCosts>& step_costs) {
  require_two_sweeps(sweeps);
  common_kernel(sweeps);
  const Sweep& base = sweeps.front();
  require_base_held_its_target(base);
  const bool product = base.kernel == "mm";
  if (base.kernel != "ge" && !product)
    throw InputError(
        "step-costs", "",
        fmt::format("are the steps of ge or mm (bench steps); {} is a sweep of {}", sweep_source(base), base.kernel));
  if (step_costs.size() != sweeps.size())
    throw InputError("step-costs", "",
                     fmt::format("gives {} files for {} sweeps: give one per sweep, in the same order",
                                 step_costs.size(), sweeps.size()));
  auto configurations = configurations_from_sweeps(sweeps);
  for (std::size_t i = 0; i < sweeps.size(); ++i) {
    if (step_costs[i].kernel != base.kernel)
      throw InputError(step_costs[i].source, "kernel",
                       fmt::format("is {} but the sweeps are {}'s: measure the steps with bench steps --kernel {}",
                                   step_costs[i].kernel, base.kernel, base.kernel));
    if (static_cast<std::size_t>(step_costs[i].ranks) != sweeps[i].processes())
      throw InputError(step_costs[i].source, "ranks",
                       fmt::format("is {} but {} ran on {} processes: measure the steps on the same configuration",
                                   step_costs[i].ranks, sweep_source(sweeps[i]), sweeps[i].processes()));
    configurations[i].step_costs = step_costs[i];
  }

  // ge: T_o the steps' overheads summed, T_c = r W / C. mm: one step, T_o and
  // T_c = r times the slowest rank's computation, both as measured at N on the
  // configuration (the rate of each rank's block of dgemm depends on its shape).
  const auto overhead = [product](const StepCosts& costs, double n) {
    return product ? product_step_part(costs, n, &StepCost::overhead_seconds) : elimination_step_overheads(costs, n);
  };
  const auto computation_basis = [product](const StepCosts& costs, double n, double work, double marked_speed) {
    return product ? product_step_part(costs, n, &StepCost::computation_seconds) : work / (marked_speed * 1e6);
  };

  // r: T - T_o = r x over the base's passed points, least squares relative to T.
  double xy = 0.0, xx = 0.0;
  std::size_t used = 0;
  for (const auto& point : base.points) {
    if (!point.check_passed || !(point.seconds > 0.0) || !(point.work > 0.0)) continue;
    const double x = computation_basis(step_costs.front(), point.size, point.work, base.marked_speed());
    const double y = point.seconds - overhead(step_costs.front(), point.size);
    xy += x * y / (point.seconds * point.seconds);
    xx += x * x / (point.seconds * point.seconds);
    ++used;
  }
  if (used == 0 || !(xy > 0.0))
    throw InputError(sweep_source(base), "points",
                     "have no passed point whose time exceeds its steps' overheads: r cannot be fitted");
  const double r = xy / xx;
  // The target. ge: the model's E_s at the base's N, as Section 4.5 takes
  // it: T_c = r W / C is carried from the base to every configuration, so
  // the fit's miss at the base's N (its E_s there was 0.115 to 0.144 against
  // about 0.1 measured, docs/experiments.md) is the larger configurations'
  // too, and cancels. mm: the base's E_s as its sweep measured it at N (the
  // verified run), when it has one: each configuration's T_c and T_o are its
  // own measurements, so the model's E_s at the base's N carries only how the
  // base's steps there differ from its kernel runs, a miss the others do not
  // share.
  std::optional<double> measured_target;
  if (product && base.target && base.target->verified && base.target->verified->seconds > 0.0)
    measured_target = base.target->verified->work / (base.target->verified->seconds * base.marked_speed() * 1e6);
  auto prediction = predict_by(
      sweep_workload(base), configurations, "",
      [&](const PredictionInput& input, double n, double work) {
        return r * computation_basis(*input.configuration.step_costs, n, work, input.configuration.marked_speed);
      },
      [&](const PredictionInput& input, double n, double) { return overhead(*input.configuration.step_costs, n); },
      measured_target);
  if (!product) {
    // T_c = W t_c C_ref / C with C_ref = C / p of the base and t_c = r / (C_ref 1e6): r W / C.
    prediction.costs.reference_marked_speed = base.marked_speed() / static_cast<double>(base.processes());
    prediction.costs.unit_computation = r / (*prediction.costs.reference_marked_speed * 1e6);
  }
  for (const auto& measured : step_costs) prediction.step_cost_sources.push_back(measured.source);
  prediction.computation_ratio = r;
  if (product) {
    prediction.overhead =
        "T_o = the product's overhead measured at N on each configuration (bench steps --kernel mm; power law "
        "between the measured orders)";
    prediction.computation = fmt::format(
        "T_c = r T_c,steps: r = {:.4g} times the slowest rank's computation measured at N on each configuration, r "
        "fitted on {} (T - T_o against T_c,steps over {} points)",
        r, sweep_source(base), used);
  } else {
    prediction.overhead =
        "T_o = the measured overheads of the elimination's steps summed over L = N .. 2 (bench steps)";
    prediction.computation = fmt::format(
        "T_c = r W / C, r = {:.4g} fitted on {} (T - T_o against W / C over {} points)", r, sweep_source(base), used);
  }
  return prediction;
}

IsospeedPrediction predict_from_sweeps(const CommProfile& profile, const std::vector<Sweep>& sweeps,
                                       const std::string& overhead) {
  require_two_sweeps(sweeps);
  common_kernel(sweeps);
  require_base_held_its_target(sweeps.front());
  const auto workload = sweep_workload(sweeps.front());
  overhead_model(workload, overhead, sweep_source(sweeps.front()), "kernel");

  const std::vector<ScalingConfiguration> configurations = configurations_from_sweeps(sweeps);

  // The unit computation time (see the header).
  model::CommunicationCosts costs = profile.costs;
  std::string how;
  const Sweep& base = sweeps.front();
  std::vector<double> unit_times;
  for (const auto& point : base.points)
    if (point.check_passed && point.compute_seconds > 0.0)
      unit_times.push_back(point.compute_seconds * static_cast<double>(base.processes()) / point.work);
  if (profile.costs.reference_marked_speed) {
    how = "t_c and C_ref from the profile";
  } else if (!unit_times.empty()) {
    costs.unit_computation = model::detail::median(unit_times);
    costs.reference_marked_speed = base.marked_speed() / static_cast<double>(base.processes());
    how = fmt::format("t_c calibrated on {}: median of T_comp p / W over {} points; C_ref = C / p of the base",
                      sweep_source(base), unit_times.size());
  } else if (profile.costs.unit_computation > 0.0) {
    how = "t_c from the profile (the base sweep has no T_comp_s)";
  } else {
    throw InputError(sweep_source(base), "points",
                     fmt::format("have no T_comp_s to calibrate t_c, and {} has no unit_computation", profile.source));
  }
  auto prediction = predict_isospeed(costs, workload, configurations, "", overhead);
  prediction.profile_source = profile.source;
  prediction.computation += "; " + how;
  return prediction;
}

}  // namespace hetscale
