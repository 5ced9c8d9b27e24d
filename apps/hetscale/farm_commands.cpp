// hetscale farm: the user's tasks (--tasks FILE | --command TEMPLATE --inputs
// FILE) farmed out on MPI with a job log that survives a stop (--results,
// --resume), retries and a timeout (docs/tasks.md); without tasks, the
// papers' GA farm. Runs on every rank; rank 0 writes and prints.
#include <cmath>
#include <cstdio>
#include <string>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/run/task_farm.hpp"
#include "hetscale/run/task_run.hpp"

namespace hetscale::cli {
namespace {

// The policy asked for, the library's default when none is.
distribute::PolicyKind policy_option(const Arguments& arguments) {
  if (!arguments.given("--policy")) return distribute::default_policy;
  return named_choice(distribute::policy_from_string, arguments.text("--policy"), "--policy");
}

int run_task_farm(const Arguments& arguments, int& argc, char**& argv) {
  run::FarmSettings settings;
  run::TaskRunPlan task_run;
  io::ProgressOutput progress_output = io::ProgressOutput::automatic;
  const auto& results = arguments.text("--results");
  const auto& out = arguments.text("--out");
  return mpi::run_on_every_rank(
      argc, argv,
      [&](int rank, int ranks) {
        const double timeout = arguments.number("--timeout");
        if (!std::isfinite(timeout) || timeout < 0.0)
          throw InputError("--timeout", "", fmt::format("must be a number of seconds > 0, got {:g}", timeout));
        settings.policy = policy_option(arguments);
        if (arguments.given("--speeds"))
          settings.speeds = io::parse_number_list(arguments.text("--speeds"), "--speeds");
        settings.emulate_speeds = true;
        settings.stop_on_signals = true;
        settings.retries = arguments.whole("--retries");
        with_options_named({"speeds", "policy"}, [&] { run::validate_farm_settings(settings, ranks); });
        progress_output = io::progress_output_on_rank(rank);
        mpi::on_rank_zero_for_all(rank, [&] {
          task_run = with_options_named({"command", "results", "output-dir"}, [&] {
            return run::plan_task_run(
                {arguments.text("--tasks"), arguments.text("--command"), arguments.text("--inputs"), results,
                 arguments.text("--output-dir"), arguments.flag("--resume")},
                settings.speeds);
          });
        });
      },
      [&](int, int ranks) {
        run::TaskRunSettings run_settings;
        run_settings.timeout_seconds = arguments.number("--timeout");
        run_settings.output_dir = arguments.text("--output-dir");
        run_settings.job_log = results;
        run_settings.how_to_resume =
            results.empty()
                ? "no job log (--results LOG) was kept: run the tasks again, with --results to resume next time"
                : fmt::format("to run the tasks not done, run the same command with --resume (job log {})", results);
        run_settings.label = arguments.text("--label");
        run_settings.mpi_library = mpi::MpiSession::library_version();
        run_settings.progress = progress_output;
        run_settings.say = io::say_on_stderr;
        const auto outcome = run::run_tasks(task_run, settings, run_settings, ranks);
        if (!outcome) return 0;
        print(written_and_shown(run_record_json(outcome->record), out, arguments.flag("--json"), [&] {
          return run::task_run_summary(*outcome, task_run, settings.policy, ranks, results, out);
        }));
        return run::exit_code_for_failures(outcome->failed);
      });
}

int run_ga_farm(const Arguments& arguments, int& argc, char**& argv) {
  mpi::FarmOptions options;
  io::ProgressOutput progress_output = io::ProgressOutput::automatic;
  const bool launched = io::started_by_launcher();  // before MPI_Init: a singleton sets the launcher's variables
  const auto& out = arguments.text("--out");
  return mpi::run_on_every_rank(
      argc, argv,
      [&](int rank, int ranks) {
        options.policy = policy_option(arguments);
        if (arguments.given("--scheme"))
          options.ga.scheme = named_choice(ga::scheme_from_string, arguments.text("--scheme"), "--scheme");
        if (arguments.given("--crossover"))
          options.ga.crossover = named_choice(ga::crossover_from_string, arguments.text("--crossover"), "--crossover");
        if (arguments.given("--speeds")) options.speeds = io::parse_number_list(arguments.text("--speeds"), "--speeds");
        if (arguments.given("--bounds")) options.bounds = io::parse_range(arguments.text("--bounds"), "--bounds");
        arguments.take("--label", options.label);
        arguments.take("--objective", options.objective);
        arguments.take("--eval-time", options.evaluation_seconds);
        arguments.take("--time-scale", options.time_scale);
        arguments.take("--dimensions", options.dimensions);
        arguments.take("--atoms", options.atoms);
        arguments.take("--population", options.ga.population);
        arguments.take("--generations", options.ga.generations);
        arguments.take("--crossover-rate", options.ga.crossover_rate);
        arguments.take("--mutation-rate", options.ga.mutation_rate);
        arguments.take("--selection-pressure", options.ga.selection_pressure);
        arguments.take("--seed", options.ga.seed);
        with_options_named(
            {"objective", "bounds", "dimensions", "atoms", "speeds", "eval-time", "time-scale", "population", "policy"},
            [&] { mpi::validate_farm_options(options, ranks); });
        progress_output = io::progress_output_on_rank(rank);
        if (ranks == 1 && !launched)
          std::fprintf(stderr,
                       "hetscale: farm: one process, no MPI launcher: the GA runs serially here, with no clients; "
                       "for a farm start it as mpiexec -np N hetscale farm ... (rank 0 the server, N-1 clients)\n");
      },
      [&](int rank, int ranks) {
        // A step per generation, the initial population's (generation 0) first.
        io::Progress progress("farm", options.ga.generations + 1, stderr, progress_output);
        const auto outcome = mpi::run_farm(options, [&progress](std::size_t, std::size_t, double, double best) {
          progress.step(fmt::format("best {:.6g}", best));
        });
        progress.finish();
        if (rank != 0) return 0;
        return print(written_and_shown(run_record_json(outcome->record), out, arguments.flag("--json"),
                                       [&] { return mpi::farm_summary(options, *outcome, ranks, out); }));
      });
}

}  // namespace

int run_farm(const Arguments& arguments, int& argc, char**& argv) {
  if (arguments.given("--tasks") || arguments.given("--command")) return run_task_farm(arguments, argc, argv);
  return run_ga_farm(arguments, argc, argv);
}

}  // namespace hetscale::cli
