#pragma once
// A figure as data: what to draw (curves, reference lines, stacked bars),
// with no drawing in it. gnuplot_script() says it in gnuplot's language;
// report/gnuplot.hpp has gnuplot draw it.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hetscale::report {

enum class PlotStyle { lines_points, points, lines, reference };  // reference: a dashed grey line

struct Series {
  std::string title;  // the legend entry; empty: none
  std::vector<double> x, y;
  PlotStyle style = PlotStyle::lines_points;
  std::optional<int> colour;  // 1-based index in the colour sequence; default: the next one
};

// Bars of several segments stacked per category (a node's time parts, say).
struct StackedBars {
  std::vector<std::string> categories;
  std::vector<std::string> segments;
  std::vector<std::vector<double>> values;  // values[segment][category]
};

struct Figure {
  std::string id;  // a file name stem: letters, digits, '-' and '_'
  std::string title;
  std::string caption;  // what the figure shows and where its numbers come from
  std::string x_label, y_label;
  std::vector<Series> series;
  std::optional<StackedBars> bars;                            // drawn instead of the series when present
  std::vector<std::pair<double, std::string>> x_tick_labels;  // when given, the only x tics
  bool log_x = false;
  std::optional<double> x_min, x_max, y_min, y_max;
  std::string legend = "top left";  // gnuplot key position, or "off"
};

// Free text as an id: letters and digits in lower case, one '-' for each run
// of anything else, none at either end ("Run: a+b" -> "run-a-b").
std::string slug(std::string_view text);

// Throws std::invalid_argument naming the figure when it cannot be drawn:
// an id with other characters, series whose x and y differ in length, no
// finite point at all, bars whose values do not fit the categories.
void check_figure(const Figure& figure);

// The gnuplot program that draws the figure as SVG on standard output, the
// data inline. Text is drawn as written (no enhanced-text markup).
std::string gnuplot_script(const Figure& figure, int width = 760, int height = 460);

}  // namespace hetscale::report
