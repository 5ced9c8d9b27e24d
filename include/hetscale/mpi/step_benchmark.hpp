#pragma once
// `hetscale bench steps`: the per-step cost of Gaussian elimination's step
// on this configuration, beyond its computation. Each step as the kernel
// makes it (mpi/kernels.cpp): the pivot's owner broadcasts the pivot row
// (L values, then its right-hand side), every rank updates its rows of an
// L-row block (dealt by the heterogeneous cyclic distribution of the marked
// speeds) computing as a node of its emulated speed, all synchronise. Over
// many steps at a few lengths L: the step's time, the slowest rank's nominal
// computation (CPU time / emulated speed), and the rest: what a step costs
// beyond its computation (broadcasts, the wait for the slowest, the barrier,
// the emulation's sleeps). mpi.h stays private to the .cpp file.
#include <cstddef>
#include <optional>
#include <vector>

#include "hetscale/record/step_costs.hpp"

namespace hetscale::mpi {

struct StepBenchmark {
  std::vector<std::size_t> lengths;     // L: row lengths (the elimination's remaining size)
  std::size_t steps = 200;              // timed steps per length (after 10 untimed)
  std::vector<double> emulated_speeds;  // per rank, in (0, 1]; empty: all 1
  std::vector<double> marked_speeds;    // per rank, > 0: the rows' shares; empty: all equal
};

// Collective over MPI_COMM_WORLD; rank 0 returns the costs (one per length,
// the benchmark's settings beside them), the others std::nullopt.
std::optional<StepCosts> measure_step_costs(const StepBenchmark& benchmark);

}  // namespace hetscale::mpi
