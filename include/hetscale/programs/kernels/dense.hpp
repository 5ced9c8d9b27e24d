#pragma once
// Local computation of the dense kernels of Chen et al. 2008 Section 4.1: Gaussian
// elimination (no pivoting, as in the paper: the generated systems are
// diagonally dominant) and matrix multiplication (BLAS dgemm, OpenBLAS).
// Matrices are row-major. No MPI: the MPI drivers move rows between processes.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hetscale::programs::kernels {

// A dense linear system A x = b of order n, A strictly diagonally dominant,
// generated from `seed`. Row i is `augmented_row(i)`: A's row followed by b_i.
struct LinearSystem {
  std::size_t order = 0;
  std::vector<double> augmented;  // n rows of n + 1 values
  std::span<double> augmented_row(std::size_t i) { return {augmented.data() + i * (order + 1), order + 1}; }
  std::span<const double> augmented_row(std::size_t i) const { return {augmented.data() + i * (order + 1), order + 1}; }
};
LinearSystem generate_linear_system(std::size_t order, std::uint64_t seed);

// One elimination step on one row: row -= (row[k] / pivot_row[k]) pivot_row,
// for columns k..n (the right-hand side included), with row[k] set to 0.
// `pivot_row` holds columns k..n of the pivot row. BLAS daxpy. Returns the flop count.
double eliminate_row(std::span<double> row, std::span<const double> pivot_row, std::size_t k);

// Back substitution on an upper-triangular augmented system (below the
// diagonal ignored). Returns x.
std::vector<double> back_substitute(const LinearSystem& upper);

// ||A x - b||_inf / (||A||_inf ||x||_inf + ||b||_inf): about machine epsilon
// times a modest factor for a good solution.
double relative_residual(const LinearSystem& system, std::span<const double> x);

// Fills an n x n row-major matrix with values in [-1, 1) from `seed`.
std::vector<double> generate_matrix(std::size_t rows, std::size_t columns, std::uint64_t seed);

// C = A B with A rows x inner, B inner x columns, through BLAS dgemm (one thread).
void multiply(std::span<const double> a, std::span<const double> b, std::span<double> c, std::size_t rows,
              std::size_t inner, std::size_t columns);

// Freivalds' check of C = A B for n x n matrices: ||C x - A (B x)||_inf /
// (||A||_inf ||B||_inf ||x||_inf) for a random x. O(n^2).
double product_relative_residual(std::span<const double> a, std::span<const double> b, std::span<const double> c,
                                 std::size_t n, std::uint64_t seed);

// Makes BLAS run on one thread per process (one process per processor).
void use_single_threaded_blas();

}  // namespace hetscale::programs::kernels
