#pragma once
// Stopping a run of tasks the way GNU parallel stops: SIGINT or SIGTERM (what
// mpiexec sends every rank when it is itself interrupted) ends every running
// task's process group at once, from the signal handler, since the launcher
// kills the ranks a moment later and a task in a process group of its own
// would outlive them; the farm then notices the stop and ends the run.
#include <sys/types.h>

#include <stdexcept>

namespace hetscale::run {

// While one lives, SIGINT and SIGTERM ask for a stop instead of ending the
// process; the handlers before it come back when it ends. One at a time.
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;
};

// The signal that asked for a stop while a StopOnSignals lives; 0 while none
// did, and once it has gone.
int stop_signal();

// The process groups of the tasks running here: the handler sends each
// SIGTERM. A task's runner adds its group when the task starts and removes it
// when the task has ended (at most 64 at once; more are not tracked).
void add_task_group(pid_t group);
void remove_task_group(pid_t group);

// Thrown where a run notices the stop (between tasks, or waiting for a message).
class Stopped : public std::runtime_error {
 public:
  explicit Stopped(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};
// Throws Stopped when a stop was asked.
void throw_if_stopped();

}  // namespace hetscale::run
