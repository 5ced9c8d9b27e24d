// Extra-P's formats as `hetscale predict` reads them: the text format and
// JSON Lines, then the model search and the prediction of every series.
#include "fuzz_input.hpp"
#include "hetscale/analysis/prediction.hpp"
#include "hetscale/record/scaling_measurements.hpp"

namespace {

// The search tries thousands of hypotheses a series: a few short series are
// enough to reach every branch, and keep each input well under the hang limit.
void predict_from(const hetscale::ScalingMeasurements& measurements) {
  if (measurements.series.size() > 3) return;
  for (const auto& series : measurements.series)
    if (series.points.size() > 10) return;
  (void)hetscale::predict_scaling(measurements, 64.0);
  (void)hetscale::predict_scaling(measurements, 64.0, hetscale::empirical::SearchOptions::extra_p());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    predict_from(hetscale::parse_extra_p_text(text, "fuzz.txt"));
  });
  return hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    predict_from(hetscale::parse_extra_p_json_lines(text, "fuzz.jsonl"));
  });
}
