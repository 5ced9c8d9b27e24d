#pragma once
// The checks of `hetscale kernel` and `hetscale scale sweep`, shared by the
// commands on real MPI (kernel_commands.cpp), their build for the simulator
// (hetscale-smpi) and the commands that launch it (`hetscale simulate kernel`
// and `simulate sweep`, simulate_kernel_commands.cpp): one set of options
// (commands.list), one set of checks.
#include "cli.hpp"
#include "hetscale/mpi/kernels.hpp"

namespace hetscale::cli {

// The options checked for `ranks` processes and turned into the library's;
// marked speeds are those given (empty: to be measured). Throws InputError
// naming the option. The same on every rank.
mpi::KernelOptions checked_kernel_options(const Arguments& arguments, int ranks);
mpi::SweepOptions checked_sweep_options(const Arguments& arguments, int ranks);

}  // namespace hetscale::cli
