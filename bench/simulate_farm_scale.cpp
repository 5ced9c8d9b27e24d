// The cost of simulating the task farm, on SimGrid and in hetscale's event
// simulation, side by side (the goal: 10,000 heterogeneous workers and
// 1,000,000 tasks in under 10 s, and 100,000 workers). Each engine and size
// runs in its own child process (SimGrid keeps one engine per process), timed
// from the parent, and prints one table row: wall time, simulated events
// (messages and evaluations) per second, and the event simulation's t_par and
// wall time against SimGrid's on the same farm. Past 10,000 workers only the
// event simulation runs (SimGrid would take minutes).
//
//   simulate_farm_scale [TASKS [GENERATIONS [WORKERS...]]]
//       defaults: 1000000 tasks in 10 generations on 100, 1000, 10000, 100000 workers
// Past 1,000 workers the clients reach SimGrid's server through relays
// (SimulatedFarmOptions::relay_group); with HETSCALE_FARM_RELAYS=0 through the
// server's one mailbox, for a comparison.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/simgrid_engine.hpp"
#include "hetscale/sim/event_farm.hpp"
#include "hetscale/sim/simgrid_farm.hpp"

namespace {

using namespace hetscale;

// `workers` clients of speeds spread over [0.25, 1] (a golden-ratio sequence:
// deterministic and evenly spread), behind a server of speed 1, on a 1 Gbit/s
// star with 100 us from node to node.
Platform spread_platform(std::size_t workers) {
  Platform platform;
  platform.name = fmt::format("spread-{}", workers);
  platform.source = platform.name;
  platform.speed_kind = SpeedKind::relative;
  platform.nodes.push_back({"server", 1.0, {}, 0.0});
  for (std::size_t i = 0; i < workers; ++i) {
    const double fraction = std::fmod(static_cast<double>(i) * 0.6180339887498949, 1.0);
    platform.nodes.push_back({fmt::format("worker-{}", i + 1), 0.25 + 0.75 * fraction, {}, 0.0});
  }
  platform.network = Network{100e-6, 125e6, Topology::star, std::nullopt};
  return platform;
}

std::size_t parse_count(const char* text, const char* what) {
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value < 1) {
    std::fprintf(stderr, "simulate_farm_scale: %s must be a whole number >= 1, got '%s'\n", what, text);
    std::exit(2);
  }
  return static_cast<std::size_t>(value);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t tasks = 1000000, generations = 10;
  std::vector<std::size_t> sizes{100, 1000, 10000, 100000};
  if (argc > 1) tasks = parse_count(argv[1], "TASKS");
  if (argc > 2) generations = parse_count(argv[2], "GENERATIONS");
  if (argc > 3) {
    sizes.clear();
    for (int i = 3; i < argc; ++i) sizes.push_back(parse_count(argv[i], "WORKERS"));
  }
  if (tasks % generations != 0) {
    std::fprintf(stderr, "simulate_farm_scale: TASKS must be a multiple of GENERATIONS\n");
    return 2;
  }
  std::printf(
      "## The farm simulated: %zu tasks in %zu generations, policy adaptive (SimGrid %s, and hetscale's "
      "event simulation)\n\n",
      tasks, generations, sim::simgrid_version().c_str());
  std::printf(
      "| workers | engine | simulated t_par (s) | efficiency | events | wall time (s) | events per second | "
      "t_par / SimGrid's | wall time / SimGrid's |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  constexpr std::size_t simgrid_up_to = 10000;
  for (const std::size_t workers : sizes) {
    sim::SimulatedFarmOptions options;
    options.policy = distribute::PolicyKind::adaptive;
    options.tasks_per_generation = tasks / generations;
    options.generations = generations;
    options.evaluation_seconds = 1.0;
    if (const char* relays = std::getenv("HETSCALE_FARM_RELAYS"))
      options.relay_group = std::strtoul(relays, nullptr, 10);
    const Platform platform = spread_platform(workers);
    double simgrid_t_par = 0.0, simgrid_wall = 0.0;  // of this size
    for (const std::string engine : {"SimGrid", "events"}) {
      if (engine == "SimGrid" && workers > simgrid_up_to) continue;
      const auto start = std::chrono::steady_clock::now();
      const std::string answer = sim::run_isolated([&] {
        const auto simulated = engine == "SimGrid" ? sim::simulate_farm_on_platform(platform, options)
                                                   : sim::simulate_farm_with_events(platform, options);
        return fmt::format("{} {} {}", simulated.record.t_par, simulated.efficiency(), simulated.events());
      });
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      double t_par = 0.0, efficiency = 0.0;
      std::size_t events = 0;
      std::sscanf(answer.c_str(), "%lf %lf %zu", &t_par, &efficiency, &events);
      if (engine == "SimGrid") simgrid_t_par = t_par, simgrid_wall = wall;
      const std::string ratios = simgrid_wall > 0.0
                                     ? fmt::format("{:.7f} | {:.4f}", t_par / simgrid_t_par, wall / simgrid_wall)
                                     : std::string("- | -");
      std::printf("| %zu | %s | %.9g | %.4f | %zu | %.2f | %.3g | %s |\n", workers, engine.c_str(), t_par, efficiency,
                  events, wall, static_cast<double>(events) / wall, ratios.c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}
