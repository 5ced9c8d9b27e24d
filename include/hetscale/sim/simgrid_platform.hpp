#pragma once
// A hetscale platform as SimGrid sees it: every node a host, every host a
// private link to the network (a star), or, with a backbone, a cluster whose
// routes also cross one shared backbone link. Speeds that vary over time (a
// node's available fraction, for other load) become SimGrid speed profiles.
// This header is pure (no SimGrid): the XML is text; the C++ builder, which
// needs the SimGrid library, is in hetscale/sim/simgrid_engine.hpp.
#include <cstddef>
#include <string>
#include <vector>

#include "hetscale/platform/platform.hpp"

namespace hetscale::sim {

// A node of relative speed 1 computes this many flop/s in the simulator when
// the platform does not say what its reference machine's marked speed is.
inline constexpr double default_reference_flops = 1e9;

// The simulated host speed of node `node` in flop/s: marked speeds (Mflop/s)
// times 1e6; relative speeds times the reference's marked speed (times 1e6)
// when known, else times default_reference_flops.
double simulated_flops(const Platform& platform, std::size_t node);

// How messages cross the network in the simulator: every node's private link
// has half the node-to-node latency and the node's bandwidth; a cluster's
// routes also cross the backbone (its own latency and bandwidth). Defaults
// when the platform has no network: latency 0, bandwidth 125 MB/s (1 Gbit/s).
inline constexpr double default_bandwidth_Bps = 125e6;
struct SimulatedLink {
  double latency_s = 0.0;
  double bandwidth_Bps = default_bandwidth_Bps;
};
SimulatedLink private_link(const Platform& platform);

// A node's availability as SimGrid's speed profile: the node's points, with
// a full-speed point at 0 when the first comes later (so every period of a
// repeating profile starts at full speed, as the platform format says).
std::vector<AvailabilityPoint> simulated_availability(const PlatformNode& node);

// The platform as a SimGrid platform file (DTD 4.1), for inspection and for
// smpirun: one zone with routing="Cluster", hosts named as the nodes, one
// split-duplex private link per host, the backbone if any, and one speed
// profile per node whose availability varies. Throws std::invalid_argument
// for a platform the simulator cannot take.
std::string simgrid_platform_xml(const Platform& platform);

// One host name per line, in node order: smpirun's hostfile (rank i on line i+1).
std::string simgrid_hostfile(const Platform& platform);

}  // namespace hetscale::sim
