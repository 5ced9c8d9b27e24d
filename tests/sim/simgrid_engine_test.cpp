// The platform in SimGrid: build_simgrid_platform (the S4U C++ API) and
// simgrid_platform_xml loaded by the engine describe the same hosts, speeds
// and routes; a node-to-node route has the platform's latency (plus the
// backbone's in a cluster); a node's availability slows its computation as
// the speed profile says; run_isolated carries answers and errors back.
// SimGrid keeps one engine per process: every engine here lives in a child
// that run_isolated forks.
#include "hetscale/sim/simgrid_engine.hpp"

#include <gtest/gtest.h>
#include <simgrid/s4u.hpp>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/simgrid_platform.hpp"
#include "support/assertions.hpp"

namespace hetscale::sim {
namespace {

namespace sg4 = simgrid::s4u;
using testing_support::RelNear;

Platform Parse(const std::string& json) { return parse_platform_json(json, "p.json"); }

// A fresh engine with hetscale's configuration. Only ever called in a child
// of run_isolated; the engine and its arguments live until the child exits.
sg4::Engine& NewEngine() {
  auto* arguments = new std::vector<std::string>{"simgrid_tests"};
  for (const auto& argument : sim::simgrid_arguments()) arguments->push_back(argument);
  auto* argv = new std::vector<char*>;
  for (auto& argument : *arguments) argv->push_back(argument.data());
  argv->push_back(nullptr);
  auto* argc = new int(static_cast<int>(arguments->size()));
  return *new sg4::Engine(argc, argv->data());
}

// Loads `xml` into `engine` from a file of its own (removed once read).
void LoadXml(sg4::Engine& engine, const std::string& xml) {
  std::string path = (std::filesystem::temp_directory_path() / "hetscale-simgrid-test-XXXXXX.xml").string();
  const int fd = mkstemps(path.data(), 4);
  if (fd < 0) throw std::runtime_error("cannot create " + path);
  ::close(fd);
  std::ofstream(path) << xml;
  try {
    engine.load_platform(path);
  } catch (...) {
    std::filesystem::remove(path);
    throw;
  }
  std::filesystem::remove(path);
}

// Both ways to build the platform in a fresh engine.
enum class Builder { cxx, xml };
const char* Name(Builder builder) { return builder == Builder::cxx ? "C++" : "XML"; }

sg4::Engine& EngineWith(Builder builder, const Platform& platform) {
  auto& engine = NewEngine();
  if (builder == Builder::cxx)
    sim::build_simgrid_platform(engine, platform);
  else
    LoadXml(engine, simgrid_platform_xml(platform));
  return engine;
}

// What the engine sees, one tab-separated line per host ("host NAME SPEED")
// in name order, then per route ("route SRC DST LATENCY MIN-BANDWIDTH LINKS").
using Pairs = std::vector<std::pair<std::string, std::string>>;
std::string Describe(const sg4::Engine& engine, const Pairs& pairs) {
  std::ostringstream out;
  out.precision(17);
  auto hosts = engine.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(), [](auto* a, auto* b) { return a->get_name() < b->get_name(); });
  for (const auto* host : hosts) out << "host\t" << host->get_name() << '\t' << host->get_speed() << '\n';
  for (const auto& [from, to] : pairs) {
    const auto* source = engine.host_by_name_or_null(from);
    const auto* destination = engine.host_by_name_or_null(to);
    if (!source || !destination) throw std::runtime_error("no host '" + (source ? to : from) + "'");
    std::vector<sg4::Link*> links;
    double latency = 0.0;
    source->route_to(destination, links, &latency);
    double bandwidth = std::numeric_limits<double>::infinity();
    std::string names;
    for (const auto* link : links) {
      bandwidth = std::min(bandwidth, link->get_bandwidth());
      names += (names.empty() ? "" : ",") + link->get_name();
    }
    out << "route\t" << from << '\t' << to << '\t' << latency << '\t' << bandwidth << '\t' << names << '\n';
  }
  return out.str();
}

std::string Describe(Builder builder, const Platform& platform, const Pairs& pairs) {
  return sim::run_isolated([&] { return Describe(EngineWith(builder, platform), pairs); });
}

struct Route {
  double latency_s = 0.0, bandwidth_Bps = 0.0;
  std::string links;
};

// The hosts' speeds and the routes of a Describe() text.
void Read(const std::string& description, std::map<std::string, double>& speeds,
          std::map<std::pair<std::string, std::string>, Route>& routes) {
  std::istringstream lines(description);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::istringstream parts(line);
    for (std::string field; std::getline(parts, field, '\t');) fields.push_back(field);
    if (fields.size() == 3 && fields[0] == "host")
      speeds[fields[1]] = std::stod(fields[2]);
    else if (fields.size() == 6 && fields[0] == "route")
      routes[{fields[1], fields[2]}] = {std::stod(fields[3]), std::stod(fields[4]), fields[5]};
    else
      ADD_FAILURE() << "unexpected line '" << line << "'";
  }
}

// What the two builders make of a platform, once seen to agree: the
// description of the C++ build and the speeds and routes read from it.
struct Built {
  std::string description;
  std::map<std::string, double> speeds;
  std::map<std::pair<std::string, std::string>, Route> routes;
};

Built BuiltAlike(const Platform& platform, const Pairs& pairs) {
  Built built;
  built.description = Describe(Builder::cxx, platform, pairs);
  const std::string xml = Describe(Builder::xml, platform, pairs);
  EXPECT_EQ(built.description, xml) << "C++ build:\n" << built.description << "XML:\n" << xml;
  Read(built.description, built.speeds, built.routes);
  return built;
}

// --------------------------------------------------- C++ build and XML agree

// format: a star of unequal hosts; every route crosses the sender's link up
// and the receiver's link down: half the latency each, the node bandwidth
TEST(SimgridEngine, StarBuiltInCxxAndFromXmlAgree) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "name": "tiny",
    "nodes": [{"name": "fast", "marked_speed": 40}, {"name": "mid", "marked_speed": 20.29},
              {"name": "R&D <lab> \"q\"", "marked_speed": 12.5}, {"name": "slow", "marked_speed": 10, "count": 2}],
    "network": {"latency_s": "100us", "bandwidth_Bps": "100Mbps"}})");
  const Pairs pairs{
      {"fast", "mid"}, {"mid", "fast"}, {"fast", "slow-2"}, {"R&D <lab> \"q\"", "slow-1"}, {"slow-1", "slow-2"}};
  auto [cxx, speeds, routes] = BuiltAlike(platform, pairs);
  ASSERT_EQ(speeds.size(), platform.nodes.size()) << cxx;
  for (std::size_t i = 0; i < platform.nodes.size(); ++i)
    EXPECT_TRUE(RelNear(speeds[platform.nodes[i].name], simulated_flops(platform, i))) << platform.nodes[i].name;
  EXPECT_TRUE(RelNear(speeds["fast"], 40e6));
  EXPECT_TRUE(RelNear(speeds["slow-2"], 10e6));
  ASSERT_EQ(routes.size(), pairs.size()) << cxx;
  for (const auto& [pair, route] : routes) {
    const auto& [from, to] = pair;
    EXPECT_TRUE(RelNear(route.latency_s, 100e-6)) << from << " -> " << to << ": " << route.latency_s;
    EXPECT_TRUE(RelNear(route.bandwidth_Bps, 12.5e6)) << from << " -> " << to;
    EXPECT_EQ(route.links, from + "-link_UP," + to + "-link_DOWN") << from << " -> " << to;
  }
}

// format: a cluster: every route also crosses the backbone; node to node is
// latency_s + the backbone's latency, at the smaller of the two bandwidths
TEST(SimgridEngine, ClusterBuiltInCxxAndFromXmlAgree) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "name": "racks",
    "reference": {"name": "ref", "marked_speed": 20},
    "nodes": [{"name": "head", "speed": 2}, {"name": "node", "speed": 0.5, "count": 3}],
    "network": {"latency_s": "50us", "bandwidth_Bps": "1Gbps", "topology": "cluster",
                "backbone": {"latency_s": "1ms", "bandwidth_Bps": "100Mbps"}}})");
  const Pairs pairs{{"head", "node-1"}, {"node-1", "head"}, {"node-2", "node-3"}, {"node-3", "node-1"}};
  auto [cxx, speeds, routes] = BuiltAlike(platform, pairs);
  ASSERT_EQ(speeds.size(), 4u) << cxx;
  EXPECT_TRUE(RelNear(speeds["head"], 40e6));  // 2 x 20 Mflop/s
  EXPECT_TRUE(RelNear(speeds["node-3"], 10e6));
  ASSERT_EQ(routes.size(), pairs.size()) << cxx;
  for (const auto& [pair, route] : routes) {
    const auto& [from, to] = pair;
    EXPECT_TRUE(RelNear(route.latency_s, 50e-6 + 1e-3)) << from << " -> " << to << ": " << route.latency_s;
    EXPECT_TRUE(RelNear(route.bandwidth_Bps, 12.5e6)) << from << " -> " << to;  // the backbone's 100 Mbit/s
    EXPECT_EQ(route.links, from + "-link_UP,backbone," + to + "-link_DOWN") << from << " -> " << to;
  }
}

// A cluster whose backbone is faster than the nodes' links: the node bandwidth limits
TEST(SimgridEngine, ClusterWithFastBackboneIsLimitedByTheNodeLinks) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}, {"name": "b", "speed": 0.5}],
    "network": {"latency_s": 0.0002, "bandwidth_Bps": 1e7, "topology": "cluster",
                "backbone": {"latency_s": 0, "bandwidth_Bps": 1e9}}})");
  const Pairs pairs{{"a", "b"}, {"b", "a"}};
  auto [cxx, speeds, routes] = BuiltAlike(platform, pairs);
  EXPECT_TRUE(RelNear(speeds["a"], 1e9));  // default reference: 1 Gflop/s per unit of speed
  EXPECT_TRUE(RelNear(speeds["b"], 0.5e9));
  for (const auto& [pair, route] : routes) {
    EXPECT_TRUE(RelNear(route.latency_s, 0.0002)) << pair.first << " -> " << pair.second;
    EXPECT_TRUE(RelNear(route.bandwidth_Bps, 1e7)) << pair.first << " -> " << pair.second;
  }
}

// ----------------------------------------------------------- availability

// The time the only host of `platform` takes to compute `seconds_of_work` at
// its full speed, from time 0, in the engine that `builder` makes (NaN, and a
// failure, when the engine cannot be made or run).
double ComputeTime(Builder builder, const Platform& platform, double seconds_of_work) try {
  return std::stod(sim::run_isolated([&] {
    auto& engine = EngineWith(builder, platform);
    auto* host = engine.host_by_name(platform.nodes.at(0).name);
    const double flops = seconds_of_work * host->get_speed();
    double finished = -1.0;
    sg4::Actor::create("worker", host, [flops, &finished] {
      sg4::this_actor::execute(flops);
      finished = sg4::Engine::get_clock();
    });
    engine.run();
    std::ostringstream out;
    out.precision(17);
    out << finished;
    return out.str();
  }));
} catch (const std::exception& error) {
  ADD_FAILURE() << Name(builder) << ": " << error.what();
  return std::nan("");
}

// format: availability [[0, 1], [10, 0.5]]: 20 s of work takes the first 10 s
// at full speed (10 s of work done), then the other 10 s of work at half
// speed (20 s): finished at 30 s
TEST(SimgridEngine, AvailabilityHalvesTheSpeedAfterTenSeconds) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "shared", "marked_speed": 100, "availability": [[0, 1], [10, 0.5]]}]})");
  for (const Builder builder : {Builder::cxx, Builder::xml})
    EXPECT_TRUE(testing_support::ScaledNear(ComputeTime(builder, platform, 20.0), 30.0, 1e-6)) << Name(builder);
  // 5 s of work is done before the speed drops
  EXPECT_TRUE(testing_support::ScaledNear(ComputeTime(Builder::cxx, platform, 5.0), 5.0, 1e-6));
}

// format: availability_period_s 20 repeats it: full speed 0-10 s (10 s of
// work), half 10-20 s (5 more), full again from 20 s: 20 s of work at 25 s
TEST(SimgridEngine, PeriodicAvailabilityRepeats) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "shared", "speed": 1, "availability": [[0, 1], [10, 0.5]], "availability_period_s": 20}]})");
  for (const Builder builder : {Builder::cxx, Builder::xml})
    EXPECT_TRUE(testing_support::ScaledNear(ComputeTime(builder, platform, 20.0), 25.0, 1e-6)) << Name(builder);
}

// format: before the first point a node delivers all its speed:
// [[4, 0.25]]: 4 s of work by 4 s, then 2 s of work at a quarter speed (8 s): 12 s
TEST(SimgridEngine, FullSpeedBeforeTheFirstPoint) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "late", "speed": 1, "availability": [[4, 0.25]]}]})");
  for (const Builder builder : {Builder::cxx, Builder::xml})
    EXPECT_TRUE(testing_support::ScaledNear(ComputeTime(builder, platform, 6.0), 12.0, 1e-6)) << Name(builder);
}

// format: a period repeats the whole availability, full speed before the
// first point included: [[5, 0.5]] every 10 s is full speed 0-5 s (5 s of
// work), half 5-10 s (2.5 more), full 10-15 s: 10 s of work done at 12.5 s
TEST(SimgridEngine, PeriodicAvailabilityStartsEachPeriodAtFullSpeed) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "late", "speed": 1, "availability": [[5, 0.5]], "availability_period_s": 10}]})");
  for (const Builder builder : {Builder::cxx, Builder::xml})
    EXPECT_TRUE(testing_support::ScaledNear(ComputeTime(builder, platform, 10.0), 12.5, 1e-6)) << Name(builder);
}

// --------------------------------------------------------------- isolation

// run_isolated returns the child's string; std::invalid_argument comes back as
// itself, other failures as std::runtime_error
TEST(SimgridEngine, RunIsolatedCarriesAnswersAndErrors) {
  EXPECT_EQ(sim::run_isolated([] { return std::string("answer\nwith\0zero", 16); }),
            std::string("answer\nwith\0zero", 16));
  EXPECT_EQ(sim::run_isolated([] { return std::string(); }), "");
  EXPECT_EQ(sim::run_isolated([] { return std::string(200000, 'x'); }).size(), 200000u);
  try {
    sim::run_isolated([]() -> std::string { throw std::invalid_argument("bad platform"); });
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "bad platform");
  }
  try {
    sim::run_isolated([]() -> std::string { throw std::runtime_error("disk full"); });
    ADD_FAILURE() << "expected std::runtime_error";
  } catch (const std::invalid_argument& error) {
    ADD_FAILURE() << "a runtime_error came back as invalid_argument: " << error.what();
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "disk full");
  }
  // a child that dies (no core dump: SIGKILL) or exits without answering
  try {
    sim::run_isolated([]() -> std::string {
      ::raise(SIGKILL);
      return "unreachable";
    });
    ADD_FAILURE() << "expected std::runtime_error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("signal 9"), std::string::npos) << error.what();
  }
  EXPECT_THROW(sim::run_isolated([]() -> std::string { std::_Exit(3); }), std::runtime_error);
}

// The child's engine does not touch the parent: two engines, one after the other
TEST(SimgridEngine, EachChildHasItsOwnEngine) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}]})");
  const auto first =
      sim::run_isolated([&] { return std::to_string(EngineWith(Builder::cxx, platform).get_host_count()); });
  const auto second =
      sim::run_isolated([&] { return std::to_string(EngineWith(Builder::xml, platform).get_host_count()); });
  EXPECT_EQ(first, "1");
  EXPECT_EQ(second, "1");
}

// A platform the simulator cannot take is an std::invalid_argument, through the child
TEST(SimgridEngine, EmptyPlatformIsRefused) {
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming(
      [] { sim::run_isolated([] { return Describe(EngineWith(Builder::cxx, Platform{}), {}); }); },
      {"at least one node"}));
}

// simgrid_version is the version built with (3.32 or later)
TEST(SimgridEngine, VersionIsMajorDotMinor) {
  const std::string version = sim::simgrid_version();
  EXPECT_EQ(version.rfind("3.", 0), 0u) << version;
  EXPECT_GE(std::stoi(version.substr(2)), 32) << version;
}

}  // namespace
}  // namespace hetscale::sim
