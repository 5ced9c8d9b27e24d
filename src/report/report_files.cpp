#include "hetscale/report/report_files.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/report/gnuplot.hpp"
#include "hetscale/report/report_builder.hpp"

namespace hetscale::report {

std::vector<std::string> model_figures_named(const std::string& list,
                                             const std::function<void(const std::string&)>& say) {
  std::vector<std::string> names;
  if (list.empty()) return names;
  for (const std::string_view piece : io::split_at(list, ',')) {
    std::string name(piece);
    if (const auto renamed = model_figure_renamed(name)) {
      say(fmt::format("hetscale: report: the model figure {} is now called {}\n", name, *renamed));
      name = *renamed;
    }
    if (name.empty())
      throw InputError("model", "",
                       fmt::format("'{}' has an empty name; allowed: {}", list, fmt::join(model_figure_names(), ", ")));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);  // drawn once
  }
  return names;
}

std::vector<std::string> report_about(const std::string& made_by, const std::vector<std::string>& inputs) {
  const std::string gnuplot = gnuplot_version();
  std::vector<std::string> about{fmt::format("made by {} on {}, figures drawn by {}", made_by,
                                             io::utc_now("%Y-%m-%d %H:%M UTC"), gnuplot.empty() ? "gnuplot" : gnuplot)};
  if (!inputs.empty()) about.push_back(fmt::format("inputs: {}", fmt::join(inputs, ", ")));
  return about;
}

void draw_figures(Report& report) {
  for (auto& section : report.sections)
    for (auto& drawn : section.figures) drawn.svg = render_svg(drawn.figure);
}

void write_figures(const Report& report, const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw InputError("figures-dir", dir, "cannot be made: " + error.message());
  for (const auto& section : report.sections)
    for (const auto& drawn : section.figures) {
      const auto stem = (std::filesystem::path(dir) / drawn.figure.id).string();
      io::write_file_atomically(stem + ".svg", drawn.svg);
      io::write_file_atomically(stem + ".gp", gnuplot_script(drawn.figure));
    }
}

std::string report_summary(const Report& report, const std::string& page, const std::string& figures_dir) {
  std::size_t figures = 0, tables = 0;
  for (const auto& section : report.sections) {
    figures += section.figures.size();
    tables += section.tables.size();
  }
  std::string text = fmt::format("{}: {} sections, {} figures, {} tables{}\n", page, report.sections.size(), figures,
                                 tables, figures_dir.empty() ? "" : "; figures also in " + figures_dir);
  for (const auto& section : report.sections) {
    text += "  " + section.title + "\n";
    for (const auto& drawn : section.figures) text += fmt::format("    {}: {}\n", drawn.figure.id, drawn.figure.title);
  }
  return text;
}

}  // namespace hetscale::report
