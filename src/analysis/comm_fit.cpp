#include "hetscale/analysis/comm_fit.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string_view>

#include <fmt/core.h>

namespace hetscale {
namespace {

double squared_residuals(std::span<const double> x, std::span<const double> y, double intercept, double slope) {
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double error = y[i] - (intercept + slope * x[i]);
    sum += error * error;
  }
  return sum;
}

// 1 - SS_res / SS_tot, SS_tot about the mean of y; for points that are all
// equal, 1 if the line passes through them and 0 if not.
double r_squared(std::span<const double> x, std::span<const double> y, double intercept, double slope) {
  double mean = 0.0, sum_of_squares = 0.0;
  for (double value : y) mean += value / static_cast<double>(y.size());
  for (double value : y) sum_of_squares += (value - mean) * (value - mean);
  const double residual = squared_residuals(x, y, intercept, slope);
  if (sum_of_squares > 0.0) return 1.0 - residual / sum_of_squares;
  return residual <= 1e-24 * std::max(1.0, mean * mean) ? 1.0 : 0.0;
}

LinearFit line(std::span<const double> x, std::span<const double> y, double intercept, double slope) {
  return {intercept, slope, r_squared(x, y, intercept, slope), x.size()};
}

void require_same_length(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size())
    throw std::invalid_argument(fmt::format("x and y must have the same length, got {} and {}", x.size(), y.size()));
}

// x and y of the samples of one operation, chosen by `keep`.
struct Points {
  std::vector<double> x, y;
};

template <class Keep, class X>
Points points_of(std::span<const CommSample> samples, std::string_view operation, Keep keep, X x_of) {
  Points points;
  for (const auto& sample : samples)
    if (sample.operation == operation && keep(sample)) {
      points.x.push_back(x_of(sample));
      points.y.push_back(sample.seconds);
    }
  if (points.x.empty())
    throw std::invalid_argument(fmt::format("no {} samples to fit; the profile needs broadcast, send and barrier "
                                            "times",
                                            operation));
  return points;
}

double processes_of(const CommSample& sample) { return static_cast<double>(sample.processes); }
double elements_of(const CommSample& sample) { return sample.elements; }
bool any_sample(const CommSample&) { return true; }

std::size_t distinct(const std::vector<double>& values) { return std::set<double>(values.begin(), values.end()).size(); }

}  // namespace

LinearFit fit_through_origin(std::span<const double> x, std::span<const double> y) {
  require_same_length(x, y);
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) sxx += x[i] * x[i], sxy += x[i] * y[i];
  if (sxx <= 0.0)
    throw std::invalid_argument(fmt::format("a line through the origin needs a point with x != 0, got {} points",
                                            x.size()));
  return line(x, y, 0.0, sxy / sxx);
}

LinearFit fit_non_negative_line(std::span<const double> x, std::span<const double> y) {
  require_same_length(x, y);
  for (std::size_t i = 0; i < y.size(); ++i)
    if (y[i] < 0.0) throw std::invalid_argument(fmt::format("y must be >= 0, got {} at point {}", y[i], i + 1));
  const LinearFit unconstrained = fit_line(x, y);
  if (unconstrained.intercept >= 0.0 && unconstrained.slope >= 0.0) return unconstrained;
  // The least-squares problem is convex, so the constrained optimum lies on a
  // boundary: the best line through the origin, or the best constant.
  double mean = 0.0;
  for (double value : y) mean += value / static_cast<double>(y.size());
  const LinearFit proportional = line(x, y, 0.0, std::max(0.0, fit_through_origin(x, y).slope));
  const LinearFit constant = line(x, y, mean, 0.0);
  return squared_residuals(x, y, 0.0, proportional.slope) <= squared_residuals(x, y, mean, 0.0) ? proportional
                                                                                                 : constant;
}

CommFit fit_communication_costs(std::span<const CommSample> samples) {
  CommFit fit;
  auto& costs = fit.costs;
  auto record = [&](std::string_view operation, const LinearFit& line) {
    fit.fits.push_back({std::string(operation), line.r_squared, line.points});
  };

  // seed 001 Section 4.5: T_bcast = a + b p, at the smallest message (the paper's form has no size).
  const auto all_broadcasts = points_of(samples, "broadcast", any_sample, elements_of);
  const double smallest = *std::min_element(all_broadcasts.x.begin(), all_broadcasts.x.end());
  const auto broadcasts =
      points_of(samples, "broadcast", [&](const CommSample& s) { return s.elements == smallest; }, processes_of);
  const LinearFit broadcast = distinct(broadcasts.x) >= 2 ? fit_non_negative_line(broadcasts.x, broadcasts.y)
                                                          : fit_through_origin(broadcasts.x, broadcasts.y);
  costs.broadcast_intercept = broadcast.intercept;
  costs.broadcast_per_process = broadcast.slope;
  record("broadcast", broadcast);

  // seed 001 Section 4.5: T_send = a + b N; T_recv = T_send unless measured apart.
  auto message_line = [&](std::string_view operation) {
    const auto messages = points_of(samples, operation, any_sample, elements_of);
    if (distinct(messages.x) < 2)
      throw std::invalid_argument(fmt::format("{} samples have {} message size; T = a + b N needs two or more",
                                              operation, distinct(messages.x)));
    const LinearFit result = fit_non_negative_line(messages.x, messages.y);
    record(operation, result);
    return result;
  };
  const LinearFit send = message_line("send");
  costs.send_intercept = send.intercept;
  costs.send_per_element = send.slope;
  const bool receive_measured = std::any_of(samples.begin(), samples.end(),
                                            [](const CommSample& s) { return s.operation == "receive"; });
  const LinearFit receive = receive_measured ? message_line("receive") : send;
  costs.receive_intercept = receive.intercept;
  costs.receive_per_element = receive.slope;

  // seed 001 Section 4.5: T_barrier = c p.
  const auto barriers = points_of(samples, "barrier", any_sample, processes_of);
  const LinearFit barrier = fit_through_origin(barriers.x, barriers.y);
  costs.barrier_per_process = barrier.slope;
  record("barrier", barrier);
  return fit;
}

}  // namespace hetscale
