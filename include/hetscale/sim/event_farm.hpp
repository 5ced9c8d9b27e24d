#pragma once
// The farm of simgrid_farm.hpp in hetscale's own event simulation: the same
// FarmServer, FarmClient and policies, the same run record, and messages as
// SimGrid's CM02 model times one alone on its route (the route's latency,
// then its bytes at the slower link's bandwidth, bounded by the TCP window as
// CM02 bounds it), each costing its sender the send overhead. What it leaves
// out is messages sharing a link's bandwidth at the same instant: the farm's
// messages are small and the senders' overheads space them, so the two
// engines give the same runs to a few parts in a million (tests/sim,
// bench/simulate_farm_scale), and this one is a hundred times faster at
// 10,000 clients. Nodes of varying availability need SimGrid.
#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/simgrid_farm.hpp"

namespace hetscale::sim {

// SimGrid's CM02 bound on a flow's rate: the TCP window (network/TCP-gamma,
// 4 MiB by default) over the round trip, gamma / (2 latency).
inline constexpr double simgrid_tcp_gamma_bytes = 4194304.0;

// Throws InputError naming the node when a node the farm uses (the server,
// the clients) has what the event simulation does not model (an
// availability trace), beside what validate_simulated_farm checks.
void validate_event_farm(const Platform& platform, const SimulatedFarmOptions& options);

// Runs the farm in simulated time in this process (any number of times).
// Options must have passed validate_event_farm.
SimulatedFarmRun simulate_farm_with_events(const Platform& platform, const SimulatedFarmOptions& options);

}  // namespace hetscale::sim
