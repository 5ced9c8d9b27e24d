#include "hetscale/measure/speed_benchmark.hpp"

#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/programs/kernels/dense.hpp"
#include "hetscale/programs/kernels/fourier.hpp"

namespace hetscale::measure {

namespace {

constexpr std::size_t elimination_order = 192;
constexpr std::size_t dgemm_order = 192;
constexpr std::size_t fft_length = 1024, fft_rows = 32;

// Repeats `repetition` (which returns the flops it did) through `processor`
// until `seconds` of wall-clock time have passed, at least twice.
KernelSpeed time_kernel(const char* name, EmulatedProcessor& processor, double seconds,
                        const std::function<double()>& repetition) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  double flops = 0.0, elapsed = 0.0;
  for (int done = 0; done < 2 || elapsed < seconds; ++done) {
    processor.compute([&] { flops += repetition(); });
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return {name, flops / elapsed / 1e6, elapsed};
}

}  // namespace

SpeedMeasurement measure_local_speed(double emulated_speed, double seconds_per_kernel) {
  if (!std::isfinite(seconds_per_kernel) || seconds_per_kernel <= 0.0)
    throw std::invalid_argument(fmt::format("benchmark time per kernel must be > 0 s, got {}", seconds_per_kernel));
  EmulatedProcessor processor(emulated_speed);
  programs::kernels::use_single_threaded_blas();
  SpeedMeasurement measurement;

  const auto system = programs::kernels::generate_linear_system(elimination_order, 1);
  measurement.kernels.push_back(time_kernel("elimination", processor, seconds_per_kernel, [&] {
    auto work = system;
    double flops = 0.0;
    for (std::size_t k = 0; k + 1 < work.order; ++k) {
      const auto pivot = work.augmented_row(k).subspan(k);
      for (std::size_t i = k + 1; i < work.order; ++i)
        flops += programs::kernels::eliminate_row(work.augmented_row(i), pivot, k);
    }
    return flops;
  }));

  const auto a = programs::kernels::generate_matrix(dgemm_order, dgemm_order, 2);
  const auto b = programs::kernels::generate_matrix(dgemm_order, dgemm_order, 3);
  std::vector<double> c(dgemm_order * dgemm_order);
  measurement.kernels.push_back(time_kernel("dgemm", processor, seconds_per_kernel, [&] {
    programs::kernels::multiply(a, b, c, dgemm_order, dgemm_order, dgemm_order);
    return 2.0 * std::pow(static_cast<double>(dgemm_order), 3);
  }));

  auto rows = programs::kernels::generate_image(fft_length, 4);
  rows.resize(fft_length * fft_rows);
  measurement.kernels.push_back(time_kernel("fft", processor, seconds_per_kernel, [&] {
    const double forward =
        programs::kernels::transform_rows(rows, fft_length, programs::kernels::FftDirection::forward);
    return forward + programs::kernels::transform_rows(rows, fft_length, programs::kernels::FftDirection::inverse);
  }));

  double sum = 0.0;
  for (const auto& kernel : measurement.kernels) sum += kernel.mflops;
  measurement.marked_mflops = sum / static_cast<double>(measurement.kernels.size());
  measurement.unit_computation_seconds = 1e-6 / measurement.kernels.front().mflops;
  return measurement;
}

}  // namespace hetscale::measure
