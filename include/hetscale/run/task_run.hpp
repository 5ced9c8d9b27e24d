#pragma once
// A run of the user's shell commands on the farm (`hetscale farm --tasks |
// --command`, docs/tasks.md), the parts that are not the transport: the plan
// rank 0 makes before any task runs (the list, what the job log says is done,
// the log opened) and the journal it keeps while they run (a start and an end
// line per attempt, and on a stop a `stopped` line for each attempt cut short),
// and the run itself.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/io/progress.hpp"
#include "hetscale/record/task_log.hpp"
#include "hetscale/run/task_farm.hpp"

namespace hetscale::run {

// What the user asked: the tasks as a file of commands, or a template with a
// file of inputs; the job log, resumed or not; a folder for the outputs.
struct TaskRunRequest {
  std::string tasks, command, inputs, results, output_dir;
  bool resume = false;
};

struct TaskRunPlan {
  std::vector<std::string> commands;
  std::string source;                        // the task file, or the template and the inputs
  std::vector<std::size_t> to_run;           // task numbers not yet done
  std::vector<std::size_t> attempts_before;  // per task, attempts in the log resumed
  std::size_t done_before = 0, failed_before = 0;
  std::vector<std::size_t> in_flight;  // running when the resumed run stopped: they run again
  std::unique_ptr<TaskLogWriter> log;  // with --results
};

// Reads the tasks and, to resume, the log; makes the output folder (as
// mkdir -p) and opens the log, its header written when it is new. Throws
// InputError naming a file and its field, or the request's field
// ("command", "results", "output-dir").
TaskRunPlan plan_task_run(const TaskRunRequest& request, const std::vector<double>& speeds);

// The job log kept while the tasks run (a no-op without one), and the
// attempts running now.
class TaskRunJournal {
 public:
  explicit TaskRunJournal(TaskRunPlan& plan) : plan_(plan) {}
  void started(const Task& task, std::size_t attempt, std::size_t client, double time);
  // The end line of an attempt (written); its attempt counts those of the log resumed.
  TaskEnd ended(const TaskReport& report, bool will_retry);
  // The tasks whose attempt is running, in order.
  std::vector<std::size_t> running() const;
  // The run stopped at `now`: a `stopped` end line (SIGTERM, as the task
  // got it) for every attempt running.
  void stopped(double now, const std::function<std::string(std::size_t client)>& host_of);

 private:
  TaskRunPlan& plan_;
  std::map<std::size_t, TaskStart> running_;  // by task
};

// How the tasks of a plan run, beside the farm's settings.
struct TaskRunSettings {
  double timeout_seconds = 0.0;  // a task's process group ended past it (SIGTERM, then SIGKILL); 0: none
  std::string output_dir;        // each task's output kept as DIR/N.out and DIR/N.err; empty: discarded
  std::string job_log;           // the job log's path, for what is said and the record (empty: none kept)
  std::string how_to_resume;     // said when the run stops: how to run the tasks not done
  std::string label;             // the run record's; empty: "K tasks of SOURCE"
  std::string mpi_library;       // for the record's context
  io::ProgressOutput progress = io::ProgressOutput::automatic;
  // A line (with its newline) for the user on rank 0: a task failed, the run
  // resumes, the run stopped. Said in one write.
  std::function<void(const std::string& line)> say;
};

struct TaskRunOutcome {
  RunRecord record;  // each client's tasks and busy time, the server beside, the farm's context
  std::size_t tasks_run = 0, failed = 0, retried = 0;
};

// Runs the plan's tasks on the farm, on every rank (MPI initialised): the
// clients run each as /bin/sh -c COMMAND in a process group of its own;
// rank 0 keeps the journal and returns the outcome, the others nothing. A
// stop (SIGINT, SIGTERM with farm.stop_on_signals) is said and journalled,
// then run::Stopped is thrown on every rank.
std::optional<TaskRunOutcome> run_tasks(TaskRunPlan& plan, const FarmSettings& farm, const TaskRunSettings& settings,
                                        int ranks);

// The exit code of a task run: how many tasks failed, as GNU parallel says it
// (101 for more than 100).
int exit_code_for_failures(std::size_t failed);

// A task run's summary line: the policy, clients, tasks run (and done
// before), how many succeeded and failed, t_par, and where the job log and
// the run record were written (`job_log`, `out`: "" none).
std::string task_run_summary(const TaskRunOutcome& outcome, const TaskRunPlan& plan, distribute::PolicyKind policy,
                             int ranks, const std::string& job_log, const std::string& out);

}  // namespace hetscale::run
