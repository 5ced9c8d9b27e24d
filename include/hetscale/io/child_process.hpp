#pragma once
// Running another program (gnuplot, a launcher) as a child process: its
// standard input given, its standard output and error collected.
#include <stdexcept>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hetscale::io {

// A program hetscale needs cannot be run here (not installed, say): a fault
// of the machine's set-up, neither bad input nor a bug of hetscale.
class ProgramUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ProgramOutput {
  int exit_code = 0;   // the exit status, or 128 + the signal that ended it
  std::string output;  // standard output
  std::string errors;  // standard error
};

// Runs `arguments[0]` (looked up in PATH) with the other arguments, writes
// `input` to its standard input, and waits for it. Throws ProgramUnavailable
// naming the program if it cannot be started (not installed, say), and
// std::runtime_error if the pipes to it cannot be made.
ProgramOutput run_program(const std::vector<std::string>& arguments, std::string_view input = {});

// `program` as execvp would run it: itself when it holds a '/', else the
// first executable of that name in PATH (an empty folder in PATH is the
// current one); nullopt when there is none.
std::optional<std::string> program_path(const std::string& program);
// Whether `program` is an executable on PATH (or a path to one).
bool program_available(const std::string& program);

}  // namespace hetscale::io
