// hetscale: the command line. It parses arguments, calls the library and
// prints; every computation lives in the library.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "hetscale/analysis/what_if.hpp"
#include "hetscale/sim/farm_what_if.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/report/json_report.hpp"
#include "hetscale/report/table.hpp"
#include "hetscale/report/worked_examples.hpp"
#include "hetscale/io/child_process.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/mpi/farm.hpp"

#include "cli.hpp"

namespace {

using namespace hetscale;

using namespace hetscale::cli;

// --- analyze ---------------------------------------------------------------
struct AnalyzeOptions {
  std::string run, platform, region;
  bool json = false;
};

// --- model hetero / model ewf ----------------------------------------------
struct HeteroOptions {
  std::string speeds, shares, work = "1";
  bool json = false;
};

Output model_hetero(const HeteroOptions& o) {
  const auto speeds = io::parse_positive_list(o.speeds, "--speeds");
  const auto shares = io::parse_number_list(o.shares, "--shares");
  const double work = single_number(o.work, "--work");
  const auto metrics = with_options_named({"shares", "work"}, [&] { return evaluate_distribution(speeds, shares, work); });
  return {o.json ? report::distribution_json(metrics) : report::distribution_table(metrics)};
}

struct EwfOptions {
  std::string speeds, ratio;
  bool json = false;
};

Output model_ewf(const EwfOptions& o) {
  const auto speeds = io::parse_positive_list(o.speeds, "--speeds");
  const double ratio = single_number(o.ratio, "--R");
  const auto metrics = with_options_named({"R"}, [&] { return evaluate_worsening(speeds, ratio); });
  return {o.json ? report::worsening_json(metrics) : report::worsening_table(metrics)};
}

struct FarmModelOptions {
  std::string speeds, tasks = "32", generations = "10", eval_time = "1", latency = "0";
  bool json = false;
};

Output model_farm(const FarmModelOptions& o) {
  const auto speeds = io::parse_positive_list(o.speeds, "--speeds");
  const auto tasks = count_option(o.tasks, "--tasks"), generations = count_option(o.generations, "--generations");
  const double eval_time = single_number(o.eval_time, "--eval-time"), latency = single_number(o.latency, "--latency");
  const auto what_if = with_options_named({"eval-time", "latency"}, [&] {
    return sim::evaluate_farm_policies(speeds, tasks, generations, eval_time, latency);
  });
  return {o.json ? report::farm_what_if_json(what_if) : report::farm_what_if_table(what_if)};
}

// --- demo ------------------------------------------------------------------
Output demo(bool json) {
  // Paths are shown relative to the project folder, so the output is the same
  // wherever the project lives.
  std::error_code error;
  std::filesystem::current_path(home_dir(), error);
  if (error) throw InputError("HETSCALE_HOME", home_dir(), "cannot enter the project folder: " + error.message());
  const auto examples = report::worked_examples(json);
  return {examples.text, examples.disagreeing == 0 ? 0 : 1};
}

// --- farm ------------------------------------------------------------------
struct FarmCommand {
  mpi::FarmOptions options;
  std::string policy = distribute::to_string(distribute::default_policy), speeds, scheme = "generational", crossover = "one-point", out;
  bool json = false;
  std::string task_option_given;  // an option of a task run (--results, ...), given without tasks
  std::string bounds;             // command objectives: LOWER:UPPER
};

// --bounds LOWER:UPPER.
std::pair<double, double> bounds_option(const std::string& text) {
  const auto colon = text.find(':', 1);  // a lower bound may start with '-'
  if (colon == std::string::npos)
    throw InputError("--bounds", "", fmt::format("must be LOWER:UPPER, such as -5.12:5.12, got '{}'", text));
  return {single_number(text.substr(0, colon), "--bounds"), single_number(text.substr(colon + 1), "--bounds")};
}

// Runs on every rank; returns the exit code. Only rank 0 writes and prints.
int farm(FarmCommand& command, int& argc, char**& argv) {
  auto& options = command.options;
  io::ProgressOutput progress_output = io::ProgressOutput::automatic;
  const bool launched = started_by_launcher();  // before MPI_Init: a singleton sets the launcher's variables
  return run_mpi_command(
      argc, argv,
      [&](int rank, int ranks) {
        if (!command.task_option_given.empty())
          throw InputError(command.task_option_given, "",
                           "is for a run of your tasks (--tasks FILE or --command TEMPLATE --inputs FILE), not the "
                           "GA farm");
        options.policy = named_choice(distribute::policy_from_string, command.policy, "--policy");
        options.ga.scheme = named_choice(ga::scheme_from_string, command.scheme, "--scheme");
        options.ga.crossover = named_choice(ga::crossover_from_string, command.crossover, "--crossover");
        if (!command.speeds.empty()) options.speeds = io::parse_number_list(command.speeds, "--speeds");
        if (!command.bounds.empty()) options.bounds = bounds_option(command.bounds);
        with_options_named(
            {"objective", "bounds", "dimensions", "atoms", "speeds", "eval-time", "time-scale", "population", "policy"},
            [&] { mpi::validate_farm_options(options, ranks); });
        progress_output = progress_output_on_rank(rank);
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
        return print(written_and_shown(run_record_json(outcome->record), command.out, command.json, [&] {
          const std::string objective =
              options.objective == "synthetic"
                  ? fmt::format("synthetic (each evaluation sleeps {:g} s x {:g} / speed: no computation)",
                                options.evaluation_seconds, options.time_scale)
                  : options.objective;
          return fmt::format("farm: policy {}, {} clients, objective {}: t_par {:.3f} s, {} evaluations, best "
                             "fitness {:.6f}{}\n",
                             command.policy, ranks - 1, objective, outcome->record.t_par, outcome->ga.evaluations,
                             outcome->ga.best.fitness,
                             command.out.empty() ? "" : fmt::format("; run record in {}", command.out));
        }));
      });
}

// What `hetscale` with no arguments prints: the five commands a newcomer
// needs first, one example each.
constexpr const char* first_commands =
    "hetscale: how efficient is your parallel program on unequal, loaded nodes, and what would a different split\n"
    "or machine give?\n"
    "\n"
    "Five commands to start with:\n"
    "  measure   where your MPI program's time goes, per rank, unmodified\n"
    "              mpiexec -np 4 hetscale measure --out run-4.json -- ./app ARGS\n"
    "  analyze   how efficient the run was, its largest loss and what fixing it would gain\n"
    "              hetscale analyze run-4.json\n"
    "  report    your runs as one HTML page: where the time goes, speed-up against the fewest ranks, MPI calls\n"
    "              hetscale report run-1.json run-2.json run-4.json --out report.html\n"
    "  predict   how long a run on more processes would take, from runs at 3 or more counts\n"
    "              hetscale predict run-1.json run-2.json run-4.json --at 16\n"
    "  farm      run your own tasks on MPI ranks, faster nodes taking more, resumable\n"
    "              mpiexec -np 5 hetscale farm --command 'xz -6 -k {}' --inputs files.txt --results log.jsonl\n"
    "\n"
    "hetscale --help lists every command; hetscale COMMAND --help says more.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) {
    std::fputs(first_commands, stdout);
    return 0;
  }
  CLI::App app{
      "hetscale: define, measure, predict and optimize the efficiency of parallel programs on "
      "heterogeneous parallel computers",
      "hetscale"};
  app.set_version_flag("--version", std::string(HETSCALE_VERSION));
  app.require_subcommand(1);
  Actions actions;
  auto& action = actions.action;

  // The commands in the order of a user's day, each described by what it
  // answers: the user's program first, then the machine, then the papers'
  // models. `hetscale` alone prints the first five with an example each.
  const std::string yours = "Your program", machine = "This machine", papers = "The papers' models";
  auto command = [&app](const char* name, const std::string& group, const std::string& answers) {
    auto* sub = app.add_subcommand(name, answers);
    sub->group(group);
    return sub;
  };
  auto* measure = command("measure", yours,
                          "where your MPI program's time goes, per rank, unmodified: mpiexec -np N hetscale measure "
                          "--out run.json -- PROGRAM ARGS (docs/measure.md)");
  auto* analyze_command = command(
      "analyze", yours, "how efficient one run was, its largest losses and what fixing each would gain (docs/analysis.md)");
  auto* report = command("report", yours,
                         "your runs, sweeps, predictions and speed models as one self-contained HTML page of figures "
                         "and tables (docs/report.md)");
  auto* predict = command("predict", yours,
                          "how long a run on more processes, faster nodes or a larger problem would take, from runs "
                          "at 3 or more scales (docs/prediction.md)");
  auto* partition = command("partition", yours,
                            "how to share N units of work between nodes whose speed depends on their share, from "
                            "speed models `bench fpm` measures (docs/partitioning.md)");
  auto* farm_app = command("farm", yours,
                           "run your tasks on MPI ranks, faster nodes taking more, with a job log to resume from; "
                           "without tasks, the papers' GA farm (docs/tasks.md)");
  auto* simulate = command("simulate", yours,
                           "what a machine you do not have would give: your job log, the farm or a kernel replayed "
                           "on a simulated platform (SimGrid; docs/simulation.md)");
  auto* optimize = command("optimize", yours,
                           "which processor count and data layout to give each stage of a program, from measured "
                           "communication costs (docs/optimizer.md)");
  auto* bench = command("bench", machine,
                        "measure this machine: node speeds, speed as a function of work size, communication and step "
                        "costs");
  auto* kernel = command("kernel", machine,
                         "run a scalability kernel (ge, mm, conv, mc) under mpiexec, rows shared by node speed, "
                         "checked against its serial result");
  auto* model = command("model", papers,
                        "what-if with no run: a split of work on given speeds, the cost of heterogeneity, the farm's "
                        "policies, a speed model");
  auto* fit = command("fit", papers,
                      "the serial fraction and Karp-Flatt metric of timings at several process counts (for the time "
                      "of a larger run use predict)");
  auto* scale = command("scale", papers,
                        "isospeed-efficiency scalability: how much a problem must grow to keep its speed-efficiency "
                        "on a larger configuration (docs/scalability.md)");
  auto* demo_command =
      command("demo", papers, "the papers' worked examples recomputed beside their published values, and example analyses");

  add_measure_command(*measure, actions);

  AnalyzeOptions analyze_options;
  analyze_command->add_option("RUN", analyze_options.run, "run record (JSON, schema hetscale.run/1)")->required();
  analyze_command->add_option("--platform", analyze_options.platform,
                              "platform file (JSON, or 'hostname marked-speed' lines) declaring node speeds");
  analyze_command->add_option("--region", analyze_options.region,
                              "analyse one region of a measured run (hetscale_region_begin / _end)");
  analyze_command->add_flag("--json", analyze_options.json, "print JSON instead of tables");
  analyze_command->callback([&] {
    action = [&] {
      return Output{with_options_named({"region"}, [&] {
        return report::analysis_of_files(analyze_options.run, analyze_options.platform, analyze_options.json,
                                         analyze_options.region);
      })};
    };
  });

  add_report_command(*report, actions);
  add_predict_command(*predict, actions);
  add_partition_commands(*partition, *model, actions);

  model->require_subcommand(1);
  HeteroOptions hetero;
  auto* hetero_command = model->add_subcommand(
      "hetero",
      "how good a split of work on given speeds is: speed-up s, its ceiling, efficiency e, effective processors and "
      "times (APGA 2004)");
  hetero_command->add_option("--speeds", hetero.speeds, "relative speeds v_1,v_2,... (or @FILE)")->required();
  hetero_command->add_option("--shares", hetero.shares, "shares p_1,p_2,... of the work, need not sum to 1")
      ->required();
  hetero_command->add_option("--work", hetero.work, "K, the number of operations (default 1)");
  hetero_command->add_flag("--json", hetero.json, "print JSON instead of tables");
  hetero_command->callback([&] { action = [&] { return model_hetero(hetero); }; });

  EwfOptions ewf;
  auto* ewf_command = model->add_subcommand(
      "ewf",
      "what heterogeneity costs: the efficiency worsening factor of given speeds at a communication ratio R "
      "(Clematis-Corana 1999, Section 3)");
  ewf_command->add_option("--speeds", ewf.speeds, "relative speeds s_1,s_2,... (or @FILE)")->required();
  ewf_command->add_option("--R", ewf.ratio, "R, communication to computation time on the reference node")->required();
  ewf_command->add_flag("--json", ewf.json, "print JSON instead of tables");
  ewf_command->callback([&] { action = [&] { return model_ewf(ewf); }; });

  FarmModelOptions farm_model;
  auto* farm_model_command = model->add_subcommand(
      "farm",
      "which farm policy to run on given client speeds: each simulated, beside the earliest-finish ceiling (APGA "
      "2004)");
  farm_model_command->add_option("--speeds", farm_model.speeds, "client speeds v_1,v_2,... (or @FILE)")->required();
  farm_model_command->add_option("--tasks", farm_model.tasks, "tasks (individuals) per generation (default 32)");
  farm_model_command->add_option("--generations", farm_model.generations, "generations (default 10)");
  farm_model_command->add_option("--eval-time", farm_model.eval_time, "seconds per task on speed 1 (default 1)");
  farm_model_command->add_option("--latency", farm_model.latency, "one-way message time in seconds (default 0)");
  farm_model_command->add_flag("--json", farm_model.json, "print JSON instead of tables");
  farm_model_command->callback([&] { action = [&] { return model_farm(farm_model); }; });

  fit->require_subcommand(1);
  std::vector<std::string> timings;
  bool fit_json = false;
  auto* serial = fit->add_subcommand(
      "serial",
      "the serial fraction f of timings at several process counts and sizes, speed-ups against Amdahl's and the "
      "Karp-Flatt metric (Majumdar 1999); for the time of a larger run use `hetscale predict`");
  serial->add_option("--timings", timings, "CSV with the header procs,size,seconds (several files are read as one)")
      ->required();
  std::string serial_time = "line";
  serial->add_option("--serial-time", serial_time,
                     "where tau_1 comes from: line (a + b N fitted, the default), through-origin (b N: a = 0, the way "
                     "on when a comes out negative), measured (the single-processor run at each size; Karp-Flatt)");
  serial->add_flag("--json", fit_json, "print JSON instead of tables");
  serial->callback([&] {
    action = [&] {
      return Output{with_options_named({"serial-time"},
                                       [&] { return report::serial_fit_of_files(timings, fit_json, serial_time); })};
    };
  });

  bool demo_json = false;
  demo_command->add_flag("--json", demo_json, "print JSON instead of tables");
  demo_command->callback([&] { action = [&] { return demo(demo_json); }; });

  FarmCommand farm_command;
  auto& farm_options = farm_command.options;
  TaskRunOptions task_run;
  add_task_run_options(*farm_app, task_run);
  farm_app->add_option("--policy", farm_command.policy,
                       "adaptive+ (the default: work on request, prefetching, the last tasks to the clients expected "
                       "to finish them first) | adaptive | proportional | even");
  farm_app->add_option("--speeds", farm_command.speeds,
                       "emulate each client at a relative speed, v_1,v_2,... or @FILE (default all 1)");
  farm_app->add_option("--label", farm_options.label, "label of the run record");
  farm_app->add_option("--out", farm_command.out, "write the run record (JSON) here");
  farm_app->add_flag("--json", farm_command.json, "print the run record instead of a summary");
  // The GA farm's options, after the user's tasks'.
  const std::string ga = "The GA farm (without --tasks or --command)";
  farm_app
      ->add_option("--objective", farm_options.objective,
                   "synthetic (Rastrigin; each evaluation sleeps its nominal time, --eval-time x --time-scale / "
                   "speed: it measures the farm, not a computation) | lennard-jones (real computation) | "
                   "command:PROGRAM (yours: the genes on its standard input, one a line; its fitness the last "
                   "line it prints; with --dimensions and --bounds) | library:PATH (yours: a shared library with "
                   "the C ABI of hetscale/objective.h) (default synthetic)")
      ->group(ga);
  farm_app->add_option("--bounds", farm_command.bounds, "command:PROGRAM: every gene's LOWER:UPPER")->group(ga);
  farm_app
      ->add_option("--eval-time", farm_options.evaluation_seconds,
                   "synthetic: nominal seconds per evaluation on a node of speed 1 (default 1)")
      ->group(ga);
  farm_app
      ->add_option("--time-scale", farm_options.time_scale, "synthetic: multiplies every nominal time (default 1)")
      ->group(ga);
  farm_app->add_option("--dimensions", farm_options.dimensions, "synthetic, command:PROGRAM: genes (default 8)")
      ->group(ga);
  farm_app->add_option("--atoms", farm_options.atoms, "lennard-jones: atoms in the cluster (default 13)")->group(ga);
  farm_app->add_option("--population", farm_options.ga.population, "individuals (default 32)")->group(ga);
  farm_app
      ->add_option("--generations", farm_options.ga.generations,
                   "generations after the initial population (default 10)")
      ->group(ga);
  farm_app->add_option("--scheme", farm_command.scheme, "generational | steady-state | transgenerational")->group(ga);
  farm_app->add_option("--crossover", farm_command.crossover, "one-point | two-point | uniform")->group(ga);
  farm_app->add_option("--crossover-rate", farm_options.ga.crossover_rate, "default 0.9")->group(ga);
  farm_app->add_option("--mutation-rate", farm_options.ga.mutation_rate, "per gene, default 0.001")->group(ga);
  farm_app->add_option("--selection-pressure", farm_options.ga.selection_pressure, "linear ranking, in [1, 2]")
      ->group(ga);
  farm_app->add_option("--seed", farm_options.ga.seed, "random seed of the GA (default 1)")->group(ga);

  scale->require_subcommand(1);
  add_scale_commands(*scale, actions);
  add_scale_run_commands(*scale, actions);
  bench->require_subcommand(1);
  add_bench_speed_command(*bench, actions);
  add_bench_comm_command(*bench, actions);
  add_bench_steps_command(*bench, actions);
  add_bench_fpm_command(*bench, actions);
  add_kernel_command(*kernel, actions);
  add_optimize_command(*optimize, actions);
  add_simulate_commands(*simulate, actions);

  const bool speaker = launcher_rank() == 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return speaker ? app.exit(error) : 0;  // --help, --version
    if (speaker) say_on_stderr(fmt::format("hetscale: {} (see hetscale --help)\n", error.what()));
    return exit_bad_input;
  }
  if (farm_app->parsed() && task_run_requested(task_run)) {
    GeneralFarmOptions general;
    general.policy = farm_command.policy;
    general.speeds = farm_command.speeds;
    general.out = farm_command.out;
    general.label = farm_options.label;
    general.json = farm_command.json;
    for (const char* option : {"--objective", "--bounds", "--eval-time", "--time-scale", "--dimensions", "--atoms",
                               "--population",
                               "--generations", "--scheme", "--crossover", "--crossover-rate", "--mutation-rate",
                               "--selection-pressure", "--seed"})
      if (general.ga_options_given.empty() && farm_app->count(option) > 0) general.ga_options_given = option;
    return run_task_farm(task_run, general, argc, argv);
  }
  if (farm_app->parsed()) {
    for (const char* option : {"--inputs", "--results", "--resume", "--retries", "--timeout", "--output-dir"})
      if (farm_command.task_option_given.empty() && farm_app->count(option) > 0)
        farm_command.task_option_given = option;
    return farm(farm_command, argc, argv);
  }
  if (actions.mpi_action) return actions.mpi_action(argc, argv);

  try {
    return print(action());
  } catch (const std::invalid_argument& error) {
    say_on_stderr(fmt::format("hetscale: {}\n", error.what()));
    return exit_bad_input;
  } catch (const io::ProgramUnavailable& error) {
    // Not a bug of hetscale: the machine lacks a program; said as it is.
    say_on_stderr(fmt::format("hetscale: {}\n", error.what()));
    return exit_internal_error;
  } catch (const std::exception& error) {
    say_on_stderr(fmt::format("hetscale: internal error: {}\n", error.what()));
    return exit_internal_error;
  }
}
