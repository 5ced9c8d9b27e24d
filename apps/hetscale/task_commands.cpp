// hetscale farm --tasks FILE | --command TEMPLATE --inputs FILE: a bag of the
// user's shell commands farmed out on MPI (docs/tasks.md), with a job log that
// survives a stop (--results, --resume), retries and a timeout.
#include <cmath>
#include <string>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/run/task_farm.hpp"
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
      [&](int, int ranks) {
        run::TaskRunSettings run_settings;
        run_settings.timeout_seconds = options.timeout;
        run_settings.output_dir = options.output_dir;
        run_settings.job_log = options.results;
        run_settings.how_to_resume =
            options.results.empty()
                ? "no job log (--results LOG) was kept: run the tasks again, with --results to resume next time"
                : fmt::format("to run the tasks not done, run the same command with --resume (job log {})",
                              options.results);
        run_settings.label = farm.label;
        run_settings.mpi_library = mpi::MpiSession::library_version();
        run_settings.progress = progress_output;
        run_settings.say = say_on_stderr;
        const auto outcome = run::run_tasks(task_run, settings, run_settings, ranks);
        if (!outcome) return 0;
        const auto& record = outcome->record;
        print(written_and_shown(run_record_json(record), farm.out, farm.json, [&] {
          return fmt::format(
              "farm: policy {}, {} clients, {} tasks run ({} done before): {} succeeded, {} failed{}; t_par {:.3f} "
              "s{}{}\n",
              to_string(settings.policy), ranks - 1, outcome->tasks_run, task_run.done_before,
              task_run.commands.size() - outcome->failed, outcome->failed,
              outcome->retried ? fmt::format(" ({} attempts retried)", outcome->retried) : "", record.t_par,
              options.results.empty() ? "" : fmt::format("; job log in {}", options.results),
              farm.out.empty() ? "" : fmt::format("; run record in {}", farm.out));
        }));
        return run::exit_code_for_failures(outcome->failed);
      });
}

}  // namespace hetscale::cli
