#pragma once
// Running another program (gnuplot, a launcher) as a child process: its
// standard input given, its standard output and error collected.
#include <string>
#include <string_view>
#include <vector>

namespace hetscale::io {

struct ProgramOutput {
  int exit_code = 0;        // the exit status, or 128 + the signal that ended it
  std::string output;       // standard output
  std::string errors;       // standard error
};

// Runs `arguments[0]` (looked up in PATH) with the other arguments, writes
// `input` to its standard input, and waits for it. Throws std::runtime_error
// naming the program if it cannot be started (not installed, say).
ProgramOutput run_program(const std::vector<std::string>& arguments, std::string_view input = {});

// Whether `program` is an executable on PATH (or a path to one).
bool program_available(const std::string& program);

}  // namespace hetscale::io
