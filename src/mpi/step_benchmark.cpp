#include "hetscale/mpi/step_benchmark.hpp"

#include <mpi.h>

#include <algorithm>
#include <optional>
#include <span>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/distribute/row_distribution.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/programs/kernels/dense.hpp"
#include "model/statistics.hpp"
#include "matrix_product.hpp"
#include "polite.hpp"

namespace hetscale::mpi {

namespace {

constexpr int root = 0;
constexpr std::size_t untimed_steps = 10;

// One size: the seconds of the timed steps (mm: per step, this rank's time
// from the barrier to its part done) and, per step, this rank's nominal
// computation (CPU time / emulated speed).
struct LengthRun {
  double seconds = 0.0;
  std::vector<double> elapsed;
  std::vector<double> nominal;
  bool checks_passed = true;  // mm, rank 0: every product's check
};

LengthRun elimination_steps(std::size_t length, std::size_t steps, const std::vector<double>& shares,
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

// mm's one step at order n, as a run of the kernel makes it: before each
// step rank 0 generates new A and B (while the others wait at the barrier),
// after it rank 0 checks the product. Each rank's time from the barrier to
// its part done (rank 0: the last block of C received), whose largest is the
// step's time as it is the kernel's t_par. (Run back to back on copies of
// one A and B, the others hardly waiting at the barrier, the steps were
// faster than the kernel's runs: the kernel's T over the steps' was 1.14 to
// 1.22 on C4 at N = 100-400 over 24 rounds of bench/isospeed_experiment,
// and 0.92 to 1.12 over 27 with this: docs/experiments.md.)
LengthRun product_steps(std::size_t n, std::size_t steps, const std::vector<double>& shares,
                        measure::EmulatedProcessor& processor, int rank, int ranks) {
  constexpr std::size_t untimed = 2;
  constexpr std::uint64_t first_seed = 43;
  const auto distribution = distribute::heterogeneous_block_rows(shares, n);
  LengthRun run;
  run.nominal.reserve(steps);
  for (std::size_t step = 0; step < untimed + steps; ++step) {
    // Each product's A, B and check take seeds seed, seed + 1 and seed + 2.
    auto operands = product_operands(distribution, n, rank, first_seed + 3 * step);
    polite::barrier(MPI_COMM_WORLD);
    const double started = MPI_Wtime();
    const double cpu_before = processor.cpu_seconds();
    matrix_product_step(distribution, n, operands.a, operands.b, operands.c, rank, ranks,
                        [&](auto&& multiply) { processor.compute(multiply); });
    const double elapsed = MPI_Wtime() - started;
    if (rank == root && !(product_residual(operands) <= product_tolerance)) run.checks_passed = false;
    if (step < untimed) continue;
    run.elapsed.push_back(elapsed);
    run.nominal.push_back((processor.cpu_seconds() - cpu_before) / processor.speed());
  }
  return run;
}

// Per step, the largest of the ranks' values (collective; on rank 0).
std::vector<double> largest_over_ranks(const std::vector<double>& mine, int rank, int ranks) {
  const std::size_t steps = mine.size();  // the same on every rank
  if (steps == 0) return {};
  std::vector<double> all(rank == root ? steps * static_cast<std::size_t>(ranks) : 0), largest(steps, 0.0);
  polite::gather(mine.data(), static_cast<int>(steps), all.data(), root, MPI_COMM_WORLD);
  if (rank == root)
    for (std::size_t step = 0; step < steps; ++step)
      for (int r = 0; r < ranks; ++r)
        largest[step] = std::max(largest[step], all[static_cast<std::size_t>(r) * steps + step]);
  return largest;
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
  measured.kernel = benchmark.kernel;
  measured.ranks = ranks;
  measured.steps = benchmark.steps;
  measured.fastest_of = benchmark.fastest_of;
  measured.emulated_speeds = benchmark.emulated_speeds;
  measured.marked_speeds = benchmark.marked_speeds;
  std::optional<std::size_t> failed_length;  // rank 0: an order whose product failed its check
  for (const std::size_t length : benchmark.lengths) {
    const auto run = benchmark.kernel == "mm" ? product_steps(length, benchmark.steps, shares, processor, rank, ranks)
                                              : elimination_steps(length, benchmark.steps, shares, processor, rank);
    const auto slowest = largest_over_ranks(run.nominal, rank, ranks);
    const auto longest = largest_over_ranks(run.elapsed, rank, ranks);
    if (rank != root) continue;
    if (!run.checks_passed && !failed_length) failed_length = length;
    StepCost cost;
    cost.length = static_cast<double>(length);
    if (longest.empty()) {  // ge: the mean step of many
      const double steps = static_cast<double>(benchmark.steps);
      cost.step_seconds = run.seconds / steps;
      for (const double seconds : slowest) cost.computation_seconds += seconds / steps;
    } else {  // mm: each step a whole product; of each group's fastest, the median
      std::vector<double> times, computations;
      for (std::size_t first = 0; first + benchmark.fastest_of <= longest.size(); first += benchmark.fastest_of) {
        const auto group = longest.begin() + static_cast<long>(first);
        const auto fastest = static_cast<std::size_t>(
            std::min_element(group, group + static_cast<long>(benchmark.fastest_of)) - longest.begin());
        times.push_back(longest[fastest]);
        computations.push_back(slowest[fastest]);
      }
      cost.step_seconds = model::detail::median(times);
      cost.computation_seconds = model::detail::median(computations);
    }
    cost.overhead_seconds = cost.step_seconds - cost.computation_seconds;
    measured.costs.push_back(cost);
  }
  if (rank != root) return std::nullopt;
  // Thrown once every rank is through (the others return normally).
  if (failed_length)
    throw std::runtime_error(
        fmt::format("bench steps: a product at order {} failed its check (Freivalds residual above {:g})",
                    *failed_length, product_tolerance));
  return measured;
}

}  // namespace hetscale::mpi
