#include "hetscale/report/html_report.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

namespace hetscale::report {
namespace {

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// An id for a heading: the section's number and its title as a slug, at most 49 characters.
std::string anchor(std::string_view title, std::size_t index) {
  std::string out = fmt::format("s{}-", index + 1) + slug(title);
  if (out.size() > 49) out.resize(49);
  while (out.back() == '-') out.pop_back();
  return out;
}

const char* const style_sheet =
    R"(body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:2em auto;max-width:1100px;color:#222;line-height:1.45;padding:0 1em}
h1{font-size:1.7em;margin-bottom:.2em}h2{font-size:1.3em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
.about{color:#555;font-size:.9em;margin:0}.source{color:#555;font-size:.9em;font-family:monospace}
nav ol{columns:2;font-size:.95em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}caption{text-align:left;font-weight:bold;padding:.3em 0}
th,td{border:1px solid #ccc;padding:.25em .6em}th{background:#f3f3f3}td.number{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:1.5em 0}img.figure{max-width:100%;height:auto;border:1px solid #eee}figcaption{font-size:.9em;color:#444;max-width:760px}
.first{display:flex;flex-wrap:wrap;gap:1em 2em;align-items:flex-start}.first .read{flex:1 1 420px}.first figure{flex:1 1 520px;margin:0}
ul.read-first{padding-left:1.2em}ul.read-first li{margin:.35em 0}
details{margin:1em 0;border-top:1px dashed #ccc;padding-top:.3em}summary{cursor:pointer;color:#245;font-weight:bold}
)";

bool looks_numeric(std::string_view cell) {
  if (cell.empty()) return false;
  for (const char c : cell)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' || c == '%' ||
          c == ' '))
      return false;
  return std::isdigit(static_cast<unsigned char>(cell.front())) || cell.front() == '-' || cell.front() == '.';
}

std::string table_html(const HtmlTable& table) {
  std::string out = "<table>\n";
  if (!table.caption.empty()) out += "<caption>" + escaped(table.caption) + "</caption>\n";
  out += "<tr>";
  for (const auto& cell : table.header) out += "<th>" + escaped(cell) + "</th>";
  out += "</tr>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const auto& cell : row)
      out += (looks_numeric(cell) ? "<td class=\"number\">" : "<td>") + escaped(cell) + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string base64(std::string_view bytes) {
  static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned value = (static_cast<unsigned char>(bytes[i]) << 16) |
                           (static_cast<unsigned char>(bytes[i + 1]) << 8) | static_cast<unsigned char>(bytes[i + 2]);
    out += alphabet[(value >> 18) & 63];
    out += alphabet[(value >> 12) & 63];
    out += alphabet[(value >> 6) & 63];
    out += alphabet[value & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const unsigned value =
        (static_cast<unsigned char>(bytes[i]) << 16) | (two ? static_cast<unsigned char>(bytes[i + 1]) << 8 : 0);
    out += alphabet[(value >> 18) & 63];
    out += alphabet[(value >> 12) & 63];
    out += two ? alphabet[(value >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string html_report(const Report& report) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + escaped(report.title) + "</title>\n<style>\n" + style_sheet + "</style>\n</head>\n<body>\n";
  out += "<h1>" + escaped(report.title) + "</h1>\n";
  for (const auto& line : report.about) out += "<p class=\"about\">" + escaped(line) + "</p>\n";
  if (report.sections.size() > 1) {
    out += "<nav><ol>\n";
    for (std::size_t s = 0; s < report.sections.size(); ++s)
      out += fmt::format("<li><a href=\"#{}\">{}</a></li>\n", anchor(report.sections[s].title, s),
                         escaped(report.sections[s].title));
    out += "</ol></nav>\n";
  }
  std::size_t figure_number = 0;
  const auto figure_html = [&figure_number](const DrawnFigure& drawn) {
    ++figure_number;
    return fmt::format("<figure id=\"{}\">\n<img class=\"figure\" alt=\"{}\" src=\"data:image/svg+xml;base64,{}\">\n",
                       escaped(drawn.figure.id), escaped(drawn.figure.title), base64(drawn.svg)) +
           fmt::format("<figcaption>Figure {}. {}{}</figcaption>\n</figure>\n", figure_number,
                       escaped(drawn.figure.title),
                       drawn.figure.caption.empty() ? "" : ": " + escaped(drawn.figure.caption));
  };
  for (std::size_t s = 0; s < report.sections.size(); ++s) {
    const auto& section = report.sections[s];
    const std::size_t first_tables = std::min(section.first_tables, section.tables.size());
    const std::size_t first_figures = std::min(section.first_figures, section.figures.size());
    out += fmt::format("<section>\n<h2 id=\"{}\">{}</h2>\n", anchor(section.title, s), escaped(section.title));
    if (!section.source.empty()) out += "<p class=\"source\">" + escaped(section.source) + "</p>\n";
    if (!section.first_lines.empty() || first_tables || first_figures) {
      out += "<div class=\"first\">\n<div class=\"read\">\n";
      if (!section.first_lines.empty()) {
        out += "<ul class=\"read-first\">\n";
        for (const auto& line : section.first_lines) out += "<li>" + escaped(line) + "</li>\n";
        out += "</ul>\n";
      }
      for (std::size_t t = 0; t < first_tables; ++t) out += table_html(section.tables[t]);
      out += "</div>\n";
      for (std::size_t f = 0; f < first_figures; ++f) out += figure_html(section.figures[f]);
      out += "</div>\n";
    }
    if (!section.folded.empty()) out += "<details>\n<summary>" + escaped(section.folded) + "</summary>\n";
    for (const auto& paragraph : section.paragraphs) out += "<p>" + escaped(paragraph) + "</p>\n";
    for (std::size_t t = first_tables; t < section.tables.size(); ++t) out += table_html(section.tables[t]);
    for (std::size_t f = first_figures; f < section.figures.size(); ++f) out += figure_html(section.figures[f]);
    if (!section.folded.empty()) out += "</details>\n";
    out += "</section>\n";
  }
  return out + "</body>\n</html>\n";
}

}  // namespace hetscale::report
