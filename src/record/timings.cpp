#include "hetscale/record/timings.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"

namespace hetscale {
namespace {

std::string trimmed(std::string text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(trimmed(field));
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

double positive_value(const std::string& text, const std::string& source, std::size_t line, const char* name) {
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || value <= 0.0)
    throw InputError(source, fmt::format("line {}, {}", line, name),
                     fmt::format("'{}' must be a finite number > 0", text));
  return value;
}

}  // namespace

Timings parse_timings_csv(std::string_view text, const std::string& source) {
  Timings timings{source, {}};
  std::istringstream lines{std::string(text)};
  std::string line;
  bool header_seen = false;
  for (std::size_t number = 1; std::getline(lines, line); ++number) {
    line = trimmed(line);
    if (line.empty() || line.front() == '#') continue;
    const auto fields = split_fields(line);
    if (!header_seen) {
      if (fields != std::vector<std::string>{"procs", "size", "seconds"})
        throw InputError(source, fmt::format("line {}", number),
                         fmt::format("header is '{}', expected 'procs,size,seconds'", line));
      header_seen = true;
      continue;
    }
    if (fields.size() != 3)
      throw InputError(source, fmt::format("line {}", number),
                       fmt::format("has {} fields, expected 3 (procs,size,seconds)", fields.size()));
    const double procs = positive_value(fields[0], source, number, "procs");
    if (procs != std::floor(procs) || procs > 1e9)
      throw InputError(source, fmt::format("line {}, procs", number),
                       fmt::format("'{}' must be a whole number >= 1", fields[0]));
    timings.rows.push_back({static_cast<std::size_t>(procs), positive_value(fields[1], source, number, "size"),
                            positive_value(fields[2], source, number, "seconds"), number});
  }
  if (!header_seen) throw InputError(source, "", "is empty; expected the header 'procs,size,seconds' and rows");
  if (timings.rows.empty()) throw InputError(source, "", "has a header but no rows");
  return timings;
}

Timings read_timings(const std::string& path) { return parse_timings_csv(io::read_text_file(path), path); }

Timings read_timings(const std::vector<std::string>& paths) {
  if (paths.empty()) throw std::invalid_argument("read_timings: no timings files given");
  Timings timings = read_timings(paths.front());
  for (std::size_t i = 1; i < paths.size(); ++i) {
    const Timings more = read_timings(paths[i]);
    timings.source += " + " + more.source;
    timings.rows.insert(timings.rows.end(), more.rows.begin(), more.rows.end());
  }
  return timings;
}

std::string timings_csv(const Timings& timings) {
  std::string csv = "procs,size,seconds\n";
  for (const auto& timing : timings.rows)
    csv += fmt::format("{},{},{:.9g}\n", timing.procs, timing.size, timing.seconds);
  return csv;
}

Timings sweep_timings(const Sweep& sweep) {
  Timings timings{sweep.source, {}};
  for (const auto& point : sweep.points) timings.rows.push_back({sweep.processes(), point.size, point.seconds, 0});
  return timings;
}

}  // namespace hetscale
