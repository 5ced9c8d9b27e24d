// `hetscale measure [options] -- PROGRAM [ARGS...]`: runs any MPI program on
// this rank with libhetscale_measure.so preloaded (docs/measure.md). Started
// by mpiexec on every rank, each hetscale starts PROGRAM as its child with the
// library first in LD_PRELOAD and the options in HETSCALE_MEASURE_*; rank 0's
// library writes the run record inside MPI_Finalize. PROGRAM keeps its
// stdin, stdout, stderr and exit code; hetscale adds only `hetscale:` lines.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/child_process.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "hetscale/measure/measure_launch.hpp"

namespace hetscale::cli {
namespace {

// The library: in the build beside this executable, installed in lib/hetscale;
// libhetscale_measure.so for Open MPI, libhetscale_measure_mpich.so for MPICH.
std::string library_path(const std::string& name = "libhetscale_measure.so") {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return helper_path(name, (self.parent_path() / name).string());
}

// The library for the MPI `program` is linked with: MPICH's when the dynamic
// linker resolves a libmpich for it (ldd), Open MPI's otherwise.
std::string library_for(const std::string& program) {
  try {
    if (io::run_program({"ldd", program}).output.find("libmpich.so") != std::string::npos)
      return library_path("libhetscale_measure_mpich.so");
  } catch (const io::ProgramUnavailable&) {
    // no ldd: Open MPI's, the default
  }
  return library_path();
}

// What goes first in LD_PRELOAD: the library, and in a build with AddressSanitizer
// (make test SANITIZE=address,...) the sanitizer's run time before it, which must
// come first in a program that was not built with it.
std::string preload_list(const std::string& library) {
  const std::string runtime = HETSCALE_SANITIZER_RUNTIME;
  return runtime.empty() ? library : runtime + ":" + library;
}

Output start_measured(const Arguments& arguments) {
  measure::MeasureRequest request;
  request.program = arguments.texts("PROGRAM");
  request.out = arguments.text("--out");
  request.talp_json = arguments.text("--talp-json");
  request.speeds = arguments.text("--speeds");
  request.emulate_speeds = arguments.text("--emulate-speeds");
  request.platform = arguments.text("--platform");
  request.comm_profile = arguments.text("--comm-profile");
  request.latency = arguments.text("--latency");
  request.bandwidth = arguments.text("--bandwidth");
  if (arguments.flag("--library"))
    return {preload_list(request.program.empty() ? library_path()
                                                 : library_for(measure::program_to_run(request.program.front()))) +
            "\n"};
  if (request.program.empty())
    throw InputError("PROGRAM", "", "missing: hetscale measure [options] -- PROGRAM [ARGS...]");
  if (!request.platform.empty() && !request.speeds.empty())
    throw InputError("--platform", "", "give --platform or --speeds, not both");
  const std::string program = measure::program_to_run(request.program.front());
  const std::string library = library_for(program);
  if (access(library.c_str(), R_OK) != 0)
    throw InputError("measure", library,
                     "the interposition library for the program's MPI is missing (build or install hetscale again; "
                     "MPICH's needs Debian's libmpich-dev when hetscale is built)");
  const auto settings =
      with_options_named({"out", "talp-json", "speeds", "emulate-speeds", "latency", "bandwidth"},
                         [&] { return measure::measure_settings(request, io::launcher_size(), io::host_name()); });
  const auto started = std::filesystem::file_time_type::clock::now();
  const auto exit =
      measure::run_measured(program, std::vector<std::string>(request.program.begin() + 1, request.program.end()),
                            preload_list(library), settings);
  if (!settings.out.empty() && io::launcher_rank() == 0) {
    std::error_code error;
    const bool written = std::filesystem::exists(settings.out, error) &&
                         std::filesystem::last_write_time(settings.out, error) >= started;
    if (!written)
      io::say_on_stderr(fmt::format("hetscale: no run record written to {}: {} {} before its MPI_Finalize completed\n",
                                    settings.out, request.program.front(),
                                    exit.signal ? fmt::format("was killed by signal {}", *exit.signal)
                                                : fmt::format("exited with code {}", exit.code)));
  }
  return {"", exit.code};
}

// Bad input is said once, by rank 0; every rank exits 2 without starting PROGRAM.
}  // namespace

Output run_measure(const Arguments& arguments) {
  try {
    return start_measured(arguments);
  } catch (const std::invalid_argument&) {
    if (io::launcher_rank() != 0) return {"", io::exit_bad_input};
    throw;
  }
}

}  // namespace hetscale::cli
