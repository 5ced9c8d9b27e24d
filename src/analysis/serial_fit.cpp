#include "hetscale/analysis/serial_fit.hpp"

#include <map>
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

namespace {

// Least squares y = slope x (intercept 0), with r^2 against the mean.
LinearFit fit_through_origin(std::span<const double> x, std::span<const double> y) {
  double sxx = 0.0, sxy = 0.0, mean_y = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) sxx += x[i] * x[i], sxy += x[i] * y[i], mean_y += y[i];
  mean_y /= static_cast<double>(y.size());
  LinearFit fit;
  fit.points = x.size();
  fit.slope = sxy / sxx;
  double residual = 0.0, total = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    residual += (y[i] - fit.slope * x[i]) * (y[i] - fit.slope * x[i]);
    total += (y[i] - mean_y) * (y[i] - mean_y);
  }
  fit.r_squared = total > 0.0 ? 1.0 - residual / total : 1.0;
  return fit;
}

}  // namespace

SerialTime serial_time_named(const std::string& name) {
  for (const auto how : {SerialTime::line, SerialTime::through_origin, SerialTime::measured})
    if (serial_time_name(how) == name) return how;
  throw InputError("serial-time", "", fmt::format("is '{}', expected line, through-origin or measured", name));
}

std::string serial_time_name(SerialTime how) {
  switch (how) {
    case SerialTime::line: return "line";
    case SerialTime::through_origin: return "through-origin";
    case SerialTime::measured: return "measured";
  }
  return "?";
}

SerialFit fit_serial_fraction(const Timings& timings, SerialTime how) {
  std::vector<double> sizes, seconds;
  std::map<double, std::vector<double>> measured;  // single-processor times by size
  for (const auto& row : timings.rows)
    if (row.procs == 1) sizes.push_back(row.size), seconds.push_back(row.seconds), measured[row.size].push_back(row.seconds);
  if (how != SerialTime::measured && measured.size() < 2)
    throw InputError(timings.source, "procs",
                     fmt::format("needs single-processor rows (procs = 1) at two or more different sizes to fit "
                                 "tau_1 = a + b N, found {}",
                                 measured.size()));

  SerialFit fit;
  fit.source = timings.source;
  fit.how = how;
  if (how == SerialTime::line) {
    fit.single_processor = fit_line(sizes, seconds);
    if (fit.single_processor.intercept < 0.0)
      throw InputError(
          timings.source, "procs = 1 rows",
          fmt::format("the fitted serial time a = {:.6g} s is negative: the single-processor time grows faster than a "
                      "straight line through these sizes, so no serial part can be read off it (Majumdar 1999, Eq "
                      "114); take the serial time through-origin (a = 0: no serial part, f = 0) or "
                      "measured (tau_1 measured at each size, Karp-Flatt e)",
                      fit.single_processor.intercept));
  } else if (how == SerialTime::through_origin) {
    fit.single_processor = fit_through_origin(sizes, seconds);
  }
  const double a = fit.single_processor.intercept, b = fit.single_processor.slope;

  for (const auto& row : timings.rows) {
    if (row.procs == 1) continue;
    SerialFitRow result;
    result.procs = row.procs;
    result.size = row.size;
    result.seconds = row.seconds;
    if (how == SerialTime::measured) {
      const auto found = measured.find(row.size);
      if (found == measured.end())
        throw InputError(timings.source, fmt::format("line {}", row.line),
                         fmt::format("has no single-processor run at size {:g}: the serial time measured needs one at "
                                     "every size it evaluates",
                                     row.size));
      double sum = 0.0;
      for (double time : found->second) sum += time;
      result.single_processor_time = sum / static_cast<double>(found->second.size());
    } else {
      result.single_processor_time = model::single_processor_time(a, b, row.size);
    }
    if (result.single_processor_time <= 0.0)
      throw InputError(
          timings.source, fmt::format("line {}", row.line),
          fmt::format("the fitted tau_1 at size {} is {:.6g} s, not > 0", row.size, result.single_processor_time));
    result.speedup = model::speedup(result.single_processor_time, row.seconds);
    result.karp_flatt = model::karp_flatt_serial_fraction(result.speedup, row.procs);
    if (how != SerialTime::measured) {
      result.serial_fraction = model::serial_fraction(a, result.single_processor_time);
      result.theoretical_speedup = model::theoretical_speedup(*result.serial_fraction, row.procs);
      result.parallelization_efficiency =
          model::parallelization_efficiency(result.speedup, *result.theoretical_speedup);
    }
    fit.rows.push_back(result);
  }
  return fit;
}

}  // namespace hetscale
