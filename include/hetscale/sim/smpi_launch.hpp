#pragma once
// The kernels in the simulator: hetscale-smpi (the kernel commands built
// against SimGrid's MPI) run by smpirun on a simulated platform, one rank per
// host. See docs/simulation.md.
#include <string>
#include <vector>

#include "hetscale/platform/platform.hpp"

namespace hetscale::sim {

// The nodes of `platform` named in `names`, in that order (rank order), as a
// platform of their own. Throws InputError naming `option`: an unknown name
// (listing some of the platform's), a name given twice (one rank per host).
Platform select_nodes(const Platform& platform, const std::vector<std::string>& names, const std::string& option);
// The first `count` nodes; more ranks than hosts is InputError naming `option`.
Platform first_nodes(const Platform& platform, std::size_t count, const std::string& option);

// The nodes `hosts` names: all for "", a count (the first nodes), or names
// a,b,c (or @FILE, names separated by commas or lines); InputError naming
// the setting hosts.
Platform select_hosts(const Platform& platform, const std::string& hosts);

struct SmpiPrograms {
  std::string smpirun;        // SimGrid's launcher
  std::string hetscale_smpi;  // the program it runs
};

// The configuration every simulated run uses, as smpirun arguments:
// computation charged by flop count only (smpi/simulate-computation:no),
// MPI_Wtime adding no time, the platform's latency and bandwidth as given
// (latency and bandwidth factors 1), MPICH's collective algorithms (seed
// 001's machine ran MPICH), SimGrid's own messages only when an error.
std::vector<std::string> smpi_configuration();

// Runs `arguments` (a hetscale-smpi command line) under smpirun on every node
// of `platform`, one rank per node, in node order: the platform's SimGrid XML
// and hostfile go to a temporary folder (removed afterwards); the program's
// output is passed through, less smpirun's own report of a failed run
// ("Execution failed with code N."). Returns the program's exit code: 0
// (done, checks passed), 1 (a check failed), 2 (bad input) or 3 (internal
// error), each said on stderr by hetscale-smpi.
// Throws InputError if a program is missing (naming the environment variable
// that points to it, `smpirun_variable` or `program_variable`), or the
// platform cannot be simulated; std::runtime_error if smpirun cannot be run,
// ends by a signal or with another code (the simulation failed).
int run_in_simulator(const Platform& platform, const SmpiPrograms& programs, const std::vector<std::string>& arguments,
                     const std::string& smpirun_variable, const std::string& program_variable);

}  // namespace hetscale::sim
