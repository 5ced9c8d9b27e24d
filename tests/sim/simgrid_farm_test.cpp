// The farm on SimGrid through relays (SimulatedFarmOptions::relay_group): the
// clients' messages reach the server through relay actors, each with its own
// mailbox, so that no mailbox holds a message per client (SimGrid 3.32 takes
// a message off a mailbox in time linear in its queue). The run is the same
// farm: every task counted once, and the same t_par and per-client tasks as
// through the server's one mailbox. Each engine in a child (run_isolated).
#include "hetscale/sim/simgrid_farm.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/simgrid_engine.hpp"

namespace hetscale::sim {
namespace {

Platform Spread(std::size_t clients) {
  std::string nodes = R"({"name": "server", "speed": 1.0})";
  for (std::size_t i = 0; i < clients; ++i)
    nodes += fmt::format(R"(, {{"name": "c{}", "speed": {}}})", i, 0.25 + 0.75 * static_cast<double>(i % 7) / 6.0);
  return parse_platform_json(fmt::format(R"({{"schema": "hetscale.platform/1", "nodes": [{}], "network":
      {{"latency_s": "1ms", "bandwidth_Bps": "100Mbps"}}}})",
                                         nodes),
                             "spread.json");
}

// t_par, then each client's task count, as text.
std::string Simulated(const Platform& platform, distribute::PolicyKind policy, std::optional<std::size_t> relay_group) {
  return run_isolated([&] {
    SimulatedFarmOptions options;
    options.policy = policy;
    options.tasks_per_generation = 60;
    options.generations = 3;
    options.evaluation_seconds = 0.5;
    options.relay_group = relay_group;
    const auto run = simulate_farm_on_platform(platform, options);
    std::string text = fmt::format("{:.9g}", run.record.t_par);
    std::size_t counted = 0;
    for (const auto& client : run.record.context.farm.value().tasks) {
      text += " " + std::to_string(client.tasks);
      counted += client.tasks;
    }
    return text + fmt::format(" | {}", counted);
  });
}

TEST(SimgridFarmRelays, RunTheSameFarmAsOneMailbox) {
  const Platform platform = Spread(17);
  for (const auto policy : {distribute::PolicyKind::adaptive, distribute::PolicyKind::adaptive_plus,
                            distribute::PolicyKind::even}) {
    const std::string direct = Simulated(platform, policy, 0);  // no relays
    EXPECT_EQ(Simulated(platform, policy, std::nullopt), direct);  // automatic: none for 17 clients
    EXPECT_NE(direct.find("| 180"), std::string::npos) << direct;  // every task counted once
    for (const std::size_t group : {1, 4, 17}) EXPECT_EQ(Simulated(platform, policy, group), direct) << "relays of " << group;
  }
}

}  // namespace
}  // namespace hetscale::sim
