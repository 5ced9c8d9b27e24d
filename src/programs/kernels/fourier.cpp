#include "hetscale/programs/kernels/fourier.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace hetscale::programs::kernels {

namespace {

fftw_complex* as_fftw(Complex* values) { return reinterpret_cast<fftw_complex*>(values); }

double transform_flops(std::size_t n, std::size_t transforms) {
  return n > 1 ? 5.0 * static_cast<double>(n) * std::log2(static_cast<double>(n)) * static_cast<double>(transforms)
               : 0.0;
}

}  // namespace

std::vector<Complex> generate_image(std::size_t n, std::uint64_t seed) {
  std::vector<Complex> image(n * n);
  std::mt19937_64 engine(seed);
  auto unit = [&engine] { return static_cast<double>(engine() >> 11) * 0x1.0p-52 - 1.0; };
  for (auto& value : image) {
    const double real = unit();
    value = Complex(real, unit());
  }
  return image;
}

double transform_rows(std::span<Complex> rows, std::size_t n, FftDirection direction) {
  if (n == 0 || rows.size() % n != 0)
    throw std::invalid_argument("transform_rows: the data is not a whole number of rows of length n");
  const std::size_t count = rows.size() / n;
  if (count == 0) return 0.0;
  const int length = static_cast<int>(n);
  // FFTW_ESTIMATE plans in microseconds and leaves the data untouched.
  fftw_plan plan = fftw_plan_many_dft(1, &length, static_cast<int>(count), as_fftw(rows.data()), nullptr, 1, length,
                                      as_fftw(rows.data()), nullptr, 1, length,
                                      direction == FftDirection::forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return transform_flops(n, count);
}

double multiply_pointwise(std::span<Complex> product, std::span<const Complex> factor) {
  if (product.size() != factor.size()) throw std::invalid_argument("multiply_pointwise: sizes differ");
  for (std::size_t i = 0; i < product.size(); ++i) product[i] *= factor[i];
  return 6.0 * static_cast<double>(product.size());
}

double scale_values(std::span<Complex> values, double scale) {
  for (auto& value : values) value *= scale;
  return 2.0 * static_cast<double>(values.size());
}

std::vector<Complex> convolve_serial(std::span<const Complex> first, std::span<const Complex> second, std::size_t n) {
  if (first.size() != n * n || second.size() != n * n) throw std::invalid_argument("convolve_serial: not N x N");
  std::vector<Complex> a(first.begin(), first.end()), b(second.begin(), second.end());
  const int size = static_cast<int>(n);
  auto transform = [size](std::vector<Complex>& image, int sign) {
    fftw_plan plan = fftw_plan_dft_2d(size, size, as_fftw(image.data()), as_fftw(image.data()), sign, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
  };
  transform(a, FFTW_FORWARD);
  transform(b, FFTW_FORWARD);
  multiply_pointwise(a, b);
  transform(a, FFTW_BACKWARD);
  scale_values(a, 1.0 / static_cast<double>(n * n));
  return a;
}

std::vector<Complex> convolve_directly(std::span<const Complex> first, std::span<const Complex> second, std::size_t n) {
  std::vector<Complex> result(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      Complex sum = 0.0;
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t l = 0; l < n; ++l) sum += first[k * n + l] * second[((i + n - k) % n) * n + (j + n - l) % n];
      result[i * n + j] = sum;
    }
  return result;
}

double relative_difference(std::span<const Complex> a, std::span<const Complex> b) {
  if (a.size() != b.size()) throw std::invalid_argument("relative_difference: sizes differ");
  double difference = 0.0, magnitude = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    difference = std::max(difference, std::abs(a[i] - b[i]));
    magnitude = std::max(magnitude, std::abs(b[i]));
  }
  return magnitude > 0.0 ? difference / magnitude : difference;
}

}  // namespace hetscale::programs::kernels
