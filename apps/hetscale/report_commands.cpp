// `hetscale report INPUTS... --out report.html`: one self-contained HTML page
// that explains run records, sweeps and optimizer runs with figures (drawn by
// gnuplot) and tables, and the papers' model figures on demand.
#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/papers/paper_checks.hpp"
#include "hetscale/report/json_report.hpp"
#include "hetscale/report/report_builder.hpp"
#include "hetscale/report/report_files.hpp"

namespace hetscale::cli {

Output run_report(const Arguments& arguments) {
  const auto& paths = arguments.texts("inputs");
  const auto &out = arguments.text("--out"), &figures_dir = arguments.text("--figures-dir");
  report::ReportOptions options;
  options.title = arguments.text("--title");
  options.model_figures = with_options_named(
      {"model"}, [&] { return report::model_figures_named(arguments.text("--model"), io::say_on_stderr); });
  for (const auto& name : options.model_figures)
    if (name == "ewf-heterogeneity") options.seed003_configurations = seed003_table1_speeds(home_dir() + "/data");
  options.about = report::report_about(fmt::format("hetscale {}", HETSCALE_VERSION), paths);
  std::vector<report::ReportInput> inputs;
  for (const auto& path : paths) inputs.push_back({path, io::read_text_file(path)});
  auto report = with_options_named({"model"}, [&] { return report::build_report(inputs, options); });
  report::draw_figures(report);
  // The page first: when it cannot be written, nothing else is.
  io::write_file_atomically(out, report::html_report(report));
  if (!figures_dir.empty()) with_options_named({"figures-dir"}, [&] { report::write_figures(report, figures_dir); });
  if (arguments.flag("--json")) return {report::report_contents_json(report, paths, out, figures_dir)};
  return {report::report_summary(report, out, figures_dir)};
}

}  // namespace hetscale::cli
