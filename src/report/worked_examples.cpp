#include "hetscale/report/worked_examples.hpp"

#include <optional>

#include <fmt/core.h>

#include "hetscale/analysis/host_device_split.hpp"
#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/analysis/serial_fit.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/papers/paper_checks.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/platform/speed_model.hpp"
#include "hetscale/record/measured_regions.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/timings.hpp"
#include "hetscale/report/json_report.hpp"
#include "hetscale/report/table.hpp"

namespace hetscale::report {

std::string analysis_of_files(const std::string& run_path, const std::string& platform_path, bool json,
                              const std::string& region, const std::string& model_path) {
  const RunRecord whole = read_run_record(run_path);
  const RunRecord run = region.empty() ? whole : region_record(whole, region);
  std::optional<Platform> platform;
  if (!platform_path.empty()) platform = read_platform(platform_path);
  if (!run.has_computation()) return json ? times_json(run) : times_table(run);
  auto analysis = analyze_run(run, platform ? &*platform : nullptr);
  if (!model_path.empty()) {
    const SpeedModel model = read_speed_model(model_path);
    if (analysis.offload.empty())
      throw InputError(run_path, "context.offload",
                       "this run offloaded no work to a device: --model (a speed model of each rank's cores and "
                       "device) analyses the work a run offloaded");
    analysis.host_device = host_device_splits(analysis.offload, model);
  }
  return json ? analysis_json(analysis) : analysis_table(analysis);
}

std::string serial_fit_of_files(const std::vector<std::string>& timings_paths, bool json,
                                const std::string& serial_time) {
  const auto fit = fit_serial_fraction(read_timings(timings_paths), serial_time_named(serial_time));
  return json ? serial_fit_json(fit) : serial_fit_table(fit);
}

WorkedExamples worked_examples(bool json) {
  const std::string examples = "examples/";
  const auto sections = reproduce_papers("data");
  WorkedExamples out;
  for (const auto& section : sections)
    for (const auto& check : section.checks) out.disagreeing += check.agrees() ? 0 : 1;

  const std::string run = examples + "run-hetero.json", platform = examples + "platform-hetero.json";
  const std::string measured = examples + "run-measured.json", timings = examples + "timings.csv";
  if (json) {
    out.text = combined_json({{"paper_checks", paper_checks_json(sections)},
                              {"analysis", analysis_of_files(run, platform, true)},
                              {"analysis_measured_speeds", analysis_of_files(measured, "", true)},
                              {"serial_fit", serial_fit_of_files({timings}, true)}});
    return out;
  }
  out.text = "hetscale demo: the papers' worked examples recomputed from their published inputs\n";
  out.text += paper_checks_table(sections);
  out.text += fmt::format("\n\n$ hetscale analyze {} --platform {}\n", run, platform) +
              analysis_of_files(run, platform, false);
  out.text += fmt::format("\n\n$ hetscale analyze {}\n", measured) + analysis_of_files(measured, "", false);
  out.text += fmt::format("\n\n$ hetscale fit serial --timings {}\n", timings) + serial_fit_of_files({timings}, false);
  if (out.disagreeing) out.text += fmt::format("\n{} paper values were NOT reproduced\n", out.disagreeing);
  return out;
}

}  // namespace hetscale::report
