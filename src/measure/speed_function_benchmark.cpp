#include "hetscale/measure/speed_function_benchmark.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include <fmt/core.h>

#include "hetscale/io/child_process.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/measure/rank_clock.hpp"
#include "hetscale/programs/kernels/dense.hpp"
#include "hetscale/programs/kernels/fourier.hpp"

namespace hetscale::measure {

namespace {

namespace kernels = programs::kernels;

// The share's rows through the whole elimination, as the kernel's process
// does them: `size` rows spread evenly over the order-N matrix (as the
// heterogeneous cyclic distribution deals them), and at each step k every row
// below k updated by the pivot row's part from k (length N + 1 - k). The
// active rows and their length shrink from step to step, and with them the
// share's working set: what the share's speed depends on.
ShareWorkload elimination(std::size_t order, std::size_t largest) {
  const std::size_t width = order + 1;
  auto rows = std::make_shared<std::vector<double>>(kernels::generate_matrix(largest, width, 11));
  auto pivot = std::make_shared<std::vector<double>>(kernels::generate_matrix(1, width, 12));
  for (double& entry : *pivot) entry = 1.0 + std::abs(entry);  // no pivot is 0
  return [rows, pivot, order, width](std::size_t size, EmulatedProcessor& processor) {
    std::size_t first_below = 0;  // the first of the share's rows below the pivot
    // Row i of the share is row floor(i N / size) of the matrix.
    const auto matrix_row = [&](std::size_t i) { return i * order / size; };
    for (std::size_t k = 0; k + 1 < order; ++k) {
      while (first_below < size && matrix_row(first_below) <= k) ++first_below;
      if (first_below == size) break;
      const std::span<const double> pivot_row(pivot->data() + k, width - k);
      processor.compute([&] {
        for (std::size_t i = first_below; i < size; ++i) {
          const std::span<double> row(rows->data() + i * width, width);
          row[k] = 0.5;  // the step divides by the pivot: values stay bounded over the steps and repetitions
          kernels::eliminate_row(row, pivot_row, k);
        }
      });
    }
  };
}

ShareWorkload multiplication(std::size_t order, std::size_t largest) {
  auto a = std::make_shared<std::vector<double>>(kernels::generate_matrix(largest, order, 21));
  auto b = std::make_shared<std::vector<double>>(kernels::generate_matrix(order, order, 22));
  auto c = std::make_shared<std::vector<double>>(largest * order);
  return [a, b, c, order](std::size_t size, EmulatedProcessor& processor) {
    processor.compute([&] {
      kernels::multiply({a->data(), size * order}, *b, {c->data(), size * order}, size, order, order);
    });
  };
}

ShareWorkload transforms(std::size_t order, std::size_t largest) {
  auto image = std::make_shared<std::vector<kernels::Complex>>(kernels::generate_image(order, 31));
  image->resize(largest * order);
  return [image, order](std::size_t size, EmulatedProcessor& processor) {
    processor.compute([&] {
      kernels::transform_rows({image->data(), size * order}, order, kernels::FftDirection::forward);
    });
  };
}

ShareWorkload command(const std::string& program) {
  if (program.find("{size}") == std::string::npos)
    throw std::invalid_argument(fmt::format("command:{}: has no {{size}} for the share's size", program));
  return [program](std::size_t size, EmulatedProcessor& processor) {
    const std::string line = with_field(program, "{size}", std::to_string(size));
    io::ProgramOutput result;
    processor.compute([&] { result = io::run_program({"/bin/sh", "-c", line}); });
    if (result.exit_code != 0)
      throw std::invalid_argument(
          fmt::format("command:{}: exited with {} at size {}", program, result.exit_code, size));
  };
}

}  // namespace

std::string with_field(std::string text, const std::string& field, const std::string& value) {
  for (std::size_t at; (at = text.find(field)) != std::string::npos;) text.replace(at, field.size(), value);
  return text;
}

ShareWorkload share_workload(const std::string& kernel, std::size_t order, std::size_t largest_size) {
  if (kernel.rfind("command:", 0) == 0) return command(kernel.substr(8));
  if (order == 0) throw std::invalid_argument("the problem's order N must be >= 1, got 0");
  kernels::use_single_threaded_blas();
  if (kernel == "ge") return elimination(order, largest_size);
  if (kernel == "mm") return multiplication(order, largest_size);
  if (kernel == "conv") return transforms(order, largest_size);
  throw std::invalid_argument(fmt::format("unknown kernel '{}'; allowed: ge, mm, conv, command:PROGRAM", kernel));
}

double student_t_95(std::size_t degrees) {
  static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                     2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                     2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (degrees == 0) throw std::invalid_argument("Student's t needs >= 1 degree of freedom, got 0");
  if (degrees <= std::size(table)) return table[degrees - 1];
  return degrees <= 60 ? 2.000 : degrees <= 120 ? 1.980 : 1.960;
}

MeasuredPoint measure_speed_point(const ShareWorkload& work, std::size_t size, double emulated_speed,
                                  const PointPrecision& precision) {
  if (size == 0) throw std::invalid_argument("a share's size must be >= 1, got 0");
  if (!(precision.relative_half_width > 0.0) || precision.min_repetitions < 2 ||
      precision.max_repetitions < precision.min_repetitions || !(precision.max_seconds > 0.0))
    throw std::invalid_argument(fmt::format(
        "a point's precision needs a half-width > 0 and 2 <= repetitions (min {}, max {}), got half-width {}",
        precision.min_repetitions, precision.max_repetitions, precision.relative_half_width));
  using Clock = std::chrono::steady_clock;
  EmulatedProcessor processor(emulated_speed);
  auto seconds_since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  // How many calls one repetition makes: enough for 2 ms.
  const auto probe = Clock::now();
  work(size, processor);
  const double once = seconds_since(probe);
  const std::size_t calls = once >= 2e-3 ? 1 : static_cast<std::size_t>(std::ceil(2e-3 / std::max(once, 1e-7)));

  const RankClock schedstat;  // only its run-queue delay: /proc/self/schedstat
  const double delay_before = schedstat.run_queue_delay();
  const auto start = Clock::now();
  std::vector<double> times;
  MeasuredPoint measured;
  double mean = 0.0, half_width = 0.0;
  while (times.size() < precision.max_repetitions) {
    const auto begun = Clock::now();
    for (std::size_t call = 0; call < calls; ++call) work(size, processor);
    times.push_back(seconds_since(begun) / static_cast<double>(calls));
    const double n = static_cast<double>(times.size());
    mean = 0.0;
    for (const double t : times) mean += t / n;
    if (times.size() >= 2) {
      double variance = 0.0;
      for (const double t : times) variance += (t - mean) * (t - mean) / (n - 1.0);
      half_width = student_t_95(times.size() - 1) * std::sqrt(variance / n);
    }
    measured.precise = times.size() >= 2 && half_width <= precision.relative_half_width * mean;
    if (times.size() >= precision.min_repetitions && measured.precise) break;
    if (seconds_since(start) > precision.max_seconds) break;
  }
  const double elapsed = seconds_since(start);
  measured.repetitions = times.size();
  measured.point.size = static_cast<double>(size);
  measured.point.speed = static_cast<double>(size) / mean;
  measured.point.interval = measured.point.speed * half_width / mean;
  measured.other_load =
      elapsed > 0.0 ? std::clamp((schedstat.run_queue_delay() - delay_before) / elapsed, 0.0, 1.0) : 0.0;
  measured.cpu_seconds = processor.cpu_seconds();
  measured.held_seconds = processor.held_seconds();
  return measured;
}

}  // namespace hetscale::measure
