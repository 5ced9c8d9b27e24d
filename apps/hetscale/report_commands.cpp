// `hetscale report INPUTS... --out report.html`: one self-contained HTML page
// that explains run records, sweeps and optimizer runs with figures (drawn by
// gnuplot) and tables, and the papers' model figures on demand.
#include <algorithm>
#include <filesystem>

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/papers/paper_checks.hpp"
#include "hetscale/report/gnuplot.hpp"
#include "hetscale/report/json_report.hpp"
#include "hetscale/report/report_builder.hpp"

namespace hetscale::cli {

Output run_report(const Arguments& arguments) {
  const auto& model = arguments.text("--model");
  const auto& inputs_given = arguments.texts("inputs");
  const auto& out = arguments.text("--out");
  const auto& figures_dir = arguments.text("--figures-dir");
  report::ReportOptions options;
  options.title = arguments.text("--title");
  if (!model.empty()) {
    for (const std::string_view piece : io::split_at(model, ',')) {
      std::string name(piece);
      if (const auto renamed = report::model_figure_renamed(name)) {
        io::say_on_stderr(fmt::format("hetscale: report: the model figure {} is now called {}\n", name, *renamed));
        name = *renamed;
      }
      if (name.empty())
        throw InputError(
            "--model", "",
            fmt::format("'{}' has an empty name; allowed: {}", model, fmt::join(report::model_figure_names(), ", ")));
      if (std::find(options.model_figures.begin(), options.model_figures.end(), name) == options.model_figures.end())
        options.model_figures.push_back(name);  // a name given twice is drawn once
    }
    for (const auto& name : options.model_figures)
      if (name == "ewf-heterogeneity") options.seed003_configurations = seed003_table1_speeds(home_dir() + "/data");
  }
  std::vector<report::ReportInput> inputs;
  for (const auto& path : inputs_given) inputs.push_back({path, io::read_text_file(path)});
  const std::string gnuplot = report::gnuplot_version();
  options.about = {fmt::format("made by hetscale {} on {}, figures drawn by {}", HETSCALE_VERSION,
                               io::utc_now("%Y-%m-%d %H:%M UTC"), gnuplot.empty() ? "gnuplot" : gnuplot)};
  if (!inputs_given.empty()) {
    std::string listed;
    for (const auto& path : inputs_given) listed += (listed.empty() ? "" : ", ") + path;
    options.about.push_back("inputs: " + listed);
  }

  auto report = with_options_named({"model"}, [&] { return report::build_report(inputs, options); });
  std::size_t figures = 0, tables = 0;
  for (auto& section : report.sections) {
    tables += section.tables.size();
    for (auto& drawn : section.figures) {
      drawn.svg = report::render_svg(drawn.figure);
      ++figures;
    }
  }
  // The page first: when it cannot be written, nothing else is.
  io::write_file_atomically(out, report::html_report(report));
  if (!figures_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(figures_dir, error);
    if (error) throw InputError("--figures-dir", figures_dir, "cannot be made: " + error.message());
    for (const auto& section : report.sections)
      for (const auto& drawn : section.figures) {
        const auto stem = (std::filesystem::path(figures_dir) / drawn.figure.id).string();
        io::write_file_atomically(stem + ".svg", drawn.svg);
        io::write_file_atomically(stem + ".gp", report::gnuplot_script(drawn.figure));
      }
  }

  if (arguments.flag("--json")) return {report::report_contents_json(report, inputs_given, out, figures_dir)};
  std::string text = fmt::format("{}: {} sections, {} figures, {} tables{}\n", out, report.sections.size(), figures,
                                 tables, figures_dir.empty() ? "" : "; figures also in " + figures_dir);
  for (const auto& section : report.sections) {
    text += "  " + section.title + "\n";
    for (const auto& drawn : section.figures) text += fmt::format("    {}: {}\n", drawn.figure.id, drawn.figure.title);
  }
  return {text};
}

}  // namespace hetscale::cli
