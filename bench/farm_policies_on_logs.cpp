// The farm's policies on the tasks of measured job logs (hetscale farm
// --results), in the event simulation (the same policy objects as the MPI
// farm): each log's task costs (time on the client x its speed) in the list's
// order and in random orders, on the clients of the given speeds; the
// makespan over the list-order earliest-finish ceiling of the same costs,
// median, 90th percentile and largest over the orders (docs/experiments.md).
//
//   farm_policies_on_logs --speeds v1,v2,... [--orders 40] LOG...
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "hetscale/io/number_list.hpp"
#include "hetscale/record/task_log.hpp"
#include "hetscale/sim/farm_simulation.hpp"

int main(int argc, char** argv) {
  using namespace hetscale;
  std::vector<double> speeds;
  std::size_t orders = 40;
  std::vector<std::string> logs;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string argument = argv[i];
      if (argument == "--speeds" && i + 1 < argc)
        speeds = io::parse_number_list(argv[++i], "--speeds");
      else if (argument == "--orders" && i + 1 < argc)
        orders = std::stoul(argv[++i]);
      else
        logs.push_back(argument);
    }
    if (speeds.empty() || logs.empty() || orders == 0)
      throw std::invalid_argument("usage: farm_policies_on_logs --speeds v1,v2,... [--orders 40] LOG...");
    std::printf("| log | policy | list order | median | 90th percentile | largest |\n|---|---|---|---|---|---|\n");
    for (const auto& log : logs) {
      const auto replay = read_task_log_for_replay(log);
      for (const auto policy : {distribute::PolicyKind::adaptive, distribute::PolicyKind::adaptive_plus}) {
        std::vector<double> ratios;
        for (std::size_t order = 0; order < orders; ++order) {
          auto costs = replay.task_seconds;
          if (order > 0) std::shuffle(costs.begin(), costs.end(), std::mt19937(static_cast<unsigned>(order)));
          sim::SimulatedFarmSetup setup;
          setup.client_speeds = speeds;
          setup.task_costs = costs;
          setup.latency_seconds = 1e-4;
          ratios.push_back(sim::simulate_farm(policy, setup).t_par / sim::earliest_finish_makespan(speeds, costs));
        }
        const double list_order = ratios.front();
        std::sort(ratios.begin(), ratios.end());
        std::printf("| %s | %s | %.3f | %.3f | %.3f | %.3f |\n", log.c_str(), to_string(policy).c_str(), list_order,
                    ratios[ratios.size() / 2], ratios[ratios.size() * 9 / 10], ratios.back());
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "farm_policies_on_logs: %s\n", error.what());
    return 2;
  }
  return 0;
}
