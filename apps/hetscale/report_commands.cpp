// `hetscale report INPUTS... --out report.html`: one self-contained HTML page
// that explains run records, sweeps and optimizer runs with figures (drawn by
// gnuplot) and tables, and the papers' model figures on demand.
#include <algorithm>
#include <filesystem>
#include <memory>

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
namespace {

struct ReportCommand {
  std::vector<std::string> inputs;
  std::string out, figures_dir, title = "hetscale report", model;
  bool json = false;
};

Output make_report(const ReportCommand& command) {
  report::ReportOptions options;
  options.title = command.title;
  if (!command.model.empty()) {
    for (const std::string_view piece : io::split_at(command.model, ',')) {
      std::string name(piece);
      if (const auto renamed = report::model_figure_renamed(name)) {
        say_on_stderr(fmt::format("hetscale: report: the model figure {} is now called {}\n", name, *renamed));
        name = *renamed;
      }
      if (name.empty())
        throw InputError("--model", "",
                         fmt::format("'{}' has an empty name; allowed: {}", command.model,
                                     fmt::join(report::model_figure_names(), ", ")));
      if (std::find(options.model_figures.begin(), options.model_figures.end(), name) == options.model_figures.end())
        options.model_figures.push_back(name);  // a name given twice is drawn once
    }
    for (const auto& name : options.model_figures)
      if (name == "ewf-heterogeneity") options.seed003_configurations = seed003_table1_speeds(home_dir() + "/data");
  }
  std::vector<report::ReportInput> inputs;
  for (const auto& path : command.inputs) inputs.push_back({path, io::read_text_file(path)});
  const std::string gnuplot = report::gnuplot_version();
  options.about = {fmt::format("made by hetscale {} on {}, figures drawn by {}", HETSCALE_VERSION,
                               io::utc_now("%Y-%m-%d %H:%M UTC"), gnuplot.empty() ? "gnuplot" : gnuplot)};
  if (!command.inputs.empty()) {
    std::string listed;
    for (const auto& path : command.inputs) listed += (listed.empty() ? "" : ", ") + path;
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
  io::write_file_atomically(command.out, report::html_report(report));
  if (!command.figures_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(command.figures_dir, error);
    if (error) throw InputError("--figures-dir", command.figures_dir, "cannot be made: " + error.message());
    for (const auto& section : report.sections)
      for (const auto& drawn : section.figures) {
        const auto stem = (std::filesystem::path(command.figures_dir) / drawn.figure.id).string();
        io::write_file_atomically(stem + ".svg", drawn.svg);
        io::write_file_atomically(stem + ".gp", report::gnuplot_script(drawn.figure));
      }
  }

  if (command.json) return {report::report_contents_json(report, command.inputs, command.out, command.figures_dir)};
  std::string text =
      fmt::format("{}: {} sections, {} figures, {} tables{}\n", command.out, report.sections.size(), figures, tables,
                  command.figures_dir.empty() ? "" : "; figures also in " + command.figures_dir);
  for (const auto& section : report.sections) {
    text += "  " + section.title + "\n";
    for (const auto& drawn : section.figures) text += fmt::format("    {}: {}\n", drawn.figure.id, drawn.figure.title);
  }
  return {text};
}

}  // namespace

void add_report_command(CLI::App& report_app, Actions& actions) {
  auto command = std::make_shared<ReportCommand>();
  auto* report = &report_app;
  report->add_option("inputs", command->inputs,
                     "hetscale JSON outputs: run records, sweeps, a communication profile, step costs (bench "
                     "steps), optimizer runs, predictions, speed models (hetscale.fpm/1)");
  report->add_option("--out", command->out, "write the HTML page here")->required();
  report->add_option(
      "--model", command->model,
      "model figures with no run, comma-separated: two-processors (speed-up and effective processors of two "
      "processors against the slower one's share; APGA 2004 Fig 1), ewf-heterogeneity (the efficiency worsening "
      "factor against heterogeneity H; Clematis-Corana 1999 Fig 2)");
  report->add_option("--figures-dir", command->figures_dir,
                     "also write each figure here as NAME.svg with the gnuplot program that drew it (NAME.gp)");
  report->add_option("--title", command->title, "the page's title (default: hetscale report)");
  report->add_flag("--json", command->json,
                   "print what the page holds (hetscale.report/1: sections, tables, figures) instead of a summary");
  report->callback([command, &actions] { actions.action = [command] { return make_report(*command); }; });
}

}  // namespace hetscale::cli
