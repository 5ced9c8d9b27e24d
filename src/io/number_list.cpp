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
  if (end != item.c_str() + item.size())
    throw InputError(source, field, fmt::format("'{}' is not a number", item));
  if (!std::isfinite(value))
    throw InputError(source, field, fmt::format("'{}' is not a finite number", item));
  if (errno == ERANGE)
    throw InputError(source, field, fmt::format("'{}' is out of the range of a double", item));
  return value;
}

}  // namespace

std::vector<double> parse_number_list(const std::string& text, const std::string& option) {
  const bool from_file = !text.empty() && text.front() == '@';
  const std::string source = from_file ? text.substr(1) : option;
  const std::string content = from_file ? strip_comments(read_text_file(source)) : text;

  // Items are separated by commas; inside an item, white space separates
  // items too (one number a line in a file). An empty item is an error.
  std::vector<double> values;
  std::size_t begin = 0;
  while (begin <= content.size()) {
    std::size_t comma = content.find(',', begin);
    if (comma == std::string::npos) comma = content.size();
    const std::string piece = content.substr(begin, comma - begin);
    std::size_t words = 0, at = 0;
    while (true) {
      at = piece.find_first_not_of(" \t\r\n", at);
      if (at == std::string::npos) break;
      const std::size_t stop = std::min(piece.find_first_of(" \t\r\n", at), piece.size());
      values.push_back(parse_item(piece.substr(at, stop - at), source, values.size()));
      ++words;
      at = stop;
    }
    const bool lone = comma == content.size() && begin == 0;
    if (words == 0 && !lone) values.push_back(parse_item("", source, values.size()));
    begin = comma + 1;
  }
  if (values.empty()) throw InputError(source, "", "no numbers given");
  return values;
}

}  // namespace hetscale::io
