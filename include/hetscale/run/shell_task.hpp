#pragma once
// One task of a user's bag of tasks: a command run by /bin/sh -c in the
// current folder, in a process group of its own (so a timeout or a stop of the
// run ends it with its children), its standard input empty, its output to
// files or discarded.
#include <string>

namespace hetscale::run {

struct ShellTaskOptions {
  double timeout_seconds = 0.0;  // past this the task's process group is ended (SIGTERM, then SIGKILL); 0: none
  std::string output_path;       // its standard output (created or truncated); empty: discarded
  std::string error_path;        // its standard error; empty: discarded
};

struct ShellTaskOutcome {
  int exit_code = 0;         // the shell's exit status; 128 + the signal when a signal ended it
  int signal = 0;            // the signal that ended the shell, 0 if none
  bool timed_out = false;    // ended by the timeout
  bool interrupted = false;  // ended because the run was asked to stop (run/stop_signals.hpp)
  double cpu_seconds = 0.0;  // user + system time of the shell and the children it waited for
  std::string failure;       // why it could not be started (an output file, fork), else empty
  bool succeeded() const { return exit_code == 0 && signal == 0 && !timed_out && !interrupted && failure.empty(); }
};

// Runs `command` and waits for it (or for the timeout). Never throws for what
// the command does; a task that cannot be started is an outcome with
// `failure` set and exit code 127, as the shell reports a command not found.
ShellTaskOutcome run_shell_task(const std::string& command, const ShellTaskOptions& options = {});

}  // namespace hetscale::run
