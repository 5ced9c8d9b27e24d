#include "hetscale/mpi/kernels.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <limits>
#include <string>
#include <stdexcept>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/input_error.hpp"
#include "hetscale/model/isospeed.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/programs/kernels/dense.hpp"
#include "hetscale/programs/kernels/fourier.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/platform/speed_model.hpp"
#include "hetscale/measure/rank_clock.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "hetscale/distribute/counts.hpp"
#include "hetscale/distribute/functional_partition.hpp"
#include "hetscale/distribute/row_distribution.hpp"
#include "mpi/matrix_product.hpp"
#include "mpi/polite.hpp"
#include "mpi/simulated_host.hpp"
#include "io/provenance_json.hpp"

namespace hetscale::mpi {

std::string to_string(KernelKind kernel) {
  switch (kernel) {
    case KernelKind::gaussian_elimination:
      return "ge";
    case KernelKind::matrix_multiplication:
      return "mm";
    case KernelKind::convolution:
      return "conv";
    case KernelKind::monte_carlo:
      return "mc";
  }
  return "?";
}

KernelKind kernel_from_string(const std::string& name) {
  for (auto kernel : {KernelKind::gaussian_elimination, KernelKind::matrix_multiplication, KernelKind::convolution,
                      KernelKind::monte_carlo})
    if (to_string(kernel) == name) return kernel;
  throw std::invalid_argument(fmt::format("unknown kernel '{}'; allowed: ge, mm, conv, mc", name));
}

std::string to_string(RepetitionChoice choice) { return choice == RepetitionChoice::fastest ? "fastest" : "median"; }

RepetitionChoice repetition_choice_from_string(const std::string& name) {
  for (auto choice : {RepetitionChoice::median, RepetitionChoice::fastest})
    if (to_string(choice) == name) return choice;
  throw std::invalid_argument(fmt::format("unknown choice '{}'; allowed: median, fastest", name));
}

double kernel_workload(KernelKind kernel, double size) {
  if (kernel == KernelKind::monte_carlo) return size;
  return model::kernel_workload(to_string(kernel))(size);
}

namespace {

// Largest sizes a run accepts: rank 0 holds the whole problem (and its reference).
std::size_t largest_size(KernelKind kernel) {
  switch (kernel) {
    case KernelKind::gaussian_elimination:
      return 20000;
    case KernelKind::matrix_multiplication:
      return 12000;
    case KernelKind::convolution:
      return 8192;
    case KernelKind::monte_carlo:
      return 1000000000;
  }
  return 0;
}

void check_per_rank(const std::vector<double>& values, std::size_t ranks, const char* option, bool at_most_one) {
  if (!values.empty() && values.size() != ranks)
    throw InputError(option, "",
                     fmt::format("has {} values for {} MPI ranks; give one per rank", values.size(), ranks));
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]) || values[i] <= 0.0 || (at_most_one && values[i] > 1.0))
      throw InputError(option, fmt::format("item {}", i + 1),
                       at_most_one ? fmt::format("must be in (0, 1] (a process cannot be emulated faster than this "
                                                 "machine), got {:g}",
                                                 values[i])
                                   : fmt::format("must be > 0, got {:g}", values[i]));
}

}  // namespace

void validate_kernel_options(const KernelOptions& options, int ranks) {
  const auto count = static_cast<std::size_t>(std::max(ranks, 1));
  if (simulated::in_simulator && !options.speeds.empty())
    throw InputError("speeds", "",
                     "emulated speeds have no place in the simulator: every process computes at its "
                     "simulated host's speed (the platform's)");
  check_per_rank(options.speeds, count, "speeds", true);
  check_per_rank(options.marked_speeds, count, "marked", false);
  if (!options.speed_functions.empty()) {
    if (options.kernel == KernelKind::monte_carlo)
      throw InputError("distribution", "", "mc shares histories by marked speeds only; fpm is for ge, mm and conv");
    if (options.speed_functions.size() != count)
      throw InputError("distribution", "",
                       fmt::format("{}: has {} nodes for {} MPI ranks", options.distribution,
                                   options.speed_functions.size(), count));
  }
  const std::size_t largest = largest_size(options.kernel);
  if (options.size < 1 || options.size > largest)
    throw InputError("size", "",
                     fmt::format("must be a whole number in [1, {}] for kernel {}, got {}", largest,
                                 to_string(options.kernel), options.size));
  if (options.kernel == KernelKind::monte_carlo) {
    try {
      programs::kernels::prepare_photon_tables(programs::kernels::SlabProblem{
          options.slab.thickness_cm, options.slab.source_energy_MeV, options.slab.cutoff_energy_MeV, 2, 2});
    } catch (const std::invalid_argument& error) {
      throw InputError("slab", "", error.what());
    }
  }
}

namespace {

constexpr int root = 0;

// The rows each rank takes: by the speed functions when given (the
// partition's whole rows, past a model's sizes at its last speed), else in
// proportion to the marked speeds.
std::vector<double> work_shares(const KernelOptions& options, const std::vector<double>& marked) {
  if (options.speed_functions.empty()) return marked;
  const auto partition = distribute::partition_by_speed(options.speed_functions, options.size,
                                                        distribute::PartitionAlgorithm::numerical, true);
  std::vector<double> shares;
  for (const std::size_t rows : partition.units) shares.push_back(static_cast<double>(rows));  // 0: no rows
  return shares;
}

struct Context {
  int rank = 0, ranks = 1;
  std::vector<double> marked;  // marked speeds (or all 1): C
  std::vector<double> shares;  // what the work is shared by: the marked speeds, or rows by speed functions
  measure::EmulatedProcessor processor;
  measure::RankClock clock;
  double flops = 0.0;  // work this rank did
  Context(int rank_, int ranks_, const KernelOptions& options)
      : rank(rank_),
        ranks(ranks_),
        marked(options.marked_speeds.empty() ? std::vector<double>(static_cast<std::size_t>(ranks_), 1.0)
                                             : options.marked_speeds),
        shares(work_shares(options, marked)),
        processor(options.speeds.empty() ? 1.0 : options.speeds[static_cast<std::size_t>(rank_)]) {}
  std::size_t me() const { return static_cast<std::size_t>(rank); }
  // One block of local computation: `work` computes and returns what it did
  // (flop; mc: histories). In the simulator the block then costs
  // `simulated_flops(what it did)` flop at the simulated host's speed (by
  // default the flop the block counted); on real MPI it cost its real time.
  template <class Work, class SimulatedFlops = std::identity>
  void compute(Work&& work, SimulatedFlops&& simulated_flops = {}) {
    clock.switch_to(measure::Activity::computation);
    double done = 0.0;
    processor.compute([&] { done = work(); });
    simulated::account_computation(simulated_flops(done));
    flops += done;
    clock.switch_to(measure::Activity::communication);
  }
  void barrier() {
    clock.switch_to(measure::Activity::idle);
    polite::barrier(MPI_COMM_WORLD);
    clock.switch_to(measure::Activity::communication);
  }
};

// --- Gaussian elimination (Chen et al. 2008, Section 4.1.1) ----------------------------
// Rows dealt by the heterogeneous cyclic distribution. Step k: the owner of
// row k broadcasts the pivot row, then its right-hand side; every process
// eliminates its rows below k; all synchronise. Process 0 collects the upper
// triangular system and back-substitutes.
// What process 0 checks once the clock has stopped.
using Verification = std::function<KernelCheck()>;

Verification gaussian_elimination(Context& context, const KernelOptions& options) {
  const std::size_t n = options.size, width = n + 1, me = context.me();
  const auto distribution = distribute::heterogeneous_cyclic_rows(context.shares, n);
  const auto& mine = distribution.rows_of[me];
  std::optional<programs::kernels::LinearSystem> system;
  if (context.rank == root) system = programs::kernels::generate_linear_system(n, options.seed);
  std::vector<double> local(mine.size() * width);

  context.barrier();
  context.clock.start(measure::Activity::communication);
  if (context.rank == root) {
    for (int process = 1; process < context.ranks; ++process) {
      const auto& rows = distribution.rows_of[static_cast<std::size_t>(process)];
      std::vector<double> packed(rows.size() * width);
      for (std::size_t i = 0; i < rows.size(); ++i)
        std::copy_n(system->augmented_row(rows[i]).begin(), width, packed.begin() + static_cast<long>(i * width));
      polite::send(packed.data(), message_count(packed.size()), MPI_DOUBLE, process, 1, MPI_COMM_WORLD);
    }
    for (std::size_t i = 0; i < mine.size(); ++i)
      std::copy_n(system->augmented_row(mine[i]).begin(), width, local.begin() + static_cast<long>(i * width));
  } else {
    polite::receive(local.data(), message_count(local.size()), MPI_DOUBLE, root, 1, MPI_COMM_WORLD);
  }

  std::vector<double> pivot(width);
  std::size_t first_below = 0;  // index in `mine` of the first row below the pivot
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const int owner = static_cast<int>(distribution.owner[k]);
    const std::size_t length = n - k;
    if (owner == context.rank) {
      const auto at = static_cast<std::size_t>(std::lower_bound(mine.begin(), mine.end(), k) - mine.begin());
      std::copy_n(local.begin() + static_cast<long>(at * width + k), length + 1, pivot.begin());
    }
    polite::broadcast(pivot.data(), message_count(length), MPI_DOUBLE, owner, MPI_COMM_WORLD);
    polite::broadcast(pivot.data() + length, 1, MPI_DOUBLE, owner, MPI_COMM_WORLD);
    while (first_below < mine.size() && mine[first_below] <= k) ++first_below;
    if (first_below < mine.size())
      context.compute([&] {
        double flops = 0.0;
        const std::span<const double> pivot_row(pivot.data(), length + 1);
        for (std::size_t i = first_below; i < mine.size(); ++i)
          flops += programs::kernels::eliminate_row(std::span<double>(local.data() + i * width, width), pivot_row, k);
        return flops;
      });
    context.barrier();
  }

  if (context.rank != root) {
    polite::send(local.data(), message_count(local.size()), MPI_DOUBLE, root, 2, MPI_COMM_WORLD);
    return {};
  }
  programs::kernels::LinearSystem upper{n, std::vector<double>(n * width)};
  for (std::size_t i = 0; i < mine.size(); ++i)
    std::copy_n(local.begin() + static_cast<long>(i * width), width, upper.augmented_row(mine[i]).begin());
  for (int process = 1; process < context.ranks; ++process) {
    const auto& rows = distribution.rows_of[static_cast<std::size_t>(process)];
    std::vector<double> packed(rows.size() * width);
    polite::receive(packed.data(), message_count(packed.size()), MPI_DOUBLE, process, 2, MPI_COMM_WORLD);
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::copy_n(packed.begin() + static_cast<long>(i * width), width, upper.augmented_row(rows[i]).begin());
  }
  std::vector<double> x;
  context.compute([&] {
    x = programs::kernels::back_substitute(upper);
    return static_cast<double>(n) * static_cast<double>(n);
  });
  return [system = std::move(*system), x = std::move(x)] {
    const double residual = programs::kernels::relative_residual(system, x);
    return KernelCheck{"relative residual ||Ax - b|| / (||A|| ||x|| + ||b||)", residual, 1e-12, residual <= 1e-12};
  };
}

// --- matrix multiplication (Chen et al. 2008, Section 4.1.2) -----------------------------
// Rows of A in heterogeneous blocks; process 0 sends each process its rows of
// A and all of B, each computes its rows of C with dgemm, process 0 gathers.
Verification matrix_multiplication(Context& context, const KernelOptions& options) {
  const std::size_t n = options.size;
  const auto distribution = distribute::heterogeneous_block_rows(context.shares, n);
  auto operands = product_operands(distribution, n, context.rank, options.seed);
  context.barrier();
  context.clock.start(measure::Activity::communication);
  matrix_product_step(distribution, n, operands.a, operands.b, operands.c, context.rank, context.ranks,
                      [&](auto&& multiply) { context.compute(multiply); });
  if (context.rank != root) return {};
  return [operands = std::move(operands)] {
    const double residual = product_residual(operands);
    return KernelCheck{"Freivalds residual ||C x - A B x|| / (||A|| ||B|| ||x||)", residual, product_tolerance,
                       residual <= product_tolerance};
  };
}

// --- 2D convolution (Chen et al. 2008, Section 4.1.3) ------------------------------------
using programs::kernels::Complex;

// Moves `images` images from rows to columns: on entry each process holds its
// block of rows of every image ([image][row][column]); on exit its block of
// columns ([image][column][row]). Blocks of the same distribution.
std::vector<Complex> transpose(const std::vector<Complex>& local, std::size_t images, std::size_t n,
                               const distribute::RowDistribution& distribution, std::size_t me, Context& context) {
  const std::size_t processes = distribution.rows_of.size();
  const std::size_t mine = distribution.rows_owned(me);
  std::vector<int> send_counts(processes), send_offsets(processes), receive_counts(processes),
      receive_offsets(processes);
  std::vector<Complex> packed(local.size()), received(images * mine * n);
  std::size_t sent = 0, taken = 0;
  for (std::size_t q = 0; q < processes; ++q) {
    const auto& columns = distribution.rows_of[q];
    send_offsets[q] = message_count(2 * sent);
    for (std::size_t image = 0; image < images; ++image)
      for (const std::size_t column : columns)
        for (std::size_t row = 0; row < mine; ++row) packed[sent++] = local[(image * mine + row) * n + column];
    send_counts[q] = message_count(2 * sent) - send_offsets[q];
    receive_offsets[q] = message_count(2 * taken);
    taken += images * mine * distribution.rows_owned(q);
    receive_counts[q] = message_count(2 * taken) - receive_offsets[q];
  }
  polite::all_to_all_v(packed.data(), send_counts.data(), send_offsets.data(), received.data(), receive_counts.data(),
                       receive_offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  std::vector<Complex> columns(images * mine * n);
  context.compute([&] {
    std::size_t at = 0;
    for (std::size_t s = 0; s < processes; ++s) {
      const auto& their_rows = distribution.rows_of[s];
      for (std::size_t image = 0; image < images; ++image)
        for (std::size_t column = 0; column < mine; ++column)
          for (const std::size_t row : their_rows) columns[(image * mine + column) * n + row] = received[at++];
    }
    return 0.0;
  });
  return columns;
}

// The flop the blocks below count for all processes together: 6 N transforms
// of N points (two images forward along rows and columns, the product back
// along columns and rows) at 5 N lg N each, the pointwise product (6 per
// element) and the scaling (2 per element).
double counted_convolution_flops(std::size_t n) {
  const double size = static_cast<double>(n);
  return (n > 1 ? 30.0 * size * size * std::log2(size) : 0.0) + 8.0 * size * size;
}

Verification convolution(Context& context, const KernelOptions& options) {
  const std::size_t n = options.size, me = context.me();
  // In the simulator every block is charged in proportion to Chen et al. 2008's
  // W(N) = 66 N^2 lg N + 21 N^2 + 84 N lg N, the flop its algorithm counts,
  // so that the whole run is charged W(N), as for GE and MM.
  const double paper_per_counted =
      kernel_workload(KernelKind::convolution, static_cast<double>(n)) / counted_convolution_flops(n);
  const auto simulated_flops = [paper_per_counted](double counted) { return counted * paper_per_counted; };
  const auto distribution = distribute::heterogeneous_block_rows(context.shares, n);
  const std::size_t rows = distribution.rows_owned(me);
  std::vector<Complex> first, second, local(2 * rows * n);
  if (context.rank == root) {
    first = programs::kernels::generate_image(n, options.seed);
    second = programs::kernels::generate_image(n, options.seed + 1);
  }
  context.barrier();
  context.clock.start(measure::Activity::communication);
  // Distribution: both images' rows in one message per process.
  if (context.rank == root) {
    for (int process = 0; process < context.ranks; ++process) {
      const auto& owned = distribution.rows_of[static_cast<std::size_t>(process)];
      if (owned.empty()) continue;
      const std::size_t count = owned.size() * n;
      std::vector<Complex> packed(2 * count);
      std::copy_n(first.begin() + static_cast<long>(owned.front() * n), count, packed.begin());
      std::copy_n(second.begin() + static_cast<long>(owned.front() * n), count,
                  packed.begin() + static_cast<long>(count));
      if (process == root)
        local = std::move(packed);
      else
        polite::send(packed.data(), message_count(4 * count), MPI_DOUBLE, process, 1, MPI_COMM_WORLD);
    }
  } else if (rows > 0) {
    polite::receive(local.data(), message_count(4 * rows * n), MPI_DOUBLE, root, 1, MPI_COMM_WORLD);
  }
  // Forward 2D FFT of both: rows, transpose, rows (the columns).
  context.compute([&] { return programs::kernels::transform_rows(local, n, programs::kernels::FftDirection::forward); },
                  simulated_flops);
  auto columns = transpose(local, 2, n, distribution, me, context);
  const std::size_t count = rows * n;
  std::span<Complex> a(columns.data(), count), b(columns.data() + count, count);
  context.compute(
      [&] {
        double flops = programs::kernels::transform_rows(columns, n, programs::kernels::FftDirection::forward);
        flops += programs::kernels::multiply_pointwise(a, b);
        return flops + programs::kernels::transform_rows(a, n, programs::kernels::FftDirection::inverse);
      },
      simulated_flops);
  // Inverse 2D FFT: columns done; transpose back, then rows.
  std::vector<Complex> product(a.begin(), a.end());
  auto result = transpose(product, 1, n, distribution, me, context);
  context.compute(
      [&] {
        const double flops = programs::kernels::transform_rows(result, n, programs::kernels::FftDirection::inverse);
        return flops + programs::kernels::scale_values(result, 1.0 / (static_cast<double>(n) * static_cast<double>(n)));
      },
      simulated_flops);
  if (context.rank != root) {
    if (rows > 0) polite::send(result.data(), message_count(2 * count), MPI_DOUBLE, root, 2, MPI_COMM_WORLD);
    return {};
  }
  std::vector<Complex> convolved(n * n);
  std::copy(result.begin(), result.end(),
            convolved.begin() +
                static_cast<long>(distribution.rows_of[me].empty() ? 0 : distribution.rows_of[me].front() * n));
  for (int process = 1; process < context.ranks; ++process) {
    const auto& owned = distribution.rows_of[static_cast<std::size_t>(process)];
    if (owned.empty()) continue;
    polite::receive(convolved.data() + owned.front() * n, message_count(2 * owned.size() * n), MPI_DOUBLE, process, 2,
                    MPI_COMM_WORLD);
  }
  return [first = std::move(first), second = std::move(second), convolved = std::move(convolved), n] {
    const double difference =
        programs::kernels::relative_difference(convolved, programs::kernels::convolve_serial(first, second, n));
    return KernelCheck{"max |D - D_serial| / max |D_serial|", difference, 1e-10, difference <= 1e-10};
  };
}

// --- Monte Carlo photon transport (Majumdar 1999) --------------------------------------
// Process 0 prepares the tables (the serial set-up) and broadcasts them; the
// histories are shared in proportion to speed; the tallies are summed.
//
// What the simulator charges for it (the kernel counts histories, not flop):
// a modelled cost, not a measured one, documented in docs/simulation.md.
constexpr double simulated_flops_per_history = 50.0;      // source, last flight, tally
constexpr double simulated_flops_per_collision = 100.0;   // flight, table look-up, Compton sampling
constexpr double simulated_flops_per_table_value = 20.0;  // cross sections and angular CDFs

Verification monte_carlo(Context& context, const KernelOptions& options) {
  const std::uint64_t histories = options.size;
  const auto counts = distribute::proportional_counts(options.size, context.shares);
  std::uint64_t first = 0;
  for (std::size_t q = 0; q < context.me(); ++q) first += counts[q];
  context.barrier();
  context.clock.start(measure::Activity::communication);
  programs::kernels::PhotonTables tables;
  tables.problem = options.slab;
  if (context.rank == root)
    context.compute(
        [&] {
          tables = programs::kernels::prepare_photon_tables(options.slab);
          return 0.0;
        },
        [&](double) { return simulated_flops_per_table_value * static_cast<double>(tables.values.size()); });
  unsigned long long size = tables.values.size();
  context.clock.switch_to(measure::Activity::idle);
  polite::broadcast(&size, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
  context.clock.switch_to(measure::Activity::communication);
  tables.values.resize(size);
  polite::broadcast(tables.values.data(), message_count(size), MPI_DOUBLE, root, MPI_COMM_WORLD);
  programs::kernels::PhotonTally tally;
  context.compute(
      [&] {
        tally = programs::kernels::transport_photons(tables, first, counts[context.me()], options.seed);
        return static_cast<double>(counts[context.me()]);
      },
      [&](double histories) {
        return simulated_flops_per_history * histories +
               simulated_flops_per_collision * static_cast<double>(tally.collisions);
      });
  const std::array<unsigned long long, 5> mine{tally.histories, tally.transmitted, tally.reflected, tally.absorbed,
                                               tally.collisions};
  std::array<unsigned long long, 5> sums{};
  polite::reduce_sum(mine.data(), sums.data(), 5, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
  if (context.rank != root) return {};
  const programs::kernels::PhotonTally total{sums[0], sums[1], sums[2], sums[3], sums[4]};
  return [tables = std::move(tables), total, histories, seed = options.seed] {
    const auto reference = programs::kernels::transport_photons(tables, 0, histories, seed);
    const bool same = total == reference && total.histories == histories;
    return KernelCheck{
        "tallies differing from the serial run's (histories, transmitted, reflected, absorbed, "
        "collisions)",
        same ? 0.0 : 1.0, 0.0, same};
  };
}

// In the simulator, the simulated host of every rank, in rank order, on rank
// 0; empty on real MPI (every rank runs on this machine) and on other ranks.
// Collective in the simulator.
std::vector<std::string> simulated_hosts(int rank, int ranks) {
  if (!simulated::in_simulator) return {};
  constexpr std::size_t width = 128;
  std::array<char, width> mine{};
  const std::string name = simulated::host_name().value_or("");
  std::copy_n(name.begin(), std::min(name.size(), width - 1), mine.begin());
  std::vector<char> all(rank == root ? width * static_cast<std::size_t>(ranks) : 0);
  polite::gather(mine.data(), all.data(), message_count(width), MPI_CHAR, root, MPI_COMM_WORLD);
  std::vector<std::string> hosts;
  if (rank == root)
    for (int r = 0; r < ranks; ++r) hosts.emplace_back(all.data() + static_cast<std::size_t>(r) * width);
  return hosts;
}

}  // namespace

std::optional<KernelRun> run_kernel(const KernelOptions& options) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  measure::tighten_timer_slack();
  programs::kernels::use_single_threaded_blas();
  Context context(rank, ranks, options);
  Verification verification;
  switch (options.kernel) {
    case KernelKind::gaussian_elimination:
      verification = gaussian_elimination(context, options);
      break;
    case KernelKind::matrix_multiplication:
      verification = matrix_multiplication(context, options);
      break;
    case KernelKind::convolution:
      verification = convolution(context, options);
      break;
    case KernelKind::monte_carlo:
      verification = monte_carlo(context, options);
      break;
  }
  // Rank 0's clock runs until it holds the answer; the others' until their part is done.
  const measure::TimeBreakdown times = context.clock.stop();
  const KernelCheck check = verification ? verification() : KernelCheck{};
  constexpr int fields = 7;
  const std::array<double, fields> mine{times[measure::Activity::computation],
                                        times[measure::Activity::communication],
                                        times[measure::Activity::idle],
                                        times[measure::Activity::setup],
                                        times.other_load,
                                        times.elapsed,
                                        context.flops};
  std::vector<double> all(rank == root ? static_cast<std::size_t>(fields * ranks) : 0);
  polite::gather(mine.data(), fields, all.data(), root, MPI_COMM_WORLD);
  const auto hosts = simulated_hosts(rank, ranks);
  if (rank != root) return std::nullopt;

  KernelRun run;
  run.check = check;
  run.marked_speed = model::marked_speed(context.marked);
  // t_par is the longest rank's elapsed time: rank 0 holds the answer, but a
  // rank may still be finishing its part (or its clock) after rank 0 stopped.
  double seconds = 0.0;
  for (int r = 0; r < ranks; ++r) seconds = std::max(seconds, all[static_cast<std::size_t>(r * fields + 5)]);
  auto& record = run.record;
  record.label = options.label.empty()
                     ? fmt::format("{} N={} on {} processes", to_string(options.kernel), options.size, ranks)
                     : options.label;
  record.t_par = seconds;
  double compute_seconds = 0.0;
  for (int r = 0; r < ranks; ++r) {
    const double* values = all.data() + static_cast<std::size_t>(r * fields);
    NodeRecord node;
    node.name = fmt::format("rank-{}", r);
    node.t_comp = values[0];
    node.t_comm = values[1];
    node.t_idle = values[2];
    node.t_setup = values[3];
    node.t_other = values[4];
    node.work = values[6];
    const double gap = seconds - node.accounted_time();
    if (gap > 0.0) {
      node.t_idle += gap;
      node.t_unaccounted = gap;
    }
    compute_seconds = std::max(compute_seconds, node.t_comp);
    record.nodes.push_back(node);
  }
  const double work = kernel_workload(options.kernel, static_cast<double>(options.size));
  run.point = SweepPoint{static_cast<double>(options.size), work, seconds, compute_seconds, check.passed, {}};
  KernelContext kernel;
  kernel.kernel = to_string(options.kernel);
  kernel.N = options.size;
  kernel.W = work;
  kernel.T_s = seconds;
  kernel.marked_speeds_Mflops = context.marked;
  kernel.distribution =
      WorkDistribution{options.distribution, context.shares};  // the marked speeds, or each rank's rows
  kernel.marked_speed_Mflops = run.marked_speed;
  kernel.emulated_speeds =
      options.speeds.empty() ? std::vector<double>(static_cast<std::size_t>(ranks), 1.0) : options.speeds;
  kernel.check = check;
  kernel.host = io::host_name();
  kernel.date = io::utc_now();
  kernel.mpi_library = MpiSession::library_version();
  kernel.seed = options.seed;
  if (options.kernel != KernelKind::monte_carlo && !options.marked_speeds.empty())
    kernel.E_s = run.point.speed_efficiency(run.marked_speed);
  if (const auto simulator = simulated::simulator_name()) {
    // Simulated time; no emulation; the machine only ran the simulation.
    kernel.emulated_speeds.clear();
    kernel.simulator = *simulator;
    kernel.simulated_hosts = hosts;
    kernel.host = hosts.front();
    kernel.simulated_computation =
        "each block charged its counted flop at its host's speed (smpi_execute_flops); mc: a modelled cost";
  }
  record.context.kernel = std::move(kernel);
  return run;
}

void validate_sweep_options(const SweepOptions& options, int ranks) {
  if (options.degree < 1 || options.degree > 6)
    throw InputError("degree", "", fmt::format("must be from 1 to 6, got {}", options.degree));
  if (options.sizes.empty()) throw InputError("sizes", "", "no sizes given");
  for (std::size_t i = 0; i < options.sizes.size(); ++i) {
    KernelOptions kernel = options.kernel;
    kernel.size = options.sizes[i];
    validate_kernel_options(kernel, ranks);
    if (i > 0 && options.sizes[i] <= options.sizes[i - 1])
      throw InputError("sizes", fmt::format("item {}", i + 1),
                       fmt::format("sizes must increase, got {} after {}", options.sizes[i], options.sizes[i - 1]));
  }
  if (options.target) {
    if (options.kernel.kernel == KernelKind::monte_carlo)
      throw InputError("target", "", "the Monte Carlo kernel's work is in histories, not flop: no E_s target");
    if (!std::isfinite(*options.target) || *options.target <= 0.0 || *options.target > 1.0)
      throw InputError("target", "", fmt::format("must be in (0, 1], got {:g}", *options.target));
    if (options.sizes.size() < options.degree + 2)
      throw InputError("sizes", "points",
                       fmt::format("a degree-{} trend line needs at least {} sizes, got {}", options.degree,
                                   options.degree + 2, options.sizes.size()));
  }
  if (options.configuration.empty()) throw InputError("configuration", "", "must not be empty");
  if (options.repetitions < 1 || options.repetitions > 100)
    throw InputError("repetitions", "", fmt::format("must be from 1 to 100, got {}", options.repetitions));
  if (options.refinements > 10)
    throw InputError("refine", "", fmt::format("must be from 0 to 10, got {}", options.refinements));
}

void set_distribution(KernelOptions& options, const std::string& distribution) {
  if (distribution == "marked") return;
  if (distribution.rfind("fpm:", 0) != 0 || distribution.size() == 4)
    throw InputError("distribution", "", fmt::format("must be marked or fpm:MODEL, got '{}'", distribution));
  options.speed_functions = read_speed_model(distribution.substr(4)).functions();
  options.distribution = distribution;
}

std::optional<Sweep> run_sweep(const SweepOptions& options, const VerifyingSizeChooser& choose_verifying_size,
                               const SweepProgress& progress) {
  if (options.target && !choose_verifying_size)
    throw std::invalid_argument("run_sweep: a sweep with a target needs a chooser of the verifying size");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto start = std::chrono::steady_clock::now();
  const std::size_t planned = options.sizes.size() + (options.target ? 1 + options.refinements : 0);
  Sweep sweep;
  sweep.kernel = to_string(options.kernel.kernel);
  sweep.configuration = options.configuration;
  sweep.marked_speeds = options.kernel.marked_speeds;
  if (sweep.marked_speeds.empty()) {
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    sweep.marked_speeds.assign(static_cast<std::size_t>(ranks), 1.0);  // the shares run_kernel uses
  }
  KernelContext last_context;
  std::size_t done = 0;
  auto run_at = [&](std::size_t size) {
    KernelOptions kernel = options.kernel;
    kernel.size = size;
    std::vector<KernelRun> runs;
    for (std::size_t repetition = 0; repetition < options.repetitions; ++repetition) {
      kernel.seed = options.kernel.seed + repetition;
      if (auto each = run_kernel(kernel)) runs.push_back(std::move(*each));
    }
    std::optional<KernelRun> run;
    if (!runs.empty()) {
      std::vector<double> run_seconds;
      for (const auto& each : runs) run_seconds.push_back(each.point.seconds);
      std::sort(runs.begin(), runs.end(),
                [](const KernelRun& a, const KernelRun& b) { return a.point.seconds < b.point.seconds; });
      bool all_passed = true;
      for (const auto& each : runs) all_passed = all_passed && each.check.passed;
      run = std::move(runs[options.point == RepetitionChoice::fastest ? 0 : runs.size() / 2]);
      run->point.check_passed = all_passed;
      if (run_seconds.size() > 1) run->point.run_seconds = std::move(run_seconds);
    }
    ++done;
    if (run) {
      last_context = run->record.context.kernel.value_or(KernelContext{});
      if (progress)
        progress(done, planned, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), *run);
    }
    return run;
  };
  for (const std::size_t size : options.sizes)
    if (auto run = run_at(size)) sweep.points.push_back(run->point);

  // Rank 0 asks which size verifies the target, then which size next, and
  // tells the others; every rank runs it.
  if (options.target) {
    std::vector<SweepPoint> verifying;
    for (std::size_t attempt = 0; attempt <= options.refinements; ++attempt) {
      double verify_size = 0.0;
      if (rank == root) {
        verify_size = choose_verifying_size(sweep, verifying).value_or(0.0);
        if (!sweep.target) sweep.target = SweepTarget{*options.target, std::nullopt, false, std::nullopt, {}};
      }
      polite::broadcast(&verify_size, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
      if (!(verify_size >= 1.0 && verify_size <= static_cast<double>(largest_size(options.kernel.kernel)))) break;
      if (auto run = run_at(static_cast<std::size_t>(verify_size))) verifying.push_back(run->point);
    }
    if (rank == root && !verifying.empty()) {
      sweep.target->verified = nearest_to_target(sweep, verifying, *options.target);
      if (verifying.size() > 1) sweep.target->verifying_runs = std::move(verifying);
    }
  }
  if (rank != root) return std::nullopt;
  const auto& last = last_context;
  nlohmann::json sweep_context{{"host", last.host.value_or("")},
                               {"date", last.date.value_or("")},
                               {"mpi_library", last.mpi_library.value_or("")},
                               {"seed", options.kernel.seed},
                               {"repetitions", options.repetitions},
                               {"point", to_string(options.point)},
                               {"checks", last.check ? last.check->quantity : std::string()}};
  if (!last.emulated_speeds.empty()) sweep_context["emulated_speeds"] = last.emulated_speeds;
  if (last.simulator) {
    sweep_context["simulator"] = *last.simulator;
    sweep_context["simulated_hosts"] = last.simulated_hosts;
    sweep_context["simulated_computation"] = last.simulated_computation.value_or("");
  }
  // A sweep by a functional model says so (rows by its partition at each N).
  if (options.kernel.distribution != "marked") sweep_context["distribution"] = options.kernel.distribution;
  sweep.context = io::provenance_from(sweep_context);
  return sweep;
}

std::optional<std::vector<measure::SpeedMeasurement>> measure_marked_speeds(double emulated_speed,
                                                                            double seconds_per_kernel) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  measure::tighten_timer_slack();
  polite::barrier(MPI_COMM_WORLD);
  measure::SpeedMeasurement measurement;
  if (const auto simulated_speed = simulated::host_speed_mflops()) {
    // In the simulator a process computes exactly at its host's speed: that
    // is its marked speed, with no benchmark kernel run.
    measurement.marked_mflops = *simulated_speed;
    measurement.unit_computation_seconds = 1e-6 / *simulated_speed;
  } else {
    // One turn per rank of the most crowded host: in turn t, the t-th rank of
    // every host measures while the others wait.
    MPI_Comm host = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
    int local_rank = 0, local_ranks = 1, turns = 1;
    MPI_Comm_rank(host, &local_rank);
    MPI_Comm_size(host, &local_ranks);
    MPI_Comm_free(&host);
    MPI_Allreduce(&local_ranks, &turns, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (int turn = 0; turn < turns; ++turn) {
      if (turn == local_rank) measurement = measure::measure_local_speed(emulated_speed, seconds_per_kernel);
      polite::barrier(MPI_COMM_WORLD);
    }
  }
  std::vector<double> mine{measurement.marked_mflops, measurement.unit_computation_seconds};
  for (const auto& kernel : measurement.kernels) {
    mine.push_back(kernel.mflops);
    mine.push_back(kernel.seconds);
  }
  const int fields = static_cast<int>(mine.size());
  std::vector<double> all(rank == root ? mine.size() * static_cast<std::size_t>(ranks) : 0);
  polite::gather(mine.data(), fields, all.data(), root, MPI_COMM_WORLD);
  if (rank != root) return std::nullopt;
  std::vector<measure::SpeedMeasurement> measurements;
  for (int r = 0; r < ranks; ++r) {
    const double* values = all.data() + static_cast<std::size_t>(r * fields);
    measure::SpeedMeasurement each;
    each.marked_mflops = values[0];
    each.unit_computation_seconds = values[1];
    for (std::size_t k = 0; k < measurement.kernels.size(); ++k)
      each.kernels.push_back({measurement.kernels[k].kernel, values[2 + 2 * k], values[3 + 2 * k]});
    measurements.push_back(each);
  }
  return measurements;
}

void share_from_rank_zero(std::vector<double>& values) {
  polite::broadcast(values.data(), message_count(values.size()), MPI_DOUBLE, root, MPI_COMM_WORLD);
}

}  // namespace hetscale::mpi
