#pragma once
// The options of `hetscale kernel` and `hetscale scale sweep`, shared by the
// commands on real MPI (kernel_commands.cpp), their build for the simulator
// (hetscale-smpi) and the commands that launch it (`hetscale simulate kernel`
// and `simulate sweep`, simulate_kernel_commands.cpp): one set of options,
// one set of checks, and the arguments that hand them on to hetscale-smpi.
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hetscale/mpi/kernels.hpp"
#include "hetscale/mpi/marked_speeds.hpp"

namespace hetscale::cli {

struct KernelCommand {
  std::string kernel, size, speeds, out, label, distribution = "marked";
  mpi::MarkedSpeedOptions marked;
  std::uint64_t seed = 1;
  bool json = false;
};

struct SweepCommand {
  std::string kernel = "ge", sizes, speeds, target, configuration = "C", out, timings, distribution = "marked";
  mpi::MarkedSpeedOptions marked;
  std::size_t degree = 2, repetitions = 1, refine = 3;
  std::string point = "median";
  std::uint64_t seed = 1;
  bool json = false;
};

// Which options a command offers: on this machine's MPI, every one; in the
// simulator the speeds are the platform's, so neither emulated speeds nor
// marked speeds are options.
enum class KernelBackend { mpi, simulator };

void add_kernel_options(CLI::App& command, KernelCommand& options, KernelBackend backend);
void add_sweep_options(CLI::App& command, SweepCommand& options, KernelBackend backend);

// The options checked for `ranks` processes and turned into the library's;
// marked speeds are those given (empty: to be measured). Throws InputError
// naming the option. The same on every rank.
mpi::KernelOptions checked_kernel_options(const KernelCommand& command, int ranks);
mpi::SweepOptions checked_sweep_options(const SweepCommand& command, int ranks);

// The command line that asks hetscale (or hetscale-smpi) for the same run:
// "kernel ge --size 100 ..." and "scale sweep --kernel ge ...".
std::vector<std::string> kernel_arguments(const KernelCommand& command);
std::vector<std::string> sweep_arguments(const SweepCommand& command);

}  // namespace hetscale::cli
