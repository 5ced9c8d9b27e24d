// The farm in hetscale's event simulation against the same farm as SimGrid
// actors. Where the farm's messages do not share a link at the same instant
// (1 Gbit/s links: a message's bytes take under a microsecond, and the
// senders' 5 us overheads space them), every number of the run record agrees
// to a millionth of t_par: t_par, each node's computation, communication,
// idle time and lost duplicates, the tasks per client, the messages and
// evaluations; under every policy, over a cluster's backbone and a
// long-latency network (where CM02 bounds a flow's rate by the TCP window),
// with equal tasks and with a bag of unequal ones. Over 100 Mbit/s links,
// where a message's bytes take as long as the overhead, messages do overlap;
// SimGrid shares the link between them and the event simulation does not,
// so a message arrives a few microseconds apart and a decision may go the
// other way (adaptive+ duplicates another task): t_par within 1e-4 (2e-5
// measured), the rest of the record not compared. SimGrid runs in a child
// (run_isolated).
#include "hetscale/sim/event_farm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/input_error.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/simgrid_engine.hpp"
#include "hetscale/sim/simgrid_farm.hpp"

namespace hetscale::sim {
namespace {

Platform Spread(std::size_t clients, const std::string& network) {
  std::string nodes = R"({"name": "server", "speed": 1.0})";
  for (std::size_t i = 0; i < clients; ++i)
    nodes += fmt::format(R"(, {{"name": "c{}", "speed": {}}})", i, 0.25 + 0.75 * static_cast<double>(i % 7) / 6.0);
  return parse_platform_json(
      fmt::format(R"({{"schema": "hetscale.platform/1", "nodes": [{}], "network": {}}})", nodes, network),
      "spread.json");
}

// The record's numbers in a fixed order (t_par; per node and the server:
// work, t_comp, t_comm, t_setup, t_idle, t_other; per client: tasks, lost
// tasks; messages, evaluations), as text that keeps every bit.
std::string Numbers(const SimulatedFarmRun& run) {
  std::string text = fmt::format("{:.17g}", run.record.t_par);
  auto node = [&](const NodeRecord& n) {
    for (const double value : {n.work, n.t_comp, n.t_comm, n.t_setup, n.t_idle, n.t_other})
      text += fmt::format(" {:.17g}", value);
  };
  for (const auto& n : run.record.nodes) node(n);
  node(*run.record.server);
  for (const auto& client : run.record.context.farm.value().tasks)
    text += fmt::format(" {} {}", client.tasks, client.lost_tasks);
  return text + fmt::format(" {} {}", run.messages, run.evaluations);
}

std::vector<double> Parsed(const std::string& text) {
  std::vector<double> values;
  std::istringstream in(text);
  for (double value; in >> value;) values.push_back(value);
  return values;
}

// Every number (or only t_par) within `tolerance` x t_par of SimGrid's.
void ExpectSameRun(const Platform& platform, const SimulatedFarmOptions& options, double tolerance,
                   const std::string& what, bool every_number = true) {
  validate_event_farm(platform, options);
  const auto events = simulate_farm_with_events(platform, options);
  const auto on_simgrid = Parsed(run_isolated([&] { return Numbers(simulate_farm_on_platform(platform, options)); }));
  const auto by_events = Parsed(Numbers(events));
  ASSERT_EQ(by_events.size(), on_simgrid.size()) << what;
  const double t_par = on_simgrid.front();
  ASSERT_GT(t_par, 0.0) << what;
  for (std::size_t i = 0; i < (every_number ? on_simgrid.size() : 1); ++i)
    EXPECT_NEAR(by_events[i], on_simgrid[i], tolerance * t_par) << what << ", number " << i;
  // every task counted once
  std::size_t counted = 0;
  for (const auto& client : events.record.context.farm.value().tasks) counted += client.tasks;
  EXPECT_EQ(counted,
            options.task_costs.empty() ? options.tasks_per_generation * options.generations : options.task_costs.size())
      << what;
}

const char* const slow_star = R"({"latency_s": "1ms", "bandwidth_Bps": "100Mbps"})";
const char* const cluster =
    R"({"latency_s": "100us", "bandwidth_Bps": "1Gbps", "topology": "cluster",
        "backbone": {"latency_s": "20us", "bandwidth_Bps": "10Gbps"}})";
// 4 MiB / (2 x 50 ms) = 42 MB/s, below the links' 125 MB/s
const char* const long_latency = R"({"latency_s": "50ms", "bandwidth_Bps": "1Gbps"})";

constexpr double same = 1e-6, overlapping = 1e-4;

const distribute::PolicyKind every_policy[] = {distribute::PolicyKind::even, distribute::PolicyKind::proportional,
                                               distribute::PolicyKind::adaptive, distribute::PolicyKind::adaptive_plus};

SimulatedFarmOptions EqualTasks(distribute::PolicyKind policy) {
  SimulatedFarmOptions options;
  options.policy = policy;
  options.tasks_per_generation = 50;
  options.generations = 3;
  options.evaluation_seconds = 0.4;
  return options;
}

TEST(EventFarm, RunsTheSameFarmAsSimGridUnderEveryPolicy) {
  for (const auto policy : every_policy)
    for (const char* network : {cluster, long_latency})
      ExpectSameRun(Spread(13, network), EqualTasks(policy), same, fmt::format("{} on {}", to_string(policy), network));
}

TEST(EventFarm, AgreesWithSimGridWhereMessagesShareALink) {
  for (const auto policy : every_policy)
    ExpectSameRun(Spread(13, slow_star), EqualTasks(policy), overlapping, to_string(policy), false);
}

TEST(EventFarm, RunsTheSameBagOfTasks) {
  SimulatedFarmOptions options;
  options.policy = distribute::PolicyKind::adaptive_plus;
  for (std::size_t i = 0; i < 200; ++i) options.task_costs.push_back(0.05 + 0.9 * std::fmod(i * 0.618034, 1.0));
  options.task_costs[7] = 12.0;  // a long one: adaptive+ duplicates at the tail
  ExpectSameRun(Spread(9, cluster), options, same, "a bag of 200 tasks");
  ExpectSameRun(Spread(9, slow_star), options, overlapping, "a bag of 200 tasks, 100 Mbit/s", false);
}

TEST(EventFarm, RefusesNodesOfVaryingAvailability) {
  const Platform platform = parse_platform_json(
      R"({"schema": "hetscale.platform/1", "nodes": [{"name": "server", "speed": 1},
          {"name": "busy", "speed": 1, "availability": [[0, 1], [10, 0.5]]}]})",
      "busy.json");
  SimulatedFarmOptions options;
  validate_simulated_farm(platform, options);  // SimGrid takes it
  try {
    validate_event_farm(platform, options);
    FAIL() << "a node with an availability trace was taken";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("busy"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("needs the engine simgrid"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace hetscale::sim
