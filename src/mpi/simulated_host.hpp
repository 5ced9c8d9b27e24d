#pragma once
// The host a process runs on. On real MPI it is this machine; in the SMPI
// build (hetscale-smpi, compiled with HETSCALE_SMPI against SimGrid's mpi.h)
// it is a simulated host of the platform smpirun was given, and computation
// takes simulated time only when it is charged here: the simulation runs
// with smpi/simulate-computation:no, so the real arithmetic between MPI calls
// costs no simulated time, and each computed block charges the flop its
// kernel counts (smpi_execute_flops) at the host's speed. The simulated time
// is then a function of the platform and the flop counts alone:
// reproducible on any machine. See docs/simulation.md. Private to
// hetscale_mpi and hetscale-smpi; header-only, so the real-MPI build needs
// no SimGrid.
#include <optional>
#include <stdexcept>
#include <string>

#ifdef HETSCALE_SMPI
#include <mpi.h>  // SimGrid's: declares smpi_execute_flops
#include <simgrid/host.h>
#include <simgrid/version.h>
#include <xbt/config.hpp>
#endif

namespace hetscale::mpi::simulated {

// True in the SMPI build.
inline constexpr bool in_simulator =
#ifdef HETSCALE_SMPI
    true;
#else
    false;
#endif

// Charges `flops` of computation to this process's simulated host; nothing
// on real MPI (the computation took its real time already).
inline void account_computation(double flops) {
#ifdef HETSCALE_SMPI
  if (flops > 0.0) smpi_execute_flops(flops);
#else
  (void)flops;
#endif
}

// The speed of this process's simulated host in Mflop/s (its marked speed:
// what it computes per second is exactly that); none on real MPI.
inline std::optional<double> host_speed_mflops() {
#ifdef HETSCALE_SMPI
  return sg_host_get_speed(sg_host_self()) / 1e6;
#else
  return std::nullopt;
#endif
}

// The simulated host's name; none on real MPI.
inline std::optional<std::string> host_name() {
#ifdef HETSCALE_SMPI
  return std::string(sg_host_get_name(sg_host_self()));
#else
  return std::nullopt;
#endif
}

// "SimGrid 3.32 SMPI" in the simulator; none on real MPI.
inline std::optional<std::string> simulator_name() {
#ifdef HETSCALE_SMPI
  return "SimGrid " + std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR) + " SMPI";
#else
  return std::nullopt;
#endif
}

// In the simulator: throws std::runtime_error unless the simulation leaves
// the computation's real time out (smpi/simulate-computation:no; otherwise
// every block would be charged twice, once benchmarked, once by its flop)
// and gives every rank its own copy of the program's globals
// (smpi/privatization, smpirun's default; the command line keeps its
// options in static objects). Nothing on real MPI.
inline void require_deterministic_configuration() {
#ifdef HETSCALE_SMPI
  if (simgrid::config::get_value<bool>("smpi/simulate-computation"))
    throw std::runtime_error(
        "run under smpirun with --cfg=smpi/simulate-computation:no (`hetscale simulate` does): computation is charged "
        "by its flop count, not by its real time");
  const std::string privatization = simgrid::config::get_value<std::string>("smpi/privatization");
  if (privatization == "no" || privatization == "0" || privatization == "none")
    throw std::runtime_error("run under smpirun without -no-privatize: every rank needs its own copy of the globals");
#endif
}

}  // namespace hetscale::mpi::simulated
