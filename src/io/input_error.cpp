#include "hetscale/io/input_error.hpp"

namespace hetscale {
namespace {

std::string one_line(std::string source, const std::string& field, const std::string& problem) {
  std::string line = std::move(source);
  if (!field.empty()) line += ": " + field;
  line += ": " + problem;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  return line;
}

}  // namespace

InputError::InputError(std::string source, std::string field, std::string problem)
    : std::invalid_argument(one_line(source, field, problem)),
      source_(std::move(source)),
      field_(std::move(field)),
      problem_(std::move(problem)) {}

}  // namespace hetscale
