// The scalability kernels in the simulator: `hetscale simulate kernel` and
// `hetscale simulate sweep` run the same commands as `hetscale kernel` and
// `hetscale scale sweep`, built against SimGrid's MPI (hetscale-smpi), under
// smpirun on the hosts of a platform file, one rank per host. The options are
// checked here first, so bad input stops before the simulation starts.
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/smpi_launch.hpp"
#include "kernel_commands.hpp"

namespace hetscale::cli {

namespace {

// The platform's nodes --hosts selects, one rank each.
Platform selected_hosts(const Arguments& arguments) {
  const Platform platform = read_platform(arguments.text("--platform"));
  return with_options_named({"hosts"}, [&] { return sim::select_hosts(platform, arguments.text("--hosts")); });
}

std::string program_path(const char* variable, const std::string& built) {
  if (const char* path = std::getenv(variable); path && *path) return path;
  return built;
}

// Runs hetscale-smpi with `arguments` on the selected hosts; its exit code.
Output run_simulation(const Platform& hosts, const std::vector<std::string>& arguments) {
  const sim::SmpiPrograms programs{program_path("HETSCALE_SMPIRUN", HETSCALE_SMPIRUN_PROGRAM),
                                   program_path("HETSCALE_SMPI", helper_path("hetscale-smpi", HETSCALE_SMPI_PROGRAM))};
  const int code = sim::run_in_simulator(hosts, programs, arguments, "HETSCALE_SMPIRUN", "HETSCALE_SMPI");
  // hetscale-smpi ends with 0 (done, checks passed), 1 (a check failed), 2
  // (bad input, said on stderr) or 3 (internal error, said on stderr).
  if (code > io::exit_internal_error) {
    io::say_on_stderr(fmt::format("hetscale: internal error: the simulation failed (smpirun exit code {})\n", code));
    return {"", io::exit_internal_error};
  }
  return {"", code};
}

}  // namespace

Output run_simulate_kernel(const Arguments& arguments) {
  const Platform hosts = selected_hosts(arguments);
  checked_kernel_options(arguments, static_cast<int>(hosts.nodes.size()));
  auto given = arguments.as_given({"--platform", "--hosts"});
  given.insert(given.begin(), "kernel");
  return run_simulation(hosts, given);
}

Output run_simulate_sweep(const Arguments& arguments) {
  const Platform hosts = selected_hosts(arguments);
  checked_sweep_options(arguments, static_cast<int>(hosts.nodes.size()));
  auto given = arguments.as_given({"--platform", "--hosts"});
  given.insert(given.begin(), {"scale", "sweep"});
  return run_simulation(hosts, given);
}

}  // namespace hetscale::cli
