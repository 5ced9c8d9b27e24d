// `hetscale predict INPUTS... --at X [--variable p|C|N]`: fit each part of a
// run as a function of the scale (Extra-P's normal form, chosen by
// leave-one-out cross-validation) and predict it at X (docs/prediction.md).
// INPUTS are run records (hetscale.run/1: the farm, the kernels, measured
// programs), sweeps (hetscale.sweep/1: against N), or one file in Extra-P's
// text or JSON Lines format.
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

}  // namespace

Output run_predict(const Arguments& arguments) {
  const auto& inputs = arguments.texts("inputs");
  const auto& variable = arguments.text("--variable");
  const auto& values_given = arguments.text("--values");
  const double at = io::parse_one_number(arguments.text("--at"), "--at");
  auto options = arguments.flag("--extra-p") ? empirical::SearchOptions::extra_p() : empirical::SearchOptions{};
  options.measure = measure_named(arguments.text("--measure"));
  if (const auto& terms = arguments.text("--terms"); !terms.empty()) {
    if (terms != "1" && terms != "2")
      throw InputError("--terms", "", fmt::format("'{}': 1 or 2 terms beside the constant", terms));
    options.max_terms = terms == "1" ? 1 : 2;
  }

  std::vector<InputKind> kinds;
  std::vector<std::string> texts;
  for (const auto& path : inputs) {
    texts.push_back(io::read_text_file(path));
    kinds.push_back(kind_of(texts.back()));
  }
  for (std::size_t i = 1; i < kinds.size(); ++i)
    if (kinds[i] != kinds[0])
      throw InputError(
          inputs[i], "",
          fmt::format("is not the kind of input {} is: give run records, sweeps or one Extra-P file", inputs[0]));

  ScalingMeasurements measurements;
  if (kinds[0] == InputKind::extra_p) {
    if (inputs.size() != 1) throw InputError(inputs[1], "", "a second Extra-P file: give one, with every scale in it");
    if (!values_given.empty()) throw InputError("--values", "", "is for run records; an Extra-P file has its points");
    measurements = read_scaling_measurements(inputs[0]);
    if (!variable.empty() && variable != measurements.parameter)
      throw InputError("--variable", "",
                       fmt::format("'{}': {} is over its parameter '{}'", variable, inputs[0], measurements.parameter));
  } else if (kinds[0] == InputKind::sweep) {
    if (!variable.empty() && variable != "N")
      throw InputError("--variable", "", fmt::format("'{}': sweeps are predicted over N", variable));
    if (!values_given.empty()) throw InputError("--values", "", "is for run records; a sweep has its sizes");
    std::vector<Sweep> sweeps;
    for (std::size_t i = 0; i < texts.size(); ++i) sweeps.push_back(parse_sweep(texts[i], inputs[i]));
    measurements = scaling_of_sweeps(sweeps);
  } else {
    std::vector<RunRecord> runs;
    for (std::size_t i = 0; i < texts.size(); ++i) runs.push_back(parse_run_record(texts[i], inputs[i]));
    const auto scale =
        with_options_named({"variable"}, [&] { return scale_variable_named(variable.empty() ? "p" : variable); });
    std::optional<std::vector<double>> values;
    if (!values_given.empty()) values = io::parse_positive_list(values_given, "--values");
    measurements = with_options_named({"values"}, [&] { return scaling_of_runs(runs, scale, values); });
  }

  const auto prediction = with_options_named({"at"}, [&] { return predict_scaling(measurements, at, options); });
  if (arguments.given("--extra-p-out"))
    io::write_file_atomically(arguments.text("--extra-p-out"), extra_p_json_lines(measurements));
  return {arguments.flag("--json") ? report::prediction_json(prediction) : report::prediction_text(prediction)};
}

}  // namespace hetscale::cli
