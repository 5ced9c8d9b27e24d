#pragma once
// hetscale's commands as data: commands.list names each command, what it
// answers and its options; scripts/generate-cli-commands turns the list into
// command_table(), and CommandLine declares it to CLI11. A command's function
// (run_<path>, in its command file) gets the values as Arguments.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace hetscale::cli {

enum class ValueKind { text, texts, whole, number, flag };

struct OptionSpec {
  std::string names;  // "--at", "-D,--define", "inputs"
  std::string key;    // the name Arguments knows it by: its first long name, or the positional's
  ValueKind kind = ValueKind::text;
  bool required = false;
  std::string default_value;  // when not given ("": none)
  std::string help;
  std::string section;  // the heading it is listed under ("": Options)
};

// Options that do not go together: any of `refused` given with any of
// `others` (with), or with none of them (!with), is bad input naming the
// first of `refused` given, with `message`.
struct OptionRule {
  std::vector<std::string_view> refused;
  bool with = true;
  std::vector<std::string_view> others;
  std::string message;
};

struct CommandSpec {
  std::string path;   // "scale sweep"
  std::string group;  // the heading a top-level command is listed under
  std::string about, footer;
  Output (*run)(const Arguments&) = nullptr;              // an ordinary command
  int (*mpi)(const Arguments&, int&, char**&) = nullptr;  // run on every rank; none: it has subcommands
  std::vector<OptionSpec> options;
  std::vector<OptionRule> rules;
};

// The commands of commands.list (generated), and what `hetscale` alone prints.
std::vector<CommandSpec> command_table();
std::string first_commands();

// The commands declared on `app` in the table's order, each with its
// options; after parsing, the one the command line chose.
class CommandLine {
 public:
  CommandLine(CLI::App& app, std::vector<CommandSpec> table);
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;
  const CommandSpec& chosen() const { return table_.at(chosen_); }
  const Arguments& arguments() const { return *arguments_.at(chosen_); }
  // The chosen command's rules, in order: InputError for the first broken.
  void check_rules() const;

 private:
  std::vector<CommandSpec> table_;
  std::vector<std::unique_ptr<Arguments>> arguments_;
  std::size_t chosen_ = 0;
};

}  // namespace hetscale::cli
