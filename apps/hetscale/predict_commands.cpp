// `hetscale predict INPUTS... --at X [--variable p|C|N]`: fit each part of a
// run as a function of the scale (Extra-P's normal form, chosen by
// leave-one-out cross-validation) and predict it at X (docs/prediction.md).
// INPUTS are run records (hetscale.run/1: the farm, the kernels, measured
// programs), sweeps (hetscale.sweep/1: against N), or one file in Extra-P's
// text or JSON Lines format.
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "hetscale/analysis/prediction.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/scaling_measurements.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/report/prediction_report.hpp"

namespace hetscale::cli {
namespace {

struct PredictCommand {
  std::vector<std::string> inputs;
  std::string at, variable, values, measure = "mean", extra_p_out, terms;
  bool json = false, extra_p = false;
};

enum class InputKind { run, sweep, extra_p };

InputKind kind_of(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') return InputKind::extra_p;
  const auto whole = nlohmann::json::parse(text, nullptr, false);
  if (whole.is_discarded()) {
    // Several objects, one a line: Extra-P's JSON Lines.
    if (text.find('\n', first) != std::string::npos) return InputKind::extra_p;
    return InputKind::run;  // the run record's reader says what is wrong
  }
  const auto schema = whole.is_object() ? whole.find("schema") : whole.end();
  if (whole.is_object() && schema != whole.end() && *schema == std::string(Sweep::schema)) return InputKind::sweep;
  if (whole.is_object() && !whole.contains("params")) return InputKind::run;
  return InputKind::extra_p;  // one line of JSON Lines
}

empirical::Measure measure_named(const std::string& name) {
  if (name == "mean") return empirical::Measure::mean;
  if (name == "median") return empirical::Measure::median;
  if (name == "minimum") return empirical::Measure::minimum;
  if (name == "maximum") return empirical::Measure::maximum;
  throw InputError("--measure", "", fmt::format("'{}': one of mean, median, minimum, maximum", name));
}

Output predict(const PredictCommand& command) {
  const double at = single_number(command.at, "--at");
  auto options = command.extra_p ? empirical::SearchOptions::extra_p() : empirical::SearchOptions{};
  options.measure = measure_named(command.measure);
  if (!command.terms.empty()) {
    if (command.terms != "1" && command.terms != "2")
      throw InputError("--terms", "", fmt::format("'{}': 1 or 2 terms beside the constant", command.terms));
    options.max_terms = command.terms == "1" ? 1 : 2;
  }

  std::vector<InputKind> kinds;
  std::vector<std::string> texts;
  for (const auto& path : command.inputs) {
    texts.push_back(io::read_text_file(path));
    kinds.push_back(kind_of(texts.back()));
  }
  for (std::size_t i = 1; i < kinds.size(); ++i)
    if (kinds[i] != kinds[0])
      throw InputError(command.inputs[i], "",
                       fmt::format("is not the kind of input {} is: give run records, sweeps or one Extra-P file",
                                   command.inputs[0]));

  ScalingMeasurements measurements;
  if (kinds[0] == InputKind::extra_p) {
    if (command.inputs.size() != 1)
      throw InputError(command.inputs[1], "", "a second Extra-P file: give one, with every scale in it");
    if (!command.values.empty()) throw InputError("--values", "", "is for run records; an Extra-P file has its points");
    measurements = read_scaling_measurements(command.inputs[0]);
    if (!command.variable.empty() && command.variable != measurements.parameter)
      throw InputError("--variable", "",
                       fmt::format("'{}': {} is over its parameter '{}'", command.variable, command.inputs[0],
                                   measurements.parameter));
  } else if (kinds[0] == InputKind::sweep) {
    if (!command.variable.empty() && command.variable != "N")
      throw InputError("--variable", "", fmt::format("'{}': sweeps are predicted over N", command.variable));
    if (!command.values.empty()) throw InputError("--values", "", "is for run records; a sweep has its sizes");
    std::vector<Sweep> sweeps;
    for (std::size_t i = 0; i < texts.size(); ++i) sweeps.push_back(parse_sweep(texts[i], command.inputs[i]));
    measurements = scaling_of_sweeps(sweeps);
  } else {
    std::vector<RunRecord> runs;
    for (std::size_t i = 0; i < texts.size(); ++i) runs.push_back(parse_run_record(texts[i], command.inputs[i]));
    const auto variable = with_options_named(
        {"variable"}, [&] { return scale_variable_named(command.variable.empty() ? "p" : command.variable); });
    std::optional<std::vector<double>> values;
    if (!command.values.empty()) values = io::parse_positive_list(command.values, "--values");
    measurements = with_options_named({"values"}, [&] { return scaling_of_runs(runs, variable, values); });
  }

  const auto prediction = with_options_named({"at"}, [&] { return predict_scaling(measurements, at, options); });
  if (!command.extra_p_out.empty()) io::write_file_atomically(command.extra_p_out, extra_p_json_lines(measurements));
  return {command.json ? report::prediction_json(prediction) : report::prediction_text(prediction)};
}

}  // namespace

void add_predict_command(CLI::App& predict_command, Actions& actions) {
  auto command = std::make_shared<PredictCommand>();
  auto* predict_app = &predict_command;
  predict_app->footer(
      "Each part of the runs' time (computation, communication and waiting, other load, set-up) is fitted with "
      "Extra-P's performance-model normal form in the scale (p, C or N), chosen by leave-one-out cross-validation; "
      "t_par is their sum, given at --at with an interval. A different question: the problem size a larger "
      "configuration needs to keep its speed-efficiency is `hetscale scale predict` (isospeed).");
  predict_app->add_option("inputs", command->inputs,
                          "run records at 3 or more scales, sweeps, or one file in Extra-P's text or JSON Lines format")
      ->required();
  predict_app->add_option("--at", command->at, "the scale to predict at")->required();
  predict_app->add_option("--variable", command->variable,
                          "p (processes, the default), C (sum of the nodes' marked speeds) or N (problem size)");
  predict_app->add_option("--values", command->values,
                          "the scale of each run record, in order, v1,v2,... or @FILE (when the records do not say it)");
  predict_app->add_option("--measure", command->measure,
                          "how the repetitions at a scale become one value: mean (default), median, minimum, maximum");
  predict_app->add_option("--terms", command->terms,
                          "1 (default, as Extra-P) or 2 terms beside the constant in each part's model");
  predict_app->add_flag("--extra-p", command->extra_p,
                        "Extra-P's own search: one term, no negative exponents (its models, to its digits)");
  predict_app->add_option("--extra-p-out", command->extra_p_out,
                          "also write the measurements as JSON Lines for Extra-P (extrap --json FILE)");
  predict_app->add_flag("--json", command->json, "print hetscale.predict/1 JSON instead of the table");
  predict_app->callback([command, &actions] { actions.action = [command] { return predict(*command); }; });
}

}  // namespace hetscale::cli
