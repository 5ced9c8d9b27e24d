// `hetscale predict INPUTS... --at X [--variable p|C|N]`: fit each part of a
// run as a function of the scale (Extra-P's normal form, chosen by
// leave-one-out cross-validation) and predict it at X (docs/prediction.md).
// INPUTS are run records (hetscale.run/1: the farm, the kernels, measured
// programs), sweeps (hetscale.sweep/1: against N), or one file in Extra-P's
// text or JSON Lines format.
#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/analysis/prediction.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/report/prediction_report.hpp"

namespace hetscale::cli {

Output run_predict(const Arguments& arguments) {
  const double at = io::parse_one_number(arguments.text("--at"), "--at");
  auto options = arguments.flag("--extra-p") ? empirical::SearchOptions::extra_p() : empirical::SearchOptions{};
  options.measure = named_choice(empirical::measure_from_string, arguments.text("--measure"), "--measure");
  if (const auto& terms = arguments.text("--terms"); !terms.empty()) {
    if (terms != "1" && terms != "2")
      throw InputError("--terms", "", fmt::format("'{}': 1 or 2 terms beside the constant", terms));
    options.max_terms = terms == "1" ? 1 : 2;
  }

  const auto measurements = with_options_named({"variable", "values"}, [&] {
    return read_scaling_inputs(arguments.texts("inputs"), arguments.text("--variable"), arguments.text("--values"));
  });
  const auto prediction = with_options_named({"at"}, [&] { return predict_scaling(measurements, at, options); });
  if (arguments.given("--extra-p-out"))
    io::write_file_atomically(arguments.text("--extra-p-out"), extra_p_json_lines(measurements));
  return {arguments.flag("--json") ? report::prediction_json(prediction) : report::prediction_text(prediction)};
}

}  // namespace hetscale::cli
