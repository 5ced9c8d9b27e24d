// The simulator (SimGrid): `hetscale simulate farm` runs the APGA 2004 task
// farm, or a job log's tasks, on a simulated platform and writes a run
// record; `hetscale simulate platform` shows a platform as SimGrid sees it.
// The kernels under SMPI are in simulate_kernel_commands.cpp.
#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/task_log.hpp"
#include "hetscale/report/json_report.hpp"
#include "hetscale/report/simulation_report.hpp"
#include "hetscale/sim/farm_engine.hpp"
#include "hetscale/sim/simgrid_platform.hpp"

namespace hetscale::cli {

Output run_simulate_farm(const Arguments& arguments) {
  sim::SimulatedFarmOptions options;
  const auto& tasks_from = arguments.text("--tasks-from");
  std::optional<TaskLogReplay> replay;
  if (!tasks_from.empty()) {
    replay = read_task_log_for_replay(tasks_from);
    options.task_costs = replay->task_seconds;
  }
  if (arguments.given("--policy"))
    options.policy = named_choice(distribute::policy_from_string, arguments.text("--policy"), "--policy");
  arguments.take("--tasks-per-generation", options.tasks_per_generation);
  arguments.take("--generations", options.generations);
  arguments.take("--eval-time", options.evaluation_seconds);
  arguments.take("--clients", options.clients);
  arguments.take("--genes", options.genes);
  arguments.take("--send-overhead", options.send_overhead_seconds);
  arguments.take("--label", options.label);
  const auto& platform_path = arguments.text("--platform");
  const Platform platform = read_platform(platform_path);
  const auto engine =
      sim::farm_simulator(named_choice(sim::farm_engine_from_string, arguments.text("--engine"), "--engine"));
  with_options_named({"clients", "tasks-per-generation", "generations", "eval-time", "send-overhead"},
                     [&] { engine->validate(platform, options); });
  // A progress line per generation.
  io::Progress progress("simulate farm", replay ? 1 : options.generations);
  options.on_generation = [&progress](std::size_t done, std::size_t total) {
    progress.step(fmt::format("generation {}/{}", done, total));
  };
  const auto run = engine->simulate(platform, options);
  progress.finish();
  const auto& out = arguments.text("--out");
  return written_and_shown(run_record_json(run.record), out, arguments.flag("--json"), [&] {
    return replay ? report::replayed_tasks_summary(platform, platform_path, options, *replay, tasks_from, run, out)
                  : report::simulated_farm_summary(platform, platform_path, options, run, out);
  });
}

Output run_simulate_platform(const Arguments& arguments) {
  const auto& path = arguments.text("platform");
  const auto &xml_out = arguments.text("--xml"), &hostfile = arguments.text("--hostfile");
  const Platform platform = read_platform(path);
  const std::string xml = sim::simgrid_platform_xml(platform);
  if (!hostfile.empty()) io::write_file_atomically(hostfile, sim::simgrid_hostfile(platform));
  if (!xml_out.empty()) io::write_file_atomically(xml_out, xml);
  if (arguments.flag("--json")) return {report::simulate_platform_json(path, platform, xml, xml_out, hostfile)};
  if (xml_out.empty()) return {xml};
  return {fmt::format("{} nodes; SimGrid platform in {}{}\n", platform.nodes.size(), xml_out,
                      hostfile.empty() ? "" : fmt::format(", hostfile in {}", hostfile))};
}

}  // namespace hetscale::cli
