#pragma once
// `hetscale bench steps`: what a kernel's step costs on this configuration
// beyond its computation. Each step as the kernel makes it (mpi/kernels.cpp),
// every rank computing as a node of its emulated speed:
//  - ge, at row lengths L: the pivot's owner broadcasts the pivot row (L
//    values, then its right-hand side), every rank updates its rows of an
//    L-row block (dealt by the heterogeneous cyclic distribution of the
//    marked speeds), all synchronise;
//  - mm, at orders N: the whole product, its one step: rank 0 sends each rank
//    its block of A's rows (heterogeneous blocks of the marked speeds) and
//    all of B, each computes its rows of C (dgemm), rank 0 gathers them;
//    before each product rank 0 generates new A and B and after it checks C,
//    as each run of the kernel does (the others meanwhile wait at the
//    barrier, which slows their next product as it does the kernel's).
// Over many steps at each size: the step's time, the slowest rank's nominal
// computation (CPU time / emulated speed), ge's the means over the steps, mm's
// the medians (each step a whole product, its time the longest rank's; with
// fastest_of K, of each K steps' fastest, as a sweep's --repetitions K
// --point fastest takes its points), and the rest: what a step costs
// beyond its computation (messages, the wait for the slowest, the barrier,
// the emulation's sleeps). mpi.h stays private to the .cpp file.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/record/step_costs.hpp"

namespace hetscale::mpi {

struct StepBenchmark {
  std::string kernel = "ge";            // ge or mm
  std::vector<std::size_t> lengths;     // ge: row lengths L (the remaining size); mm: orders N
  std::size_t steps = 200;              // timed steps per size (after 10 untimed; mm: 2)
  std::size_t fastest_of = 1;           // mm: steps in groups of this many, each group's fastest
  std::vector<double> emulated_speeds;  // per rank, in (0, 1]; empty: all 1
  std::vector<double> marked_speeds;    // per rank, > 0: the rows' shares; empty: all equal
};

// Collective over MPI_COMM_WORLD; rank 0 returns the costs (one per length,
// the benchmark's settings beside them), the others std::nullopt. mm's
// products are checked as the kernel's are; rank 0 throws
// std::runtime_error, once every rank is through, if one failed.
std::optional<StepCosts> measure_step_costs(const StepBenchmark& benchmark);

}  // namespace hetscale::mpi
