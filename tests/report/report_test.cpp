// The HTML report: figures as data and as gnuplot programs, gnuplot's SVG,
// the page, the model figures against the papers' data, and which sections
// build_report makes of which inputs.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "hetscale/analysis/diagnosis.hpp"
#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/io/child_process.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/model/heterogeneous.hpp"
#include "hetscale/papers/paper_checks.hpp"
#include "hetscale/record/step_costs.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/report/figure.hpp"
#include "hetscale/report/gnuplot.hpp"
#include "hetscale/report/html_report.hpp"
#include "hetscale/report/report_builder.hpp"
#include "hetscale/report/report_figures.hpp"
#include "support/assertions.hpp"

namespace hetscale::report {
namespace {

using nlohmann::json;
using testing_support::ErrorMessage;
using testing_support::ThrowsInvalidArgumentNaming;

const std::string data_dir = HETSCALE_DATA_DIR;
const std::string examples_dir = HETSCALE_EXAMPLES_DIR;
const std::string inputs_dir = HETSCALE_REPORT_INPUTS_DIR;  // tests/cli/report

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

// Every part is in the text (shown when one is not).
::testing::AssertionResult HoldsAll(const std::string& text, std::initializer_list<std::string> parts) {
  for (const auto& part : parts)
    if (!contains(text, part)) return ::testing::AssertionFailure() << "no \"" << part << "\" in:\n" << text;
  return ::testing::AssertionSuccess();
}

Series series(std::string title, std::vector<double> x, std::vector<double> y, PlotStyle style) {
  Series made;
  made.title = std::move(title);
  made.x = std::move(x);
  made.y = std::move(y);
  made.style = style;
  return made;
}

Figure two_point_figure(std::string id = "two-points") {
  Figure figure;
  figure.id = std::move(id);
  figure.title = "two points";
  figure.series = {series("line", {1.0, 2.0}, {3.0, 4.0}, PlotStyle::lines_points)};
  return figure;
}

Figure bars_figure() {
  Figure figure;
  figure.id = "bars";
  figure.title = "stacked";
  figure.bars = StackedBars{{"node1", "node2", "node3"}, {"computation", "idle"}, {{1.0, 2.0, 3.0}, {0.5, 0.25, 0.0}}};
  return figure;
}

// --- check_figure ---------------------------------------------------------------

TEST(CheckFigure, AcceptsAFigureWithAPoint) {
  EXPECT_NO_THROW(check_figure(two_point_figure()));
  EXPECT_NO_THROW(check_figure(two_point_figure("Fig_2-a")));
  EXPECT_NO_THROW(check_figure(bars_figure()));
}

TEST(CheckFigure, RefusesIdsThatAreNotFileNameStems) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { check_figure(two_point_figure("")); }, {"id"}));
  for (const std::string id : {"a b", "a/b", "x.y", "../up", "quote\"", "tab\t"})
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { check_figure(two_point_figure(id)); },
                                            {"figure id '" + id + "'", "letters, digits, '-' and '_'"}))
        << id;
}

TEST(CheckFigure, RefusesSeriesWhoseXAndYDifferInLength) {
  auto figure = two_point_figure("mismatch");
  figure.series.push_back(series("short", {1.0, 2.0, 3.0}, {1.0, 2.0}, PlotStyle::points));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { check_figure(figure); },
                                          {"figure 'mismatch'", "series 'short'", "3 x values and 2 y values"}));
}

TEST(CheckFigure, RefusesAFigureWithNoFinitePoint) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  Figure figure;
  figure.id = "empty";
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { check_figure(figure); }, {"figure 'empty' has no point to draw"}));
  figure.series = {series("nan", {nan, 1.0, inf}, {1.0, nan, 2.0}, PlotStyle::points),
                   series("none", {}, {}, PlotStyle::points)};
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { check_figure(figure); }, {"figure 'empty' has no point to draw"}));
  // On a logarithmic x axis a point needs x > 0.
  figure.series = {series("left", {-1.0, 0.0}, {1.0, 2.0}, PlotStyle::points)};
  EXPECT_NO_THROW(check_figure(figure));
  figure.log_x = true;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { check_figure(figure); }, {"figure 'empty' has no point to draw"}));
  figure.series.front().x.back() = 0.5;
  EXPECT_NO_THROW(check_figure(figure));
}

TEST(CheckFigure, RefusesBarsThatDoNotFitTheCategories) {
  auto figure = bars_figure();
  figure.bars->values[1].pop_back();
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { check_figure(figure); },
                                          {"figure 'bars'", "a segment has 2 values for 3 categories"}));
  figure = bars_figure();
  figure.bars->values.pop_back();  // two segments, one row
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming([&] { check_figure(figure); }, {"figure 'bars'", "one row of values per segment"}));
  figure = bars_figure();
  figure.bars->categories.clear();
  figure.bars->values = {{}, {}};
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { check_figure(figure); }, {"figure 'bars'", "need categories"}));
}

// --- gnuplot_script ---------------------------------------------------------------

TEST(GnuplotScript, DrawsSvgOnStandardOutputWithoutEnhancedText) {
  const auto script = gnuplot_script(two_point_figure(), 640, 480);
  EXPECT_EQ(script.rfind("set terminal svg size 640,480 noenhanced", 0), 0u) << script;
  EXPECT_TRUE(contains(script, "\nset output\n"));
}

TEST(GnuplotScript, HoldsTheDataPointsInline) {
  Figure figure = two_point_figure();
  figure.series.push_back(series("second", {0.5, 1e-7, 123456789.0}, {-2.0, 0.25, 1e6}, PlotStyle::points));
  const auto script = gnuplot_script(figure);
  EXPECT_TRUE(HoldsAll(
      script,
      {"$series0 << EOD\n1 3\n2 4\nEOD\n", "$series1 << EOD\n0.5 -2\n1e-07 0.25\n123456789 1000000\nEOD\n",
       "$series0 using 1:2 with linespoints", "$series1 using 1:2 with points", "title \"line\"", "title \"second\""}));
}

TEST(GnuplotScript, WritesNaNForValuesThatAreNotFinite) {
  Figure figure = two_point_figure();
  figure.series.front().x = {1.0, std::numeric_limits<double>::quiet_NaN(), 3.0};
  figure.series.front().y = {std::numeric_limits<double>::infinity(), 2.0, -std::numeric_limits<double>::infinity()};
  figure.series.front().x.push_back(4.0);
  figure.series.front().y.push_back(5.0);
  const auto script = gnuplot_script(figure);
  EXPECT_TRUE(contains(script, "EOD\n1 NaN\nNaN 2\n3 NaN\n4 5\nEOD\n")) << script;
  EXPECT_FALSE(contains(script, "inf")) << script;
}

TEST(GnuplotScript, EscapesQuotesAndBackslashesInText) {
  Figure figure = two_point_figure();
  figure.title = R"(say "hi" \ bye)";
  figure.x_label = "a\\b";
  figure.y_label = "two\nlines";
  figure.series.front().title = R"(series "s")";
  const auto script = gnuplot_script(figure);
  EXPECT_TRUE(HoldsAll(script, {"set title \"say \\\"hi\\\" \\\\ bye\"\n", "set xlabel \"a\\\\b\"\n",
                                "set ylabel \"two\\nlines\"\n", "title \"series \\\"s\\\"\""}));
}

TEST(GnuplotScript, SetsLogscaleRangesAndKey) {
  Figure figure = two_point_figure();
  auto script = gnuplot_script(figure);
  EXPECT_FALSE(contains(script, "logscale")) << script;
  EXPECT_TRUE(HoldsAll(script, {"set xrange [*:*]\nset yrange [*:*]\n", "set key top left"}));
  figure.log_x = true;
  figure.x_min = 0.5;
  figure.y_min = 0.0;
  figure.y_max = 1.05;
  figure.legend = "off";
  script = gnuplot_script(figure);
  EXPECT_TRUE(HoldsAll(script, {"set logscale x\n", "set xrange [0.5:*]\nset yrange [0:1.05]\n", "set key off\n"}));
}

// Series take the colours of the sequence in order; a reference line (dashed
// grey) and a series given its colour keep theirs and take none of the sequence.
TEST(GnuplotScript, SeriesColours) {
  Figure figure = two_point_figure();
  figure.series.insert(figure.series.begin(), series("", {0.0, 1.0}, {0.0, 1.0}, PlotStyle::reference));
  figure.series.push_back(series("fixed", {1.0}, {1.0}, PlotStyle::lines));
  figure.series.back().colour = 3;
  figure.series.push_back(series("next", {1.0}, {1.0}, PlotStyle::points));
  const auto script = gnuplot_script(figure);
  EXPECT_TRUE(HoldsAll(script, {"$series0 using 1:2 with lines lw 1.5 dt 2 lc rgb \"#555555\" notitle",
                                "$series1 using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc 1 title \"line\"",
                                "$series2 using 1:2 with lines lw 2 lc 3 title \"fixed\"",
                                "$series3 using 1:2 with points pt 7 ps 0.8 lc 2 title \"next\""}));
}

TEST(GnuplotScript, XTickLabelsAreTheOnlyXTics) {
  Figure figure = two_point_figure();
  EXPECT_FALSE(contains(gnuplot_script(figure), "set xtics"));
  figure.x_tick_labels = {{1.0, "C2 to C4"}, {2.5, R"(say "x")"}};
  EXPECT_TRUE(contains(gnuplot_script(figure), "set xtics (\"C2 to C4\" 1, \"say \\\"x\\\"\" 2.5)\n"))
      << gnuplot_script(figure);
}

TEST(GnuplotScript, StacksBarsPerCategory) {
  Figure figure = bars_figure();
  figure.bars->categories[1] = R"(node "2" \x)";
  const auto script = gnuplot_script(figure);
  // The categories are tic labels (escaped string literals), the data numbers only.
  EXPECT_TRUE(HoldsAll(
      script,
      {"set style data histograms\n", "set style histogram rowstacked\n", "set style fill solid", "set yrange [0:*]\n",
       R"(("node1" 0, "node \"2\" \\x" 1, "node3" 2))", "$bars << EOD\n1 0.5\n2 0.25\n3 0\nEOD\n",
       "$bars using 1 title \"computation\" lc 1", "$bars using 2 title \"idle\" lc 2"}));
  EXPECT_FALSE(contains(script, "logscale")) << script;
}

TEST(GnuplotScript, ChecksTheFigureFirst) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { gnuplot_script(two_point_figure("no good")); }, {"'no good'"}));
}

// --- render_svg (gnuplot) ------------------------------------------------------------

class RenderSvg : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!io::program_available("gnuplot")) GTEST_SKIP() << "gnuplot is not installed";
  }
};

// An SVG document: XML or <svg> first, </svg> last.
bool is_svg_document(const std::string& svg) {
  const auto end = svg.find_last_not_of(" \n");
  if (end == std::string::npos || end < 5) return false;
  return (svg.rfind("<?xml", 0) == 0 || contains(svg, "<svg")) && svg.compare(end - 5, 6, "</svg>") == 0;
}

TEST_F(RenderSvg, DrawsAnSvgDocument) {
  const auto svg = render_svg(two_point_figure());
  EXPECT_TRUE(is_svg_document(svg)) << svg.substr(0, 200);
  EXPECT_TRUE(contains(svg, ">two points<")) << "the title is drawn";
  EXPECT_FALSE(gnuplot_version().empty());
  EXPECT_EQ(gnuplot_version().rfind("gnuplot ", 0), 0u) << gnuplot_version();
}

TEST_F(RenderSvg, DrawsBarsWithTheCategoriesAsWritten) {
  Figure figure = bars_figure();
  figure.bars->categories[1] = R"(node "2" \x)";
  figure.bars->categories[2] = "a<b&c";
  const auto svg = render_svg(figure);
  EXPECT_TRUE(is_svg_document(svg));
  // gnuplot escapes '<' and '&' for XML
  EXPECT_TRUE(HoldsAll(svg, {">node1<", R"(>node "2" \x<)", ">a&lt;b&amp;c<", ">computation<"}));
}

// An empty x range passes check_figure but gnuplot refuses it: the error
// names the figure and carries gnuplot's message on one line.
TEST_F(RenderSvg, GnuplotFailureThrowsWithItsMessage) {
  Figure figure = two_point_figure("empty-range");
  figure.x_min = 5.0;
  figure.x_max = 5.0;
  try {
    render_svg(figure);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& error) {
    const std::string what = error.what();
    EXPECT_TRUE(contains(what, "figure 'empty-range'")) << what;
    EXPECT_TRUE(contains(what, "empty x range")) << what;
    EXPECT_FALSE(contains(what, "\n")) << what;
  }
}

// --- base64 ---------------------------------------------------------------------------

TEST(Base64, Rfc4648TestVectors) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foob"), "Zm9vYg==");
  EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
}

TEST(Base64, BytesAboveSevenBitsAndZero) {
  EXPECT_EQ(base64(std::string("\xff\x00", 2)), "/wA=");
  EXPECT_EQ(base64("\xfb\xff"), "+/8=");
  EXPECT_EQ(base64(std::string("\x00\x00\x00", 3)), "AAAA");
}

// --- html_report -------------------------------------------------------------------------

std::string base64_decoded(const std::string& text) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned value = 0;
  int bits = 0;
  for (const char c : text) {
    if (c == '=') break;
    const auto digit = alphabet.find(c);
    if (digit == std::string::npos) throw std::invalid_argument(std::string("not base64: ") + c);
    value = (value << 6) | static_cast<unsigned>(digit);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((value >> bits) & 0xff);
    }
  }
  return out;
}

// The data URIs of the page's figures, decoded, in order.
std::vector<std::string> embedded_images(const std::string& html) {
  const std::string prefix = "src=\"data:image/svg+xml;base64,";
  std::vector<std::string> images;
  for (auto at = html.find(prefix); at != std::string::npos; at = html.find(prefix, at + 1)) {
    const auto start = at + prefix.size();
    images.push_back(base64_decoded(html.substr(start, html.find('"', start) - start)));
  }
  return images;
}

Report sample_report() {
  Report report;
  report.title = R"(Title <a> & "b")";
  report.about = {"about <x>"};
  ReportSection first;
  first.title = "Section <one> & \"1\"";
  first.source = "runs/<r>.json";
  first.paragraphs = {"p < q && r > s"};
  first.tables = {HtmlTable{"caption <c> & \"d\"", {"head <h>", "n"}, {{"cell <x> & \"y\"", "1.5"}}}};
  Figure one = two_point_figure("figure-one");
  one.title = "figure <title> & \"t\"";
  one.caption = "caption <fc> & \"f\"";
  first.figures = {DrawnFigure{one, "<svg>one</svg>"}, DrawnFigure{two_point_figure("figure-two"), "<svg>two ü</svg>"}};
  ReportSection second;
  second.title = "Second";
  second.figures = {DrawnFigure{bars_figure(), std::string("<svg>\x01\xff three</svg>")}};
  report.sections = {first, second};
  return report;
}

TEST(HtmlReport, EscapesTextInTitlesTablesAndCaptions) {
  const auto html = html_report(sample_report());
  for (const std::string escaped :
       {"<title>Title &lt;a&gt; &amp; &quot;b&quot;</title>", "<h1>Title &lt;a&gt; &amp; &quot;b&quot;</h1>",
        "about &lt;x&gt;", "Section &lt;one&gt; &amp; &quot;1&quot;", "runs/&lt;r&gt;.json",
        "<p>p &lt; q &amp;&amp; r &gt; s</p>", "<caption>caption &lt;c&gt; &amp; &quot;d&quot;</caption>",
        "<th>head &lt;h&gt;</th>", "<td>cell &lt;x&gt; &amp; &quot;y&quot;</td>", "<td class=\"number\">1.5</td>",
        "alt=\"figure &lt;title&gt; &amp; &quot;t&quot;\"",
        "Figure 1. figure &lt;title&gt; &amp; &quot;t&quot;: caption &lt;fc&gt; &amp; &quot;f&quot;</figcaption>"})
    EXPECT_TRUE(contains(html, escaped)) << escaped;
  for (const std::string raw : {"<a>", "<one>", "<r>", "<c>", "<h>", "<x>", "<title>figure", "<fc>", "&& r"})
    EXPECT_FALSE(contains(html, raw)) << raw;
}

TEST(HtmlReport, OneEmbeddedImagePerFigureThatDecodesToItsSvg) {
  const auto report = sample_report();
  const auto html = html_report(report);
  EXPECT_EQ(occurrences(html, "<img class=\"figure\""), 3u);
  EXPECT_EQ(occurrences(html, "<figure id=\""), 3u);
  EXPECT_TRUE(contains(html, "<figure id=\"figure-one\">"));
  EXPECT_TRUE(contains(html, "Figure 3. stacked</figcaption>")) << "figures are numbered across sections";
  const auto images = embedded_images(html);
  ASSERT_EQ(images.size(), 3u);
  EXPECT_EQ(images[0], report.sections[0].figures[0].svg);
  EXPECT_EQ(images[1], report.sections[0].figures[1].svg);
  EXPECT_EQ(images[2], report.sections[1].figures[0].svg);
}

// The first screen (its lines, first tables and figures) opens the section;
// the rest sits in a closed <details> with the summary given.
TEST(HtmlReport, FirstScreenThenTheRestFolded) {
  Report report = sample_report();
  auto& section = report.sections[0];
  section.first_lines = {"read <me> first"};
  section.first_tables = 1;
  section.first_figures = 1;
  section.folded = "every metric";
  const auto html = html_report(report);
  const auto first = html.find("<div class=\"first\">");
  const auto line = html.find("<li>read &lt;me&gt; first</li>");
  const auto table = html.find("<caption>caption &lt;c&gt;");
  const auto figure_one = html.find("<figure id=\"figure-one\">");
  const auto details = html.find("<details>\n<summary>every metric</summary>");
  const auto paragraph = html.find("<p>p &lt; q");
  const auto figure_two = html.find("<figure id=\"figure-two\">");
  const auto end = html.find("</details>");
  for (const auto at : {first, line, table, figure_one, details, paragraph, figure_two, end})
    ASSERT_NE(at, std::string::npos) << html;
  EXPECT_LT(first, line);
  EXPECT_LT(table, figure_one);
  EXPECT_LT(figure_one, details);
  EXPECT_LT(details, paragraph);
  EXPECT_LT(paragraph, figure_two);
  EXPECT_LT(figure_two, end);
  EXPECT_FALSE(contains(html, "<details open")) << "folded parts start closed";
  EXPECT_TRUE(contains(html, "Figure 2. ")) << "figures keep one numbering";
}

TEST(HtmlReport, SelfContainedWithNoScriptAndNoAddress) {
  const auto html = html_report(sample_report());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(contains(html, "<meta charset=\"utf-8\">"));
  EXPECT_TRUE(contains(html, "</html>\n"));
  EXPECT_FALSE(contains(html, "http:"));
  EXPECT_FALSE(contains(html, "https:"));
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_FALSE(contains(html, "<link"));
  // Two sections: a table of contents linking each heading.
  EXPECT_TRUE(contains(html, "<nav>"));
  EXPECT_TRUE(contains(html, "<a href=\"#s2-second\">Second</a>"));
  EXPECT_TRUE(contains(html, "<h2 id=\"s2-second\">Second</h2>"));
}

TEST(HtmlReport, OneSectionHasNoTableOfContents) {
  Report report = sample_report();
  report.sections.pop_back();
  EXPECT_FALSE(contains(html_report(report), "<nav>"));
}

// --- model figures -------------------------------------------------------------------------

const Series& series_titled(const Figure& figure, const std::string& title) {
  for (const auto& series : figure.series)
    if (series.title == title) return series;
  throw std::out_of_range("figure " + figure.id + " has no series '" + title + "'");
}

// The y of the point whose x is nearest `x`.
double y_nearest(const Series& series, double x) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < series.x.size(); ++i)
    if (std::abs(series.x[i] - x) < std::abs(series.x[best] - x)) best = i;
  return series.y[best];
}

double rounded(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

// APGA 2004 Section 3.4: h = 2, p = 1/3 gives s = 1.5, p = 1/2 gives s = 1.0.
TEST(ModelFigures, Seed000Figure1AgreesWithTheTwoProcessorExample) {
  const auto figures = seed000_figure1();
  ASSERT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures[0].id, "two-processors-speedup");
  EXPECT_EQ(figures[1].id, "two-processors-effective-processors");
  for (const auto& figure : figures) {
    EXPECT_NO_THROW(check_figure(figure));
    ASSERT_EQ(figure.series.size(), 5u);
    for (const auto* title : {"h = 1", "h = 1.25", "h = 1.5", "h = 1.75", "h = 2"})
      EXPECT_NO_THROW(series_titled(figure, title)) << title;
  }
  const auto example = json::parse(io::read_text_file(data_dir + "/papers/seed000.json")).at("two_processor_example");
  const double h = example.at("speed_ratio").get<double>();
  ASSERT_EQ(h, 2.0);
  const auto& speedup = series_titled(figures[0], "h = 2");
  for (const auto& check : example.at("cases")) {
    const double share = check.at("slow_share").get<double>();
    EXPECT_EQ(rounded(y_nearest(speedup, share), check.at("decimals").get<int>()), check.at("speedup").get<double>())
        << "p = " << share;
  }
  EXPECT_DOUBLE_EQ(y_nearest(speedup, 0.5), 1.0);
  // The peak is at the speed-proportional share p = 1 / (1 + h) (Proposition 1).
  const auto peak = std::max_element(speedup.y.begin(), speedup.y.end()) - speedup.y.begin();
  EXPECT_NEAR(speedup.x[static_cast<std::size_t>(peak)], 1.0 / 3.0, 1.0 / 200.0);
  // Every point is Eq 12 (speed-up) and Eq 13 (n_eff).
  const auto& effective = series_titled(figures[1], "h = 2");
  for (std::size_t i = 0; i < speedup.x.size(); ++i) {
    EXPECT_DOUBLE_EQ(speedup.y[i], model::two_processor_speedup(h, speedup.x[i]));
    EXPECT_DOUBLE_EQ(effective.y[i], model::two_processor_effective_processors(h, effective.x[i]));
  }
}

// Clematis-Corana 1999 Fig 2 on Table 1: ten curves R = 0.1 .. 1.0 over ten configurations
// sorted by H; ewf = 1 on the homogeneous one, lower for larger R elsewhere.
TEST(ModelFigures, Seed003Figure2OnTable1) {
  const auto table = json::parse(io::read_text_file(data_dir + "/papers/seed003.json")).at("table1");
  const auto figure = seed003_figure2(seed003_table1_speeds(data_dir));
  EXPECT_EQ(figure.id, "ewf-heterogeneity");
  EXPECT_NO_THROW(check_figure(figure));
  ASSERT_EQ(figure.series.size(), 10u);
  std::vector<double> table_h;
  for (const auto& configuration : table.at("configurations")) table_h.push_back(configuration.at("H").get<double>());
  std::sort(table_h.begin(), table_h.end());
  const int decimals = table.at("decimals").get<int>();
  for (std::size_t r = 0; r < figure.series.size(); ++r) {
    const auto& series = figure.series[r];
    EXPECT_EQ(series.title, fmt::format("R = {:.1f}", (r + 1) / 10.0));
    ASSERT_EQ(series.x.size(), 10u);
    ASSERT_EQ(series.y.size(), 10u);
    EXPECT_TRUE(std::is_sorted(series.x.begin(), series.x.end())) << series.title;
    for (std::size_t c = 0; c < series.x.size(); ++c) EXPECT_EQ(rounded(series.x[c], decimals), table_h[c]);
    EXPECT_EQ(series.x.front(), 0.0);
    EXPECT_NEAR(series.y.front(), 1.0, 1e-12) << series.title << ": ewf of the homogeneous configuration";
    for (std::size_t c = 1; c < series.y.size(); ++c) {
      EXPECT_LT(series.y[c], 1.0) << series.title << ", H = " << series.x[c];
      EXPECT_GT(series.y[c], 0.0);
    }
    if (r == 0) continue;
    for (std::size_t c = 1; c < series.y.size(); ++c)
      EXPECT_LT(series.y[c], figure.series[r - 1].y[c]) << series.title << ", H = " << series.x[c];
  }
}

// --- build_report ----------------------------------------------------------------------------

ReportInput input_file(const std::string& path) { return {path, io::read_text_file(path)}; }

json run_json(const std::string& label, double t_par, std::size_t workers, const json& context = nullptr) {
  json run{{"schema", "hetscale.run/1"}, {"label", label}, {"t_par", t_par}, {"t_seq_ref", 60.0}};
  run["nodes"] = json::array();
  for (std::size_t i = 0; i < workers; ++i)
    run["nodes"].push_back({{"name", fmt::format("client-{}", i + 1)}, {"work", 10}, {"t_comp", 0.9 * t_par}});
  if (!context.is_null()) run["context"] = context;
  return run;
}

json farm_context(int clients, const std::string& policy = "adaptive") {
  return {{"tool", "hetscale farm"},
          {"clients", clients},
          {"policy", policy},
          {"objective", "synthetic"},
          {"eval_time_s", 0.01},
          {"time_scale", 1.0},
          {"speeds", std::vector<double>(clients, 1.0)}};
}

std::size_t figure_count(const Report& report) {
  std::size_t count = 0;
  for (const auto& section : report.sections) count += section.figures.size();
  return count;
}

// Every figure of a report can be drawn, none is drawn yet, and ids are unique.
void expect_drawable(const Report& report) {
  std::map<std::string, int> ids;
  for (const auto& section : report.sections)
    for (const auto& drawn : section.figures) {
      EXPECT_NO_THROW(check_figure(drawn.figure)) << drawn.figure.id;
      EXPECT_TRUE(drawn.svg.empty()) << drawn.figure.id;
      EXPECT_EQ(++ids[drawn.figure.id], 1) << "figure id twice: " << drawn.figure.id;
    }
}

TEST(BuildReport, RunRecordGivesTimeBreakdownSharesAndMetrics) {
  ReportOptions options;
  options.title = "my title";
  options.about = {"about line"};
  const auto report = build_report({{"runs/one.json", run_json("one run", 10.0, 3).dump()}}, options);
  EXPECT_EQ(report.title, "my title");
  EXPECT_EQ(report.about, std::vector<std::string>{"about line"});
  ASSERT_EQ(report.sections.size(), 2u);
  EXPECT_EQ(report.sections[0].title, "Summary");
  const auto& section = report.sections[1];
  EXPECT_EQ(section.title, "Run: one run");
  EXPECT_EQ(section.source, "runs/one.json");
  ASSERT_EQ(section.tables.size(), 3u);
  EXPECT_EQ(section.tables[0].caption, "The other efficiencies, each answering one question");
  EXPECT_EQ(section.tables[1].caption, "Metrics of the run");
  EXPECT_EQ(section.tables[2].rows.size(), 3u) << "one row per node";
  // The first screen: what was measured, the efficiency to read, the largest
  // loss, beside where each node's time went; the rest folded.
  ASSERT_EQ(section.first_lines.size(), 3u);
  EXPECT_TRUE(contains(section.first_lines[0], "Measured: 3 nodes, t_par = 10 s")) << section.first_lines[0];
  EXPECT_TRUE(contains(section.first_lines[1], "Read first: efficiency 0.9000")) << section.first_lines[1];
  EXPECT_TRUE(contains(section.first_lines[2], "Largest loss: idle on client-1")) << section.first_lines[2];
  EXPECT_EQ(section.first_tables, 0u);  // no MPI functions in this run
  EXPECT_EQ(section.first_figures, 1u);
  EXPECT_FALSE(section.folded.empty());
  // In the folded part, the headline opens and the diagnosis ends.
  ASSERT_GE(section.paragraphs.size(), 4u);
  EXPECT_NE(section.paragraphs[0].find("t_par = 10 s"), std::string::npos) << section.paragraphs[0];
  EXPECT_NE(section.paragraphs[2].find("read this first"), std::string::npos) << section.paragraphs[2];
  EXPECT_EQ(section.paragraphs[3], "Diagnosis, the largest losses ranked:");
  ASSERT_EQ(section.figures.size(), 2u);
  EXPECT_EQ(section.figures[0].figure.id, "run1-one-run-time");
  ASSERT_TRUE(section.figures[0].figure.bars.has_value());
  EXPECT_EQ(section.figures[0].figure.bars->categories.size(), 3u);
  EXPECT_EQ(section.figures[1].figure.id, "run1-one-run-shares");
  expect_drawable(report);
}

TEST(BuildReport, ShippedRunRecordWithAServerHasABarForIt) {
  const auto report = build_report(
      {input_file(examples_dir + "/run-hetero.json"), input_file(examples_dir + "/run-simulated-seed000.json")}, {});
  ASSERT_EQ(report.sections.size(), 3u);
  EXPECT_EQ(report.sections[1].source, examples_dir + "/run-hetero.json");
  EXPECT_EQ(figure_count(report), 4u);
  expect_drawable(report);
}

TEST(BuildReport, SweepsGiveIsospeedAndPsiFigures) {
  const auto c2 = input_file(inputs_dir + "/sweep-ge-c2.json"), c4 = input_file(inputs_dir + "/sweep-ge-c4.json");
  // One sweep: E_s against N only.
  auto report = build_report({c2}, {});
  ASSERT_EQ(report.sections.size(), 1u);
  EXPECT_EQ(report.sections[0].title, "Scalability: ge");
  ASSERT_EQ(report.sections[0].figures.size(), 1u);
  EXPECT_EQ(report.sections[0].figures[0].figure.id, "isospeed-ge");
  // Two: psi between them too, whatever order they are given in (growing C).
  report = build_report({c4, c2}, {});
  ASSERT_EQ(report.sections.size(), 1u);
  const auto& section = report.sections[0];
  ASSERT_EQ(section.figures.size(), 2u);
  EXPECT_EQ(section.figures[1].figure.id, "psi-ge");
  ASSERT_EQ(section.figures[1].figure.series.size(), 1u) << "measured only, no profile";
  ASSERT_EQ(section.tables.size(), 2u);
  ASSERT_EQ(section.tables[1].rows.size(), 1u);
  EXPECT_EQ(section.tables[1].rows[0][0], "C2");
  EXPECT_EQ(section.tables[1].rows[0][1], "C4");
  // measured trend and measured points per sweep, and the target line
  EXPECT_EQ(section.figures[0].figure.series.size(), 5u);
  expect_drawable(report);
}

TEST(BuildReport, SweepWithoutTargetGivesNoPsi) {
  const auto report = build_report(
      {input_file(inputs_dir + "/sweep-ge-c2.json"), input_file(HETSCALE_BAD_INPUT_DIR "/scale-sweep-no-target.json")},
      {});
  ASSERT_EQ(report.sections.size(), 1u);
  EXPECT_EQ(report.sections[0].figures.size(), 1u);
  ASSERT_EQ(report.sections[0].paragraphs.size(), 1u);
  EXPECT_TRUE(contains(report.sections[0].paragraphs[0], "psi needs every sweep's N at the target"));
}

// A sweep section with psi predicted: in the figure beside psi measured, and
// in the table (N' and psi predicted, and psi's error).
void expect_psi_predicted(const ReportSection& section) {
  ASSERT_EQ(section.figures.size(), 2u);
  const auto& psi = section.figures[1].figure;
  ASSERT_EQ(psi.series.size(), 2u);
  EXPECT_EQ(psi.series[0].title, "psi measured");
  EXPECT_EQ(psi.series[1].title, "psi predicted");
  ASSERT_EQ(section.tables.size(), 2u);
  ASSERT_EQ(section.tables[1].header.size(), 10u);
}

TEST(BuildReport, CommunicationProfileAddsPsiPredicted) {
  const auto report = build_report(
      {input_file(inputs_dir + "/sweep-ge-c2.json"), input_file(data_dir + "/papers/seed001-section45.json"),
       input_file(inputs_dir + "/sweep-ge-c4.json")},
      {});
  ASSERT_EQ(report.sections.size(), 1u);
  const auto& section = report.sections[0];
  ASSERT_NO_FATAL_FAILURE(expect_psi_predicted(section));
  ASSERT_EQ(section.paragraphs.size(), 1u);
  EXPECT_TRUE(contains(section.paragraphs[0], "psi predicted from")) << section.paragraphs[0];
  expect_drawable(report);
}

// A base whose verifying run missed its target gives no N to predict from: an
// outcome of the measurement, which the page says, not bad input.
TEST(BuildReport, BaseThatMissedItsTargetIsSaidNotRefused) {
  auto base = json::parse(input_file(inputs_dir + "/sweep-ge-c2.json").text);
  // At N = 288 (W = 2/3 N^3 about 1.6e7), E_s = W / (T C 1e6) = 0.15 against the target 0.3.
  const double work = 2.0 / 3.0 * 288.0 * 288.0 * 288.0;
  base["target"]["verified"] = {{"N", 288.0}, {"W", work}, {"T_s", work / (0.15 * 62.05e6)}};
  const auto report = build_report({{"sweep-ge-c2.json", base.dump()},
                                    input_file(data_dir + "/papers/seed001-section45.json"),
                                    input_file(inputs_dir + "/sweep-ge-c4.json")},
                                   {});
  ASSERT_EQ(report.sections.size(), 1u);
  const auto& section = report.sections[0];
  ASSERT_EQ(section.paragraphs.size(), 1u);
  EXPECT_TRUE(contains(section.paragraphs[0], "psi is not predicted from sweep-ge-c2.json"))
      << section.paragraphs[0];
  EXPECT_TRUE(contains(section.paragraphs[0], "does not hold its target")) << section.paragraphs[0];
  EXPECT_EQ(section.figures[1].figure.series.size(), 1u) << "psi measured alone";
  expect_drawable(report);
}

// bench/isospeed_experiment's sweeps and steps of mm (tests/cli/scale/emulated).
const std::string emulated_dir = inputs_dir + "/../scale/emulated";

std::vector<ReportInput> emulated_mm(bool with_steps) {
  std::vector<ReportInput> inputs;
  for (const char* configuration : {"C8", "C2", "C4"}) {
    inputs.push_back(input_file(fmt::format("{}/sweep-mm-{}.json", emulated_dir, configuration)));
    if (with_steps) inputs.push_back(input_file(fmt::format("{}/steps-mm-{}.json", emulated_dir, configuration)));
  }
  return inputs;
}

TEST(BuildReport, StepCostsAddPsiAndNPredictedFromTheSteps) {
  const auto report = build_report(emulated_mm(true), {});
  ASSERT_EQ(report.sections.size(), 1u);
  const auto& section = report.sections[0];
  ASSERT_NO_FATAL_FAILURE(expect_psi_predicted(section));
  const auto& psi = section.figures[1].figure;
  // The same prediction as scale predict --step-costs: files matched to the
  // sweeps by process count, whatever order they came in.
  std::vector<Sweep> sweeps;
  std::vector<StepCosts> steps;
  for (const char* configuration : {"C2", "C4", "C8"}) {
    sweeps.push_back(read_sweep(fmt::format("{}/sweep-mm-{}.json", emulated_dir, configuration)));
    steps.push_back(read_step_costs(fmt::format("{}/steps-mm-{}.json", emulated_dir, configuration)));
  }
  const auto expected = predict_from_step_costs(sweeps, steps);
  ASSERT_EQ(psi.series[1].y.size(), expected.steps.size());
  for (std::size_t i = 0; i < expected.steps.size(); ++i)
    EXPECT_DOUBLE_EQ(psi.series[1].y[i], expected.steps[i].psi_definition) << i;
  const auto& table = section.tables[1];
  EXPECT_EQ(table.header[7], "N' predicted");
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[1][1], "C8");
  EXPECT_EQ(table.rows[1][7], fmt::format("{:.0f}", expected.configurations[2].size));
  ASSERT_EQ(section.paragraphs.size(), 1u);
  EXPECT_TRUE(contains(section.paragraphs[0], "psi predicted from the steps measured on each configuration"))
      << section.paragraphs[0];
  EXPECT_TRUE(contains(section.paragraphs[0], "steps-mm-C8.json")) << section.paragraphs[0];
  expect_drawable(report);
}

TEST(BuildReport, StepCostsComeBeforeTheProfile) {
  auto inputs = emulated_mm(true);
  inputs.push_back(input_file(data_dir + "/papers/seed001-section45.json"));
  const auto report = build_report(inputs, {});
  ASSERT_EQ(report.sections.size(), 1u);
  ASSERT_EQ(report.sections[0].paragraphs.size(), 1u);
  EXPECT_TRUE(contains(report.sections[0].paragraphs[0], "from the steps measured"));
}

TEST(BuildReport, StepCostsMissingForAConfigurationAreSaid) {
  auto inputs = emulated_mm(false);
  inputs.push_back(input_file(emulated_dir + "/steps-mm-C2.json"));
  inputs.push_back(input_file(emulated_dir + "/steps-mm-C8.json"));
  const auto report = build_report(inputs, {});
  ASSERT_EQ(report.sections.size(), 1u);
  const auto& section = report.sections[0];
  ASSERT_EQ(section.figures.size(), 2u);
  EXPECT_EQ(section.figures[1].figure.series.size(), 1u) << "measured only";
  ASSERT_EQ(section.paragraphs.size(), 1u);
  EXPECT_TRUE(contains(section.paragraphs[0], "psi is not predicted from the steps: none were measured on 4 processes"))
      << section.paragraphs[0];
}

TEST(BuildReport, RefusesStepCostsWithoutTheirSweepsOrTwicePerConfiguration) {
  const auto steps = input_file(emulated_dir + "/steps-mm-C2.json");
  EXPECT_EQ(ErrorMessage([&] { build_report({steps}, {}); }),
            steps.path + ": kernel: the steps of mm serve its sweeps (psi predicted); no sweep of mm given");
  EXPECT_EQ(ErrorMessage([&] {
              build_report(
                  {input_file(inputs_dir + "/sweep-ge-c2.json"), input_file(inputs_dir + "/sweep-ge-c4.json"), steps},
                  {});
            }),
            steps.path + ": kernel: the steps of mm serve its sweeps (psi predicted); no sweep of mm given");
  auto inputs = emulated_mm(true);
  const ReportInput second{"in/steps-again.json", steps.text};
  inputs.push_back(second);
  EXPECT_EQ(ErrorMessage([&] { build_report(inputs, {}); }),
            "in/steps-again.json: ranks: a second file of mm's steps on 2 processes; give one per configuration");
}

json optimizer_json(bool with_fitness) {
  json document{{"schema", "hetscale.optimize/1"},
                {"program", "programs/p.c"},
                {"solver", "ga ssga one-point"},
                {"time", 1.5},
                {"optimum", 1.25},
                {"plan",
                 {{{"level", 1},
                   {"procs", 4},
                   {"alignment", 2},
                   {"alignment_patterns", "a: row"},
                   {"t_comp", 1.0},
                   {"t_comm", 0.5},
                   {"structure", "-"}}}}};
  if (with_fitness) {
    document["best_fitness"] = {3.0, 2.0, 1.5};
    document["mean_fitness"] = {4.0, 3.0, 2.0};
  }
  return document;
}

TEST(BuildReport, OptimizerRunGivesFitnessAndPlan) {
  auto runs = optimizer_json(true);
  runs.erase("best_fitness");
  runs.erase("mean_fitness");
  runs["runs"] = 5;
  runs["mean_best_fitness"] = {3.0, 2.5};
  runs["mean_mean_fitness"] = {4.0, 3.5};
  const auto report = build_report({{"opt/one.json", optimizer_json(true).dump()},
                                    {"opt/exact.json", optimizer_json(false).dump()},
                                    {"opt/runs.json", runs.dump()}},
                                   {});
  ASSERT_EQ(report.sections.size(), 3u);
  const auto& one = report.sections[0];
  EXPECT_EQ(one.title, "Optimizer: one (p.c, ga ssga one-point)");
  ASSERT_EQ(one.tables.size(), 1u);
  ASSERT_EQ(one.tables[0].rows.size(), 1u);
  EXPECT_EQ(one.tables[0].rows[0][1], "4");
  ASSERT_EQ(one.figures.size(), 1u);
  EXPECT_EQ(one.figures[0].figure.series[0].y, (std::vector<double>{3.0, 2.0, 1.5}));
  EXPECT_TRUE(report.sections[1].figures.empty()) << "no fitness per generation, no figure";
  ASSERT_EQ(report.sections[2].figures.size(), 1u);
  EXPECT_TRUE(contains(report.sections[2].figures[0].figure.title, "mean over the runs"));
  EXPECT_TRUE(contains(report.sections[2].paragraphs[0], "5 runs")) << report.sections[2].paragraphs[0];
  expect_drawable(report);
}

TEST(BuildReport, ShippedOptimizerOutput) {
  const auto report = build_report({input_file(inputs_dir + "/optimize-h1-ga.json")}, {});
  ASSERT_EQ(report.sections.size(), 1u);
  EXPECT_EQ(report.sections[0].figures.size(), 1u);
  EXPECT_EQ(report.sections[0].tables[0].rows.size(), 5u) << "H1 has five levels";
}

// A functional performance model: its points, interval ends and interpolation
// per node, one colour per node; a kernel run whose rows it shared says so.
TEST(BuildReport, SpeedModelAndTheKernelRunItShared) {
  const json model{
      {"schema", "hetscale.fpm/1"},
      {"unit", "rows"},
      {"interpolation", "linear"},
      {"nodes",
       {{{"name", "fast"},
         {"points", {{{"size", 100}, {"speed", 2000}, {"interval", 50}}, {{"size", 800}, {"speed", 1000}}}}},
        {{"name", "marked"}, {"points", {{{"size", 100}, {"speed", 500}}}}}}}};
  const auto report =
      build_report({{"models/m.json", model.dump()}, input_file(inputs_dir + "/kernel-ge-600-fpm.json")}, {});
  ASSERT_EQ(report.sections.size(), 3u);  // summary, the run, the model
  EXPECT_TRUE(contains(report.sections[1].paragraphs[0],
                       "Work shared by the functional performance model tests/cli/partition/model-small.json (rows): "
                       "289, 217, 94"))
      << report.sections[1].paragraphs[0];
  const auto& section = report.sections[2];
  EXPECT_EQ(section.title, "Speed model: m");
  ASSERT_EQ(section.tables.size(), 1u);
  ASSERT_EQ(section.tables[0].rows.size(), 2u);
  EXPECT_EQ(section.tables[0].rows[0][2], "100 .. 800");
  EXPECT_EQ(section.tables[0].rows[0][4], "2.5 %");  // 50 of 2000
  ASSERT_EQ(section.figures.size(), 1u);
  const Figure& figure = section.figures[0].figure;
  ASSERT_EQ(figure.series.size(), 5u);  // fast: points, interval ends, curve; marked: points, curve
  EXPECT_EQ(figure.series[1].y, (std::vector<double>{1950, 2050}));
  EXPECT_EQ(figure.series[2].y.front(), 2000);
  EXPECT_EQ(figure.series[2].y.back(), 1000);
  EXPECT_EQ(figure.series[2].colour, figure.series[0].colour);
  EXPECT_NE(figure.series[3].colour, figure.series[0].colour);
  // A marked speed (one point) is a flat line across the whole figure.
  EXPECT_EQ(figure.series[4].x.front(), 100);
  EXPECT_EQ(figure.series[4].x.back(), 800);
  EXPECT_EQ(figure.series[4].y.front(), 500);
  EXPECT_EQ(figure.series[4].y.back(), 500);
  expect_drawable(report);
}

// Farm runs over 0, 1, 2, 4 clients: one series; the speed-up is the 0-client
// run's t_par over each run's t_par (not t_seq_ref), s_max of the speeds.
TEST(BuildReport, FarmRunsOverClientCountsGiveOneSpeedupSection) {
  const std::map<int, double> t_par{{0, 100.0}, {1, 104.0}, {2, 50.0}, {4, 32.0}};
  std::vector<ReportInput> inputs;
  for (const auto& [clients, time] : t_par)
    inputs.push_back(
        {fmt::format("farm-{}.json", clients),
         run_json(fmt::format("{} clients", clients), time, std::max(clients, 1), farm_context(clients)).dump()});
  const auto report = build_report(inputs, {});
  ASSERT_EQ(report.sections.size(), 2u) << "the summary, and no section of their own for the runs of the series";
  EXPECT_EQ(report.sections[0].tables.at(0).rows.size(), 4u) << "the summary has every run";
  const auto& section = report.sections[1];
  EXPECT_EQ(section.title, "Speed-up over clients: hetscale farm, policy adaptive");
  EXPECT_EQ(section.source, "farm-0.json farm-1.json farm-2.json farm-4.json");
  ASSERT_EQ(section.paragraphs.size(), 1u);
  EXPECT_TRUE(contains(section.paragraphs[0], "the run with no clients")) << section.paragraphs[0];
  ASSERT_EQ(section.figures.size(), 2u);
  const auto& speedup = section.figures[0].figure;
  EXPECT_EQ(speedup.id, "clients1-hetscale-farm-adaptive-speedup");
  const auto& measured = series_titled(speedup, "measured");
  EXPECT_EQ(measured.x, (std::vector<double>{1.0, 2.0, 4.0}));
  ASSERT_EQ(measured.y.size(), 3u);
  EXPECT_DOUBLE_EQ(measured.y[0], 100.0 / 104.0);
  EXPECT_DOUBLE_EQ(measured.y[1], 100.0 / 50.0);
  EXPECT_DOUBLE_EQ(measured.y[2], 100.0 / 32.0);
  EXPECT_EQ(series_titled(speedup, "s_max").y, (std::vector<double>{1.0, 2.0, 4.0}));
  const auto& efficiency = section.figures[1].figure.series.at(0);
  EXPECT_DOUBLE_EQ(efficiency.y[2], 100.0 / 32.0 / 4.0);
  ASSERT_EQ(section.tables.size(), 1u);
  ASSERT_EQ(section.tables[0].rows.size(), 4u);
  EXPECT_EQ(section.tables[0].rows[0][0], "0 (the server alone)");
  EXPECT_EQ(section.tables[0].rows[3], (std::vector<std::string>{"4", "32", "3.125", "4.000", "0.781"}));
  expect_drawable(report);
}

// Without a 0-client run the reference is each run's t_seq_ref; a run of
// another policy is a series of one point, reported as a run.
TEST(BuildReport, FarmRunsWithoutServerAloneUseTSeqRef) {
  const auto report = build_report({{"a.json", run_json("two", 40.0, 2, farm_context(2)).dump()},
                                    {"b.json", run_json("four", 20.0, 4, farm_context(4)).dump()},
                                    {"c.json", run_json("other", 20.0, 4, farm_context(4, "even")).dump()}},
                                   {});
  ASSERT_EQ(report.sections.size(), 3u);
  EXPECT_EQ(report.sections[1].title, "Run: other (hetscale farm, even)");
  const auto& series = report.sections[2];
  EXPECT_TRUE(contains(series.paragraphs[0], "t_seq_ref")) << series.paragraphs[0];
  const auto& measured = series_titled(series.figures[0].figure, "measured");
  EXPECT_EQ(measured.y, (std::vector<double>{60.0 / 40.0, 60.0 / 20.0}));
}

// The summary opens the page: one row per run record with t_par, the measured
// speed-up, the efficiency to read first and the largest loss, each from the
// run's own analysis (analysis/diagnosis.hpp).
TEST(BuildReport, SummaryRowPerRunFromItsDiagnosis) {
  const auto hetero = input_file(examples_dir + "/run-hetero.json");
  const auto report = build_report({hetero}, {});
  ASSERT_GE(report.sections.size(), 2u);
  const auto& summary = report.sections[0];
  EXPECT_EQ(summary.title, "Summary");
  ASSERT_EQ(summary.tables.size(), 1u);
  const auto& table = summary.tables[0];
  EXPECT_EQ(table.header,
            (std::vector<std::string>{"run", "nodes", "t_par (s)", "measured speed-up", "efficiency", "largest loss"}));
  ASSERT_EQ(table.rows.size(), 1u);
  const auto analysis = analyze_run(parse_run_record(hetero.text, hetero.path));
  const auto losses = diagnose(analysis);
  ASSERT_FALSE(losses.empty());
  const auto& row = table.rows[0];
  EXPECT_EQ(row[1], "8");
  EXPECT_EQ(row[2], "22.8");
  EXPECT_EQ(row[3], fmt::format("{:.3f}", 128.0 / 22.795));
  EXPECT_EQ(row[4], fmt::format("{:.3f}", analysis.energetic.effective_efficiency));
  EXPECT_TRUE(contains(row[5], fmt::format("idle on node1, node2, node3: {:.1f} %", 100.0 * losses[0].fraction)))
      << row[5];
  EXPECT_TRUE(contains(row[5], fmt::format("efficiency {:.3f}", losses[0].efficiency_after))) << row[5];
}

// Runs of one program (context.program) at several rank counts: the
// strong-scaling speed-up T(p0) / T(p) against the fewest ranks, beside the
// heterogeneous speed-up t_seq_ref / t_par and efficiency over ranks; the
// series comes first, after the summary.
TEST(BuildReport, AnyProgramsRunsOverRanksGiveASeries) {
  std::vector<ReportInput> inputs;
  for (const int ranks : {4, 2, 8}) {
    auto run = run_json(fmt::format("stencil {}", ranks), 16.0 / ranks + 0.5, ranks);
    run["t_seq_ref"] = 16.0;
    run["context"] = {{"program", "stencil"}};
    inputs.push_back({fmt::format("s{}.json", ranks), run.dump()});
  }
  const auto report = build_report(inputs, {});
  ASSERT_GE(report.sections.size(), 2u);
  const auto& last = report.sections[1];
  EXPECT_EQ(last.title, "Speed-up over ranks: stencil");
  EXPECT_EQ(last.source, "s2.json s4.json s8.json");
  ASSERT_EQ(last.figures.size(), 2u);
  const auto& measured = series_titled(last.figures[0].figure, "heterogeneous t_seq_ref / t_par");
  EXPECT_EQ(measured.x, (std::vector<double>{2.0, 4.0, 8.0}));
  EXPECT_DOUBLE_EQ(measured.y[0], 16.0 / 8.5);
  EXPECT_DOUBLE_EQ(measured.y[2], 16.0 / 2.5);
  const auto& strong = series_titled(last.figures[0].figure, "strong-scaling T(p0) / T(p)");
  EXPECT_DOUBLE_EQ(strong.y[0], 1.0);
  EXPECT_DOUBLE_EQ(strong.y[2], 8.5 / 2.5);
  const auto& strong_efficiency = series_titled(last.figures[1].figure, "strong-scaling T(p0) p0 / (T(p) p)");
  EXPECT_DOUBLE_EQ(strong_efficiency.y[2], 8.5 / 2.5 * 2.0 / 8.0);
  EXPECT_EQ(last.figures[0].figure.x_label, "ranks");
  // Tics at the rank counts only.
  ASSERT_EQ(last.figures[0].figure.x_tick_labels.size(), 3u);
  EXPECT_EQ(last.figures[0].figure.x_tick_labels[2], (std::pair<double, std::string>{8.0, "8"}));
  ASSERT_EQ(last.tables.size(), 1u);
  ASSERT_EQ(last.tables[0].rows.size(), 3u);
  EXPECT_EQ(last.tables[0].rows[2][2], fmt::format("{:.3f}", 8.5 / 2.5));
  EXPECT_TRUE(contains(last.first_lines.at(0), "not to be mistaken for each other"));
  // Runs without a program name, or of one rank count only, make no series.
  auto lone = run_json("lone", 3.0, 2);
  lone["t_seq_ref"] = 4.0;
  const auto single = build_report({{"lone.json", lone.dump()}}, {});
  for (const auto& section : single.sections) EXPECT_FALSE(contains(section.title, "Speed-up over ranks"));
  expect_drawable(report);
}

TEST(BuildReport, ModelFigures) {
  ReportOptions options;
  options.model_figures = {"ewf-heterogeneity", "two-processors"};
  options.seed003_configurations = seed003_table1_speeds(data_dir);
  const auto report = build_report({}, options);
  ASSERT_EQ(report.sections.size(), 2u);
  EXPECT_EQ(report.sections[0].figures.size(), 1u);
  EXPECT_EQ(report.sections[0].figures[0].figure.id, "ewf-heterogeneity");
  EXPECT_EQ(report.sections[1].figures.size(), 2u);
  for (const auto& section : report.sections) EXPECT_EQ(section.source, "model (no run)");
  expect_drawable(report);
  EXPECT_EQ(model_figure_names(), (std::vector<std::string>{"two-processors", "ewf-heterogeneity"}));
  // The names they had, which the command line still takes (saying the new one).
  EXPECT_EQ(model_figure_renamed("seed000-fig1"), "two-processors");
  EXPECT_EQ(model_figure_renamed("seed003-fig2"), "ewf-heterogeneity");
  EXPECT_EQ(model_figure_renamed("two-processors"), std::nullopt);
}

TEST(BuildReport, RefusesTextThatIsNotAJsonObject) {
  for (const std::string text : {"[1, 2]", "\"text\""})
    EXPECT_EQ(ErrorMessage([&] {
                build_report({{"in/bad.json", text}}, {});
              }),
              "in/bad.json: is not a JSON object; the report reads hetscale's JSON outputs")
        << text;
  for (const std::string text : {"not json {", ""})
    EXPECT_THAT(ErrorMessage([&] {
                  build_report({{"in/bad.json", text}}, {});
                }),
                testing::StartsWith("in/bad.json: not valid JSON: parse error at line 1"))
        << text;
}

TEST(BuildReport, RefusesAnUnknownSchemaListingTheKnownOnes) {
  EXPECT_EQ(
      ErrorMessage([] {
        build_report({{"in/platform.json", R"({"schema": "hetscale.platform/1"})"}}, {});
      }),
      "in/platform.json: schema: this is a platform (hetscale.platform/1), which is not one the report reads "
      "(hetscale.run/1, hetscale.sweep/1, hetscale.comm-profile/1, hetscale.step-costs/1, hetscale.optimize/1, "
      "hetscale.predict/1, hetscale.fpm/1): give it as `--platform FILE`");
  EXPECT_TRUE(contains(ErrorMessage([] {
                         build_report({{"in/none.json", "{}"}}, {});
                       }),
                       "in/none.json: schema: '' is not one the report reads"));
}

TEST(BuildReport, RefusesAnInputItsReaderRefuses) {
  auto run = run_json("bad", 10.0, 1);
  run["nodes"][0]["t_compute"] = 1.0;
  const auto message = ErrorMessage([&] { build_report({{"in/run.json", run.dump()}}, {}); });
  EXPECT_TRUE(contains(message, "in/run.json: nodes[0].t_compute: unknown field")) << message;
}

TEST(BuildReport, CommunicationProfileNeedsSweepsAndIsGivenOnce) {
  const auto profile = input_file(data_dir + "/papers/seed001-section45.json");
  EXPECT_EQ(ErrorMessage([&] { build_report({profile}, {}); }),
            profile.path + ": schema: a communication profile serves sweeps (psi predicted); no sweep given");
  const auto second = ReportInput{"in/second-profile.json", profile.text};
  EXPECT_EQ(ErrorMessage([&] {
              build_report({input_file(inputs_dir + "/sweep-ge-c2.json"), profile, second}, {});
            }),
            "in/second-profile.json: schema: a second communication profile; give one");
}

TEST(BuildReport, RefusesAnUnknownModelFigure) {
  ReportOptions options;
  options.model_figures = {"two-processors", "seed999-fig9"};
  EXPECT_EQ(ErrorMessage([&] { build_report({}, options); }),
            "model: unknown model figure 'seed999-fig9'; allowed: two-processors, ewf-heterogeneity");
  options.model_figures = {"ewf-heterogeneity"};  // without Table 1's configurations
  EXPECT_TRUE(contains(ErrorMessage([&] { build_report({}, options); }), "model: ewf-heterogeneity needs"));
}

TEST(BuildReport, RefusesNothingToReport) {
  EXPECT_EQ(
      ErrorMessage([] { build_report({}, {}); }),
      "INPUTS: nothing to report: give run records, sweeps, optimizer runs, predictions, speed models or --model");
}

// --- the whole page ---------------------------------------------------------------------------

TEST_F(RenderSvg, EveryInputKindDrawsIntoOnePage) {
  ReportOptions options;
  options.model_figures = {"two-processors", "ewf-heterogeneity"};
  options.seed003_configurations = seed003_table1_speeds(data_dir);
  std::vector<ReportInput> inputs{
      input_file(examples_dir + "/run-hetero.json"), input_file(inputs_dir + "/sweep-ge-c2.json"),
      input_file(inputs_dir + "/sweep-ge-c4.json"), input_file(data_dir + "/papers/seed001-section45.json"),
      input_file(inputs_dir + "/optimize-h1-ga.json")};
  for (const int clients : {0, 1, 2, 4})
    inputs.push_back({fmt::format("in/farm-{}.json", clients),
                      run_json("farm", 100.0 / (clients + 1), std::max(clients, 1), farm_context(clients)).dump()});
  auto report = build_report(inputs, options);
  // summary, run, clients, scalability, optimizer, two model sections
  ASSERT_EQ(report.sections.size(), 7u);
  std::vector<std::string> svgs;
  for (auto& section : report.sections)
    for (auto& drawn : section.figures) {
      drawn.svg = render_svg(drawn.figure);
      EXPECT_TRUE(is_svg_document(drawn.svg)) << drawn.figure.id;
      svgs.push_back(drawn.svg);
    }
  EXPECT_EQ(svgs.size(), 2u + 2u + 2u + 1u + 2u + 1u);
  const auto html = html_report(report);
  EXPECT_EQ(occurrences(html, "<img class=\"figure\""), svgs.size());
  EXPECT_EQ(embedded_images(html), svgs);
  EXPECT_FALSE(contains(html, "http"));
  EXPECT_FALSE(contains(html, "<script"));
}

}  // namespace
}  // namespace hetscale::report
