// hetscale bench comm: seed 001 Section 4.5's communication costs measured
// on MPI (run/comm_benchmark.hpp), printed as tables or JSON, written as a
// hetscale.comm-profile/1 file.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "hetscale/analysis/comm_fit.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/record/comm_profile.hpp"
#include "hetscale/report/table.hpp"
#include "hetscale/mpi/comm_benchmark.hpp"
#include "hetscale/mpi/farm.hpp"

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

std::string microseconds(double seconds) { return fmt::format("{:.3g}", seconds * 1e6); }

const CommFitQuality* fit_of(const CommProfile& profile, std::string_view operation) {
  for (const auto& fit : profile.fits)
    if (fit.operation == operation) return &fit;
  return nullptr;
}

std::string profile_table(const CommProfile& profile) {
  const auto context = nlohmann::json::parse(profile.context_json);
  const auto& costs = profile.costs;
  std::string out = fmt::format("hetscale bench comm: {} MPI ranks on {} ({}), {}\n\n", context.value("ranks", 0),
                                context.value("host", std::string("?")), context.value("mpi_library", std::string("?")),
                                "medians of the repetitions, times in microseconds (us)");
  double smallest = 0.0;
  for (const auto& sample : profile.samples)
    if (sample.operation == "broadcast" && (smallest == 0.0 || sample.elements < smallest)) smallest = sample.elements;

  report::TextTable fits({"operation", "fitted form (seed 001 Section 4.5)", "r_squared", "points"});
  auto add = [&](std::string_view operation, const std::string& form) {
    const auto* fit = fit_of(profile, operation);
    fits.add_row({std::string(operation), form, fit ? fmt::format("{:.3f}", fit->r_squared) : "-",
                  fit ? std::to_string(fit->points) : "-"});
  };
  add("broadcast", fmt::format("T = {} + {} p us (at N = {:g})", microseconds(costs.broadcast_intercept),
                               microseconds(costs.broadcast_per_process), smallest));
  add("send", fmt::format("T = {} + {} N us (N doubles)", microseconds(costs.send_intercept),
                          microseconds(costs.send_per_element)));
  add("receive", fit_of(profile, "receive") ? fmt::format("T = {} + {} N us", microseconds(costs.receive_intercept),
                                                          microseconds(costs.receive_per_element))
                                            : "T = T_send (a send is timed until received)");
  add("barrier", fmt::format("T = {} p us", microseconds(costs.barrier_per_process)));
  out += fits.render();
  out += fmt::format("\nunit computation t_c = {:.4g} s per flop", costs.unit_computation);
  if (costs.reference_marked_speed)
    out += fmt::format("; reference marked speed C_ref = {:.4g} Mflop/s (rank 0)", *costs.reference_marked_speed);
  out += "\n";
  if (const auto* broadcast = fit_of(profile, "broadcast"); broadcast && broadcast->points == 1)
    out +=
        "note: one process count (2 ranks): the broadcast line goes through the origin; run with 3 or more "
        "ranks to fit its intercept\n";

  if (!profile.structures.empty()) {
    report::TextTable structures(
        {"structure (seed 004)", "M us/double", "N us/double", "R us", "Q us", "r_squared", "points"});
    for (const auto& costs : profile.structures) {
      const bool shift = costs.structure == "shift";
      structures.add_row({costs.structure, shift ? "-" : fmt::format("{:.3g}", costs.m * 1e6),
                          fmt::format("{:.3g}", costs.n * 1e6), shift ? "-" : microseconds(costs.r),
                          microseconds(costs.q), costs.r_squared ? fmt::format("{:.3f}", *costs.r_squared) : "-",
                          std::to_string(costs.points)});
    }
    out += "\nstructures: t(d, p) = (M p + N) d + (R p + Q), d doubles per processor (shift: N d + Q)\n" +
           structures.render();
  }

  report::TextTable samples({"operation", "processes", "elements", "median_us", "repetitions"});
  for (const auto& sample : profile.samples)
    if (sample.operation != "compute")
      samples.add_row({sample.operation, std::to_string(sample.processes), fmt::format("{:g}", sample.elements),
                       microseconds(sample.seconds), std::to_string(sample.repetitions)});
  return out + "\nsamples\n" + samples.render();
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
        mpi::validate_comm_benchmark_options(options, ranks);
      },
      [&](int rank, int) {
        auto profile = mpi::run_comm_benchmark(options);
        if (rank != 0) return 0;
        fit_measured_profile(*profile, options.structures);
        const std::string json = comm_profile_json(*profile);
        if (!command.out.empty()) io::write_file_atomically(command.out, json);
        const std::string text = command.json ? json : profile_table(*profile);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
      });
}

}  // namespace

void add_bench_comm_command(CLI::App& bench, Actions& actions) {
  auto command = std::make_shared<CommCommand>();  // kept alive by the callback and the action
  const mpi::CommBenchmarkOptions defaults;
  auto* comm = bench.add_subcommand(
      "comm",
      "seed 001 Section 4.5: time broadcast, send/receive and barrier on MPI (run under mpiexec, 2 or more ranks), "
      "fit T_bcast = a + b p, T_send = a + b N, T_barrier = c p, and measure t_c; and seed 004's multiphase, shift, "
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
