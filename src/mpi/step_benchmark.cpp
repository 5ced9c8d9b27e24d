#include "hetscale/mpi/step_benchmark.hpp"

#include <mpi.h>

#include <algorithm>
#include <span>

#include "hetscale/distribute/row_distribution.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/programs/kernels/dense.hpp"
#include "polite.hpp"

namespace hetscale::mpi {

namespace {

constexpr int root = 0;
constexpr std::size_t untimed_steps = 10;

// One length: the seconds of the timed steps and, per step, this rank's
// nominal computation (CPU time / emulated speed).
struct LengthRun {
  double seconds = 0.0;
  std::vector<double> nominal;
};

LengthRun run_steps(std::size_t length, std::size_t steps, const std::vector<double>& shares,
                    measure::EmulatedProcessor& processor, int rank) {
  const auto distribution = distribute::heterogeneous_cyclic_rows(shares, length);
  const std::size_t mine = distribution.rows_owned(static_cast<std::size_t>(rank));
  const std::size_t width = length + 1;
  auto rows = programs::kernels::generate_matrix(std::max<std::size_t>(mine, 1), width, 41);
  auto pivot = programs::kernels::generate_matrix(1, width, 42);
  LengthRun run;
  run.nominal.reserve(steps);
  double started = 0.0;
  for (std::size_t step = 0; step < untimed_steps + steps; ++step) {
    if (step == untimed_steps) {
      polite::barrier(MPI_COMM_WORLD);
      started = MPI_Wtime();
    }
    const int owner = static_cast<int>(distribution.owner[step % length]);
    if (owner == rank) pivot[0] = 1.0 + static_cast<double>(step % 7);  // the owner's row: a pivot that is not 0
    polite::broadcast(pivot.data(), static_cast<int>(length), MPI_DOUBLE, owner, MPI_COMM_WORLD);
    polite::broadcast(pivot.data() + length, 1, MPI_DOUBLE, owner, MPI_COMM_WORLD);
    const double cpu_before = processor.cpu_seconds();
    if (mine > 0)
      processor.compute([&] {
        for (std::size_t i = 0; i < mine; ++i) {
          const std::span<double> row(rows.data() + i * width, width);
          row[0] = 0.5;  // as bench fpm's: bounded values over the steps
          programs::kernels::eliminate_row(row, pivot, 0);
        }
      });
    if (step >= untimed_steps) run.nominal.push_back((processor.cpu_seconds() - cpu_before) / processor.speed());
    polite::barrier(MPI_COMM_WORLD);
  }
  run.seconds = MPI_Wtime() - started;
  return run;
}

}  // namespace

std::optional<StepCosts> measure_step_costs(const StepBenchmark& benchmark) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto me = static_cast<std::size_t>(rank);
  measure::tighten_timer_slack();
  measure::EmulatedProcessor processor(benchmark.emulated_speeds.empty() ? 1.0 : benchmark.emulated_speeds[me]);
  const std::vector<double> shares = benchmark.marked_speeds.empty()
                                         ? std::vector<double>(static_cast<std::size_t>(ranks), 1.0)
                                         : benchmark.marked_speeds;
  StepCosts measured;
  measured.ranks = ranks;
  measured.steps = benchmark.steps;
  measured.emulated_speeds = benchmark.emulated_speeds;
  measured.marked_speeds = benchmark.marked_speeds;
  for (const std::size_t length : benchmark.lengths) {
    const auto run = run_steps(length, benchmark.steps, shares, processor, rank);
    const int count = static_cast<int>(run.nominal.size());
    std::vector<double> all(rank == root ? run.nominal.size() * static_cast<std::size_t>(ranks) : 0);
    polite::gather(run.nominal.data(), count, all.data(), root, MPI_COMM_WORLD);
    if (rank != root) continue;
    double slowest_sum = 0.0;
    for (std::size_t step = 0; step < run.nominal.size(); ++step) {
      double slowest = 0.0;
      for (int r = 0; r < ranks; ++r)
        slowest = std::max(slowest, all[static_cast<std::size_t>(r) * run.nominal.size() + step]);
      slowest_sum += slowest;
    }
    const double steps = static_cast<double>(benchmark.steps);
    StepCost cost;
    cost.length = static_cast<double>(length);
    cost.step_seconds = run.seconds / steps;
    cost.computation_seconds = slowest_sum / steps;
    cost.overhead_seconds = cost.step_seconds - cost.computation_seconds;
    measured.costs.push_back(cost);
  }
  if (rank != root) return std::nullopt;
  return measured;
}

}  // namespace hetscale::mpi
