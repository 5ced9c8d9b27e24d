#include "hetscale/analysis/serial_fit.hpp"

#include <set>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"
#include "hetscale/model/serial_fraction.hpp"

namespace hetscale {

LinearFit fit_line(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size())
    throw std::invalid_argument(fmt::format("x and y must have the same length, got {} and {}", x.size(), y.size()));
  const double n = static_cast<double>(x.size());
  double mean_x = 0.0, mean_y = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) mean_x += x[i] / n, mean_y += y[i] / n;
  double sxx = 0.0, sxy = 0.0, syy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mean_x) * (x[i] - mean_x);
    sxy += (x[i] - mean_x) * (y[i] - mean_y);
    syy += (y[i] - mean_y) * (y[i] - mean_y);
  }
  if (x.size() < 2 || sxx <= 0.0)
    throw std::invalid_argument(fmt::format("a line needs two or more distinct x values, got {} points", x.size()));
  LinearFit fit;
  fit.points = x.size();
  fit.slope = sxy / sxx;
  fit.intercept = mean_y - fit.slope * mean_x;
  double residual = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double error = y[i] - (fit.intercept + fit.slope * x[i]);
    residual += error * error;
  }
  fit.r_squared = syy > 0.0 ? 1.0 - residual / syy : 1.0;
  return fit;
}

SerialFit fit_serial_fraction(const Timings& timings) {
  std::vector<double> sizes, seconds;
  std::set<double> distinct;
  for (const auto& row : timings.rows)
    if (row.procs == 1) sizes.push_back(row.size), seconds.push_back(row.seconds), distinct.insert(row.size);
  if (distinct.size() < 2)
    throw InputError(timings.source, "procs",
                     fmt::format("needs single-processor rows (procs = 1) at two or more different sizes to fit "
                                 "tau_1 = a + b N, found {}",
                                 distinct.size()));

  SerialFit fit;
  fit.source = timings.source;
  fit.single_processor = fit_line(sizes, seconds);
  const double a = fit.single_processor.intercept, b = fit.single_processor.slope;
  if (a < 0.0)
    throw InputError(timings.source, "procs = 1 rows",
                     fmt::format("the fitted serial time a = {:.6g} s is negative: these timings do not follow "
                                 "tau_1 = a + b N with a >= 0",
                                 a));

  for (const auto& row : timings.rows) {
    if (row.procs == 1) continue;
    SerialFitRow result;
    result.procs = row.procs;
    result.size = row.size;
    result.seconds = row.seconds;
    result.single_processor_time = model::single_processor_time(a, b, row.size);
    if (result.single_processor_time <= 0.0)
      throw InputError(
          timings.source, fmt::format("line {}", row.line),
          fmt::format("the fitted tau_1 at size {} is {:.6g} s, not > 0", row.size, result.single_processor_time));
    result.serial_fraction = model::serial_fraction(a, result.single_processor_time);
    result.speedup = model::speedup(result.single_processor_time, row.seconds);
    result.theoretical_speedup = model::theoretical_speedup(result.serial_fraction, row.procs);
    result.parallelization_efficiency = model::parallelization_efficiency(result.speedup, result.theoretical_speedup);
    result.karp_flatt = model::karp_flatt_serial_fraction(result.speedup, row.procs);
    fit.rows.push_back(result);
  }
  return fit;
}

}  // namespace hetscale
