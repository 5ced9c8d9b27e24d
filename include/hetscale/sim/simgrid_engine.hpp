#pragma once
// The SimGrid side of a platform: its hosts and links built in C++ in the
// running engine (the same platform simgrid_platform_xml writes as XML).
// SimGrid keeps one engine per process; a simulation that must not touch the
// caller's process runs in a child process (run_isolated).
#include <functional>
#include <string>
#include <vector>

#include "hetscale/platform/platform.hpp"

namespace simgrid::s4u {
class Engine;
class Host;
}  // namespace simgrid::s4u

namespace hetscale::sim {

// The configuration every hetscale simulation uses (docs/simulation.md):
// the CM02 network model (a message takes latency + size / bandwidth, links
// shared max-min), so a platform's latency is the latency the simulator
// applies, quiet logs, and small actor stacks (10,000 actors fit).
std::vector<std::string> simgrid_arguments();

// Builds the platform in `engine` (which has no platform yet): one host per
// node at simulated_flops, one split-duplex private link per host, the
// backbone of a cluster, the nodes' availability as speed profiles. Returns
// the hosts in node order.
std::vector<simgrid::s4u::Host*> build_simgrid_platform(simgrid::s4u::Engine& engine, const Platform& platform);

// Runs `simulation` in a child process and returns what it returns. An
// std::invalid_argument it throws is thrown again here with its message;
// any other failure (an exception, a crash) becomes std::runtime_error.
std::string run_isolated(const std::function<std::string()>& simulation);

// The SimGrid version this was built with ("3.32").
std::string simgrid_version();

}  // namespace hetscale::sim
