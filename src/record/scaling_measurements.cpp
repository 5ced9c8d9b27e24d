#include "hetscale/record/scaling_measurements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "io/strict_json.hpp"

namespace hetscale {
namespace {

constexpr const char* scale_rule = "a scale is a finite number > 0";

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> result;
  for (std::string word; in >> word;) result.push_back(word);
  return result;
}

double number(const std::string& text, const std::string& source, const std::string& field) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    throw InputError(source, field, fmt::format("'{}' is not a number", text));
  if (!std::isfinite(value)) throw InputError(source, field, fmt::format("'{}': values must be finite", text));
  return value;
}

double scale(double value, const std::string& source, const std::string& field) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw InputError(source, field, fmt::format("{}: {}", value, scale_rule));
  return value;
}

// Every series has data at every point, in the order of `points`.
void check_complete(const ScalingMeasurements& measurements, const std::vector<double>& points) {
  if (measurements.series.empty())
    throw InputError(measurements.source, "", "has no data; expected measurements of at least one metric");
  for (const auto& series : measurements.series) {
    if (series.points.size() == points.size()) continue;
    std::vector<std::string> missing;
    for (double x : points)
      if (std::none_of(series.points.begin(), series.points.end(), [&](const auto& p) { return p.x == x; }))
        missing.push_back(fmt::format("{}", x));
    throw InputError(
        measurements.source, fmt::format("{} {}", series.callpath, series.metric),
        fmt::format("has data at {} of {} points (none at {} = {}); every callpath and metric needs "
                    "data at every point",
                    series.points.size(), points.size(), measurements.parameter, fmt::join(missing, ", ")));
  }
}

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

void ScalingSeries::add(double x, const std::vector<double>& values) {
  auto point = std::find_if(points.begin(), points.end(), [&](const auto& p) { return p.x == x; });
  if (point == points.end()) {
    points.push_back({x, {}});
    point = std::prev(points.end());
  }
  point->values.insert(point->values.end(), values.begin(), values.end());
}

ScalingMeasurements parse_extra_p_text(std::string_view text, const std::string& source) {
  ScalingMeasurements result{source, "", {}, {}};
  std::vector<double> points;
  std::string callpath, metric;
  bool region_seen = false;
  ScalingSeries* current = nullptr;
  std::istringstream lines{std::string(text)};
  std::string raw;
  for (std::size_t number_of_line = 1; std::getline(lines, raw); ++number_of_line) {
    const std::string line = trimmed(raw);
    if (line.empty() || line.front() == '#') continue;
    const auto space = line.find_first_of(" \t");
    const std::string keyword = line.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : trimmed(line.substr(space));
    const std::string where = fmt::format("line {}", number_of_line);
    if (keyword == "PARAMETER") {
      const auto names = words(rest);
      if (names.empty()) throw InputError(source, where, "PARAMETER names no parameter");
      if (!result.parameter.empty() || names.size() > 1)
        throw InputError(source, where, "a second parameter: hetscale models one scale parameter (p, C or N)");
      result.parameter = names.front();
    } else if (keyword == "POINTS") {
      if (result.parameter.empty()) throw InputError(source, where, "POINTS before PARAMETER");
      std::string values = rest;
      const bool bracketed = values.find('(') != std::string::npos;
      for (char& c : values)
        if (c == '(' || c == ')') c = ' ';
      // "( 20 1 )" is a point of two parameters; without brackets each word is a point.
      if (bracketed) {
        std::size_t open = 0;
        while ((open = rest.find('(', open)) != std::string::npos) {
          const auto close = rest.find(')', open);
          if (close == std::string::npos) throw InputError(source, where, "'(' without ')'");
          if (words(rest.substr(open + 1, close - open - 1)).size() != 1)
            throw InputError(source, where,
                             fmt::format("point '{}' has more than one coordinate; hetscale models one scale parameter",
                                         rest.substr(open, close - open + 1)));
          open = close;
        }
      }
      for (const auto& word : words(values)) {
        const double x = scale(number(word, source, where + ", POINTS"), source, where + ", POINTS");
        if (std::find(points.begin(), points.end(), x) != points.end())
          throw InputError(source, where, fmt::format("point {} given twice; give each point once", word));
        points.push_back(x);
      }
    } else if (keyword == "REGION" || keyword == "METRIC") {
      if (keyword == "REGION") {
        if (rest.empty()) throw InputError(source, where, "REGION names no callpath");
        callpath = rest;
        region_seen = true;
      } else {
        metric = rest;
      }
      current = nullptr;
    } else if (keyword == "DATA") {
      if (!region_seen) throw InputError(source, where, "DATA before any REGION");
      if (points.empty()) throw InputError(source, where, "DATA before POINTS");
      if (current == nullptr) {
        for (const auto& series : result.series)
          if (series.callpath == callpath && series.metric == metric)
            throw InputError(source, where, fmt::format("region '{}' metric '{}' given twice", callpath, metric));
        result.series.push_back({callpath, metric, {}});
        current = &result.series.back();
      }
      if (current->points.size() == points.size())
        throw InputError(source, where, fmt::format("more DATA lines than the {} points", points.size()));
      ScalingMeasurement measurement{points[current->points.size()], {}};
      for (const auto& word : words(rest)) measurement.values.push_back(number(word, source, where + ", DATA"));
      if (measurement.values.empty()) throw InputError(source, where, "DATA without values");
      current->points.push_back(std::move(measurement));
    } else {
      throw InputError(source, where,
                       fmt::format("unknown keyword '{}'; Extra-P's text format has PARAMETER, POINTS, REGION, "
                                   "METRIC and DATA",
                                   keyword));
    }
  }
  if (result.parameter.empty()) throw InputError(source, "", "has no PARAMETER line");
  check_complete(result, points);
  return result;
}

ScalingMeasurements parse_extra_p_json_lines(std::string_view text, const std::string& source) {
  ScalingMeasurements result{source, "", {}, {}};
  std::vector<double> points;
  std::istringstream lines{std::string(text)};
  std::string raw;
  for (std::size_t number_of_line = 1; std::getline(lines, raw); ++number_of_line) {
    if (trimmed(raw).empty()) continue;
    const std::string where = fmt::format("line {}", number_of_line);
    nlohmann::json object;
    try {
      object = io::parse_json(raw, source);
    } catch (const InputError& error) {
      throw InputError(source, where, error.problem());
    }
    if (!object.is_object()) throw InputError(source, where, "is not a JSON object");
    const auto params = object.find("params");
    if (params == object.end() || !params->is_object() || params->size() != 1)
      throw InputError(source, where + ", params",
                       "must be an object with one parameter and its value, such as {\"p\": 4}; hetscale models one "
                       "scale parameter");
    const std::string name = params->begin().key();
    const nlohmann::json& coordinate = params->begin().value();
    if (result.parameter.empty()) result.parameter = name;
    if (name != result.parameter)
      throw InputError(source, where + ", params",
                       fmt::format("parameter '{}', the lines before say '{}'", name, result.parameter));
    if (!coordinate.is_number()) throw InputError(source, where + ", params." + name, "must be a number");
    const double x = scale(coordinate.get<double>(), source, where + ", params." + name);
    const auto text_field = [&](const char* key, const char* otherwise) {
      const auto found = object.find(key);
      if (found == object.end()) return std::string(otherwise);
      if (!found->is_string()) throw InputError(source, where + ", " + key, "must be a string");
      return found->get<std::string>();
    };
    const std::string callpath = text_field("callpath", "<root>"), metric = text_field("metric", "<default>");
    const auto value = object.find("value");
    if (value == object.end()) throw InputError(source, where + ", value", "is missing; a number or a list of numbers");
    std::vector<double> values;
    if (value->is_number())
      values.push_back(value->get<double>());
    else if (value->is_array() && !value->empty() &&
             std::all_of(value->begin(), value->end(), [](const auto& v) { return v.is_number(); }))
      for (const auto& v : *value) values.push_back(v.get<double>());
    else
      throw InputError(source, where + ", value", "must be a number or a list of numbers, not empty");

    if (std::find(points.begin(), points.end(), x) == points.end()) points.push_back(x);
    auto series = std::find_if(result.series.begin(), result.series.end(),
                               [&](const auto& s) { return s.callpath == callpath && s.metric == metric; });
    if (series == result.series.end()) {
      result.series.push_back({callpath, metric, {}});
      series = std::prev(result.series.end());
    }
    series->add(x, values);
  }
  check_complete(result, points);
  // Every series in the order of the file's points.
  for (auto& series : result.series) {
    std::vector<ScalingMeasurement> ordered;
    for (double x : points)
      ordered.push_back(
          *std::find_if(series.points.begin(), series.points.end(), [&](const auto& p) { return p.x == x; }));
    series.points = std::move(ordered);
  }
  return result;
}

ScalingMeasurements read_scaling_measurements(const std::string& path) {
  const std::string text = io::read_text_file(path);
  return io::looks_like_json(text) ? parse_extra_p_json_lines(text, path) : parse_extra_p_text(text, path);
}

std::string extra_p_json_lines(const ScalingMeasurements& measurements) {
  std::string text;
  for (const auto& series : measurements.series)
    for (const auto& point : series.points) {
      nlohmann::ordered_json line{{"params", {{measurements.parameter, point.x}}},
                                  {"callpath", series.callpath},
                                  {"metric", series.metric},
                                  {"value", point.values}};
      text += line.dump() + "\n";
    }
  return text;
}

std::string extra_p_text(const ScalingMeasurements& measurements) {
  if (measurements.series.empty()) throw std::invalid_argument("extra_p_text: no series to write");
  const auto& first = measurements.series.front().points;
  std::string text = fmt::format("PARAMETER {}\nPOINTS", measurements.parameter);
  for (const auto& point : first) text += fmt::format(" ( {} )", point.x);
  text += "\n";
  for (const auto& series : measurements.series) {
    if (series.points.size() != first.size() || !std::equal(series.points.begin(), series.points.end(), first.begin(),
                                                            [](const auto& a, const auto& b) { return a.x == b.x; }))
      throw std::invalid_argument(fmt::format("extra_p_text: series '{}' '{}' has other points than the first",
                                              series.callpath, series.metric));
    text += fmt::format("\nREGION {}\nMETRIC {}\n", series.callpath, series.metric);
    for (const auto& point : series.points) text += fmt::format("DATA {}\n", fmt::join(point.values, " "));
  }
  return text;
}

ScalingInputKind scaling_input_kind(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') return ScalingInputKind::extra_p;
  const auto whole = nlohmann::json::parse(text, nullptr, false);
  if (whole.is_discarded()) {
    // Several objects, one a line: Extra-P's JSON Lines.
    if (text.find('\n', first) != std::string::npos) return ScalingInputKind::extra_p;
    return ScalingInputKind::run;  // the run record's reader says what is wrong
  }
  const auto schema = whole.is_object() ? whole.find("schema") : whole.end();
  if (whole.is_object() && schema != whole.end() && *schema == "hetscale.sweep/1") return ScalingInputKind::sweep;
  if (whole.is_object() && !whole.contains("params")) return ScalingInputKind::run;
  return ScalingInputKind::extra_p;  // one line of JSON Lines
}

}  // namespace hetscale
