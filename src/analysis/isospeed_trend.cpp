// Chen et al. 2008 Section 4.4: the trend line of a sweep's E_s and the size that reaches a target.
#include "hetscale/analysis/isospeed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/core.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>

#include "hetscale/io/input_error.hpp"
#include "hetscale/model/isospeed.hpp"
#include "analysis/isospeed_source.hpp"
#include "model/statistics.hpp"

namespace hetscale {

// --- trend line and target ---------------------------------------------------------

double trend_speed_efficiency(const SweepTrend& trend, double n) {
  double value = 0.0;
  for (auto c = trend.coefficients.rbegin(); c != trend.coefficients.rend(); ++c) value = value * n + *c;
  return value;
}

SweepTrend fit_speed_efficiency_trend(const Sweep& sweep, std::size_t degree) {
  if (degree < 1 || degree > SweepTrend::max_degree)
    throw InputError("degree", "",
                     fmt::format("must be a whole number from 1 to {}, got {}", SweepTrend::max_degree, degree));
  const double c = sweep.marked_speed();
  std::vector<double> sizes, efficiencies;
  std::set<double> distinct;
  for (const auto& point : sweep.points) {
    if (!point.check_passed) continue;
    sizes.push_back(point.size);
    efficiencies.push_back(point.speed_efficiency(c));
    distinct.insert(point.size);
  }
  const std::size_t needed = degree + 2;
  if (distinct.size() < needed)
    throw InputError(sweep_source(sweep), "points",
                     fmt::format("the speed-efficiency trend needs at least {} sizes for a degree-{} trend line, "
                                 "got {}{}",
                                 needed, degree, distinct.size(),
                                 distinct.size() == sweep.points.size() ? "" : " (distinct sizes whose check passed)"));

  // E_s = sum d_k x^k with x = N / N_max, solved by GSL (SVD), then c_k = d_k / N_max^k.
  const double scale = *distinct.rbegin();
  const std::size_t n = sizes.size(), terms = degree + 1;
  gsl_set_error_handler_off();
  gsl_matrix* design = gsl_matrix_alloc(n, terms);
  gsl_vector* observed = gsl_vector_alloc(n);
  gsl_vector* scaled_coefficients = gsl_vector_alloc(terms);
  gsl_matrix* covariance = gsl_matrix_alloc(terms, terms);
  gsl_multifit_linear_workspace* workspace = gsl_multifit_linear_alloc(n, terms);
  for (std::size_t i = 0; i < n; ++i) {
    double power = 1.0;
    for (std::size_t k = 0; k < terms; ++k, power *= sizes[i] / scale) gsl_matrix_set(design, i, k, power);
    gsl_vector_set(observed, i, efficiencies[i]);
  }
  double residual_sum = 0.0;
  const int status = gsl_multifit_linear(design, observed, scaled_coefficients, covariance, &residual_sum, workspace);
  SweepTrend trend;
  trend.degree = degree;
  for (std::size_t k = 0; k < terms; ++k)
    trend.coefficients.push_back(gsl_vector_get(scaled_coefficients, k) / std::pow(scale, static_cast<double>(k)));
  gsl_multifit_linear_free(workspace);
  gsl_matrix_free(covariance);
  gsl_vector_free(scaled_coefficients);
  gsl_vector_free(observed);
  gsl_matrix_free(design);
  if (status != GSL_SUCCESS)
    throw std::runtime_error(fmt::format("least-squares trend line failed: {}", gsl_strerror(status)));

  double mean = 0.0;
  for (double e : efficiencies) mean += e / static_cast<double>(n);
  double total = 0.0, residual = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    total += (efficiencies[i] - mean) * (efficiencies[i] - mean);
    const double error = efficiencies[i] - trend_speed_efficiency(trend, sizes[i]);
    residual += error * error;
  }
  trend.r_squared = total > 0.0 ? 1.0 - residual / total : 1.0;
  return trend;
}

SweepTarget find_target_size(const Sweep& sweep, const SweepTrend& trend, double target) {
  if (!std::isfinite(target) || target <= 0.0 || target > 1.0)
    throw InputError("target", "", fmt::format("must be in (0, 1], got {:g}", target));
  if (sweep.points.empty()) throw InputError(sweep_source(sweep), "points", "must not be empty");
  double smallest = sweep.points.front().size, largest = smallest;
  for (const auto& point : sweep.points)
    smallest = std::min(smallest, point.size), largest = std::max(largest, point.size);

  SweepTarget result;
  result.speed_efficiency = target;
  const double last = 2.0 * largest;
  const auto reaches = [&](double n) { return trend_speed_efficiency(trend, n) >= target; };
  // A scan of the interval brackets the first crossing (low: not reached, high:
  // reached), bisection narrows it, and the first whole N that reaches is taken.
  if (reaches(smallest)) {
    result.size = smallest;
  } else {
    constexpr int steps = 4000;
    double low = smallest;
    for (int i = 1; i <= steps && !result.size; ++i) {
      double high = smallest + (last - smallest) * i / steps;
      if (!reaches(high)) {
        low = high;
        continue;
      }
      for (int k = 0; k < 100 && high - low > 1e-9 * high; ++k) {
        const double middle = 0.5 * (low + high);
        (reaches(middle) ? high : low) = middle;
      }
      // The first whole N past `low`; the next one if rounding left it just short.
      const double whole = std::ceil(low);
      result.size = reaches(whole) ? whole : std::ceil(high);
    }
  }
  if (!result.size) return result;
  result.extrapolated = *result.size > largest;
  return result;
}

std::optional<double> choose_verifying_size(Sweep& sweep, double target, std::size_t degree) {
  try {
    sweep.trend = fit_speed_efficiency_trend(sweep, degree);
    sweep.target = find_target_size(sweep, *sweep.trend, target);
    if (sweep.target->size) return std::round(*sweep.target->size);
  } catch (const std::invalid_argument&) {
    sweep.trend.reset();
    sweep.target = SweepTarget{target, std::nullopt, false, std::nullopt, {}};
  }
  return std::nullopt;
}

std::optional<double> choose_refining_size(const Sweep& sweep, const std::vector<SweepPoint>& verifying,
                                           double target) {
  if (verifying.empty()) return std::nullopt;
  const double c = sweep.marked_speed();
  if (std::abs(nearest_to_target(sweep, verifying, target).speed_efficiency(c) - target) <=
      0.5 * kTargetTolerance * target)
    return std::nullopt;
  std::vector<std::pair<double, double>> measured;  // (N, E_s), by N
  for (const auto* points : {&sweep.points, &verifying})
    for (const auto& point : *points)
      if (point.check_passed) measured.emplace_back(point.size, point.speed_efficiency(c));
  std::sort(measured.begin(), measured.end());
  const double last = verifying.back().size;
  std::optional<double> next;
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i + 1 < measured.size(); ++i) {
    const auto [n0, e0] = measured[i];
    const auto [n1, e1] = measured[i + 1];
    if (n0 == n1 || (e0 - target) * (e1 - target) > 0.0 || e0 == e1) continue;
    const double distance = last < n0 ? n0 - last : last > n1 ? last - n1 : 0.0;
    if (distance >= nearest) continue;
    nearest = distance;
    next = std::round(n0 + (target - e0) / (e1 - e0) * (n1 - n0));
  }
  if (!next) return std::nullopt;
  // A sweep's point is one run like the others, no verification of its N.
  for (const auto& run : verifying)
    if (run.size == *next) return std::nullopt;
  return next;
}

}  // namespace hetscale
