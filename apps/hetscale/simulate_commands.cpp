// The simulator (SimGrid): `hetscale simulate farm` runs the APGA 2004 task
// farm on a simulated platform and writes a run record; `hetscale simulate
// platform` shows a platform as SimGrid sees it. The kernels under SMPI are
// in simulate_kernel_commands.cpp.
#include <memory>
#include <optional>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/report/json_report.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/simgrid_platform.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/task_log.hpp"
#include "hetscale/sim/farm_simulation.hpp"
#include "hetscale/sim/farm_engine.hpp"

namespace hetscale::cli {

namespace {

struct SimulateFarmCommand {
  sim::SimulatedFarmOptions options;
  std::string platform, policy = distribute::to_string(distribute::default_policy), out, tasks_from, engine = "simgrid";
  bool json = false;
};

// The engine --engine names, once the platform and options passed its checks.
std::unique_ptr<sim::FarmSimulator> checked_engine(const SimulateFarmCommand& command, const Platform& platform) {
  auto engine = sim::farm_simulator(named_choice(sim::farm_engine_from_string, command.engine, "--engine"));
  with_options_named({"clients", "tasks-per-generation", "generations", "eval-time", "send-overhead"},
                     [&] { engine->validate(platform, command.options); });
  return engine;
}

// The farm simulated on the engine --engine names, a progress line per generation.
sim::SimulatedFarmRun simulate(const SimulateFarmCommand& command, const Platform& platform, std::size_t steps) {
  const auto engine = checked_engine(command, platform);
  auto options = command.options;
  io::Progress progress("simulate farm", steps);
  options.on_generation = [&progress](std::size_t done, std::size_t total) {
    progress.step(fmt::format("generation {}/{}", done, total));
  };
  auto run = engine->simulate(platform, options);
  progress.finish();
  return run;
}

// simulate farm --tasks-from LOG: a job log's tasks replayed on the platform.
Output replay_task_log(SimulateFarmCommand& command) {
  auto& options = command.options;
  const auto replay = read_task_log_for_replay(command.tasks_from);
  options.task_costs = replay.task_seconds;
  options.policy = named_choice(distribute::policy_from_string, command.policy, "--policy");
  const Platform platform = read_platform(command.platform);
  const auto simulated = simulate(command, platform, 1);
  return written_and_shown(run_record_json(simulated.record), command.out, command.json, [&] {
    const auto speeds = sim::simulated_client_speeds(platform, options);
    const double ceiling = sim::earliest_finish_makespan(speeds, replay.task_seconds);
    const double bound = sim::makespan_lower_bound(speeds, replay.task_seconds);
    return fmt::format(
        "replayed {} tasks of {} ({} in its list; each its time on its client x the client's speed{}) on {}: policy "
        "{}, {} clients\n"
        "  t_par {:.6g} s; the measured run's makespan {:.6g} s (first start to last end): simulated / measured "
        "{:.4f}\n"
        "  earliest-finish ceiling (the costs known, list order) {:.6g} s: t_par / ceiling {:.4f} (a policy may beat "
        "it)\n"
        "  lower bound (the work over every client's speed, or the longest task on the fastest) {:.6g} s: t_par / "
        "bound {:.4f}{}\n",
        replay.tasks.size(), command.tasks_from, replay.tasks_in_list,
        replay.speeds.empty() ? "; the log names no speeds: all 1" : "",
        platform.name.empty() ? command.platform : platform.name, to_string(options.policy), speeds.size(),
        simulated.record.t_par, replay.makespan, simulated.record.t_par / replay.makespan, ceiling,
        simulated.record.t_par / ceiling, bound, simulated.record.t_par / bound,
        command.out.empty() ? "" : fmt::format("; run record in {}", command.out));
  });
}

Output simulate_farm(SimulateFarmCommand& command) {
  if (!command.tasks_from.empty()) return replay_task_log(command);
  auto& options = command.options;
  options.policy = named_choice(distribute::policy_from_string, command.policy, "--policy");
  const Platform platform = read_platform(command.platform);
  const auto simulated = simulate(command, platform, options.generations);
  const auto& run = simulated.record;
  return written_and_shown(run_record_json(run), command.out, command.json, [&] {
    const auto speeds = sim::simulated_client_speeds(platform, options);
    const double speedup = *run.t_seq_ref / run.t_par;
    const double ceiling =
        sim::earliest_finish_efficiency(speeds, options.tasks_per_generation, options.evaluation_seconds);
    return fmt::format(
        "simulated farm on {}: policy {}, {} clients, {} generations of {} tasks of {:g} s (speed 1)\n"
        "  t_par {:.6g} s, speed-up {:.4g} (t_seq_ref / t_par), efficiency {:.4f} (of sum v = {:.4g}); "
        "ceiling for indivisible tasks {:.4f}\n"
        "  {} messages, {} evaluations{}\n",
        platform.name.empty() ? command.platform : platform.name, command.policy, speeds.size(), options.generations,
        options.tasks_per_generation, options.evaluation_seconds, run.t_par, speedup, simulated.efficiency(),
        simulated.speed_sum, ceiling, simulated.messages, simulated.evaluations,
        command.out.empty() ? "" : fmt::format("; run record in {}", command.out));
  });
}

struct SimulatePlatformCommand {
  std::string platform, xml, hostfile;
  bool json = false;
};

Output simulate_platform(const SimulatePlatformCommand& command) {
  const Platform platform = read_platform(command.platform);
  const std::string xml = sim::simgrid_platform_xml(platform);
  if (!command.hostfile.empty()) io::write_file_atomically(command.hostfile, sim::simgrid_hostfile(platform));
  if (!command.xml.empty()) io::write_file_atomically(command.xml, xml);
  if (command.json)
    return {report::simulate_platform_json(command.platform, platform, xml, command.xml, command.hostfile)};
  if (command.xml.empty()) return {xml};
  return {fmt::format("{} nodes; SimGrid platform in {}{}\n", platform.nodes.size(), command.xml,
                      command.hostfile.empty() ? "" : fmt::format(", hostfile in {}", command.hostfile))};
}

}  // namespace

void add_simulate_commands(CLI::App& simulate_app, Actions& actions) {
  auto* simulate = &simulate_app;
  simulate->require_subcommand(1);

  auto farm_command = std::make_shared<SimulateFarmCommand>();
  auto& farm = *farm_command;
  auto* farm_app = simulate->add_subcommand(
      "farm",
      "how long your job log's tasks, or the GA's generations, would take on another platform: the farm as SimGrid "
      "actors, the platform's first node the server, the next clients");
  farm_app->add_option("--platform", farm.platform, "platform file (hetscale.platform/1)")->required();
  farm_app->add_option("--policy", farm.policy, "adaptive+ (the default) | adaptive | proportional | even");
  farm_app->add_option("--tasks-per-generation", farm.options.tasks_per_generation,
                       "evaluations per generation (default 128)");
  farm_app->add_option("--generations", farm.options.generations, "generations (default 10)");
  farm_app->add_option("--eval-time", farm.options.evaluation_seconds,
                       "nominal seconds per evaluation on a node of relative speed 1 (default 1)");
  farm_app->add_option("--clients", farm.options.clients, "clients (default: every node but the first)");
  farm_app->add_option("--genes", farm.options.genes,
                       "genes per individual: a task message carries 8 bytes each (default 8)");
  farm_app->add_option("--send-overhead", farm.options.send_overhead_seconds,
                       "seconds a sender spends on each message (LogP's o; default 5e-6)");
  farm_app->add_option("--tasks-from", farm.tasks_from,
                       "replay the tasks of a job log (hetscale farm --results): each task's measured time x its "
                       "client's speed, on this platform");
  farm_app->add_option("--engine", farm.engine,
                       "simgrid: the farm as SimGrid actors (default); events: hetscale's event simulation, the same "
                       "runs where messages do not share a link at once, a hundred times faster at 10,000 clients, "
                       "no availability traces (docs/simulation.md)");
  farm_app->add_option("--label", farm.options.label, "label of the run record");
  farm_app->add_option("--out", farm.out, "write the run record (JSON) here");
  farm_app->add_flag("--json", farm.json, "print the run record instead of a summary");
  farm_app->callback([farm_command, farm_app, &actions] {
    std::string workload_option;  // an option of the generations, given with --tasks-from
    for (const char* option : {"--tasks-per-generation", "--generations", "--eval-time", "--genes"})
      if (workload_option.empty() && farm_app->count(option) > 0) workload_option = option;
    actions.action = [farm_command, workload_option] {
      if (!farm_command->tasks_from.empty() && !workload_option.empty())
        throw InputError(workload_option, "",
                         "is for the generations of equal tasks; --tasks-from replays a job log's own tasks");
      return simulate_farm(*farm_command);
    };
  });

  auto platform_command = std::make_shared<SimulatePlatformCommand>();
  auto& platform = *platform_command;
  auto* platform_app =
      simulate->add_subcommand("platform", "a platform file as a SimGrid platform (XML, DTD 4.1) and smpirun hostfile");
  platform_app->add_option("platform", platform.platform, "platform file (hetscale.platform/1 or plain text)")
      ->required();
  platform_app->add_option("--xml", platform.xml, "write the XML here (default: print it)");
  platform_app->add_option("--hostfile", platform.hostfile, "write smpirun's hostfile here");
  platform_app->add_flag("--json", platform.json,
                         "print hetscale.simulate-platform/1: the hosts, the files written and the XML");
  platform_app->callback([platform_command, &actions] {
    actions.action = [platform_command] { return simulate_platform(*platform_command); };
  });

  add_simulate_kernel_commands(*simulate, actions);
}

}  // namespace hetscale::cli
