#include "hetscale/record/task_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/file_kinds.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "json_fields.hpp"

namespace hetscale {
namespace {

constexpr std::string_view schema = "hetscale.task-log/1";

const char* outcome_names[] = {"succeeded", "retrying", "failed", "stopped"};

std::optional<TaskOutcome> outcome_from(const std::string& name) {
  for (std::size_t i = 0; i < std::size(outcome_names); ++i)
    if (name == outcome_names[i]) return static_cast<TaskOutcome>(i);
  return std::nullopt;
}

std::string line_of(const nlohmann::ordered_json& object) { return object.dump() + "\n"; }

// One line of the log, read with its place named in every complaint.
class LogLine {
 public:
  LogLine(const std::string& path, std::size_t number, const nlohmann::json& object)
      : path_(path), number_(number), object_(object) {}

  template <class T>
  T required(const char* key, std::string_view what) const {
    const auto value = record_json::get<T>(object_, key);
    if (!value) throw error(key, fmt::format("must be {}", what));
    return *value;
  }
  bool has(const char* key) const { return object_.contains(key); }
  const nlohmann::json& object() const { return object_; }
  InputError error(const char* key, const std::string& problem) const {
    return InputError(path_, fmt::format("line {}: {}", number_, key), problem);
  }

 private:
  const std::string& path_;
  std::size_t number_;
  const nlohmann::json& object_;
};

// Calls `visit(line)` with each line of the job log at `path` but blank ones,
// in order. A last line that is not JSON was cut short by a stop: it is left
// out, and the result says so. Any other line that is not a JSON object is
// an InputError naming the file and the line.
template <class Visit>
bool for_each_log_line(const std::string& path, Visit&& visit) {
  const std::string text = io::read_text_file(path);
  std::size_t number = 0;
  for (std::size_t from = 0; from < text.size();) {
    const auto newline = text.find('\n', from);
    const bool last = newline == std::string::npos;
    const std::string_view raw(text.data() + from, (last ? text.size() : newline) - from);
    from = last ? text.size() : newline + 1;
    ++number;
    if (raw.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(raw);
    } catch (const nlohmann::json::exception&) {
      if (last) return true;
      throw InputError(path, fmt::format("line {}", number), "is not JSON: a job log holds one JSON object per line");
    }
    if (!object.is_object()) throw InputError(path, fmt::format("line {}", number), "must be a JSON object");
    visit(LogLine(path, number, object));
  }
  return false;
}

// The header's task count; the line must be the header.
std::size_t header_tasks(const LogLine& line) {
  if (const auto given = record_json::get<std::string>(line.object(), "schema").value_or("");
      given != std::string(schema))
    throw line.error("schema", io::file_kind(given) ? io::wrong_kind(given, schema)
                                                    : fmt::format("must be \"{}\": this is not a job log of hetscale "
                                                                  "farm --tasks",
                                                                  schema));
  return line.required<std::size_t>("tasks", "a whole number of tasks");
}

}  // namespace

std::string to_string(TaskOutcome outcome) { return outcome_names[static_cast<std::size_t>(outcome)]; }

std::string task_log_header_line(std::size_t tasks, const std::vector<double>& speeds) {
  nlohmann::ordered_json header;
  header["schema"] = schema;
  header["tasks"] = tasks;
  if (!speeds.empty()) header["speeds"] = speeds;
  return line_of(header);
}

std::string task_log_line(const TaskStart& start) {
  nlohmann::ordered_json line;
  line["event"] = "start";
  line["task"] = start.task;
  line["attempt"] = start.attempt;
  line["client"] = start.client;
  line["time"] = start.time;
  return line_of(line);
}

std::string task_log_line(const TaskEnd& end) {
  nlohmann::ordered_json line;
  line["event"] = "end";
  line["task"] = end.task;
  line["attempt"] = end.attempt;
  line["command"] = end.command;
  line["client"] = end.client;
  line["host"] = end.host;
  line["start"] = end.start;
  line["end"] = end.end;
  line["exit_code"] = end.exit_code;
  line["signal"] = end.signal;
  line["timed_out"] = end.timed_out;
  line["cpu_s"] = end.cpu_seconds;
  line["outcome"] = to_string(end.outcome);
  return line_of(line);
}

TaskLogState read_task_log(const std::string& path, const std::vector<std::string>& commands) {
  TaskLogState state;
  state.attempts.assign(commands.size(), 0);
  state.done.assign(commands.size(), false);
  std::vector<bool> running(commands.size(), false);
  bool header_seen = false;
  state.cut_last_line = for_each_log_line(path, [&](const LogLine& line) {
    if (!header_seen) {
      const auto tasks = header_tasks(line);
      if (tasks != commands.size())
        throw line.error("tasks", fmt::format("is {}, but the task list has {} tasks: the log belongs to another "
                                              "task list",
                                              tasks, commands.size()));
      header_seen = true;
      return;
    }
    const auto event = line.required<std::string>("event", "\"start\" or \"end\"");
    const auto task = line.required<std::size_t>("task", "a task number");
    if (task >= commands.size())
      throw line.error("task", fmt::format("is {}, but the task list has {} tasks (0 to {}): the log belongs to "
                                           "another task list",
                                           task, commands.size(), commands.size() - 1));
    const auto attempt = line.required<std::size_t>("attempt", "a whole number >= 1");
    if (attempt == 0) throw line.error("attempt", "must be >= 1, got 0");
    if (event == "start") {
      line.required<std::size_t>("client", "a client number");
      line.required<double>("time", "a Unix time in seconds");
      state.attempts[task] = std::max(state.attempts[task], attempt);
      running[task] = true;
      return;
    }
    if (event != "end") throw line.error("event", fmt::format("must be \"start\" or \"end\", got \"{}\"", event));
    TaskEnd end;
    end.task = task;
    end.attempt = attempt;
    end.command = line.required<std::string>("command", "the task's command (a string)");
    if (end.command != commands[task])
      throw line.error("command", fmt::format("\"{}\" is not task {}'s command in this list (\"{}\"): the log belongs "
                                              "to another task list",
                                              end.command, task, commands[task]));
    end.client = line.required<std::size_t>("client", "a client number");
    end.host = line.required<std::string>("host", "a host name");
    end.start = line.required<double>("start", "a Unix time in seconds");
    end.end = line.required<double>("end", "a Unix time in seconds");
    end.exit_code = line.required<int>("exit_code", "a whole number");
    end.signal = line.required<int>("signal", "a whole number");
    end.timed_out = line.required<bool>("timed_out", "true or false");
    end.cpu_seconds = line.required<double>("cpu_s", "seconds");
    const auto outcome = outcome_from(line.required<std::string>("outcome", "a string"));
    if (!outcome) throw line.error("outcome", "must be \"succeeded\", \"retrying\", \"failed\" or \"stopped\"");
    end.outcome = *outcome;
    state.attempts[task] = std::max(state.attempts[task], attempt);
    state.done[task] = end.outcome == TaskOutcome::succeeded || end.outcome == TaskOutcome::failed;
    running[task] = end.outcome == TaskOutcome::stopped;  // it runs again
    state.ends.push_back(std::move(end));
  });
  if (!header_seen)
    throw InputError(path, "line 1", fmt::format("must be the header {{\"schema\": \"{}\", \"tasks\": N}}", schema));
  for (std::size_t task = 0; task < running.size(); ++task)
    if (running[task]) state.in_flight.push_back(task);
  return state;
}

TaskLogReplay read_task_log_for_replay(const std::string& path) {
  TaskLogReplay replay;
  std::vector<std::optional<std::pair<double, double>>> last_attempt;  // per task: start and end
  std::vector<std::size_t> client_of;
  bool header_seen = false;
  for_each_log_line(path, [&](const LogLine& line) {
    if (!header_seen) {
      replay.tasks_in_list = header_tasks(line);
      if (line.has("speeds")) {
        replay.speeds = line.required<std::vector<double>>("speeds", "a list of the clients' speeds");
        for (const double speed : replay.speeds)
          if (!std::isfinite(speed) || speed <= 0.0) throw line.error("speeds", "must all be numbers > 0");
      }
      last_attempt.assign(replay.tasks_in_list, std::nullopt);
      client_of.assign(replay.tasks_in_list, 0);
      header_seen = true;
      return;
    }
    if (line.required<std::string>("event", "\"start\" or \"end\"") != "end") return;
    const auto task = line.required<std::size_t>("task", "a task number");
    if (task >= replay.tasks_in_list)
      throw line.error("task", fmt::format("is {}, but the header says {} tasks", task, replay.tasks_in_list));
    const auto client = line.required<std::size_t>("client", "a client number");
    const double start = line.required<double>("start", "a Unix time in seconds");
    const double end = line.required<double>("end", "a Unix time in seconds");
    if (!(end >= start)) throw line.error("end", fmt::format("{} is before the start {}", end, start));
    // An attempt a stop cut short says nothing of the task's cost.
    if (line.has("outcome") && line.required<std::string>("outcome", "a string") == "stopped") return;
    if (!replay.speeds.empty() && client > replay.speeds.size())
      throw line.error("client", fmt::format("is {}, but the header gives {} speeds", client, replay.speeds.size()));
    last_attempt[task] = std::pair{start, end};
    client_of[task] = client;
  });
  if (!header_seen) throw InputError(path, "line 1", "is missing: the log is empty");
  double first_start = 0.0, last_end = 0.0;
  for (std::size_t task = 0; task < last_attempt.size(); ++task) {
    if (!last_attempt[task]) continue;
    const auto [start, end] = *last_attempt[task];
    const std::size_t client = client_of[task];
    const double speed = replay.speeds.empty() ? 1.0 : replay.speeds[client == 0 ? 0 : client - 1];
    // A task that took no measurable time still costs something to hand out.
    replay.task_seconds.push_back(std::max((end - start) * speed, 1e-6));
    first_start = replay.tasks.empty() ? start : std::min(first_start, start);
    last_end = replay.tasks.empty() ? end : std::max(last_end, end);
    replay.tasks.push_back(task);
  }
  if (replay.tasks.empty()) throw InputError(path, "", "has no task that ended: nothing to replay");
  replay.makespan = last_end - first_start;
  return replay;
}

TaskLogWriter::TaskLogWriter(const std::string& path, bool append, const std::string& option) : path_(path) {
  fd_ = open(path.c_str(), (append ? O_RDWR | O_APPEND : O_WRONLY | O_TRUNC) | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError(option, "", fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  struct stat status {};
  was_empty_ = fstat(fd_, &status) != 0 || status.st_size == 0;
  if (append && !was_empty_) drop_cut_last_line(status.st_size);
}

// A run killed in the middle of a write leaves its last line cut short (no
// newline): the file is cut back to its last newline, so that the lines
// appended now start on a line of their own.
void TaskLogWriter::drop_cut_last_line(long long size) {
  char block[4096];
  for (long long end = size; end > 0;) {
    const long long begin = std::max(0LL, end - static_cast<long long>(sizeof block));
    const ssize_t count = pread(fd_, block, static_cast<std::size_t>(end - begin), begin);
    if (count != end - begin)
      throw InputError(path_, "", fmt::format("cannot read the job log: {}", std::strerror(errno)));
    for (long long i = end - begin - 1; i >= 0; --i)
      if (block[i] == '\n') {
        if (begin + i + 1 < size && ftruncate(fd_, begin + i + 1) != 0)
          throw InputError(path_, "", fmt::format("cannot cut the job log's last line: {}", std::strerror(errno)));
        return;
      }
    end = begin;
  }
  if (ftruncate(fd_, 0) != 0)
    throw InputError(path_, "", fmt::format("cannot cut the job log's last line: {}", std::strerror(errno)));
  was_empty_ = true;
}

TaskLogWriter::~TaskLogWriter() {
  if (fd_ >= 0) close(fd_);
}

void TaskLogWriter::write_line(const std::string& line) {
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t count = write(fd_, line.data() + written, line.size() - written);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) throw std::runtime_error(fmt::format("cannot write the job log {}: {}", path_, std::strerror(errno)));
    written += static_cast<std::size_t>(count);
  }
}

}  // namespace hetscale
