#include "command_table.hpp"

#include <map>
#include <stdexcept>

#include <fmt/core.h>

namespace hetscale::cli {

struct Arguments::Value {
  OptionSpec spec;
  CLI::Option* option = nullptr;
  std::string text;
  std::vector<std::string> texts;
  std::size_t whole = 0;
  double number = 0.0;
  bool flag = false;
};

void Arguments::declare(CLI::App& command, const std::vector<OptionSpec>& options) {
  for (const auto& spec : options) {
    auto value = std::make_shared<Value>();
    value->spec = spec;
    const auto& initial = spec.default_value;
    switch (spec.kind) {
      case ValueKind::text:
        value->text = initial;
        value->option = command.add_option(spec.names, value->text, spec.help);
        break;
      case ValueKind::texts:
        value->option = command.add_option(spec.names, value->texts, spec.help);
        break;
      case ValueKind::whole:
        value->whole = initial.empty() ? 0 : std::stoull(initial);
        value->option = command.add_option(spec.names, value->whole, spec.help);
        break;
      case ValueKind::number:
        value->number = initial.empty() ? 0.0 : std::stod(initial);
        value->option = command.add_option(spec.names, value->number, spec.help);
        break;
      case ValueKind::flag:
        value->option = command.add_flag(spec.names, value->flag, spec.help);
        break;
    }
    if (spec.required) value->option->required();
    if (!spec.section.empty()) value->option->group(spec.section);
    values_.push_back(std::move(value));
  }
}

const Arguments::Value* Arguments::find(std::string_view name) const {
  for (const auto& value : values_)
    if (value->spec.key == name) return value.get();
  return nullptr;
}

const Arguments::Value& Arguments::value(std::string_view name) const {
  if (const auto* found = find(name)) return *found;
  throw std::logic_error(fmt::format("the command has no option {}", name));
}

namespace {
template <class Value>
const Value& checked(const Value& value, ValueKind kind) {
  if (value.spec.kind != kind) throw std::logic_error(fmt::format("{} asked as another type", value.spec.key));
  return value;
}
}  // namespace

const std::string& Arguments::text(std::string_view name) const { return checked(value(name), ValueKind::text).text; }
const std::vector<std::string>& Arguments::texts(std::string_view name) const {
  return checked(value(name), ValueKind::texts).texts;
}
std::size_t Arguments::whole(std::string_view name) const { return checked(value(name), ValueKind::whole).whole; }
double Arguments::number(std::string_view name) const { return checked(value(name), ValueKind::number).number; }
bool Arguments::flag(std::string_view name) const { return checked(value(name), ValueKind::flag).flag; }
bool Arguments::given(std::string_view name) const { return value(name).option->count() > 0; }
bool Arguments::has(std::string_view name) const { return find(name) != nullptr; }

std::string Arguments::first_given(const std::vector<std::string_view>& names) const {
  for (const auto name : names)
    if (given(name)) return std::string(name);
  return "";
}

std::vector<std::string> Arguments::as_given(std::initializer_list<std::string_view> left_out) const {
  std::vector<std::string> positionals, options;
  for (const auto& value : values_) {
    bool left = false;
    for (const auto name : left_out) left = left || value->spec.key == name;
    if (left || value->option->count() == 0) continue;
    const bool positional = value->spec.key.front() != '-';
    auto& into = positional ? positionals : options;
    if (!positional) into.push_back(value->spec.key);
    if (value->spec.kind != ValueKind::flag)
      for (const auto& result : value->option->results()) into.push_back(result);
  }
  positionals.insert(positionals.end(), options.begin(), options.end());
  return positionals;
}

CommandLine::CommandLine(CLI::App& app, std::vector<CommandSpec> table) : table_(std::move(table)) {
  std::map<std::string, CLI::App*> declared{{"", &app}};
  for (std::size_t i = 0; i < table_.size(); ++i) {
    const auto& spec = table_[i];
    const auto space = spec.path.rfind(' ');
    const std::string parent = space == std::string::npos ? "" : spec.path.substr(0, space);
    auto* command = declared.at(parent)->add_subcommand(spec.path.substr(space + 1), spec.about);
    declared[spec.path] = command;
    if (!spec.group.empty()) command->group(spec.group);
    if (!spec.footer.empty()) command->footer(spec.footer);
    if (!spec.run && !spec.mpi) command->require_subcommand(1);
    arguments_.push_back(std::make_unique<Arguments>());
    arguments_.back()->declare(*command, spec.options);
    if (spec.run || spec.mpi) command->callback([this, i] { chosen_ = i; });
  }
}

void CommandLine::check_rules() const {
  const auto& arguments = this->arguments();
  for (const auto& rule : chosen().rules) {
    const auto refused = arguments.first_given(rule.refused);
    if (refused.empty() || arguments.first_given(rule.others).empty() == rule.with) continue;
    std::string message = rule.message;  // {--kernel}: the value given
    for (const auto name : rule.others)
      if (const auto at = message.find(fmt::format("{{{}}}", name)); at != std::string::npos)
        message.replace(at, name.size() + 2, arguments.text(name));
    throw InputError(refused, "", message);
  }
}

}  // namespace hetscale::cli
