#pragma once
// One self-contained HTML page: sections of text, tables and figures (SVG
// embedded as data URIs), no script and nothing fetched when it is viewed.
#include <string>
#include <vector>

#include "hetscale/report/figure.hpp"

namespace hetscale::report {

struct HtmlTable {
  std::string caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct DrawnFigure {
  Figure figure;
  std::string svg;  // as gnuplot drew it
};

// A section opens with its first screen, what to read first: `first_lines`,
// then its first `first_tables` tables beside its first `first_figures`
// figures. When `folded` is set, the rest (paragraphs, the other tables and
// figures) sits in a <details> element, closed, with `folded` as its summary.
struct ReportSection {
  std::string title;
  std::string source;                   // the input it explains (a file, or "model")
  std::vector<std::string> first_lines;  // plain text, shown as a list
  std::size_t first_tables = 0, first_figures = 0;
  std::string folded;
  std::vector<std::string> paragraphs;  // plain text
  std::vector<HtmlTable> tables;
  std::vector<DrawnFigure> figures;
};

struct Report {
  std::string title = "hetscale report";
  std::vector<std::string> about;  // lines under the title: command, date, tool versions
  std::vector<ReportSection> sections;
};

std::string html_report(const Report& report);

// Standard base64 (RFC 4648), for data URIs.
std::string base64(std::string_view bytes);

}  // namespace hetscale::report
