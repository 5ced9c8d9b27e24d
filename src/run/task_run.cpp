#include "hetscale/run/task_run.hpp"

#include <signal.h>
#include <sys/stat.h>

#include <string.h>

#include <filesystem>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/run/shell_task.hpp"
#include "hetscale/run/stop_signals.hpp"
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

namespace {

std::string numbers_of(const std::vector<std::size_t>& tasks) {
  std::string text;
  for (std::size_t i = 0; i < tasks.size() && i < 20; ++i) text += (i ? ", " : "") + std::to_string(tasks[i]);
  if (tasks.size() > 20) text += fmt::format(", ... ({} in all)", tasks.size());
  return text;
}

// A run stopped by `signal` (SIGINT, SIGTERM): the attempts running, whose
// process groups the signal ended, written to the job log as `stopped` (they
// run again on a resume), and one line: what was running and how to resume.
void say_stopped(int signal, TaskRunJournal& journal, const TaskFarm& farm, const TaskRunSettings& settings) {
  const auto ended = journal.running();
  // The line first: the launcher kills this rank a moment after the signal.
  settings.say(fmt::format(
      "hetscale: farm: stopped by SIG{}: {}; {}\n", sigabbrev_np(signal),
      ended.empty() ? std::string("no task was running")
                    : fmt::format("{} task{} handed out {} not finished ({})", ended.size(),
                                  ended.size() == 1 ? "" : "s", ended.size() == 1 ? "was" : "were", numbers_of(ended)),
      settings.how_to_resume));
  journal.stopped(io::unix_seconds_now(), [&farm](std::size_t client) { return farm.host_of(client); });
}

// A task attempt on a client: the command in a shell of its own.
TaskResult run_on_client(const TaskAttempt& attempt, const TaskRunSettings& settings) {
  ShellTaskOptions shell;
  shell.timeout_seconds = settings.timeout_seconds;
  if (!settings.output_dir.empty()) {
    shell.output_path = fmt::format("{}/{}.out", settings.output_dir, attempt.id);
    shell.error_path = fmt::format("{}/{}.err", settings.output_dir, attempt.id);
  }
  const auto outcome = run_shell_task(std::string(attempt.payload), shell);
  TaskResult result;
  result.exit_code = outcome.exit_code;
  result.signal = outcome.signal;
  result.timed_out = outcome.timed_out;
  result.cpu_seconds = outcome.cpu_seconds;
  result.data = outcome.failure;
  return result;
}

}  // namespace

int exit_code_for_failures(std::size_t failed) { return failed > 100 ? 101 : static_cast<int>(failed); }

std::optional<TaskRunOutcome> run_tasks(TaskRunPlan& plan, const FarmSettings& farm_settings,
                                        const TaskRunSettings& settings, int ranks) {
  TaskFarm farm([&settings](const TaskAttempt& attempt) { return run_on_client(attempt, settings); }, farm_settings);
  if (!farm.is_server()) {
    farm.finish();
    return std::nullopt;
  }
  if (!plan.in_flight.empty())
    settings.say(fmt::format("hetscale: farm: {} tasks were running when the run of {} stopped: {}; they run again\n",
                             plan.in_flight.size(), settings.job_log, numbers_of(plan.in_flight)));
  if (plan.done_before > 0)
    settings.say(fmt::format("hetscale: farm: resuming {}: {} of {} tasks done before, {} to run\n", settings.job_log,
                             plan.done_before, plan.commands.size(), plan.to_run.size()));
  std::vector<Task> tasks;
  for (const std::size_t number : plan.to_run) tasks.push_back({number, plan.commands[number]});
  TaskRunOutcome outcome;
  outcome.tasks_run = tasks.size();
  outcome.failed = plan.failed_before;
  double cpu_total = 0.0;
  std::optional<io::Progress> progress;
  if (!tasks.empty()) progress.emplace("farm", tasks.size(), stderr, settings.progress);
  TaskRunJournal journal(plan);
  FarmObserver observer;
  observer.on_start = [&](const Task& task, std::size_t attempt, std::size_t client, double time) {
    journal.started(task, attempt, client, time);
  };
  observer.on_end = [&](const TaskReport& report, bool will_retry) {
    const TaskEnd end = journal.ended(report, will_retry);
    cpu_total += report.result.cpu_seconds;
    if (will_retry) {
      ++outcome.retried;
      return;
    }
    if (end.outcome == TaskOutcome::failed) {
      ++outcome.failed;
      settings.say(fmt::format("hetscale: farm: task {} failed ({}{}): {}\n", end.task,
                               end.timed_out ? "timed out" : fmt::format("exit code {}", end.exit_code),
                               report.result.data.empty() ? "" : ", " + report.result.data, end.command));
    }
    if (progress) progress->step(fmt::format("{} failed", outcome.failed));
  };
  try {
    if (!tasks.empty()) farm.map(tasks, observer);
  } catch (const Stopped& stopped) {
    if (progress) progress->finish();
    say_stopped(stopped.signal(), journal, farm, settings);
    throw;
  }
  if (progress) progress->finish();
  auto run = farm.finish();

  // The run record: each client's tasks and busy time, the server beside.
  FarmContext context = farm_context(*run, farm_settings, ranks, settings.mpi_library);
  outcome.record = std::move(run->record);
  auto& record = outcome.record;
  record.label = settings.label.empty() ? fmt::format("{} tasks of {}", tasks.size(), plan.source) : settings.label;
  record.t_seq_ref = cpu_total;
  context.objective = "tasks";
  context.task_list = plan.source;
  context.tasks_run = tasks.size();
  context.failed_tasks = outcome.failed;
  context.retries = farm_settings.retries;
  if (settings.timeout_seconds > 0.0) context.timeout_s = settings.timeout_seconds;
  if (!settings.job_log.empty()) context.job_log = settings.job_log;
  context.evaluations = tasks.size() + outcome.retried;
  record.context.farm = std::move(context);
  return outcome;
}

std::string task_run_summary(const TaskRunOutcome& outcome, const TaskRunPlan& plan, distribute::PolicyKind policy,
                             int ranks, const std::string& job_log, const std::string& out) {
  return fmt::format(
      "farm: policy {}, {} clients, {} tasks run ({} done before): {} succeeded, {} failed{}; t_par {:.3f} "
      "s{}{}\n",
      to_string(policy), ranks - 1, outcome.tasks_run, plan.done_before, plan.commands.size() - outcome.failed,
      outcome.failed, outcome.retried ? fmt::format(" ({} attempts retried)", outcome.retried) : "",
      outcome.record.t_par, job_log.empty() ? "" : fmt::format("; job log in {}", job_log),
      out.empty() ? "" : fmt::format("; run record in {}", out));
}

}  // namespace hetscale::run
