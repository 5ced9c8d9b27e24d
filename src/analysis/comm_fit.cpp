#include "hetscale/analysis/comm_fit.hpp"

#include <algorithm>
#include <cmath>
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
    throw std::invalid_argument(
        fmt::format("no {} samples to fit; the profile needs broadcast, send and barrier "
                    "times",
                    operation));
  return points;
}

double processes_of(const CommSample& sample) { return static_cast<double>(sample.processes); }
double elements_of(const CommSample& sample) { return sample.elements; }
bool any_sample(const CommSample&) { return true; }

std::size_t distinct(const std::vector<double>& values) {
  return std::set<double>(values.begin(), values.end()).size();
}

// Least squares y ~ sum_j x_j columns[j] by modified Gram-Schmidt on the
// columns scaled to unit length, y carried along (backward stable); throws
// std::invalid_argument when the columns are (nearly) linearly dependent.
std::vector<double> least_squares(std::vector<std::vector<double>> columns, std::vector<double> y) {
  const std::size_t k = columns.size();
  std::vector<double> scale(k), c(k);
  std::vector<std::vector<double>> r(k, std::vector<double>(k, 0.0));
  auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
  };
  for (std::size_t j = 0; j < k; ++j) {
    scale[j] = std::sqrt(dot(columns[j], columns[j]));
    if (scale[j] <= 0.0) throw std::invalid_argument(fmt::format("column {} of the fit is all zero", j + 1));
    for (double& value : columns[j]) value /= scale[j];
  }
  for (std::size_t j = 0; j < k; ++j) {
    r[j][j] = std::sqrt(dot(columns[j], columns[j]));
    if (r[j][j] <= 1e-10)
      throw std::invalid_argument(
          "the samples cannot separate the fitted terms (too few distinct sizes or "
          "process counts)");
    for (double& value : columns[j]) value /= r[j][j];
    for (std::size_t l = j + 1; l < k; ++l) {
      r[j][l] = dot(columns[j], columns[l]);
      for (std::size_t i = 0; i < y.size(); ++i) columns[l][i] -= r[j][l] * columns[j][i];
    }
    c[j] = dot(columns[j], y);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] -= c[j] * columns[j][i];
  }
  std::vector<double> x(k);
  for (std::size_t j = k; j-- > 0;) {
    double sum = c[j];
    for (std::size_t l = j + 1; l < k; ++l) sum -= r[j][l] * x[l];
    x[j] = sum / r[j][j];
  }
  for (std::size_t j = 0; j < k; ++j) x[j] /= scale[j];
  return x;
}

}  // namespace

StructureCosts fit_structure_form(std::span<const double> p, std::span<const double> d, std::span<const double> t) {
  require_same_length(p, t);
  require_same_length(d, t);
  const std::vector<double> sizes(d.begin(), d.end()), counts(p.begin(), p.end());
  if (distinct(sizes) < 2)
    throw std::invalid_argument(
        fmt::format("t = f1(p) d + f2(p) needs two or more message sizes d, got {}", distinct(sizes)));
  const std::vector<double> times(t.begin(), t.end()), ones(t.size(), 1.0);
  StructureCosts costs;
  if (distinct(counts) >= 2) {
    std::vector<double> pd(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) pd[i] = p[i] * d[i];
    const auto x = least_squares({pd, sizes, counts, ones}, times);
    costs.m = x[0], costs.n = x[1], costs.r = x[2], costs.q = x[3];
  } else {
    const auto x = least_squares({sizes, ones}, times);
    costs.n = x[0], costs.q = x[1];
  }
  double mean = 0.0, total = 0.0, residual = 0.0;
  for (double value : t) mean += value / static_cast<double>(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const double error = t[i] - costs.seconds(d[i], p[i]);
    residual += error * error;
    total += (t[i] - mean) * (t[i] - mean);
  }
  costs.r_squared = total > 0.0 ? 1.0 - residual / total : (residual <= 1e-24 * std::max(1.0, mean * mean) ? 1.0 : 0.0);
  costs.points = t.size();
  return costs;
}

std::vector<StructureCosts> fit_structure_costs(std::span<const CommSample> samples) {
  std::vector<StructureCosts> result;
  for (const std::string_view name : communication_structures) {
    std::vector<double> p, d, t;
    for (const auto& sample : samples)
      if (sample.operation == name) {
        // Stage-GA Table II: shift's f1 and f2 are constants, whatever p.
        p.push_back(name == "shift" ? 2.0 : static_cast<double>(sample.processes));
        d.push_back(sample.elements);
        t.push_back(sample.seconds);
      }
    if (t.empty()) continue;
    try {
      result.push_back(fit_structure_form(p, d, t));
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument(fmt::format("{}: {}", name, error.what()));
    }
    result.back().structure = std::string(name);
  }
  return result;
}

LinearFit fit_through_origin(std::span<const double> x, std::span<const double> y) {
  require_same_length(x, y);
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) sxx += x[i] * x[i], sxy += x[i] * y[i];
  if (sxx <= 0.0)
    throw std::invalid_argument(
        fmt::format("a line through the origin needs a point with x != 0, got {} points", x.size()));
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

  // Chen et al. 2008 Section 4.5: T_bcast = a + b p, at the smallest message (the paper's form has no size).
  const auto all_broadcasts = points_of(samples, "broadcast", any_sample, elements_of);
  const double smallest = *std::min_element(all_broadcasts.x.begin(), all_broadcasts.x.end());
  const auto broadcasts = points_of(
      samples, "broadcast", [&](const CommSample& s) { return s.elements == smallest; }, processes_of);
  const LinearFit broadcast = distinct(broadcasts.x) >= 2 ? fit_non_negative_line(broadcasts.x, broadcasts.y)
                                                          : fit_through_origin(broadcasts.x, broadcasts.y);
  costs.broadcast_intercept = broadcast.intercept;
  costs.broadcast_per_process = broadcast.slope;
  record("broadcast", broadcast);

  // Chen et al. 2008 Section 4.5: T_send = a + b N; T_recv = T_send unless measured apart.
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
  const bool receive_measured =
      std::any_of(samples.begin(), samples.end(), [](const CommSample& s) { return s.operation == "receive"; });
  const LinearFit receive = receive_measured ? message_line("receive") : send;
  costs.receive_intercept = receive.intercept;
  costs.receive_per_element = receive.slope;

  // Chen et al. 2008 Section 4.5: T_barrier = c p.
  const auto barriers = points_of(samples, "barrier", any_sample, processes_of);
  const LinearFit barrier = fit_through_origin(barriers.x, barriers.y);
  costs.barrier_per_process = barrier.slope;
  record("barrier", barrier);
  return fit;
}

void fit_measured_profile(CommProfile& profile, bool structures) {
  const CommFit fit = fit_communication_costs(profile.samples);
  const double unit_computation = profile.costs.unit_computation;
  const auto reference_marked_speed = profile.costs.reference_marked_speed;
  profile.costs = fit.costs;
  profile.costs.unit_computation = unit_computation;
  profile.costs.reference_marked_speed = reference_marked_speed;
  profile.fits = fit.fits;
  if (structures) profile.structures = fit_structure_costs(profile.samples);
}

Platform platform_of_profile(const CommProfile& profile, const std::string& node, int cores) {
  if (cores < 1) throw std::invalid_argument(fmt::format("a node has at least 1 core, got {}", cores));
  const double per_double = profile.costs.send_per_element;
  if (!(per_double > 0.0))
    throw std::invalid_argument(fmt::format(
        "the send cost per double is {} s: no bandwidth follows (measure larger messages, --sizes)", per_double));
  Platform platform;
  platform.name = profile.label.empty() ? "measured by bench comm" : profile.label;
  platform.reference_name = node;
  PlatformNode here;
  here.name = node;
  here.speed = 1.0;
  here.cores = cores;
  platform.nodes.push_back(here);
  Network network;
  network.latency_s = std::max(profile.costs.send_intercept, 1e-9);
  network.bandwidth_Bps = 8.0 / per_double;
  platform.network = network;
  return platform;
}

}  // namespace hetscale
