#include "hetscale/report/figure.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include <fmt/core.h>

namespace hetscale::report {
namespace {

// A gnuplot string literal: double-quoted, with '\' and '"' escaped.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double value) { return std::isfinite(value) ? fmt::format("{:.12g}", value) : "NaN"; }

std::string style_of(PlotStyle style, std::size_t index) {
  const std::string colour = fmt::format("lc {}", index + 1);
  switch (style) {
    case PlotStyle::points:
      return "points pt 7 ps 0.8 " + colour;
    case PlotStyle::lines:
      return "lines lw 2 " + colour;
    case PlotStyle::reference:
      return "lines lw 1.5 dt 2 lc rgb \"#555555\"";
    case PlotStyle::lines_points:
      break;
  }
  return "linespoints lw 2 pt 7 ps 0.7 " + colour;
}

std::string range(const std::optional<double>& low, const std::optional<double>& high) {
  return fmt::format("[{}:{}]", low ? number(*low) : "*", high ? number(*high) : "*");
}

// Labels along x that name categories (nodes): up to 16 fit the figure
// rotated by -45; more stand upright in a smaller font, the figure widened to
// about 16 px a label up to the page's width (1100 px), and beyond that only
// every step-th is labelled, so that labels stay 13 px apart or more.
struct CategoryLabels {
  int width = 0;
  std::string rotation;
  std::size_t step = 1;
};

CategoryLabels category_labels(std::size_t count, int width) {
  if (count <= 16) return {width, "rotate by -45", 1};
  const int wide = std::clamp(100 + 16 * static_cast<int>(count), width, std::max(width, 1100));
  const double per_label = (wide - 100.0) / static_cast<double>(count);
  const auto step = static_cast<std::size_t>(std::max(1.0, std::ceil(13.0 / per_label)));
  return {wide, "rotate by 90 right font \",10\"", step};
}

}  // namespace

std::string slug(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

void check_figure(const Figure& figure) {
  if (figure.id.empty()) throw std::invalid_argument("a figure needs an id");
  for (const char c : figure.id)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
      throw std::invalid_argument(
          fmt::format("figure id '{}': only letters, digits, '-' and '_' are allowed", figure.id));
  if (figure.bars) {
    const auto& bars = *figure.bars;
    if (bars.categories.empty() || bars.segments.empty() || bars.values.size() != bars.segments.size())
      throw std::invalid_argument(
          fmt::format("figure '{}': bars need categories and one row of values per segment", figure.id));
    for (const auto& row : bars.values)
      if (row.size() != bars.categories.size())
        throw std::invalid_argument(fmt::format("figure '{}': a segment has {} values for {} categories", figure.id,
                                                row.size(), bars.categories.size()));
    return;
  }
  bool any_point = false;
  for (const auto& series : figure.series) {
    if (series.x.size() != series.y.size())
      throw std::invalid_argument(fmt::format("figure '{}', series '{}': {} x values and {} y values", figure.id,
                                              series.title, series.x.size(), series.y.size()));
    for (std::size_t i = 0; i < series.x.size(); ++i)
      any_point = any_point ||
                  (std::isfinite(series.x[i]) && std::isfinite(series.y[i]) && (!figure.log_x || series.x[i] > 0.0));
  }
  if (!any_point) throw std::invalid_argument(fmt::format("figure '{}' has no point to draw", figure.id));
}

std::string gnuplot_script(const Figure& figure, int width, int height) {
  check_figure(figure);
  const std::size_t categories = figure.bars ? figure.bars->categories.size() : figure.x_tick_labels.size();
  const auto labels = category_labels(categories, width);
  width = labels.width;
  std::string script;
  script += fmt::format("set terminal svg size {},{} noenhanced font \"DejaVu Sans,12\" background rgb \"white\"\n",
                        width, height);
  script += "set output\nset encoding utf8\nset colorsequence podo\nset grid lc rgb \"#dddddd\"\n";
  script += "set border lc rgb \"#333333\"\n";
  if (!figure.title.empty()) script += "set title " + quoted(figure.title) + "\n";
  if (!figure.x_label.empty()) script += "set xlabel " + quoted(figure.x_label) + "\n";
  if (!figure.y_label.empty()) script += "set ylabel " + quoted(figure.y_label) + "\n";
  script += figure.legend == "off" ? "set key off\n" : "set key " + figure.legend + " opaque box lc rgb \"#bbbbbb\"\n";

  if (figure.bars) {
    const auto& bars = *figure.bars;
    script += "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.85 border -1\n";
    // The categories as tic labels (string literals, escaped), not as a data
    // column: gnuplot reads no escapes in a data file, so a '"' would cut a name.
    script += "set boxwidth 0.75\nset xtics " + labels.rotation + " nomirror (";
    for (std::size_t c = 0; c < bars.categories.size(); c += labels.step)
      script += fmt::format("{}{} {}", c > 0 ? ", " : "", quoted(bars.categories[c]), c);
    script += ")\n";
    script +=
        fmt::format("set yrange {}\n", range(figure.y_min ? figure.y_min : std::optional<double>(0.0), figure.y_max));
    script += "$bars << EOD\n";
    for (std::size_t c = 0; c < bars.categories.size(); ++c) {
      for (std::size_t s = 0; s < bars.values.size(); ++s) script += (s > 0 ? " " : "") + number(bars.values[s][c]);
      script += "\n";
    }
    script += "EOD\nplot ";
    for (std::size_t s = 0; s < bars.segments.size(); ++s) {
      if (s > 0) script += ", \\\n     ";
      script += fmt::format("$bars using {} title {} lc {}", s + 1, quoted(bars.segments[s]), s + 1);
    }
    return script + "\n";
  }

  if (figure.log_x) script += "set logscale x\n";
  if (!figure.x_tick_labels.empty()) {
    script += categories > 16 ? "set xtics " + labels.rotation + " (" : std::string("set xtics (");
    for (std::size_t i = 0; i < figure.x_tick_labels.size(); i += labels.step)
      script += fmt::format("{}{} {}", i ? ", " : "", quoted(figure.x_tick_labels[i].second),
                            number(figure.x_tick_labels[i].first));
    script += ")\n";
  }
  script += fmt::format("set xrange {}\nset yrange {}\n", range(figure.x_min, figure.x_max),
                        range(figure.y_min, figure.y_max));
  std::string plot = "plot ";
  std::size_t drawn = 0, coloured = 0;
  for (std::size_t s = 0; s < figure.series.size(); ++s) {
    const auto& series = figure.series[s];
    if (series.x.empty()) continue;
    script += fmt::format("$series{} << EOD\n", s);
    for (std::size_t i = 0; i < series.x.size(); ++i) script += number(series.x[i]) + " " + number(series.y[i]) + "\n";
    script += "EOD\n";
    if (drawn++ > 0) plot += ", \\\n     ";
    const std::size_t colour = series.colour ? static_cast<std::size_t>(std::max(*series.colour, 1) - 1) : coloured;
    plot += fmt::format("$series{} using 1:2 with {} {}", s, style_of(series.style, colour),
                        series.title.empty() ? "notitle" : "title " + quoted(series.title));
    if (series.style != PlotStyle::reference && !series.colour) ++coloured;
  }
  return script + plot + "\n";
}

}  // namespace hetscale::report
