// The cost of simulating the task farm on SimGrid (issue 6's goal: 10,000
// heterogeneous workers and 1,000,000 tasks in under 60 s on this machine).
// Each size runs in its own child process (SimGrid keeps one engine per
// process), timed from the parent, and prints one table row: wall time,
// simulated events (messages and evaluations) per second, and the time
// relative to the smallest size of the same run.
//
//   simulate_farm_scale [TASKS [GENERATIONS [WORKERS...]]]
//       defaults: 1000000 tasks in 10 generations on 100, 1000, 10000 workers
// Past 1,000 workers the clients reach the server through relays
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
  std::vector<std::size_t> sizes{100, 1000, 10000};
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
  std::printf("## The farm on SimGrid: %zu tasks in %zu generations, policy adaptive (SimGrid %s)\n\n", tasks,
              generations, sim::simgrid_version().c_str());
  std::printf(
      "| workers | simulated t_par (s) | efficiency | events | wall time (s) | events per second | time / time at %zu "
      "workers |\n",
      sizes.front());
  std::printf("|---|---|---|---|---|---|---|\n");
  double first_wall = 0.0;
  for (const std::size_t workers : sizes) {
    sim::SimulatedFarmOptions options;
    options.policy = distribute::PolicyKind::adaptive;
    options.tasks_per_generation = tasks / generations;
    options.generations = generations;
    options.evaluation_seconds = 1.0;
    if (const char* relays = std::getenv("HETSCALE_FARM_RELAYS")) options.relay_group = std::strtoul(relays, nullptr, 10);
    const Platform platform = spread_platform(workers);
    const auto start = std::chrono::steady_clock::now();
    const std::string answer = sim::run_isolated([&] {
      const auto simulated = sim::simulate_farm_on_platform(platform, options);
      return fmt::format("{} {} {}", simulated.record.t_par, simulated.efficiency(), simulated.events());
    });
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double t_par = 0.0, efficiency = 0.0;
    std::size_t events = 0;
    std::sscanf(answer.c_str(), "%lf %lf %zu", &t_par, &efficiency, &events);
    if (first_wall == 0.0) first_wall = wall;
    std::printf("| %zu | %.6g | %.4f | %zu | %.2f | %.3g | %.2f |\n", workers, t_par, efficiency, events, wall,
                static_cast<double>(events) / wall, wall / first_wall);
    std::fflush(stdout);
  }
  return 0;
}
