// The scalability kernels on MPI: `hetscale kernel`, `hetscale scale sweep`
// and `hetscale bench speed`. Each runs on every rank under mpiexec; rank 0
// prints and writes.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include <fmt/core.h>
#include <fmt/format.h>

#include "cli.hpp"
#include "kernel_commands.hpp"

#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/platform/speed_model.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/model/isospeed.hpp"
#include "hetscale/record/timings.hpp"
#include "hetscale/report/isospeed_report.hpp"
#include "hetscale/mpi/kernels.hpp"
#include "hetscale/mpi/marked_speeds.hpp"

namespace hetscale::cli {

namespace {

// The speeds of the ranks: emulated and marked, on this machine's MPI only (in
// the simulator they are the platform's).
void add_speed_options(CLI::App& command, std::string& emulated, mpi::MarkedSpeedOptions& options,
                       KernelBackend backend) {
  if (backend != KernelBackend::mpi) return;
  command.add_option("--speeds", emulated, "emulated relative speed per rank, in (0, 1] (or @FILE)");
  command.add_option("--marked", options.platform,
                     "platform file with one marked speed per rank (from `hetscale bench speed`); default: measure "
                     "every rank's marked speed first");
  command.add_option("--marked-speeds", options.list, "marked speeds in Mflop/s, one per rank (or @FILE)");
  command.add_option("--speed-seconds", options.seconds, "seconds per benchmark kernel when measuring (default 0.1)");
}

std::vector<double> emulated_speeds(const std::string& text) {
  return text.empty() ? std::vector<double>{} : io::parse_positive_list(text, "--speeds");
}

// --- hetscale kernel -----------------------------------------------------------
int kernel_command(KernelCommand& command, int& argc, char**& argv) {
  mpi::KernelOptions options;
  std::vector<double> given;
  return run_mpi_command(
      argc, argv,
      [&](int, int ranks) {
        options = checked_kernel_options(command, ranks);
        given = options.marked_speeds;
      },
      [&](int, int ranks) {
        options.marked_speeds = mpi::marked_speeds_for_run(given, options.speeds, command.marked.seconds);
        const auto run = mpi::run_kernel(options);
        if (!run) return 0;
        // Rows shared by a functional model: said (by the marked speeds, the default: not).
        const auto distribution = run->record.context.distribution();
        const std::string shared_by =
            distribution && !distribution->model_path().empty() ? "\n  rows shared by " + distribution->describe() : "";
        print(written_and_shown(run_record_json(run->record), command.out, command.json, [&] {
          return fmt::format("kernel {} on {} processes (C = {:.2f} Mflop/s): {}\n  check: {} = {:.3g} (tolerance "
                             "{:.3g}){}{}\n",
                             command.kernel, ranks, run->marked_speed,
                             report::sweep_point_line(run->point, run->marked_speed, command.kernel),
                             run->check.quantity, run->check.value, run->check.tolerance, shared_by,
                             command.out.empty() ? "" : fmt::format("\n  run record in {}", command.out));
        }));
        return run->check.passed ? 0 : 1;
      });
}

// --- hetscale scale sweep --------------------------------------------------------
int sweep_command(SweepCommand& command, int& argc, char**& argv) {
  mpi::SweepOptions options;
  std::vector<double> given;
  io::ProgressOutput progress_output = io::ProgressOutput::automatic;
  return run_mpi_command(
      argc, argv,
      [&](int rank, int ranks) {
        options = checked_sweep_options(command, ranks);
        given = options.kernel.marked_speeds;
        progress_output = progress_output_on_rank(rank);
      },
      [&](int, int) {
        options.kernel.marked_speeds = mpi::marked_speeds_for_run(given, options.kernel.speeds, command.marked.seconds);
        // A step per size, and one for each verifying run at most (the first at
        // the target's N, then the refinements).
        io::Progress progress("sweep", options.sizes.size() + (options.target ? 1 + options.refinements : 0), stderr,
                              progress_output);
        const auto choose_verifying_size = [&](Sweep& sweep, const std::vector<SweepPoint>& verifying) {
          return verifying.empty() ? hetscale::choose_verifying_size(sweep, *options.target, options.degree)
                                   : hetscale::choose_refining_size(sweep, verifying, *options.target);
        };
        const auto sweep = mpi::run_sweep(options, choose_verifying_size,
                                          [&](std::size_t, std::size_t, double, const mpi::KernelRun& run) {
                                            progress.step(fmt::format("N={:g}", run.point.size));
                                          });
        progress.finish();
        if (!sweep) return 0;
        if (!command.timings.empty()) io::write_file_atomically(command.timings, timings_csv(sweep_timings(*sweep)));
        bool all_passed = true;
        for (const auto& point : sweep->points) all_passed = all_passed && point.check_passed;
        if (!command.json && sweep->target && sweep->target->verified)
          all_passed = all_passed && sweep->target->verified->check_passed;
        print(written_and_shown(sweep_json(*sweep), command.out, command.json, [&] {
          return report::sweep_run_table(*sweep, options.repetitions, mpi::to_string(options.point)) +
                 (command.out.empty() ? "" : fmt::format("sweep in {}\n", command.out));
        }));
        return all_passed ? 0 : 1;
      });
}

// --- hetscale bench speed ----------------------------------------------------------
struct SpeedCommand {
  std::string speeds, out, text_out, name = "measured";
  double seconds = 0.3;
  bool json = false;
};

int speed_command(SpeedCommand& command, int& argc, char**& argv) {
  std::vector<double> speeds;
  return run_mpi_command(
      argc, argv,
      [&](int, int ranks) {
        speeds = emulated_speeds(command.speeds);
        mpi::KernelOptions check;
        check.speeds = speeds;
        with_options_named({"speeds"}, [&] { mpi::validate_kernel_options(check, ranks); });
        if (!(command.seconds > 0.0 && command.seconds <= 60.0))
          throw InputError("--seconds", "", fmt::format("must be in (0, 60], got {:g}", command.seconds));
      },
      [&](int rank, int) {
        const double own = speeds.empty() ? 1.0 : speeds[static_cast<std::size_t>(rank)];
        const auto measured = mpi::measure_marked_speeds(own, command.seconds);
        if (!measured) return 0;
        const auto [platform, description] = mpi::measured_speed_platform(*measured, speeds, command.name);
        if (!command.text_out.empty())
          io::write_file_atomically(command.text_out, platform_text(platform, description));
        std::vector<report::MarkedSpeedRow> rows;
        for (std::size_t r = 0; r < measured->size(); ++r) {
          const auto& [kernels, marked, unit] = (*measured)[r];
          rows.push_back({platform.nodes[r].name, speeds.empty() ? 1.0 : speeds[r], kernels[0].mflops,
                          kernels[1].mflops, kernels[2].mflops, marked});
        }
        return print(written_and_shown(platform_json(platform, description), command.out, command.json,
                                       [&] { return report::marked_speeds_table(rows); }));
      });
}

}  // namespace

void add_kernel_options(CLI::App& kernel, KernelCommand& command, KernelBackend backend) {
  kernel.add_option("KERNEL", command.kernel, "ge | mm | conv | mc")->required();
  kernel.add_option("--size", command.size, "N: matrix order or image side (mc: histories)")->required();
  add_speed_options(kernel, command.speeds, command.marked, backend);
  kernel.add_option("--seed", command.seed, "seed of the generated data (default 1)");
  kernel.add_option("--distribution", command.distribution,
                    "how rows are shared: marked (in proportion to the marked speeds, the default) or fpm:MODEL "
                    "(by a functional performance model, hetscale.fpm/1: every rank finishing together)");
  kernel.add_option("--label", command.label, "label of the run record");
  kernel.add_option("--out", command.out, "write the run record (JSON) here");
  kernel.add_flag("--json", command.json, "print the run record instead of a summary");
}

void add_sweep_options(CLI::App& sweep, SweepCommand& command, KernelBackend backend) {
  sweep.add_option("--kernel", command.kernel, "ge | mm | conv | mc (default ge)");
  sweep.add_option("--sizes", command.sizes, "sizes N: first:last:step or a list (or @FILE)")->required();
  add_speed_options(sweep, command.speeds, command.marked, backend);
  sweep.add_option("--target", command.target, "E_s to reach, in (0, 1]: read N off the trend line and verify it");
  sweep.add_option("--degree", command.degree, "degree of the polynomial trend line (default 2)");
  sweep.add_option("--configuration", command.configuration, "name of this configuration (default C)");
  sweep.add_option("--repetitions", command.repetitions, "runs per size (seeds seed, seed + 1, ...) (default 1)");
  sweep.add_option("--point", command.point,
                   "which run of a size is its point: median (of time, the default) or fastest (other work on a "
                   "shared machine only slows a run)");
  sweep.add_option("--refine", command.refine,
                   "verifying runs after the first, each where the measured E_s crosses the target, until one is "
                   "within 5 % of it (default 3; 0: the trend line's N only, as the paper reads it)");
  sweep.add_option("--seed", command.seed, "seed of the generated data (default 1)");
  sweep.add_option("--distribution", command.distribution,
                   "how rows are shared at each N: marked (the default) or fpm:MODEL (a functional performance model)");
  sweep.add_option("--out", command.out, "write the sweep (JSON, hetscale.sweep/1) here");
  sweep.add_option("--timings", command.timings, "also write procs,size,seconds for `hetscale fit serial`");
  sweep.add_flag("--json", command.json, "print the sweep as JSON");
}

// --distribution: marked (the default) or fpm:MODEL, the rows shared by a
// functional performance model's speed functions (docs/partitioning.md).
void apply_distribution(const std::string& distribution, mpi::KernelOptions& options) {
  if (distribution == "marked") return;
  if (distribution.rfind("fpm:", 0) != 0 || distribution.size() == 4)
    throw InputError("--distribution", "", fmt::format("must be marked or fpm:MODEL, got '{}'", distribution));
  options.speed_functions = read_speed_model(distribution.substr(4)).functions();
  options.distribution = distribution;
}

mpi::KernelOptions checked_kernel_options(const KernelCommand& command, int ranks) {
  mpi::KernelOptions options;
  options.kernel = named_choice(mpi::kernel_from_string, command.kernel, "KERNEL");
  options.size = count_option(command.size, "--size");
  options.speeds = emulated_speeds(command.speeds);
  with_options_named({"speeds", "marked", "marked-speeds", "speed-seconds", "distribution", "size"}, [&] {
    options.marked_speeds = mpi::given_marked_speeds(command.marked, ranks);
    options.seed = command.seed;
    options.label = command.label;
    apply_distribution(command.distribution, options);
    mpi::validate_kernel_options(options, ranks);
  });
  return options;
}

mpi::SweepOptions checked_sweep_options(const SweepCommand& command, int ranks) {
  mpi::SweepOptions options;
  options.kernel.kernel = named_choice(mpi::kernel_from_string, command.kernel, "--kernel");
  options.sizes = io::parse_size_list(command.sizes, "--sizes");
  options.kernel.speeds = emulated_speeds(command.speeds);
  const auto check = [&] {
    options.kernel.marked_speeds = mpi::given_marked_speeds(command.marked, ranks);
    options.kernel.seed = command.seed;
    apply_distribution(command.distribution, options.kernel);
    if (!command.target.empty()) options.target = single_number(command.target, "--target");
    if (command.degree < 1 || command.degree > 6)
      throw InputError("--degree", "", fmt::format("must be from 1 to 6, got {}", command.degree));
    options.degree = command.degree;
    options.configuration = command.configuration;
    options.repetitions = command.repetitions;
    options.point = named_choice(mpi::repetition_choice_from_string, command.point, "--point");
    options.refinements = command.refine;
    mpi::validate_sweep_options(options, ranks);
  };
  // A kernel run's size is one of the sweep's --sizes.
  with_options_named({"speeds", "marked", "marked-speeds", "speed-seconds", "distribution",
                      OptionName("size", "--sizes"), "sizes", "target", "configuration", "repetitions", "refine"},
                     check);
  return options;
}

namespace {

void add_marked_speed_arguments(const mpi::MarkedSpeedOptions& marked, std::vector<std::string>& arguments) {
  if (!marked.platform.empty()) arguments.insert(arguments.end(), {"--marked", marked.platform});
  if (!marked.list.empty()) arguments.insert(arguments.end(), {"--marked-speeds", marked.list});
  if (marked.seconds != mpi::MarkedSpeedOptions{}.seconds)
    arguments.insert(arguments.end(), {"--speed-seconds", fmt::format("{}", marked.seconds)});
}

}  // namespace

std::vector<std::string> kernel_arguments(const KernelCommand& command) {
  std::vector<std::string> arguments{"kernel",     command.kernel, "--size",
                                     command.size, "--seed",       std::to_string(command.seed)};
  if (!command.speeds.empty()) arguments.insert(arguments.end(), {"--speeds", command.speeds});
  add_marked_speed_arguments(command.marked, arguments);
  if (command.distribution != "marked") arguments.insert(arguments.end(), {"--distribution", command.distribution});
  if (!command.label.empty()) arguments.insert(arguments.end(), {"--label", command.label});
  if (!command.out.empty()) arguments.insert(arguments.end(), {"--out", command.out});
  if (command.json) arguments.emplace_back("--json");
  return arguments;
}

std::vector<std::string> sweep_arguments(const SweepCommand& command) {
  std::vector<std::string> arguments{"scale",           "sweep",
                                     "--kernel",        command.kernel,
                                     "--sizes",         command.sizes,
                                     "--degree",        std::to_string(command.degree),
                                     "--configuration", command.configuration,
                                     "--repetitions",   std::to_string(command.repetitions),
                                     "--point",         command.point,
                                     "--refine",        std::to_string(command.refine),
                                     "--seed",          std::to_string(command.seed)};
  if (!command.speeds.empty()) arguments.insert(arguments.end(), {"--speeds", command.speeds});
  add_marked_speed_arguments(command.marked, arguments);
  if (command.distribution != "marked") arguments.insert(arguments.end(), {"--distribution", command.distribution});
  if (!command.target.empty()) arguments.insert(arguments.end(), {"--target", command.target});
  if (!command.out.empty()) arguments.insert(arguments.end(), {"--out", command.out});
  if (!command.timings.empty()) arguments.insert(arguments.end(), {"--timings", command.timings});
  if (command.json) arguments.emplace_back("--json");
  return arguments;
}

void add_kernel_command(CLI::App& kernel, Actions& actions) {
  auto command = std::make_shared<KernelCommand>();
  add_kernel_options(kernel, *command, KernelBackend::mpi);
  kernel.callback([command, &actions] {
    actions.mpi_action = [command](int& argc, char**& argv) { return kernel_command(*command, argc, argv); };
  });
}

void add_scale_run_commands(CLI::App& scale, Actions& actions) {
  auto command = std::make_shared<SweepCommand>();
  auto* sweep = scale.add_subcommand(
      "sweep",
      "the speed-efficiency E_s of a kernel at several sizes on this configuration (run under mpiexec), its trend "
      "line, the N for a target E_s and a verifying run (Chen et al. 2008, Section 4.4)");
  add_sweep_options(*sweep, *command, KernelBackend::mpi);
  sweep->callback([command, &actions] {
    actions.mpi_action = [command](int& argc, char**& argv) { return sweep_command(*command, argc, argv); };
  });
}

void add_bench_speed_command(CLI::App& bench, Actions& actions) {
  auto command_pointer = std::make_shared<SpeedCommand>();
  auto& command = *command_pointer;
  auto* speed = bench.add_subcommand(
      "speed",
      "how fast each rank's node is: its marked speed in Mflop/s (run under mpiexec), written as a platform file "
      "(Chen et al. 2008, Definition 1)");
  speed->add_option("--speeds", command.speeds, "emulated relative speed per rank, in (0, 1] (or @FILE)");
  speed->add_option("--seconds", command.seconds, "seconds per benchmark kernel (default 0.3)");
  speed->add_option("--name", command.name, "platform name (default measured)");
  speed->add_option("--out", command.out, "write the platform (JSON) here");
  speed->add_option("--text", command.text_out, "write the platform as 'hostname marked-speed' lines here");
  speed->add_flag("--json", command.json, "print the platform JSON");
  speed->callback([command_pointer, &actions] {
    actions.mpi_action = [command_pointer](int& argc, char**& argv) {
      return speed_command(*command_pointer, argc, argv);
    };
  });
}

}  // namespace hetscale::cli
