#pragma once
// A user's bag of tasks: shell commands, one per task, numbered from 0 in the
// order given. Either a file of commands (GNU parallel's `parallel < FILE`), or
// a template whose {} each input line replaces (`parallel 'CMD {}' :::: FILE`).
// Pure: the callers read the files.
#include <string>
#include <string_view>
#include <vector>

namespace hetscale::run {

// The commands of a task file: one per line; blank lines and lines whose first
// non-blank character is # are skipped (a task's number counts commands only).
// Throws InputError naming `source` when there is no command.
std::vector<std::string> commands_from_task_file(std::string_view text, const std::string& source);

// `text` quoted for /bin/sh as one word: in single quotes, a ' as '\''.
std::string shell_quoted(std::string_view text);

// One command per input line: every {} of `command_template` replaced by the
// line, quoted for the shell (GNU parallel's convention), so an input with
// spaces or quotes stays one argument. Every line is an input, an empty one
// too, except the newline that ends the text. Throws InputError naming
// `template_option` when the template has no {}, and `inputs_source` when
// there is no input line.
std::vector<std::string> commands_from_template(const std::string& command_template, std::string_view inputs,
                                                const std::string& template_option, const std::string& inputs_source);

}  // namespace hetscale::run
