// `hetscale measure [options] -- PROGRAM [ARGS...]`: runs any MPI program on
// this rank with libhetscale_measure.so preloaded (docs/measure.md). Started
// by mpiexec on every rank, each hetscale starts PROGRAM as its child with the
// library first in LD_PRELOAD and the options in HETSCALE_MEASURE_*; rank 0's
// library writes the run record inside MPI_Finalize. PROGRAM keeps its
// stdin, stdout, stderr and exit code; hetscale adds only `hetscale:` lines.
#include <filesystem>
#include <string>

#include "cli.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "hetscale/measure/measure_launch.hpp"

namespace hetscale::cli {
namespace {

Output start_measured(const Arguments& arguments) {
  measure::MeasureRequest request;
  request.program = arguments.texts("PROGRAM");
  request.out = arguments.text("--out");
  request.talp_json = arguments.text("--talp-json");
  request.speeds = arguments.text("--speeds");
  request.emulate_speeds = arguments.text("--emulate-speeds");
  request.emulate_thread_speeds = arguments.text("--emulate-thread-speeds");
  request.platform = arguments.text("--platform");
  request.comm_profile = arguments.text("--comm-profile");
  request.latency = arguments.text("--latency");
  request.bandwidth = arguments.text("--bandwidth");
  request.trace = arguments.text("--trace");
  request.time_every_call = arguments.flag("--time-every-call");
  // The libraries: in the build beside this executable, installed in lib/hetscale.
  measure::MeasureLaunch launch{std::filesystem::path(helper_path("libhetscale_measure.so")).parent_path(),
                                HETSCALE_SANITIZER_RUNTIME,
                                io::launcher_size(),
                                io::host_name(),
                                io::launcher_rank() == 0,
                                io::say_on_stderr};
  launch.openmp = arguments.flag("--openmp");
  if (arguments.flag("--library")) {
    const auto program = request.program.empty() ? "" : measure::program_to_run(request.program.front());
    return {measure::preload_list(launch, measure::interposition_library(launch.library_folder, program)) + "\n"};
  }
  return {"", with_options_named({"out", "talp-json", "speeds", "emulate-speeds", "emulate-thread-speeds", "latency",
                                  "bandwidth", "trace"},
                                 [&] { return measure::measure_program(request, launch).code; })};
}

}  // namespace

// Bad input is said once, by rank 0; every rank exits 2 without starting PROGRAM.
Output run_measure(const Arguments& arguments) {
  try {
    return start_measured(arguments);
  } catch (const std::invalid_argument&) {
    if (io::launcher_rank() != 0) return {"", io::exit_bad_input};
    throw;
  }
}

}  // namespace hetscale::cli
