// The simulator's MPI: `hetscale simulate kernel` and `simulate sweep` run
// the same commands as `hetscale kernel` and `scale sweep`, built against
// SimGrid's MPI (hetscale-smpi), under smpirun on the hosts of a platform
// file, one rank per host, the options checked here first; `simulate replay`
// replays a run's trace by SimGrid's replayer.
#include <cstdlib>
#include <string>
#include <vector>

#include "cli.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/report/simulation_report.hpp"
#include "hetscale/sim/smpi_launch.hpp"
#include "hetscale/sim/trace_replay.hpp"
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

}  // namespace

Output run_simulate_replay(const Arguments& arguments) {
  sim::ReplayRequest request{arguments.text("TRACE"),     arguments.text("--platform"),      arguments.text("--hosts"),
                             arguments.text("--shares"),  arguments.text("--traced-shares"), arguments.text("--repeat"),
                             arguments.texts("--what-if")};
  const sim::ReplayPrograms programs{program_path("HETSCALE_SMPIRUN", HETSCALE_SMPIRUN_PROGRAM),
                                     program_path("HETSCALE_SMPIREPLAYMAIN", HETSCALE_SMPIREPLAYMAIN_PROGRAM)};
  const auto outcome = with_options_named({"hosts", "platform", "shares", "traced-shares", "repeat", "what-if"},
                                          [&] { return sim::replay_request(request, programs); });
  const auto& out = arguments.text("--out");
  return written_and_shown(run_record_json(outcome.record), out, arguments.flag("--json"),
                           [&] { return report::replay_outcome_summary(outcome, out); });
}

namespace {

// hetscale-smpi's `command` with the options given (less the hosts'), checked
// by `check` first, on the hosts selected.
template <class Check>
Output simulated(const Arguments& arguments, std::vector<std::string> command, Check check) {
  const Platform hosts = selected_hosts(arguments);
  check(arguments, static_cast<int>(hosts.nodes.size()));
  for (auto& word : arguments.as_given({"--platform", "--hosts"})) command.push_back(std::move(word));
  const sim::SmpiPrograms programs{program_path("HETSCALE_SMPIRUN", HETSCALE_SMPIRUN_PROGRAM),
                                   program_path("HETSCALE_SMPI", helper_path("hetscale-smpi", HETSCALE_SMPI_PROGRAM))};
  return {"", sim::run_in_simulator(hosts, programs, command, "HETSCALE_SMPIRUN", "HETSCALE_SMPI")};
}

}  // namespace

Output run_simulate_kernel(const Arguments& arguments) {
  return simulated(arguments, {"kernel"}, checked_kernel_options);
}

Output run_simulate_sweep(const Arguments& arguments) {
  return simulated(arguments, {"scale", "sweep"}, checked_sweep_options);
}

}  // namespace hetscale::cli
