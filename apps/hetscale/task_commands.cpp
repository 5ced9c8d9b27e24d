// hetscale farm --tasks FILE | --command TEMPLATE --inputs FILE: a bag of the
// user's shell commands farmed out on MPI (docs/tasks.md), with a job log that
// survives a stop (--results, --resume), retries and a timeout.
#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/record/farm_context.hpp"
#include "hetscale/record/task_log.hpp"
#include "hetscale/run/shell_task.hpp"
#include "hetscale/run/stop_signals.hpp"
#include "hetscale/run/task_farm.hpp"
#include "hetscale/run/task_list.hpp"
#include "hetscale/run/task_run.hpp"

namespace hetscale::cli {

void add_task_run_options(CLI::App& farm, TaskRunOptions& options) {
  farm.add_option("--tasks", options.tasks,
                  "a bag of tasks: FILE of shell commands, one a line (blank lines and # comments skipped), run "
                  "by the clients with /bin/sh -c");
  farm.add_option("--command", options.command,
                  "a bag of tasks: a command TEMPLATE whose {} each line of --inputs replaces, quoted for the shell");
  farm.add_option("--inputs", options.inputs, "with --command: FILE of inputs, one a line");
  farm.add_option("--results", options.results,
                  "job log: a JSON line when each task is handed out and when it ends (docs/formats.md)");
  farm.add_flag("--resume", options.resume, "with --results: skip the tasks the job log records as done");
  farm.add_option("--retries", options.retries, "run a failed task again up to K times (default 0)");
  farm.add_option("--timeout", options.timeout,
                  "end a task (its process group: SIGTERM, then SIGKILL) past this many seconds");
  farm.add_option("--output-dir", options.output_dir,
                  "keep each task's standard output and error as DIR/<task>.out and .err, DIR made if missing "
                  "(default: discarded)");
}

bool task_run_requested(const TaskRunOptions& options) { return !options.tasks.empty() || !options.command.empty(); }

namespace {

// The exit code of a task run: how many tasks failed, as GNU parallel says it
// (101 for more than 100).
int exit_code_for(std::size_t failed) { return failed > 100 ? 101 : static_cast<int>(failed); }

// Every check that needs no file: each rank the same.
void check_options(const TaskRunOptions& options, const GeneralFarmOptions& farm) {
  if (!options.tasks.empty() && !options.command.empty())
    throw InputError("--tasks", "", "and --command are two ways to give the tasks: give one of them");
  if (!options.command.empty() && options.inputs.empty())
    throw InputError("--command", "", "needs --inputs FILE: one input a line, each replacing {} in the command");
  if (!options.inputs.empty() && options.command.empty())
    throw InputError("--inputs", "", "is for --command TEMPLATE (the command each input line goes into)");
  if (options.resume && options.results.empty())
    throw InputError("--resume", "", "needs --results LOG: the job log that says which tasks are done");
  if (!std::isfinite(options.timeout) || options.timeout < 0.0)
    throw InputError("--timeout", "", fmt::format("must be a number of seconds > 0, got {:g}", options.timeout));
  if (!farm.ga_options_given.empty())
    throw InputError(farm.ga_options_given, "",
                     "is an option of the GA farm; a run of --tasks or --command evaluates no GA");
}

std::string numbers_of(const std::vector<std::size_t>& tasks);

// A run stopped by `signal` (SIGINT, SIGTERM): the attempts running, whose
// process groups the signal ended, written to the job log as `stopped` (they
// run again on --resume), and one line on stderr: what was running and how to
// resume.
void say_stopped(int signal, run::TaskRunJournal& journal, const run::TaskFarm& task_farm,
                 const TaskRunOptions& options) {
  const auto ended = journal.running();
  // The line first: the launcher kills this rank a moment after the signal.
  const std::string resume =
      options.results.empty()
          ? "no job log (--results LOG) was kept: run the tasks again, with --results to resume next time"
          : fmt::format("to run the tasks not done, run the same command with --resume (job log {})", options.results);
  say_on_stderr(fmt::format("hetscale: farm: stopped by SIG{}: {}; {}\n", sigabbrev_np(signal),
                            ended.empty() ? std::string("no task was running")
                                          : fmt::format("{} task{} handed out {} not finished ({})", ended.size(),
                                                        ended.size() == 1 ? "" : "s",
                                                        ended.size() == 1 ? "was" : "were", numbers_of(ended)),
                            resume));
  journal.stopped(std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(),
                  [&task_farm](std::size_t client) { return task_farm.host_of(client); });
}

std::string numbers_of(const std::vector<std::size_t>& tasks) {
  std::string text;
  for (std::size_t i = 0; i < tasks.size() && i < 20; ++i) text += (i ? ", " : "") + std::to_string(tasks[i]);
  if (tasks.size() > 20) text += fmt::format(", ... ({} in all)", tasks.size());
  return text;
}

}  // namespace

int run_task_farm(const TaskRunOptions& options, const GeneralFarmOptions& farm, int& argc, char**& argv) {
  run::FarmSettings settings;
  run::TaskRunPlan task_run;
  io::ProgressOutput progress_output = io::ProgressOutput::automatic;
  return run_mpi_command(
      argc, argv,
      [&](int rank, int ranks) {
        check_options(options, farm);
        settings.policy =
            named_choice(distribute::policy_from_string, farm.policy, "--policy");
        if (!farm.speeds.empty()) settings.speeds = io::parse_number_list(farm.speeds, "--speeds");
        settings.emulate_speeds = true;
        settings.stop_on_signals = true;
        settings.retries = options.retries;
        with_options_named({"speeds", "policy"}, [&] { run::validate_farm_settings(settings, ranks); });
        progress_output = progress_output_on_rank(rank);
        // The files are rank 0's to read and write; its verdict is every rank's.
        std::string problem;
        if (rank == 0) {
          try {
            task_run = with_options_named({"command", "results", "output-dir"}, [&] {
              return run::plan_task_run({options.tasks, options.command, options.inputs, options.results,
                                         options.output_dir, options.resume},
                                        settings.speeds);
            });
          } catch (const std::invalid_argument& error) {
            problem = error.what();
          }
        }
        problem = mpi::MpiSession::broadcast_text(problem);
        if (!problem.empty()) throw std::invalid_argument(problem);
      },
      [&](int rank, int ranks) {
        const std::string output_dir = options.output_dir;
        const double timeout = options.timeout;
        run::TaskFarm task_farm(
            [&output_dir, timeout](const run::TaskAttempt& attempt) {
              run::ShellTaskOptions shell;
              shell.timeout_seconds = timeout;
              if (!output_dir.empty()) {
                shell.output_path = fmt::format("{}/{}.out", output_dir, attempt.id);
                shell.error_path = fmt::format("{}/{}.err", output_dir, attempt.id);
              }
              const auto outcome = run::run_shell_task(std::string(attempt.payload), shell);
              run::TaskResult result;
              result.exit_code = outcome.exit_code;
              result.signal = outcome.signal;
              result.timed_out = outcome.timed_out;
              result.cpu_seconds = outcome.cpu_seconds;
              result.data = outcome.failure;
              return result;
            },
            settings);
        if (rank != 0) {
          task_farm.finish();
          return 0;
        }

        if (!task_run.in_flight.empty())
          say_on_stderr(fmt::format("hetscale: farm: {} tasks were running when the run of {} stopped: {}; they run "
                                    "again\n",
                                    task_run.in_flight.size(), options.results, numbers_of(task_run.in_flight)));
        if (task_run.done_before > 0)
          say_on_stderr(fmt::format("hetscale: farm: resuming {}: {} of {} tasks done before, {} to run\n",
                                    options.results, task_run.done_before, task_run.commands.size(),
                                    task_run.to_run.size()));
        std::vector<run::Task> tasks;
        for (const std::size_t number : task_run.to_run) tasks.push_back({number, task_run.commands[number]});
        std::size_t failed = task_run.failed_before, retried = 0;
        double cpu_total = 0.0;
        std::optional<io::Progress> progress;
        if (!tasks.empty()) progress.emplace("farm", tasks.size(), stderr, progress_output);
        std::size_t finished = 0;
        run::TaskRunJournal journal(task_run);
        run::FarmObserver observer;
        observer.on_start = [&](const run::Task& task, std::size_t attempt, std::size_t client, double time) {
          journal.started(task, attempt, client, time);
        };
        observer.on_end = [&](const run::TaskReport& report, bool will_retry) {
          const TaskEnd end = journal.ended(report, will_retry);
          cpu_total += report.result.cpu_seconds;
          if (will_retry) {
            ++retried;
            return;
          }
          if (end.outcome == TaskOutcome::failed) {
            ++failed;
            say_on_stderr(fmt::format("hetscale: farm: task {} failed ({}{}): {}\n", end.task,
                                      end.timed_out ? "timed out" : fmt::format("exit code {}", end.exit_code),
                                      report.result.data.empty() ? "" : ", " + report.result.data, end.command));
          }
          ++finished;
          if (progress) progress->step(fmt::format("{} failed", failed));
        };
        try {
          if (!tasks.empty()) task_farm.map(tasks, observer);
        } catch (const run::Stopped& stopped) {
          if (progress) progress->finish();
          say_stopped(stopped.signal(), journal, task_farm, options);
          throw;
        }
        if (progress) progress->finish();
        auto run = task_farm.finish();

        // The run record: each client's tasks and busy time, the server beside.
        RunRecord& record = run->record;
        record.label = farm.label.empty() ? fmt::format("{} tasks of {}", tasks.size(), task_run.source) : farm.label;
        record.t_seq_ref = cpu_total;
        FarmContext context;
        context.tool = "hetscale farm";
        context.host = io::host_name();
        context.date = io::utc_now();
        context.mpi_library = mpi::MpiSession::library_version();
        context.ranks = static_cast<std::size_t>(ranks);
        context.clients = task_farm.clients();
        context.policy = to_string(settings.policy);
        context.objective = "tasks";
        context.speeds = settings.speeds;
        context.task_list = task_run.source;
        context.tasks_run = tasks.size();
        context.failed_tasks = failed;
        context.retries = options.retries;
        if (options.timeout > 0.0) context.timeout_s = options.timeout;
        if (!options.results.empty()) context.job_log = options.results;
        for (std::size_t i = 0; i < run->clients.size(); ++i)
          context.tasks.push_back(
              {record.nodes[i].name, run->clients[i].tasks, run->clients[i].lost_tasks, run->clients[i].lost_seconds});
        context.generation_seconds = run->batch_seconds;
        context.evaluations = tasks.size() + retried;
        FarmMeasurement measurement;
        measurement.clock_switches = run->clock_switches;
        measurement.delay_reads = run->delay_reads;
        measurement.switch_cost_s = run->switch_cost_s;
        measurement.delay_read_cost_s = run->delay_read_cost_s;
        measurement.worst_rank_overhead_fraction = run->worst_rank_overhead_fraction;
        measurement.other_load_from = run->other_load_measured ? "/proc/self/schedstat" : "unavailable (0)";
        context.measurement = measurement;
        record.context.farm = context;
        print(written_and_shown(run_record_json(record), farm.out, farm.json, [&] {
          return fmt::format(
              "farm: policy {}, {} clients, {} tasks run ({} done before): {} succeeded, {} failed{}; t_par {:.3f} "
              "s{}{}\n",
              context.policy, task_farm.clients(), tasks.size(), task_run.done_before,
              task_run.commands.size() - failed, failed,
              retried ? fmt::format(" ({} attempts retried)", retried) : "", record.t_par,
              options.results.empty() ? "" : fmt::format("; job log in {}", options.results),
              farm.out.empty() ? "" : fmt::format("; run record in {}", farm.out));
        }));
        return exit_code_for(failed);
      });
}

}  // namespace hetscale::cli
