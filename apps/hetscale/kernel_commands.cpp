// The scalability kernels on MPI: `hetscale kernel`, `hetscale scale sweep`
// and `hetscale bench speed`. Each runs on every rank under mpiexec; rank 0
// prints and writes.
#include "kernel_commands.hpp"

#include <fmt/core.h>

#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/mpi/marked_speeds.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/record/timings.hpp"
#include "hetscale/report/isospeed_report.hpp"

namespace hetscale::cli {

namespace {

std::vector<double> emulated_speeds(const Arguments& arguments) {
  const auto& text = arguments.has("--speeds") ? arguments.text("--speeds") : std::string();
  return text.empty() ? std::vector<double>{} : io::parse_positive_list(text, "--speeds");
}

// The marked speeds given (on this machine's MPI only: in the simulator they are the platform's).
mpi::MarkedSpeedOptions marked_speed_options(const Arguments& arguments) {
  mpi::MarkedSpeedOptions marked;
  if (!arguments.has("--marked")) return marked;
  marked.platform = arguments.text("--marked");
  marked.list = arguments.text("--marked-speeds");
  arguments.take("--speed-seconds", marked.seconds);
  return marked;
}

}  // namespace

mpi::KernelOptions checked_kernel_options(const Arguments& arguments, int ranks) {
  mpi::KernelOptions options;
  options.kernel = named_choice(mpi::kernel_from_string, arguments.text("KERNEL"), "KERNEL");
  options.size = io::parse_count(arguments.text("--size"), "--size");
  options.speeds = emulated_speeds(arguments);
  options.seed = arguments.whole("--seed");
  options.label = arguments.text("--label");
  with_options_named({"speeds", "marked", "marked-speeds", "speed-seconds", "distribution", "size"}, [&] {
    options.marked_speeds = mpi::given_marked_speeds(marked_speed_options(arguments), ranks);
    mpi::set_distribution(options, arguments.text("--distribution"));
    mpi::validate_kernel_options(options, ranks);
  });
  return options;
}

mpi::SweepOptions checked_sweep_options(const Arguments& arguments, int ranks) {
  mpi::SweepOptions options;
  options.kernel.kernel = named_choice(mpi::kernel_from_string, arguments.text("--kernel"), "--kernel");
  options.sizes = io::parse_size_list(arguments.text("--sizes"), "--sizes");
  options.kernel.speeds = emulated_speeds(arguments);
  options.kernel.seed = arguments.whole("--seed");
  if (arguments.given("--target")) options.target = io::parse_one_number(arguments.text("--target"), "--target");
  options.degree = arguments.whole("--degree");
  options.configuration = arguments.text("--configuration");
  options.repetitions = arguments.whole("--repetitions");
  options.point = named_choice(mpi::repetition_choice_from_string, arguments.text("--point"), "--point");
  options.refinements = arguments.whole("--refine");
  // A kernel run's size is one of the sweep's --sizes.
  with_options_named(
      {"speeds", "marked", "marked-speeds", "speed-seconds", "distribution", OptionName("size", "--sizes"), "sizes",
       "target", "configuration", "repetitions", "refine", "degree"},
      [&] {
        options.kernel.marked_speeds = mpi::given_marked_speeds(marked_speed_options(arguments), ranks);
        mpi::set_distribution(options.kernel, arguments.text("--distribution"));
        mpi::validate_sweep_options(options, ranks);
      });
  return options;
}

int run_kernel(const Arguments& arguments, int& argc, char**& argv) {
  mpi::KernelOptions options;
  std::vector<double> given;
  return mpi::run_on_every_rank(
      argc, argv,
      [&](int, int ranks) {
        options = checked_kernel_options(arguments, ranks);
        given = options.marked_speeds;
      },
      [&](int, int ranks) {
        options.marked_speeds =
            mpi::marked_speeds_for_run(given, options.speeds, marked_speed_options(arguments).seconds);
        const auto run = mpi::run_kernel(options);
        if (!run) return 0;
        const auto& out = arguments.text("--out");
        print(written_and_shown(run_record_json(run->record), out, arguments.flag("--json"), [&] {
          return report::kernel_run_summary(arguments.text("KERNEL"), ranks, run->point, run->marked_speed, run->check,
                                            run->record, out);
        }));
        return run->check.passed ? 0 : 1;
      });
}

int run_scale_sweep(const Arguments& arguments, int& argc, char**& argv) {
  mpi::SweepOptions options;
  std::vector<double> given;
  io::ProgressOutput progress_output = io::ProgressOutput::automatic;
  return mpi::run_on_every_rank(
      argc, argv,
      [&](int rank, int ranks) {
        options = checked_sweep_options(arguments, ranks);
        given = options.kernel.marked_speeds;
        progress_output = io::progress_output_on_rank(rank);
      },
      [&](int, int) {
        options.kernel.marked_speeds =
            mpi::marked_speeds_for_run(given, options.kernel.speeds, marked_speed_options(arguments).seconds);
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
        const auto& timings = arguments.text("--timings");
        if (!timings.empty()) io::write_file_atomically(timings, timings_csv(sweep_timings(*sweep)));
        const bool json = arguments.flag("--json");
        const auto& out = arguments.text("--out");
        print(written_and_shown(sweep_json(*sweep), out, json, [&] {
          return report::sweep_run_table(*sweep, options.repetitions, mpi::to_string(options.point)) +
                 (out.empty() ? "" : fmt::format("sweep in {}\n", out));
        }));
        return sweep_checks_passed(*sweep, !json) ? 0 : 1;
      });
}

int run_bench_speed(const Arguments& arguments, int& argc, char**& argv) {
  std::vector<double> speeds;
  const double seconds = arguments.number("--seconds");
  return mpi::run_on_every_rank(
      argc, argv,
      [&](int, int ranks) {
        speeds = emulated_speeds(arguments);
        mpi::KernelOptions check;
        check.speeds = speeds;
        with_options_named({"speeds"}, [&] { mpi::validate_kernel_options(check, ranks); });
        if (!(seconds > 0.0 && seconds <= 60.0))
          throw InputError("--seconds", "", fmt::format("must be in (0, 60], got {:g}", seconds));
      },
      [&](int rank, int) {
        const double own = speeds.empty() ? 1.0 : speeds[static_cast<std::size_t>(rank)];
        const auto measured = mpi::measure_marked_speeds(own, seconds);
        if (!measured) return 0;
        const auto [platform, description, kernel_mflops] =
            mpi::measured_speed_platform(*measured, speeds, arguments.text("--name"));
        if (arguments.given("--text"))
          io::write_file_atomically(arguments.text("--text"), platform_text(platform, description));
        return print(written_and_shown(platform_json(platform, description), arguments.text("--out"),
                                       arguments.flag("--json"),
                                       [&] { return report::marked_speeds_table(platform, speeds, kernel_mflops); }));
      });
}

}  // namespace hetscale::cli
