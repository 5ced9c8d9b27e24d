// hetscale bench comm: Chen et al. 2008 Section 4.5's communication costs measured
// on MPI (run/comm_benchmark.hpp), printed as tables or JSON, written as a
// hetscale.comm-profile/1 file.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "cli.hpp"
#include "hetscale/analysis/comm_fit.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/record/comm_profile.hpp"
#include "hetscale/report/comm_profile_report.hpp"
#include "hetscale/mpi/comm_benchmark.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/mpi/step_benchmark.hpp"

namespace hetscale::cli {
namespace {

struct CommCommand {
  mpi::CommBenchmarkOptions options;
  std::string sizes, repetitions, min_seconds, out, timing = "back-to-back";
  bool json = false;
};

// Message sizes in doubles: whole numbers from 1 to mpi::max_message_elements.
std::vector<std::size_t> message_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  const auto values = io::parse_number_list(text, "--sizes");
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 1.0 || values[i] != std::floor(values[i]) ||
        values[i] > static_cast<double>(mpi::max_message_elements))
      throw InputError("--sizes", fmt::format("item {}", i + 1),
                       fmt::format("must be a whole number of doubles from 1 to {}, got {:g}",
                                   mpi::max_message_elements, values[i]));
    sizes.push_back(static_cast<std::size_t>(values[i]));
  }
  return sizes;
}

// Runs on every rank; returns the exit code. Only rank 0 writes and prints.
int bench_comm(CommCommand& command, int& argc, char**& argv) {
  auto& options = command.options;
  return run_mpi_command(
      argc, argv,
      [&](int, int ranks) {
        if (!command.sizes.empty()) options.sizes = message_sizes(command.sizes);
        if (!command.repetitions.empty()) options.repetitions = count_option(command.repetitions, "--repetitions");
        if (!command.min_seconds.empty()) options.min_seconds = single_number(command.min_seconds, "--min-seconds");
        if (command.timing == "asleep")
          options.timing = mpi::CommTiming::asleep;
        else if (command.timing != "back-to-back")
          throw InputError("--timing", "",
                           fmt::format("unknown timing '{}'; allowed: back-to-back, asleep", command.timing));
        with_options_named({"sizes", "repetitions", "min-seconds"},
                           [&] { mpi::validate_comm_benchmark_options(options, ranks); });
      },
      [&](int rank, int) {
        auto profile = mpi::run_comm_benchmark(options);
        if (rank != 0) return 0;
        fit_measured_profile(*profile, options.structures);
        return print(written_and_shown(comm_profile_json(*profile), command.out, command.json,
                                       [&] { return report::comm_profile_table(*profile); }));
      });
}

struct StepsCommand {
  std::string kernel = "ge", lengths, speeds, marked_speeds, out;
  std::size_t steps = 200, fastest_of = 1;
  bool json = false;
};

int bench_steps(StepsCommand& command, int& argc, char**& argv) {
  mpi::StepBenchmark benchmark;
  return run_mpi_command(
      argc, argv,
      [&](int, int ranks) {
        if (command.kernel != "ge" && command.kernel != "mm")
          throw InputError("--kernel", "", fmt::format("unknown kernel '{}'; allowed: ge, mm", command.kernel));
        benchmark.kernel = command.kernel;
        benchmark.lengths = io::parse_size_list(command.lengths, "--lengths");
        if (command.steps < 1) throw InputError("--steps", "", "must be >= 1");
        benchmark.steps = command.steps;
        if (command.fastest_of != 1 && command.kernel != "mm")
          throw InputError("--fastest-of", "", "applies to mm (each step a whole product); ge's steps are summed");
        if (command.fastest_of < 1 || command.steps % command.fastest_of != 0)
          throw InputError(
              "--fastest-of", "",
              fmt::format("must be >= 1 and divide --steps {}, got {}", command.steps, command.fastest_of));
        benchmark.fastest_of = command.fastest_of;
        benchmark.emulated_speeds = emulated_speeds_option(command.speeds, ranks);
        benchmark.marked_speeds = per_rank_speeds(command.marked_speeds, "--marked-speeds", ranks);
      },
      [&](int, int ranks) {
        const auto costs = mpi::measure_step_costs(benchmark);
        if (!costs) return 0;
        const bool product = benchmark.kernel == "mm";
        std::string text =
            fmt::format("{}: {} ranks, {} steps a {}; seconds per step\n{:>8} {:>12} {:>12} {:>12}\n", benchmark.kernel,
                        ranks, benchmark.steps, product ? "size (the whole product)" : "length",
                        product ? "N" : "length", "step", "computation", "overhead");
        for (const auto& cost : costs->costs)
          text += fmt::format("{:>8g} {:>12.4g} {:>12.4g} {:>12.4g}\n", cost.length, cost.step_seconds,
                              cost.computation_seconds, cost.overhead_seconds);
        return print(written_and_shown(step_costs_json(*costs), command.out, command.json, [&] { return text; }));
      });
}

}  // namespace

void add_bench_steps_command(CLI::App& bench, Actions& actions) {
  auto command = std::make_shared<StepsCommand>();
  auto* steps = bench.add_subcommand(
      "steps",
      "what a kernel's step costs on this configuration beyond its computation (messages, the wait for the slowest "
      "rank, the barrier, the emulation's sleeps): ge's elimination step at row lengths L, mm's whole product at "
      "orders N (run under mpiexec)");
  steps->add_option("--kernel", command->kernel, "ge (default) or mm");
  steps->add_option("--lengths,--sizes", command->lengths, "ge: row lengths L; mm: orders N; a list or FIRST:LAST:STEP")
      ->required();
  steps->add_option("--steps", command->steps, "timed steps per size (default 200)");
  steps->add_option("--fastest-of", command->fastest_of,
                    "mm: the steps in groups of K, each group's fastest, the median over the groups (as a sweep's "
                    "--repetitions K --point fastest takes its points; default 1)");
  steps->add_option("--speeds", command->speeds, "emulated relative speed per rank, in (0, 1]");
  steps->add_option("--marked-speeds", command->marked_speeds, "marked speed per rank (the rows' shares)");
  steps->add_option("--out", command->out, "write the costs (JSON, hetscale.step-costs/1) here");
  steps->add_flag("--json", command->json, "print the JSON");
  steps->callback([&actions, command] {
    actions.mpi_action = [command](int& argc, char**& argv) { return bench_steps(*command, argc, argv); };
  });
}

void add_bench_comm_command(CLI::App& bench, Actions& actions) {
  auto command = std::make_shared<CommCommand>();  // kept alive by the callback and the action
  const mpi::CommBenchmarkOptions defaults;
  auto* comm = bench.add_subcommand(
      "comm",
      "what communication costs on this machine: broadcast, send/receive and barrier timed on MPI (run under "
      "mpiexec, 2 or more ranks), "
      "fit T_bcast = a + b p, T_send = a + b N, T_barrier = c p, and measure t_c; and Stage-GA's multiphase, shift, "
      "broadcast, scatter and gather structures, fitted to t = (M p + N) d + (R p + Q)");
  comm->add_option(
      "--sizes", command->sizes,
      fmt::format("message sizes in doubles, two or more different (default {})", fmt::join(defaults.sizes, ",")));
  comm->add_option("--repetitions", command->repetitions,
                   fmt::format("timed repetitions per point, at least (default {})", defaults.repetitions));
  comm->add_option(
      "--min-seconds", command->min_seconds,
      fmt::format("more repetitions until a point has taken about this long (default {:g})", defaults.min_seconds));
  comm->add_option("--timing", command->timing,
                   "back-to-back (operations in a row, partners awake, as in a kernel's steps; default) | asleep "
                   "(one at a time, partners asleep between polls)");
  comm->add_option("--label", command->options.label, "label of the profile");
  comm->add_option("--out", command->out, "write the profile (JSON, hetscale.comm-profile/1) here");
  comm->add_flag("--json", command->json, "print the profile instead of tables");
  comm->callback([&actions, command] {
    actions.mpi_action = [command](int& argc, char**& argv) { return bench_comm(*command, argc, argv); };
  });
}

}  // namespace hetscale::cli
