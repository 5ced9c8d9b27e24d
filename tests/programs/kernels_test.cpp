// The kernels' local computation against independent references.
#include <cmath>
#include <stdexcept>

#include <cblas.h>
#include <dlfcn.h>

#include <string>

#include <gtest/gtest.h>

#include "hetscale/programs/kernels/dense.hpp"
#include "hetscale/programs/kernels/fourier.hpp"

namespace hetscale::programs::kernels {
namespace {

TEST(Dense, EliminationAndBackSubstitutionSolveTheSystem) {
  for (std::size_t n : {1u, 2u, 7u, 64u}) {
    const auto system = generate_linear_system(n, 11);
    auto upper = system;
    double flops = 0.0;
    for (std::size_t k = 0; k + 1 < n; ++k)
      for (std::size_t i = k + 1; i < n; ++i) flops += eliminate_row(upper.augmented_row(i), upper.augmented_row(k).subspan(k), k);
    const auto x = back_substitute(upper);
    EXPECT_LT(relative_residual(system, x), 1e-14) << "n = " << n;
    // Elimination of columns k+1..n and b: sum over k of (n - k - 1) rows x (2 (n - k) + 1) flops.
    double expected = 0.0;
    for (std::size_t k = 0; k + 1 < n; ++k) expected += static_cast<double>(n - k - 1) * (2.0 * static_cast<double>(n - k) + 1.0);
    EXPECT_DOUBLE_EQ(flops, expected);
  }
}

TEST(Dense, ResidualSeesAWrongSolution) {
  const auto system = generate_linear_system(16, 3);
  std::vector<double> x(16, 0.0);
  EXPECT_GT(relative_residual(system, x), 1e-3);
}

TEST(Dense, MultiplyMatchesTheDefinition) {
  const std::size_t rows = 5, inner = 7, columns = 3;
  const auto a = generate_matrix(rows, inner, 1), b = generate_matrix(inner, columns, 2);
  std::vector<double> c(rows * columns);
  use_single_threaded_blas();
  multiply(a, b, c, rows, inner, columns);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < columns; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k < inner; ++k) sum += a[i * inner + k] * b[k * columns + j];
      EXPECT_NEAR(c[i * columns + j], sum, 1e-13);
    }
}

// The program's cblas_dgemm must be OpenBLAS's: GSL's reference CBLAS, which
// libgsl also loads, provides the same symbols fifteen times slower.
TEST(Dense, BlasIsOpenBlas) {
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&cblas_dgemm), &info), 0);
  EXPECT_NE(std::string(info.dli_fname).find("openblas"), std::string::npos) << info.dli_fname;
}

TEST(Dense, FreivaldsCheckPassesAProductAndFailsAWrongOne) {
  const std::size_t n = 40;
  const auto a = generate_matrix(n, n, 4), b = generate_matrix(n, n, 5);
  std::vector<double> c(n * n);
  multiply(a, b, c, n, n, n);
  EXPECT_LT(product_relative_residual(a, b, c, n, 9), 1e-14);
  c[3 * n + 17] += 1e-6;
  EXPECT_GT(product_relative_residual(a, b, c, n, 9), 1e-10);
}

TEST(Fourier, SerialConvolutionMatchesTheDefinition) {
  for (std::size_t n : {1u, 4u, 8u, 12u}) {
    const auto first = generate_image(n, 1), second = generate_image(n, 2);
    EXPECT_LT(relative_difference(convolve_serial(first, second, n), convolve_directly(first, second, n)), 1e-13)
        << "n = " << n;
  }
}

TEST(Fourier, RowTransformsRoundTripAndCountFlops) {
  const std::size_t n = 16;
  const auto image = generate_image(n, 3);
  auto rows = image;
  EXPECT_DOUBLE_EQ(transform_rows(rows, n, FftDirection::forward), 5.0 * 16 * 4 * 16);
  transform_rows(rows, n, FftDirection::inverse);
  scale_values(rows, 1.0 / static_cast<double>(n));
  EXPECT_LT(relative_difference(rows, image), 1e-14);
  std::vector<Complex> ragged(17);
  EXPECT_THROW(transform_rows(ragged, n, FftDirection::forward), std::invalid_argument);
}

TEST(Fourier, RelativeDifferenceSeesAChange) {
  const auto image = generate_image(8, 5);
  auto changed = image;
  changed[10] += Complex(1e-6, 0.0);
  EXPECT_GT(relative_difference(changed, image), 1e-8);
}

}  // namespace
}  // namespace hetscale::programs::kernels
