#include "hetscale/io/number_list.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"

namespace hetscale::io {
namespace {

std::string strip_comments(const std::string& text) {
  std::string kept;
  bool in_comment = false;
  for (char c : text) {
    if (c == '#') in_comment = true;
    if (c == '\n') in_comment = false;
    kept += in_comment ? ' ' : c;
  }
  return kept;
}

double parse_item(const std::string& item, const std::string& source, std::size_t index) {
  const std::string field = fmt::format("item {}", index + 1);
  if (item.empty()) throw InputError(source, field, "is empty; expected a number");
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(item.c_str(), &end);
  if (end != item.c_str() + item.size()) throw InputError(source, field, fmt::format("'{}' is not a number", item));
  if (!std::isfinite(value)) throw InputError(source, field, fmt::format("'{}' is not a finite number", item));
  if (errno == ERANGE) throw InputError(source, field, fmt::format("'{}' is out of the range of a double", item));
  return value;
}

}  // namespace

std::vector<std::string_view> split_at(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  for (;;) {
    const auto end = text.find(separator);
    pieces.push_back(text.substr(0, end));
    if (end == std::string_view::npos) return pieces;
    text.remove_prefix(end + 1);
  }
}

std::vector<std::string> split_names(std::string_view text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  for (;;) {
    const auto end = text.find_first_of(", \t\n\r", start);
    if (const auto name = text.substr(start, end - start); !name.empty()) names.emplace_back(name);
    if (end == std::string_view::npos) return names;
    start = end + 1;
  }
}

std::vector<double> parse_number_list(const std::string& text, const std::string& option) {
  const bool from_file = !text.empty() && text.front() == '@';
  const std::string source = from_file ? text.substr(1) : option;
  const std::string content = from_file ? strip_comments(read_text_file(source)) : text;

  // Items are separated by commas; inside an item, white space separates
  // items too (one number a line in a file). An empty item is an error.
  std::vector<double> values;
  const auto pieces = split_at(content, ',');
  for (const std::string_view piece : pieces) {
    std::size_t words = 0, at = 0;
    while (true) {
      at = piece.find_first_not_of(" \t\r\n", at);
      if (at == std::string_view::npos) break;
      const std::size_t stop = std::min(piece.find_first_of(" \t\r\n", at), piece.size());
      values.push_back(parse_item(std::string(piece.substr(at, stop - at)), source, values.size()));
      ++words;
      at = stop;
    }
    if (words == 0 && pieces.size() > 1) values.push_back(parse_item("", source, values.size()));
  }
  if (values.empty()) throw InputError(source, "", "no numbers given");
  return values;
}

std::vector<double> parse_positive_list(const std::string& text, const std::string& option) {
  auto values = parse_number_list(text, option);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] <= 0.0)
      throw InputError(option, fmt::format("item {}", i + 1), fmt::format("must be > 0, got {:g}", values[i]));
  return values;
}

std::vector<std::size_t> parse_size_list(const std::string& text, const std::string& option) {
  std::vector<double> values;
  if (text.find(':') != std::string::npos && text.front() != '@') {
    std::vector<double> parts;
    for (const std::string_view part : split_at(text, ':'))
      parts.push_back(parse_item(std::string(part), option, parts.size()));
    if (parts.size() != 3) throw InputError(option, "", fmt::format("'{}' is not a range first:last:step", text));
    if (parts[2] <= 0.0) throw InputError(option, "step", fmt::format("must be > 0, got {:g}", parts[2]));
    if (parts[1] < parts[0]) throw InputError(option, "", fmt::format("range '{}' ends before it begins", text));
    const double steps = std::floor((parts[1] - parts[0]) / parts[2] + 1e-9);
    if (steps >= 1e5) throw InputError(option, "", "range has more than 100000 sizes");
    // first + i * step, not a running sum: a step below the first size's
    // precision (1e300:1e300:1e-300) would never reach the end.
    for (double i = 0; i <= steps; ++i) values.push_back(parts[0] + i * parts[2]);
  } else {
    values = parse_number_list(text, option);
  }
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 1.0 || values[i] != std::floor(values[i]) || values[i] > 1e12)
      throw InputError(option, fmt::format("item {}", i + 1),
                       fmt::format("must be a whole number >= 1, got {:g}", values[i]));
    if (i > 0 && values[i] <= values[i - 1])
      throw InputError(option, fmt::format("item {}", i + 1),
                       fmt::format("sizes must increase, got {:g} after {:g}", values[i], values[i - 1]));
    sizes.push_back(static_cast<std::size_t>(values[i]));
  }
  return sizes;
}

double parse_one_number(const std::string& text, const std::string& option) {
  const auto values = parse_number_list(text, option);
  if (values.size() != 1) throw InputError(option, "", fmt::format("expects one number, got {}", values.size()));
  return values.front();
}

std::size_t parse_count(const std::string& text, const std::string& option) {
  const double value = parse_one_number(text, option);
  if (value < 1.0 || value != std::floor(value) || value > 1e9)
    throw InputError(option, "", fmt::format("must be a whole number >= 1, got {:g}", value));
  return static_cast<std::size_t>(value);
}

std::vector<double> parse_per_rank_speeds(const std::string& text, const std::string& option, int ranks) {
  if (text.empty()) return {};
  auto speeds = parse_positive_list(text, option);
  if (speeds.size() != static_cast<std::size_t>(ranks))
    throw InputError(option, "", fmt::format("{} speeds for {} ranks: give one per rank", speeds.size(), ranks));
  return speeds;
}

std::vector<double> parse_emulated_speeds(const std::string& text, const std::string& option, int ranks) {
  auto speeds = parse_per_rank_speeds(text, option, ranks);
  for (const double speed : speeds)
    if (speed > 1.0) throw InputError(option, "", fmt::format("must be in (0, 1], got {}", speed));
  return speeds;
}

std::pair<double, double> parse_range(const std::string& text, const std::string& option) {
  const auto colon = text.find(':', 1);  // a lower bound may start with '-'
  if (colon == std::string::npos)
    throw InputError(option, "", fmt::format("must be LOWER:UPPER, such as -5.12:5.12, got '{}'", text));
  return {parse_one_number(text.substr(0, colon), option), parse_one_number(text.substr(colon + 1), option)};
}

}  // namespace hetscale::io
