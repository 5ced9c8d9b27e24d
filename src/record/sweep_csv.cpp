#include "hetscale/record/sweep_csv.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"

namespace hetscale {
namespace {

// --- CSV -------------------------------------------------------------------
// Comma-separated cells with the spaces around them removed; blank lines and
// lines starting with '#' are skipped; the first other line is the header.

std::string_view strip(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

struct CsvRow {
  std::size_t line = 0;
  std::vector<std::string> cells;
  std::string field() const { return fmt::format("line {}", line); }
};

struct Csv {
  CsvRow header;
  std::vector<CsvRow> rows;
  std::string header_text() const {
    std::string text;
    for (const auto& cell : header.cells) text += (text.empty() ? "" : ",") + cell;
    return text;
  }
  bool has(std::string_view column) const {
    return std::find(header.cells.begin(), header.cells.end(), column) != header.cells.end();
  }
  std::size_t column(std::string_view name) const {
    return static_cast<std::size_t>(std::find(header.cells.begin(), header.cells.end(), name) - header.cells.begin());
  }
};

Csv read_csv(std::string_view text, const std::string& source, std::string_view expected_header) {
  Csv csv;
  bool header_seen = false;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const auto line = strip(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    CsvRow row{line_number, {}};
    for (std::string_view rest = line;;) {
      const auto comma = rest.find(',');
      row.cells.emplace_back(strip(rest.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (!header_seen) {
      csv.header = std::move(row);
      header_seen = true;
      continue;
    }
    if (row.cells.size() != csv.header.cells.size())
      throw InputError(
          source, row.field(),
          fmt::format("has {} fields, expected {} ({})", row.cells.size(), csv.header.cells.size(), csv.header_text()));
    csv.rows.push_back(std::move(row));
  }
  if (!header_seen)
    throw InputError(source, "", fmt::format("is empty; expected the header '{}' and rows", expected_header));
  return csv;
}

// A cell that must be a finite number > 0; `what` says what it is, for the message.
double positive_cell(const CsvRow& row, std::size_t column, const std::string& source, std::string_view name,
                     std::string_view unit) {
  const std::string& text = row.cells[column];
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || value <= 0.0)
    throw InputError(source, row.field(), fmt::format("{} must be a number > 0{}, got '{}'", name, unit, text));
  return value;
}

std::size_t process_count_cell(const CsvRow& row, std::size_t column, const std::string& source) {
  const double value = positive_cell(row, column, source, "processes", " (a whole number)");
  if (value != std::floor(value) || value > 1e9)
    throw InputError(source, row.field(),
                     fmt::format("processes must be a whole number >= 1, got '{}'", row.cells[column]));
  return static_cast<std::size_t>(value);
}

}  // namespace

SweepCsv parse_sweep_csv_rows(std::string_view text, const std::string& source) {
  const std::string allowed(sweep_csv_columns);
  const Csv csv = read_csv(text, source, "N,T_ms");
  for (const auto& column : csv.header.cells)
    if (column != "N" && column != "W" && column != "T_ms" && column != "T_s" && column != "speed" && column != "E_s")
      throw InputError(
          source, csv.header.field(),
          fmt::format("unknown column '{}' in the header '{}'; allowed: {}", column, csv.header_text(), allowed));
  if (!csv.has("N") || csv.has("T_ms") == csv.has("T_s"))
    throw InputError(source, csv.header.field(),
                     fmt::format("header is '{}': needs the column N and one of T_ms or T_s (allowed: {})",
                                 csv.header_text(), allowed));
  const bool milliseconds = csv.has("T_ms");
  const std::size_t size_column = csv.column("N"), time_column = csv.column(milliseconds ? "T_ms" : "T_s");
  SweepCsv read;
  read.header_field = csv.header.field();
  read.header_text = csv.header_text();
  read.has_work_column = csv.has("W");
  for (const auto& row : csv.rows) {
    SweepCsvRow each;
    each.field = row.field();
    each.size = positive_cell(row, size_column, source, "N", "");
    const double time = positive_cell(row, time_column, source, milliseconds ? "T_ms" : "T_s", "");
    each.seconds = milliseconds ? time * 1e-3 : time;
    if (read.has_work_column) each.work = positive_cell(row, csv.column("W"), source, "W", " (flop)");
    read.rows.push_back(each);
  }
  if (read.rows.empty()) throw InputError(source, "", "has a header but no rows");
  return read;
}

std::vector<ScalingConfiguration> parse_configurations_csv(std::string_view text, const std::string& source) {
  const std::string expected = "'name,marked_speed,N' or 'name,marked_speed,N,processes'";
  const Csv csv = read_csv(text, source, "name,marked_speed,N");
  const auto& header = csv.header.cells;
  const bool with_processes = header.size() == 4;
  if (!csv.has("marked_speed"))
    throw InputError(source, csv.header.field(),
                     fmt::format("header is '{}': the column marked_speed is missing (each configuration's marked "
                                 "speed C in Mflop/s, Chen et al. 2008 Definition 1); expected {}",
                                 csv.header_text(), expected));
  if (header.size() < 3 || header.size() > 4 || header[0] != "name" || header[1] != "marked_speed" ||
      header[2] != "N" || (with_processes && header[3] != "processes"))
    throw InputError(source, csv.header.field(),
                     fmt::format("header is '{}', expected {}", csv.header_text(), expected));

  std::vector<ScalingConfiguration> configurations;
  std::set<std::string> names;
  for (const auto& row : csv.rows) {
    ScalingConfiguration configuration;
    configuration.name = row.cells[0];
    if (configuration.name.empty()) throw InputError(source, row.field(), "name must not be empty");
    if (!names.insert(configuration.name).second)
      throw InputError(source, row.field(), fmt::format("name '{}' appears twice", configuration.name));
    configuration.marked_speed = positive_cell(row, 1, source, "marked_speed", " (Mflop/s)");
    configuration.size = positive_cell(row, 2, source, "N", "");
    if (with_processes) configuration.processes = process_count_cell(row, 3, source);
    configuration.source = source;
    configurations.push_back(std::move(configuration));
  }
  if (configurations.size() < 2)
    throw InputError(
        source, "",
        fmt::format("has {} configuration(s); psi compares two or more, in scaling order", configurations.size()));
  return configurations;
}

std::vector<ScalingConfiguration> read_configurations(const std::string& path) {
  return parse_configurations_csv(io::read_text_file(path), path);
}

}  // namespace hetscale
