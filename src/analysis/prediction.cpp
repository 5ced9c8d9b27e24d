#include "hetscale/analysis/prediction.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/record/farm_context.hpp"

namespace hetscale {
namespace {

// What ran, as far as the record says: runs of one program only are fitted
// together. The problem size is part of it unless it is the scale.
std::string program_of(const RunRecord& run, ScaleVariable variable) {
  const auto& context = run.context;
  if (const auto& farm = context.farm)
    return farm->objective ? fmt::format("the farm (objective {}, policy {})", *farm->objective, farm->policy)
                           : fmt::format("the farm (policy {})", farm->policy);
  if (const auto& kernel = context.kernel) {
    if (variable == ScaleVariable::problem_size || !kernel->N) return fmt::format("kernel {}", kernel->kernel);
    return fmt::format("kernel {} at N = {}", kernel->kernel, *kernel->N);
  }
  if (context.measured && context.measured->program) return fmt::format("program {}", *context.measured->program);
  return "";
}

double mean(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// Seed 000's efficiency of the run, when every node has work and t_comp
// (and none, not an error, when the analysis cannot measure the speeds).
std::optional<double> heterogeneous_efficiency_of(const RunRecord& run) {
  try {
    return analyze_run(run).heterogeneous.efficiency;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

const ComponentPrediction* find_component(const ScalingPrediction& prediction, const char* name) {
  for (const auto& component : prediction.components)
    if (component.name == name) return &component;
  return nullptr;
}

std::optional<double> ratio(std::optional<double> numerator, std::optional<double> denominator) {
  if (!numerator || !denominator || *denominator <= 0.0) return std::nullopt;
  return *numerator / *denominator;
}

// The sums among a run's parts: t_par is the mean over nodes of each node's
// t_comp + t_comm + t_idle + t_other + t_setup; t_comp_max is t_comp_mean
// plus the imbalance.
struct SumOfParts {
  const char* sum;
  std::vector<const char*> parts;
};
const SumOfParts sums_of_parts[] = {
    {component_t_par, {component_t_comp_mean, component_t_comm_idle, component_t_other, component_t_setup}},
    {component_t_comp_max, {component_t_comp_mean, component_t_imbalance}}};

const ScalingSeries* series_named(const ScalingMeasurements& measurements, const char* name) {
  for (const auto& series : measurements.series)
    if (series.callpath == name && series.metric == "seconds") return &series;
  return nullptr;
}

// The sums whose series are there with each of their parts', measured at the
// same scales: those are predicted as the sum of the parts' models.
std::vector<const SumOfParts*> sums_in(const ScalingMeasurements& measurements) {
  const auto scales_of = [](const ScalingSeries& series) {
    std::vector<double> scales;
    for (const auto& point : series.points) scales.push_back(point.x);
    return scales;
  };
  std::vector<const SumOfParts*> found;
  for (const auto& sum : sums_of_parts) {
    const auto* series = series_named(measurements, sum.sum);
    if (series && std::all_of(sum.parts.begin(), sum.parts.end(), [&](const char* part) {
          const auto* part_series = series_named(measurements, part);
          return part_series && scales_of(*part_series) == scales_of(*series);
        }))
      found.push_back(&sum);
  }
  return found;
}

ComponentPrediction* find_component(ScalingPrediction& prediction, const char* name) {
  return const_cast<ComponentPrediction*>(find_component(std::as_const(prediction), name));
}

// A sum from its fitted parts: the model, the value and the interval.
void add_up(ScalingPrediction& prediction, const SumOfParts& sum, empirical::Measure measure) {
  auto* whole = find_component(prediction, sum.sum);
  std::vector<empirical::FittedModel> parts;
  empirical::Prediction at{prediction.at, 0.0, 0.0, 0.0};
  for (const char* name : sum.parts) {
    const auto* part = find_component(prediction, name);
    parts.push_back(part->fitted);
    at.value += part->at.value;
    at.low += part->at.low;
    at.high += part->at.high;
  }
  std::vector<double> measured;
  for (const auto& point : whole->points) measured.push_back(empirical::measured_value(point, measure));
  whole->fitted = empirical::sum_of_models(parts, measured);
  whole->at = at;
  prediction.sums.push_back(fmt::format("{} = {}", sum.sum, fmt::join(sum.parts, " + ")));
}

}  // namespace

ScaleVariable scale_variable_named(const std::string& name) {
  if (name == "p") return ScaleVariable::processes;
  if (name == "C") return ScaleVariable::marked_speed;
  if (name == "N") return ScaleVariable::problem_size;
  throw InputError("variable", "",
                   fmt::format("'{}': one of p (processes), C (sum of marked speeds), N (problem size)", name));
}

std::string scale_variable_name(ScaleVariable variable) {
  switch (variable) {
    case ScaleVariable::processes:
      return "p";
    case ScaleVariable::marked_speed:
      return "C";
    case ScaleVariable::problem_size:
      return "N";
  }
  return "?";
}

double scale_of_run(const RunRecord& run, ScaleVariable variable) {
  const auto& context = run.context;
  switch (variable) {
    case ScaleVariable::processes:
      return static_cast<double>(run.nodes.size());
    case ScaleVariable::marked_speed: {
      if (context.kernel && context.kernel->marked_speed_Mflops) return *context.kernel->marked_speed_Mflops;
      if (const auto& farm = context.farm) {
        if (farm->speeds.empty()) return static_cast<double>(farm->clients);
        return std::accumulate(farm->speeds.begin(), farm->speeds.end(), 0.0);
      }
      throw InputError(run.source, "context",
                       "says no marked speeds (a kernel's marked_speed_Mflops, a farm's client speeds); give each "
                       "run's C as values");
    }
    case ScaleVariable::problem_size:
      if (context.kernel && context.kernel->N) return static_cast<double>(*context.kernel->N);
      throw InputError(run.source, "context", "says no problem size N (a kernel's); give each run's N as values");
  }
  return 0.0;
}

namespace {

std::string speeds_text(const std::vector<double>& speeds) {
  if (speeds.empty()) return "none emulated";
  std::string text;
  for (const double v : speeds) text += (text.empty() ? "" : ",") + fmt::format("{:g}", v);
  return text;
}

}  // namespace

ScalingMeasurements scaling_of_runs(const std::vector<RunRecord>& runs, ScaleVariable variable,
                                    const std::optional<std::vector<double>>& values) {
  if (values && values->size() != runs.size())
    throw InputError(
        "values", "",
        fmt::format("{} values for {} runs: give one scale per run, in order", values->size(), runs.size()));
  const std::string name = scale_variable_name(variable);
  ScalingMeasurements measurements{"", name, {}, {}};
  const char* components[] = {component_t_par,       component_t_comp_max, component_t_comp_mean, component_t_imbalance,
                              component_t_comm_idle, component_t_other,    component_t_setup,     component_t_ideal};
  for (const char* component : components) measurements.series.push_back({component, "seconds", {}});
  std::string program;
  bool every_run_has_efficiency = true;
  std::map<double, std::pair<std::vector<double>, std::string>>
      emulated_at;                          // scale: speeds asked, the first run's source
  std::vector<std::string> shared, loaded;  // the inputs measured with shared cores, beside other load
  double most_other_load = 0.0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs[r];
    measurements.source += (r == 0 ? "" : " + ") + run.source;
    if (run.nodes.empty()) throw InputError(run.source, "nodes", "is empty; a run to predict from has nodes");
    const std::string this_program = program_of(run, variable);
    if (r == 0) program = this_program;
    if (this_program != program)
      throw InputError(run.source, "context",
                       fmt::format("is a run of {}, {} is of {}: predict from runs of one program",
                                   this_program.empty() ? "a program it does not name" : this_program, runs[0].source,
                                   program.empty() ? "a program it does not name" : program));
    const double x = values ? (*values)[r] : scale_of_run(run, variable);
    if (!(x > 0.0) || !std::isfinite(x))
      throw InputError(values ? "values" : run.source, values ? "" : "context",
                       fmt::format("{} = {}: a scale is a finite number > 0", name, x));
    const auto conditions = run_conditions(run);
    const auto [first, fresh] = emulated_at.try_emplace(x, conditions.emulated, run.source);
    if (!fresh && first->second.first != conditions.emulated)
      throw InputError(run.source, "context.emulation",
                       fmt::format("emulates other speeds than {} at {} = {:g} ({} against {}): runs at one scale are "
                                   "repetitions of one configuration; predict from runs emulated alike",
                                   first->second.second, name, x, speeds_text(conditions.emulated),
                                   speeds_text(first->second.first)));
    if (conditions.cores_shared) shared.push_back(run.source);
    if (conditions.loaded()) {
      loaded.push_back(run.source);
      most_other_load = std::max(most_other_load, conditions.other_load);
    }
    std::vector<double> comp, comm_idle, other, setup;
    for (const auto& node : run.nodes) {
      comp.push_back(node.t_comp);
      comm_idle.push_back(node.t_comm + node.t_idle);
      other.push_back(node.t_other);
      setup.push_back(node.t_setup);
    }
    const auto efficiency = heterogeneous_efficiency_of(run);
    every_run_has_efficiency = every_run_has_efficiency && efficiency.has_value();
    const double comp_max = *std::max_element(comp.begin(), comp.end()), comp_mean = mean(comp);
    const double parts[] = {run.t_par,       comp_max,    comp_mean,   comp_max - comp_mean,
                            mean(comm_idle), mean(other), mean(setup), efficiency ? *efficiency * run.t_par : 0.0};
    for (std::size_t c = 0; c < std::size(components); ++c) measurements.series[c].add(x, {parts[c]});
  }
  const auto named = [](const std::vector<std::string>& sources) {
    std::string names;
    for (std::size_t i = 0; i < std::min<std::size_t>(sources.size(), 3); ++i) names += (i ? ", " : "") + sources[i];
    return sources.size() > 3 ? names + fmt::format(" and {} more", sources.size() - 3) : names;
  };
  if (!shared.empty())
    measurements.cautions.push_back(fmt::format(
        "caution: {} of the {} inputs were measured with shared cores (their ranks waited for CPUs): {}; their times "
        "are not those of a machine with a core per rank",
        shared.size(), runs.size(), named(shared)));
  if (!loaded.empty())
    measurements.cautions.push_back(fmt::format(
        "caution: {} of the {} inputs were measured beside other load (up to {:.1f} % of t_par waiting for a CPU): {}",
        loaded.size(), runs.size(), 100.0 * most_other_load, named(loaded)));
  if (!every_run_has_efficiency) measurements.series.pop_back();  // t_ideal
  for (auto& series : measurements.series)
    std::sort(series.points.begin(), series.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  return measurements;
}

ScalingMeasurements scaling_of_sweeps(const std::vector<Sweep>& sweeps) {
  ScalingMeasurements measurements{
      "", "N", {{component_t_par, "seconds", {}}, {component_t_comp_max, "seconds", {}}}, {}};
  for (std::size_t s = 0; s < sweeps.size(); ++s) {
    const auto& sweep = sweeps[s];
    measurements.source += (s == 0 ? "" : " + ") + sweep.source;
    const auto& first = sweeps.front();
    if (sweep.kernel != first.kernel || sweep.marked_speeds != first.marked_speeds)
      throw InputError(sweep.source, "configuration",
                       fmt::format("is {} on {} ({} processes), {} is {} on {}: predict over N from sweeps of one "
                                   "program on one configuration",
                                   sweep.kernel, sweep.configuration, sweep.processes(), first.source, first.kernel,
                                   first.configuration));
    for (const auto& point : sweep.points) {
      measurements.series[0].add(point.size,
                                 point.run_seconds.empty() ? std::vector<double>{point.seconds} : point.run_seconds);
      measurements.series[1].add(point.size, {point.compute_seconds});
    }
  }
  for (auto& series : measurements.series)
    std::sort(series.points.begin(), series.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  return measurements;
}

ScalingPrediction predict_scaling(const ScalingMeasurements& measurements, double at,
                                  const empirical::SearchOptions& options) {
  if (!(at > 0.0) || !std::isfinite(at))
    throw InputError("at", "", fmt::format("{}: a scale is a finite number > 0", at));
  ScalingPrediction prediction;
  prediction.source = measurements.source;
  prediction.cautions = measurements.cautions;
  prediction.variable = measurements.parameter;
  prediction.search = empirical::search_description(options);
  prediction.at = at;
  std::set<double> scales;
  for (const auto& series : measurements.series)
    for (const auto& point : series.points) scales.insert(point.x);
  prediction.scales.assign(scales.begin(), scales.end());
  if (prediction.scales.size() < 3)
    throw InputError(measurements.source, "",
                     fmt::format("has {} distinct scale(s) ({} = {}); a prediction needs runs at 3 or more",
                                 scales.size(), measurements.parameter, fmt::join(prediction.scales, ", ")));
  prediction.extrapolation = at > prediction.scales.back() || at < prediction.scales.front();

  const bool one_metric = std::all_of(measurements.series.begin(), measurements.series.end(),
                                      [&](const auto& s) { return s.metric == measurements.series.front().metric; });
  const auto sums = sums_in(measurements);
  for (const auto& series : measurements.series) {
    ComponentPrediction component;
    for (const auto& measurement : series.points) component.points.push_back({measurement.x, measurement.values});
    component.name = one_metric ? series.callpath : fmt::format("{} {}", series.callpath, series.metric);
    component.metric = series.metric;
    if (std::any_of(sums.begin(), sums.end(), [&](const SumOfParts* sum) { return series.callpath == sum->sum; })) {
      prediction.components.push_back(std::move(component));  // added up once its parts are fitted
      continue;
    }
    try {
      component.fitted = empirical::search_model(component.points, options);
    } catch (const std::invalid_argument& error) {
      throw InputError(measurements.source, component.name, error.what());
    }
    component.at = empirical::predict(component.fitted, at);
    // A sum of costs is never negative; neither is the low end of its interval.
    if (options.nonnegative_coefficients) component.at.low = std::max(0.0, component.at.low);
    prediction.components.push_back(std::move(component));
  }
  for (const auto* sum : sums) add_up(prediction, *sum, options.measure);

  // What follows from the parts, when they are a run's parts.
  const auto value = [&](const char* name) -> std::optional<double> {
    const auto* component = find_component(prediction, name);
    if (!component) return std::nullopt;
    return component->at.value;
  };
  auto& efficiencies = prediction.efficiencies;
  const auto efficiency = [&](const char* numerator, const char* denominator,
                              const char* name) -> std::optional<double> {
    auto e = ratio(value(numerator), value(denominator));
    if (e && *e > 1.0) e = 1.0, efficiencies.capped.push_back(name);
    return e;
  };
  efficiencies.heterogeneous_efficiency = efficiency(component_t_ideal, component_t_par, "heterogeneous e");
  efficiencies.load_balance = efficiency(component_t_comp_mean, component_t_comp_max, "POP load balance");
  efficiencies.communication_efficiency = efficiency(component_t_comp_max, component_t_par, "communication efficiency");
  if (efficiencies.load_balance && efficiencies.communication_efficiency)
    efficiencies.parallel_efficiency = *efficiencies.load_balance * *efficiencies.communication_efficiency;

  // Which part's share of t_par grows most, from the largest scale measured.
  const auto* t_par = find_component(prediction, component_t_par);
  if (t_par && prediction.extrapolation && at > prediction.scales.back()) {
    const double last = prediction.scales.back();
    const auto share_at = [&](const char* name, double x) -> std::optional<double> {
      const auto* part = find_component(prediction, name);
      const double total = t_par->fitted.function.at(x);
      if (!part || total <= 0.0) return std::nullopt;
      return std::max(0.0, part->fitted.function.at(x)) / total;
    };
    struct Part {
      const char* component;
      const char* name;
    };
    for (const Part& part : {Part{component_t_comm_idle, "communication and waiting (t_comm + t_idle)"},
                             Part{component_t_other, "other load (t_other)"},
                             Part{component_t_imbalance, "imbalance of the computation (t_comp_max - t_comp_mean)"}}) {
      const auto measured = share_at(part.component, last);
      const auto predicted = share_at(part.component, at);
      if (!measured || !predicted || *predicted <= *measured) continue;
      if (!prediction.limiting ||
          *predicted - *measured > prediction.limiting->share_predicted - prediction.limiting->share_measured)
        prediction.limiting = LimitingPart{part.name, *measured, *predicted};
    }
  }
  return prediction;
}

ScalingMeasurements read_scaling_inputs(const std::vector<std::string>& paths, const std::string& variable,
                                        const std::string& values) {
  std::vector<ScalingInputKind> kinds;
  std::vector<std::string> texts;
  for (const auto& path : paths) {
    texts.push_back(io::read_text_file(path));
    kinds.push_back(scaling_input_kind(texts.back()));
  }
  for (std::size_t i = 1; i < kinds.size(); ++i)
    if (kinds[i] != kinds[0])
      throw InputError(
          paths[i], "",
          fmt::format("is not the kind of input {} is: give run records, sweeps or one Extra-P file", paths[0]));
  if (kinds[0] == ScalingInputKind::extra_p) {
    if (paths.size() != 1) throw InputError(paths[1], "", "a second Extra-P file: give one, with every scale in it");
    if (!values.empty()) throw InputError("values", "", "is for run records; an Extra-P file has its points");
    auto measurements = read_scaling_measurements(paths[0]);
    if (!variable.empty() && variable != measurements.parameter)
      throw InputError("variable", "",
                       fmt::format("'{}': {} is over its parameter '{}'", variable, paths[0], measurements.parameter));
    return measurements;
  }
  if (kinds[0] == ScalingInputKind::sweep) {
    if (!variable.empty() && variable != "N")
      throw InputError("variable", "", fmt::format("'{}': sweeps are predicted over N", variable));
    if (!values.empty()) throw InputError("values", "", "is for run records; a sweep has its sizes");
    std::vector<Sweep> sweeps;
    for (std::size_t i = 0; i < texts.size(); ++i) sweeps.push_back(parse_sweep(texts[i], paths[i]));
    return scaling_of_sweeps(sweeps);
  }
  std::vector<RunRecord> runs;
  for (std::size_t i = 0; i < texts.size(); ++i) runs.push_back(parse_run_record(texts[i], paths[i]));
  std::optional<std::vector<double>> scales;
  if (!values.empty()) scales = io::parse_positive_list(values, "values");
  return scaling_of_runs(runs, scale_variable_named(variable.empty() ? "p" : variable), scales);
}

}  // namespace hetscale
