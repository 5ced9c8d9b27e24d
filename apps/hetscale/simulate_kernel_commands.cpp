// The scalability kernels in the simulator: `hetscale simulate kernel` and
// `hetscale simulate sweep` run the same commands as `hetscale kernel` and
// `hetscale scale sweep`, built against SimGrid's MPI (hetscale-smpi), under
// smpirun on the hosts of a platform file, one rank per host. The options are
// checked here first, so bad input stops before the simulation starts.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/smpi_launch.hpp"
#include "kernel_commands.hpp"

namespace hetscale::cli {

namespace {

// Which of the platform's nodes run the ranks.
struct HostOptions {
  std::string platform, hosts;
};

void add_host_options(CLI::App& command, HostOptions& options) {
  command
      .add_option("--platform", options.platform,
                  "platform file (hetscale.platform/1 or 'hostname marked-speed' lines): the simulated hosts, "
                  "their speeds (marked speeds in Mflop/s; relative speeds times the reference's marked speed, "
                  "else times 1000 Mflop/s) and the network")
      ->required();
  command.add_option("--hosts", options.hosts,
                     "the hosts, one rank each in this order: a count (the platform's first nodes) or node names "
                     "a,b,c (or @FILE, names separated by commas or lines); default every node");
}

Platform selected_hosts(const HostOptions& options) {
  const Platform platform = read_platform(options.platform);
  const std::string& hosts = options.hosts;
  if (hosts.empty()) return platform;
  if (hosts.find_first_not_of("0123456789") == std::string::npos)
    return sim::first_nodes(platform, count_option(hosts, "--hosts"), "--hosts");
  const std::string names = hosts.front() == '@' ? io::read_text_file(hosts.substr(1)) : hosts;
  return sim::select_nodes(platform, io::split_names(names), "--hosts");
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
  if (code > exit_internal_error) {
    std::cerr << fmt::format("hetscale: internal error: the simulation failed (smpirun exit code {})\n", code);
    return {"", exit_internal_error};
  }
  return {"", code};
}

}  // namespace

void add_simulate_kernel_commands(CLI::App& simulate, Actions& actions) {
  struct SimulatedKernel {
    HostOptions hosts;
    KernelCommand command;
  };
  auto kernel_command = std::make_shared<SimulatedKernel>();
  auto* kernel = simulate.add_subcommand(
      "kernel",
      "how a scalability kernel (ge, mm, conv, mc) would run on a simulated platform: under SMPI, one rank per host, "
      "checked against its serial result; computation charged by flop at the hosts' speeds");
  add_host_options(*kernel, kernel_command->hosts);
  add_kernel_options(*kernel, kernel_command->command, KernelBackend::simulator);
  kernel->callback([kernel_command, &actions] {
    actions.action = [kernel_command] {
      const Platform hosts = selected_hosts(kernel_command->hosts);
      checked_kernel_options(kernel_command->command, static_cast<int>(hosts.nodes.size()));
      return run_simulation(hosts, kernel_arguments(kernel_command->command));
    };
  });

  struct SimulatedSweep {
    HostOptions hosts;
    SweepCommand command;
  };
  auto sweep_command = std::make_shared<SimulatedSweep>();
  auto* sweep = simulate.add_subcommand(
      "sweep",
      "a kernel's speed-efficiency at several sizes on a simulated platform (under SMPI), its trend line, the N for "
      "a target E_s and a verifying run; the sweep reads like a measured one (Chen et al. 2008, Section 4.4)");
  add_host_options(*sweep, sweep_command->hosts);
  add_sweep_options(*sweep, sweep_command->command, KernelBackend::simulator);
  sweep->callback([sweep_command, &actions] {
    actions.action = [sweep_command] {
      const Platform hosts = selected_hosts(sweep_command->hosts);
      checked_sweep_options(sweep_command->command, static_cast<int>(hosts.nodes.size()));
      return run_simulation(hosts, sweep_arguments(sweep_command->command));
    };
  });
}

}  // namespace hetscale::cli
