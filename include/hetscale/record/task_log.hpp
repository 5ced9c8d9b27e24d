#pragma once
// The job log of a task run (`hetscale farm --tasks ... --results LOG`), JSON
// Lines, schema hetscale.task-log/1 (docs/formats.md): a header line, then a
// line when a task is handed out and a line when it ends, each written whole
// and flushed to the file before the next task is handed out, so a run
// killed at any moment leaves a log `--resume` can continue from.
#include <cstddef>
#include <string>
#include <vector>

namespace hetscale {

enum class TaskOutcome {
  succeeded,  // exit code 0, no signal, no timeout
  retrying,   // failed, and will run again (--retries)
  failed,     // failed, and no attempt is left
  stopped,    // ended because the run was stopped (SIGINT, SIGTERM): runs again on --resume
};
std::string to_string(TaskOutcome outcome);

// A task handed out to a client.
struct TaskStart {
  std::size_t task = 0;     // its number in the list, from 0
  std::size_t attempt = 1;  // 1 for the first run, 2 for the first retry, ...
  std::size_t client = 0;   // the client (its MPI rank; 0: the server ran it alone)
  double time = 0.0;        // Unix time (seconds) it was handed out, on the server
};

// A task that ended.
struct TaskEnd {
  std::size_t task = 0;
  std::size_t attempt = 1;
  std::string command;
  std::size_t client = 0;
  std::string host;
  double start = 0.0, end = 0.0;  // Unix times (seconds) on the client
  int exit_code = 0;              // 128 + signal when a signal ended it
  int signal = 0;
  bool timed_out = false;
  double cpu_seconds = 0.0;  // user + system time of the task
  TaskOutcome outcome = TaskOutcome::succeeded;
};

// The lines, each with its newline. The header names the clients' speeds
// when they were given (--speeds; empty: none), for a replay.
std::string task_log_header_line(std::size_t tasks, const std::vector<double>& speeds = {});
std::string task_log_line(const TaskStart& start);
std::string task_log_line(const TaskEnd& end);

// What a log says of each task of a list, for --resume.
struct TaskLogState {
  std::vector<TaskEnd> ends;             // every end line, in the log's order
  std::vector<std::size_t> attempts;     // per task: attempts begun so far
  std::vector<bool> done;                // per task: its last end is final (succeeded or failed)
  std::vector<std::size_t> in_flight;    // tasks running when the run stopped (never ended, or ended `stopped`)
  bool cut_last_line = false;            // the last line was cut short (ignored)
};

// Reads the log `path` of a run of `commands`. Throws InputError naming the
// file, the line and the field when a line is not the log's JSON, or when the
// log belongs to another task list (another count, or a task's command not
// the list's).
TaskLogState read_task_log(const std::string& path, const std::vector<std::string>& commands);

// A job log's tasks as a simulation replays them (`simulate farm
// --tasks-from`): each task's last attempt, its time on its client times the
// client's speed (the header's speeds; 1 when it has none): its seconds on a
// node of speed 1. In task order; tasks that never ended are left out.
struct TaskLogReplay {
  std::vector<double> task_seconds;
  std::vector<std::size_t> tasks;   // their numbers
  std::size_t tasks_in_list = 0;    // the header's
  std::vector<double> speeds;       // the header's (empty: none given)
  double makespan = 0.0;            // the first start to the last end, over the attempts replayed
};
// Throws InputError naming the file, line and field of a bad line, or when no task ended.
TaskLogReplay read_task_log_for_replay(const std::string& path);

// Appends lines to a job log, each in one write(2) with no buffer of its own,
// so the file holds every line written once write_line returns.
class TaskLogWriter {
 public:
  // Opens `path`, emptied unless `append`; appending, a last line cut short
  // (a run killed mid-write) is dropped first. Throws InputError naming
  // `option` when it cannot be opened.
  TaskLogWriter(const std::string& path, bool append, const std::string& option);
  ~TaskLogWriter();
  TaskLogWriter(const TaskLogWriter&) = delete;
  TaskLogWriter& operator=(const TaskLogWriter&) = delete;
  // Whether the file was empty when opened (a header is due).
  bool was_empty() const { return was_empty_; }
  // Throws std::runtime_error when the line cannot be written whole.
  void write_line(const std::string& line);

 private:
  void drop_cut_last_line(long long size);
  std::string path_;
  int fd_ = -1;
  bool was_empty_ = true;
};

}  // namespace hetscale
