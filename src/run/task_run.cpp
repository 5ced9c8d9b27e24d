#include "hetscale/run/task_run.hpp"

#include <signal.h>
#include <sys/stat.h>

#include <filesystem>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/run/task_list.hpp"

namespace hetscale::run {
namespace {

// The folder for the tasks' output, made when it is missing (as mkdir -p).
void make_output_dir(const std::string& folder) {
  if (folder.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error || !std::filesystem::is_directory(folder))
    throw InputError("output-dir", "",
                     fmt::format("cannot make the folder {}: {}", folder, error ? error.message() : "not a folder"));
}

}  // namespace

TaskRunPlan plan_task_run(const TaskRunRequest& request, const std::vector<double>& speeds) {
  TaskRunPlan plan;
  if (!request.tasks.empty()) {
    plan.commands = commands_from_task_file(io::read_text_file(request.tasks), request.tasks);
    plan.source = request.tasks;
  } else {
    plan.commands =
        commands_from_template(request.command, io::read_text_file(request.inputs), "command", request.inputs);
    plan.source = fmt::format("{} with the inputs of {}", request.command, request.inputs);
  }
  make_output_dir(request.output_dir);
  plan.attempts_before.assign(plan.commands.size(), 0);
  std::vector<bool> done(plan.commands.size(), false);
  struct stat status {};
  const bool log_exists = !request.results.empty() && stat(request.results.c_str(), &status) == 0 && status.st_size > 0;
  if (request.resume && log_exists) {
    const auto state = read_task_log(request.results, plan.commands);
    plan.attempts_before = state.attempts;
    done = state.done;
    plan.in_flight = state.in_flight;
    for (const auto& end : state.ends)
      if (state.done[end.task] && end.outcome == TaskOutcome::failed) ++plan.failed_before;
  }
  for (std::size_t task = 0; task < done.size(); ++task)
    if (done[task])
      ++plan.done_before;
    else
      plan.to_run.push_back(task);
  if (!request.results.empty()) {
    plan.log = std::make_unique<TaskLogWriter>(request.results, request.resume, "results");
    if (plan.log->was_empty()) plan.log->write_line(task_log_header_line(plan.commands.size(), speeds));
  }
  return plan;
}

void TaskRunJournal::started(const Task& task, std::size_t attempt, std::size_t client, double time) {
  const TaskStart start{task.id, plan_.attempts_before[task.id] + attempt, client, time};
  running_[task.id] = start;
  if (plan_.log) plan_.log->write_line(task_log_line(start));
}

TaskEnd TaskRunJournal::ended(const TaskReport& report, bool will_retry) {
  running_.erase(report.id);
  TaskEnd end;
  end.task = report.id;
  end.attempt = plan_.attempts_before[report.id] + report.attempt;
  end.command = plan_.commands[report.id];
  end.client = report.client;
  end.host = report.host;
  end.start = report.start;
  end.end = report.end;
  end.exit_code = report.result.exit_code;
  end.signal = report.result.signal;
  end.timed_out = report.result.timed_out;
  end.cpu_seconds = report.result.cpu_seconds;
  end.outcome = report.result.succeeded() ? TaskOutcome::succeeded
                : will_retry              ? TaskOutcome::retrying
                                          : TaskOutcome::failed;
  if (plan_.log) plan_.log->write_line(task_log_line(end));
  return end;
}

std::vector<std::size_t> TaskRunJournal::running() const {
  std::vector<std::size_t> tasks;
  for (const auto& [task, start] : running_) tasks.push_back(task);
  return tasks;
}

void TaskRunJournal::stopped(double now, const std::function<std::string(std::size_t client)>& host_of) {
  for (const auto& [task, start] : running_) {
    if (!plan_.log) continue;
    TaskEnd end;
    end.task = task;
    end.attempt = start.attempt;
    end.command = plan_.commands[task];
    end.client = start.client;
    end.host = host_of(start.client);
    end.start = start.time;
    end.end = now;
    end.signal = SIGTERM;
    end.exit_code = 128 + SIGTERM;
    end.outcome = TaskOutcome::stopped;
    plan_.log->write_line(task_log_line(end));
  }
  running_.clear();
}

}  // namespace hetscale::run
