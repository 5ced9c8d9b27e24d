#include "hetscale/programs/kernels/dense.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace hetscale::programs::kernels {

namespace {
// Uniform in [-1, 1) from a 64-bit generator (hand-written, so every
// platform generates the same matrices).
double symmetric_unit(std::mt19937_64& engine) { return static_cast<double>(engine() >> 11) * 0x1.0p-52 - 1.0; }
}  // namespace

LinearSystem generate_linear_system(std::size_t order, std::uint64_t seed) {
  if (order == 0) throw std::invalid_argument("linear system order must be >= 1, got 0");
  LinearSystem system{order, std::vector<double>(order * (order + 1))};
  std::mt19937_64 engine(seed);
  for (std::size_t i = 0; i < order; ++i) {
    auto row = system.augmented_row(i);
    double off_diagonal = 0.0;
    for (std::size_t j = 0; j <= order; ++j) {
      row[j] = symmetric_unit(engine);
      if (j != i && j < order) off_diagonal += std::abs(row[j]);
    }
    row[i] = off_diagonal + 1.0;  // strictly diagonally dominant: no pivoting needed
  }
  return system;
}

double eliminate_row(std::span<double> row, std::span<const double> pivot_row, std::size_t k) {
  const double factor = row[k] / pivot_row[0];
  const std::size_t width = row.size() - k;
  double* target = row.data() + k;
  if (width > 1) cblas_daxpy(static_cast<int>(width - 1), -factor, pivot_row.data() + 1, 1, target + 1, 1);
  target[0] = 0.0;
  return 1.0 + 2.0 * static_cast<double>(width - 1);
}

std::vector<double> back_substitute(const LinearSystem& upper) {
  const std::size_t n = upper.order;
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    const auto row = upper.augmented_row(i);
    double sum = row[n];
    for (std::size_t j = i + 1; j < n; ++j) sum -= row[j] * x[j];
    x[i] = sum / row[i];
  }
  return x;
}

double relative_residual(const LinearSystem& system, std::span<const double> x) {
  const std::size_t n = system.order;
  double residual = 0.0, norm_a = 0.0, norm_b = 0.0, norm_x = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto row = system.augmented_row(i);
    double sum = 0.0, row_norm = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      sum += row[j] * x[j];
      row_norm += std::abs(row[j]);
    }
    residual = std::max(residual, std::abs(sum - row[n]));
    norm_a = std::max(norm_a, row_norm);
    norm_b = std::max(norm_b, std::abs(row[n]));
    norm_x = std::max(norm_x, std::abs(x[i]));
  }
  return residual / (norm_a * norm_x + norm_b);
}

std::vector<double> generate_matrix(std::size_t rows, std::size_t columns, std::uint64_t seed) {
  std::vector<double> matrix(rows * columns);
  std::mt19937_64 engine(seed);
  for (auto& value : matrix) value = symmetric_unit(engine);
  return matrix;
}

void multiply(std::span<const double> a, std::span<const double> b, std::span<double> c, std::size_t rows,
              std::size_t inner, std::size_t columns) {
  if (a.size() < rows * inner || b.size() < inner * columns || c.size() < rows * columns)
    throw std::invalid_argument("multiply: a matrix is smaller than its stated shape");
  if (rows == 0 || columns == 0) return;
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(columns),
              static_cast<int>(inner), 1.0, a.data(), static_cast<int>(inner), b.data(), static_cast<int>(columns), 0.0,
              c.data(), static_cast<int>(columns));
}

double product_relative_residual(std::span<const double> a, std::span<const double> b, std::span<const double> c,
                                 std::size_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::vector<double> x(n), bx(n, 0.0), abx(n, 0.0), cx(n, 0.0);
  for (auto& value : x) value = symmetric_unit(engine);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(n), static_cast<int>(n), 1.0, b.data(), static_cast<int>(n),
              x.data(), 1, 0.0, bx.data(), 1);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(n), static_cast<int>(n), 1.0, a.data(), static_cast<int>(n),
              bx.data(), 1, 0.0, abx.data(), 1);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(n), static_cast<int>(n), 1.0, c.data(), static_cast<int>(n),
              x.data(), 1, 0.0, cx.data(), 1);
  auto infinity_norm = [n](std::span<const double> matrix) {
    double norm = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0.0;
      for (std::size_t j = 0; j < n; ++j) sum += std::abs(matrix[i * n + j]);
      norm = std::max(norm, sum);
    }
    return norm;
  };
  double difference = 0.0, norm_x = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    difference = std::max(difference, std::abs(cx[i] - abx[i]));
    norm_x = std::max(norm_x, std::abs(x[i]));
  }
  return difference / (infinity_norm(a) * infinity_norm(b) * norm_x);
}

void use_single_threaded_blas() { openblas_set_num_threads(1); }

}  // namespace hetscale::programs::kernels
