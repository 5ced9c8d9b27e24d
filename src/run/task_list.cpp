#include "hetscale/run/task_list.hpp"

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"

namespace hetscale::run {
namespace {

// The lines of `text`, without their newlines (and a \r before one); the
// newline that ends the text starts no line.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    auto line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

constexpr std::string_view placeholder = "{}";

}  // namespace

std::vector<std::string> commands_from_task_file(std::string_view text, const std::string& source) {
  std::vector<std::string> commands;
  for (const auto line : lines_of(text)) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    commands.emplace_back(line);
  }
  if (commands.empty())
    throw InputError(source, "", "has no task: give one shell command per line (blank lines and # comments are skipped)");
  return commands;
}

std::string shell_quoted(std::string_view text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  return quoted + "'";
}

std::vector<std::string> commands_from_template(const std::string& command_template, std::string_view inputs,
                                                const std::string& template_option, const std::string& inputs_source) {
  if (command_template.find(placeholder) == std::string::npos)
    throw InputError(template_option, "",
                     fmt::format("'{}' has no {{}}: each input line replaces {{}} in the command", command_template));
  const auto lines = lines_of(inputs);
  if (lines.empty()) throw InputError(inputs_source, "", "has no input line: give one input per line");
  std::vector<std::string> commands;
  commands.reserve(lines.size());
  for (const auto line : lines) {
    const std::string argument = shell_quoted(line);
    std::string command;
    std::size_t from = 0;
    for (auto at = command_template.find(placeholder); at != std::string::npos;
         from = at + placeholder.size(), at = command_template.find(placeholder, from))
      command.append(command_template, from, at - from).append(argument);
    command.append(command_template, from);
    commands.push_back(std::move(command));
  }
  return commands;
}

}  // namespace hetscale::run
