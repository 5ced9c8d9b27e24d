#pragma once
// Predicting a larger run from a few: the parts of run records (t_par, the
// computation's max and mean over nodes, communication and waiting, other
// load) as functions of a scale variable, each fitted with Extra-P's
// performance-model normal form (empirical/model_search.hpp), and what follows
// at the scale asked for: the times with an interval, APGA 2004's efficiency,
// POP's load balance and communication efficiency, and which part's growth
// limits them. The scale is p (processes), C (the sum of the nodes' marked
// speeds: Chen et al. 2008's variable for heterogeneous machines) or N (problem size).
// docs/prediction.md.
#include <optional>
#include <string>
#include <vector>

#include "hetscale/empirical/model_search.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/record/scaling_measurements.hpp"

namespace hetscale {

enum class ScaleVariable { processes, marked_speed, problem_size };
// "p", "C", "N"; InputError naming the setting variable otherwise.
ScaleVariable scale_variable_named(const std::string& name);
std::string scale_variable_name(ScaleVariable variable);

// The parts of a run that are fitted, as ScalingSeries callpaths.
inline constexpr const char* component_t_par = "t_par";
inline constexpr const char* component_t_comp_max = "t_comp_max";
inline constexpr const char* component_t_comp_mean = "t_comp_mean";
inline constexpr const char* component_t_imbalance = "t_imbalance";  // t_comp_max - t_comp_mean
inline constexpr const char* component_t_comm_idle = "t_comm+t_idle";
inline constexpr const char* component_t_other = "t_other";
inline constexpr const char* component_t_setup = "t_setup";  // the mean over nodes
// t_par times APGA 2004's efficiency: the time a perfect split on the same
// nodes would take (APGA 2004 Eq 7), when every run's nodes have work and t_comp.
inline constexpr const char* component_t_ideal = "t_ideal";

// The scale of a run: p its node count; C the sum of its marked speeds (a
// kernel's context, a farm's declared client speeds, 1 per client when it
// declares none); N a kernel's size. Throws InputError naming the record when
// the record does not say (give the values with --values).
double scale_of_run(const RunRecord& run, ScaleVariable variable);

// Every run's parts as series at its scale (runs at the same scale are
// repetitions), metric "seconds". `values`, when given, are the runs' scales
// in order. Throws InputError naming the record for runs of different
// programs (a kernel against another kernel or size, a farm against another
// objective, a measured program against another), a scale that is not > 0,
// or a count of values that is not the count of runs, and for runs at one
// scale emulated at different speeds (repetitions are of one configuration).
// Runs measured with shared cores or other load over 5 % of t_par are named
// in the measurements' cautions.
ScalingMeasurements scaling_of_runs(const std::vector<RunRecord>& runs, ScaleVariable variable,
                                    const std::optional<std::vector<double>>& values = std::nullopt);

// A sweep's times against N (variable N): t_par (T_s, every repetition when
// the sweep kept them) and t_comp_max (T_comp_s). Sweeps of one program on
// one configuration only; InputError naming the sweep otherwise.
ScalingMeasurements scaling_of_sweeps(const std::vector<Sweep>& sweeps);

// The measurements in the files `paths`, all of one kind: run records at
// their scales (over `variable`, "" for p; `values` as scaling_of_runs, a
// number list, "" for none), sweeps against N, or one Extra-P file. Throws
// InputError naming a file of another kind than the first, or the setting
// variable or values where it does not apply.
ScalingMeasurements read_scaling_inputs(const std::vector<std::string>& paths, const std::string& variable,
                                        const std::string& values);

struct ComponentPrediction {
  std::string name;                             // callpath (and metric, when not the only one)
  std::string metric;                           // "seconds" for a run's parts
  std::vector<empirical::ScalingPoint> points;  // what was fitted
  empirical::FittedModel fitted;
  empirical::Prediction at;
};

struct EfficiencyPrediction {
  std::optional<double> heterogeneous_efficiency;  // APGA 2004's e = t_ideal / t_par
  std::optional<double> load_balance;              // POP: t_comp_mean / t_comp_max
  std::optional<double> communication_efficiency;  // POP: t_comp_max / t_par
  std::optional<double> parallel_efficiency;       // POP: load balance x communication efficiency
  // An efficiency is at most 1. Where the models of its numerator and its
  // denominator, fitted apart, put the numerator above (t_ideal > t_par), it
  // is given as 1 and named here: the models disagree at that scale.
  std::vector<std::string> capped;
};

// The part whose share of t_par grows most from the largest measured scale to
// the one predicted: communication and waiting, other load, or the imbalance
// of the computation (t_comp_max - t_comp_mean).
struct LimitingPart {
  std::string name;
  double share_measured = 0.0, share_predicted = 0.0;
};

struct ScalingPrediction {
  std::string source;
  std::vector<std::string> cautions;  // the measurements' (ScalingMeasurements::cautions)
  std::string variable;               // p, C, N, or the parameter of an Extra-P file
  std::string search;                 // empirical::search_description of the options
  double at = 0.0;
  std::vector<double> scales;  // measured, ascending
  bool extrapolation = false;  // at beyond the measured scales
  std::vector<ComponentPrediction> components;
  // The parts added up rather than fitted: "t_par = t_comp_mean + ...".
  std::vector<std::string> sums;
  EfficiencyPrediction efficiencies;
  std::optional<LimitingPart> limiting;
};

// Each series is fitted on its own (empirical::search_model), except a sum
// whose parts are there too, measured at the same scales: t_par (a run's
// t_par is the mean over its nodes of t_comp + t_comm + t_idle + t_other +
// t_setup) is the sum of the models of t_comp_mean, t_comm+t_idle, t_other
// and t_setup; t_comp_max of t_comp_mean and t_imbalance. A sum's interval is
// the sum of its parts' (as if their errors went the same way). Each part
// keeps one behaviour (a/C, b log p) that one term fits; fitted alone, t_par
// needs two, and a few noisy points choose them badly (docs/prediction.md).
// Throws InputError naming the source when the measurements hold fewer than
// three distinct scales, or `at` is not a finite number > 0 (naming the setting at).
ScalingPrediction predict_scaling(const ScalingMeasurements& measurements, double at,
                                  const empirical::SearchOptions& options = {});

}  // namespace hetscale
