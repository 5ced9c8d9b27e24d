#pragma once
// Matrix multiplication's one step (Chen et al. 2008, Section 4.1.2), as the
// kernel (mpi/kernels.cpp) and `bench steps --kernel mm`
// (mpi/step_benchmark.cpp) both make it: rank 0 sends each process its block
// of A's rows and all of B, each computes its rows of C with dgemm, rank 0
// gathers them. Internal header of the MPI library.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "hetscale/distribute/row_distribution.hpp"
#include "hetscale/programs/kernels/dense.hpp"
#include "mpi/polite.hpp"

namespace hetscale::mpi {

// An element count as MPI takes it; std::length_error past an int.
inline int message_count(std::size_t count) {
  if (count > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::length_error("message too large for one MPI call");
  return static_cast<int>(count);
}

// One product's operands as a run of the kernel holds them: rank 0 A and B,
// generated from `seed` and `seed` + 1, and room for C; another rank room for
// its rows of A and of C (as `distribution` deals them) and for B, zeroed (no
// page first touched inside the timed product). The order and the seed stay
// with them for the check.
struct ProductOperands {
  std::size_t n = 0;
  std::uint64_t seed = 0;
  std::vector<double> a, b, c;
};

inline ProductOperands product_operands(const distribute::RowDistribution& distribution, std::size_t n, int rank,
                                        std::uint64_t seed) {
  ProductOperands operands{n, seed, {}, {}, {}};
  if (rank == 0) {
    operands.a = programs::kernels::generate_matrix(n, n, seed);
    operands.b = programs::kernels::generate_matrix(n, n, seed + 1);
    operands.c.resize(n * n);
  } else {
    const std::size_t rows = distribution.rows_owned(static_cast<std::size_t>(rank));
    operands.a.resize(rows * n);
    operands.b.resize(n * n);
    operands.c.resize(rows * n);
  }
  return operands;
}

// Rank 0's check of C = A B once it holds C: Freivalds' residual (x from the
// operands' seed + 2), passed within `product_tolerance`.
inline constexpr double product_tolerance = 1e-13;
inline double product_residual(const ProductOperands& operands) {
  return programs::kernels::product_relative_residual(operands.a, operands.b, operands.c, operands.n,
                                                      operands.seed + 2);
}

// Rank 0 holds A, B and C (n x n); another rank its rows of A and of C (as
// `distribution` deals them) and room for B. `compute(multiply)` runs this
// rank's multiplication, a callable that returns its flop (the kernel through
// its clock, the benchmark through its emulated processor); a rank without
// rows computes nothing.
template <class Compute>
void matrix_product_step(const distribute::RowDistribution& distribution, std::size_t n, std::vector<double>& a,
                         std::vector<double>& b, std::vector<double>& c, int rank, int ranks, Compute&& compute) {
  constexpr int root = 0;
  const std::size_t rows = distribution.rows_owned(static_cast<std::size_t>(rank));
  if (rank == root) {
    for (int process = 1; process < ranks; ++process) {
      const auto& owned = distribution.rows_of[static_cast<std::size_t>(process)];
      if (owned.empty()) continue;
      polite::send(a.data() + owned.front() * n, message_count(owned.size() * n), MPI_DOUBLE, process, 1,
                   MPI_COMM_WORLD);
      polite::send(b.data(), message_count(n * n), MPI_DOUBLE, process, 2, MPI_COMM_WORLD);
    }
  } else if (rows > 0) {
    polite::receive(a.data(), message_count(rows * n), MPI_DOUBLE, root, 1, MPI_COMM_WORLD);
    polite::receive(b.data(), message_count(n * n), MPI_DOUBLE, root, 2, MPI_COMM_WORLD);
  }
  if (rows > 0)
    compute([&] {
      const std::size_t offset = rank == root ? distribution.rows_of[0].front() * n : 0;
      programs::kernels::multiply(std::span<const double>(a).subspan(offset), b, std::span<double>(c).subspan(offset),
                                  rows, n, n);
      return 2.0 * static_cast<double>(rows) * static_cast<double>(n) * static_cast<double>(n);
    });
  if (rank != root) {
    if (rows > 0) polite::send(c.data(), message_count(rows * n), MPI_DOUBLE, root, 3, MPI_COMM_WORLD);
    return;
  }
  for (int process = 1; process < ranks; ++process) {
    const auto& owned = distribution.rows_of[static_cast<std::size_t>(process)];
    if (owned.empty()) continue;
    polite::receive(c.data() + owned.front() * n, message_count(owned.size() * n), MPI_DOUBLE, process, 3,
                    MPI_COMM_WORLD);
  }
}

}  // namespace hetscale::mpi
