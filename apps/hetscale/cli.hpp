#pragma once
// What every command file shares: the values a command was given (Arguments,
// as commands.list declares them), how it reports its output and exit code,
// and the library's setting names said as options.
#include <cstddef>
#include <functional>
#include <memory>
#include <type_traits>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "hetscale/io/input_error.hpp"
#include "hetscale/io/launcher.hpp"
#include "hetscale/io/number_list.hpp"

namespace hetscale::cli {

// What a command prints on stdout, and its exit code.
struct Output {
  std::string text;
  int code = 0;
};

// The values a command was given, by option name ("--at", "--define" for
// -D,--define, "inputs" for a positional), as commands.list declares them:
// each the value given, else the list's default, else empty, 0 or false.
// Asking for a name the command lacks, or as another type, is a bug
// (std::logic_error).
class Arguments {
 public:
  const std::string& text(std::string_view name) const;
  const std::vector<std::string>& texts(std::string_view name) const;
  std::size_t whole(std::string_view name) const;
  double number(std::string_view name) const;
  bool flag(std::string_view name) const;
  bool given(std::string_view name) const;
  // Whether the command has the option at all (the simulator's kernels lack
  // the ranks' speeds).
  bool has(std::string_view name) const;
  // The first of `names` given on the command line; empty if none was.
  std::string first_given(const std::vector<std::string_view>& names) const;
  // `into` set to the value when it was given, else left as it is (the
  // library's default).
  template <class T>
  void take(std::string_view name, T& into) const {
    if (!given(name)) return;
    if constexpr (std::is_same_v<T, std::string>)
      into = text(name);
    else if constexpr (std::is_floating_point_v<T>)
      into = number(name);
    else
      into = static_cast<T>(whole(name));
  }
  // The arguments that give this command the same values again (positionals
  // first), but those of `left_out`: what hetscale-smpi is handed.
  std::vector<std::string> as_given(std::initializer_list<std::string_view> left_out = {}) const;

  // Declares `options` on `command`, their values held here.
  void declare(CLI::App& command, const std::vector<struct OptionSpec>& options);

 private:
  struct Value;
  const Value* find(std::string_view name) const;  // none when the command lacks it
  const Value& value(std::string_view name) const;
  std::vector<std::shared_ptr<Value>> values_;
};

// The ending of a command that makes a document: `json` written to `out`
// (atomically) when it is given, and shown: itself with --json
// (`print_json`), else the text `text` makes.
Output written_and_shown(const std::string& json, const std::string& out, bool print_json,
                         const std::function<std::string()>& text);
// An output printed on stdout (an MPI command's rank 0); its exit code.
int print(const Output& output);

// A setting as the library names it ("speeds") and the option that gives it:
// the same word after "--" unless named ({"size", "--sizes"}).
struct OptionName {
  OptionName(const char* field, const char* option = "") : field(field), option(option) {}
  std::string_view field, option;
};

// Runs `call`. The library names a setting by its field ("speeds"); an
// InputError whose source is one of `fields` is said again naming its
// option (--speeds), so that no option's name is spelled in the library.
template <class Call>
auto with_options_named(std::initializer_list<OptionName> fields, Call call) -> decltype(call()) {
  try {
    return call();
  } catch (const InputError& error) {
    for (const auto& field : fields)
      if (error.source() == field.field)
        throw InputError(field.option.empty() ? "--" + error.source() : std::string(field.option), error.field(),
                         error.problem());
    throw;
  }
}

// A name turned into its value; a name the library does not know is bad
// input to `option`.
template <class FromString>
auto named_choice(FromString from_string, const std::string& name, const std::string& option) {
  try {
    return from_string(name);
  } catch (const std::invalid_argument& error) {
    throw InputError(option, "", error.what());
  }
}

// The folder of examples/ and data/: HETSCALE_HOME if set, else an installed
// hetscale's share/hetscale, else the project folder it was built from.
std::string home_dir();

// A program or library hetscale runs (libhetscale_measure.so, hetscale-smpi):
// an installed hetscale's copy in lib/hetscale, else `built` (empty: beside this executable).
std::string helper_path(const std::string& name, const std::string& built = "");

}  // namespace hetscale::cli
