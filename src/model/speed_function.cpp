#include "hetscale/model/speed_function.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/core.h>

namespace hetscale::model {

std::string to_string(Interpolation interpolation) {
  return interpolation == Interpolation::akima ? "akima" : "linear";
}

Interpolation interpolation_from_string(const std::string& name) {
  if (name == "linear") return Interpolation::linear;
  if (name == "akima") return Interpolation::akima;
  throw std::invalid_argument(fmt::format("unknown interpolation '{}'; allowed: linear, akima", name));
}

namespace {

constexpr std::size_t akima_points = 5;

// Akima 1970: the derivative at each point from the slopes of the two
// intervals on either side (two more slopes extrapolated at each end).
std::vector<double> akima_slopes(const std::vector<SpeedPoint>& points) {
  const std::size_t n = points.size();
  std::vector<double> m(n + 3);  // m[k + 2] is the slope of interval k
  for (std::size_t k = 0; k + 1 < n; ++k)
    m[k + 2] = (points[k + 1].speed - points[k].speed) / (points[k + 1].size - points[k].size);
  m[1] = 2.0 * m[2] - m[3];
  m[0] = 2.0 * m[1] - m[2];
  m[n + 1] = 2.0 * m[n] - m[n - 1];
  m[n + 2] = 2.0 * m[n + 1] - m[n];
  std::vector<double> slopes(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double w1 = std::abs(m[k + 3] - m[k + 2]), w2 = std::abs(m[k + 1] - m[k]);
    slopes[k] = w1 + w2 > 0.0 ? (w1 * m[k + 1] + w2 * m[k + 2]) / (w1 + w2) : 0.5 * (m[k + 1] + m[k + 2]);
  }
  return slopes;
}

}  // namespace

SpeedFunction::SpeedFunction(std::vector<SpeedPoint> points, Interpolation interpolation)
    : points_(std::move(points)), interpolation_(interpolation) {
  if (points_.empty()) throw std::invalid_argument("a speed function needs at least one point, got none");
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const auto& point = points_[i];
    if (!std::isfinite(point.size) || point.size <= 0.0)
      throw std::invalid_argument(fmt::format("point {}: size must be a number > 0, got {}", i + 1, point.size));
    if (!std::isfinite(point.speed) || point.speed <= 0.0)
      throw std::invalid_argument(fmt::format("point {}: speed must be a number > 0, got {}", i + 1, point.speed));
    if (!std::isfinite(point.interval) || point.interval < 0.0)
      throw std::invalid_argument(
          fmt::format("point {}: interval must be a number >= 0, got {}", i + 1, point.interval));
    if (i > 0 && point.size <= points_[i - 1].size)
      throw std::invalid_argument(
          fmt::format("point {}: sizes must increase, got {} after {}", i + 1, point.size, points_[i - 1].size));
  }
  if (interpolation_used() == Interpolation::akima) slopes_ = akima_slopes(points_);
}

SpeedFunction SpeedFunction::constant(double speed) { return SpeedFunction({{1.0, speed, 0.0}}); }

Interpolation SpeedFunction::interpolation_used() const {
  return interpolation_ == Interpolation::akima && points_.size() >= akima_points ? Interpolation::akima
                                                                                  : Interpolation::linear;
}

double SpeedFunction::speed(double size) const {
  if (!(size >= 0.0)) throw std::invalid_argument(fmt::format("a size must be >= 0, got {}", size));
  if (size <= points_.front().size) return points_.front().speed;
  if (size >= points_.back().size) return points_.back().speed;
  const auto upper = std::upper_bound(points_.begin(), points_.end(), size,
                                      [](double x, const SpeedPoint& point) { return x < point.size; });
  const std::size_t k = static_cast<std::size_t>(upper - points_.begin()) - 1;
  const auto& a = points_[k];
  const auto& b = points_[k + 1];
  const double h = b.size - a.size, u = (size - a.size) / h;
  if (slopes_.empty()) return a.speed + u * (b.speed - a.speed);
  // The cubic Hermite of the two points and their Akima derivatives.
  const double u2 = u * u, u3 = u2 * u;
  const double value = (2 * u3 - 3 * u2 + 1) * a.speed + (u3 - 2 * u2 + u) * h * slopes_[k] +
                       (-2 * u3 + 3 * u2) * b.speed + (u3 - u2) * h * slopes_[k + 1];
  return std::clamp(value, std::min(a.speed, b.speed), std::max(a.speed, b.speed));
}

double SpeedFunction::time(double size) const { return size > 0.0 ? size / speed(size) : 0.0; }

std::optional<double> SpeedFunction::size_where_time_decreases() const {
  constexpr int samples = 32;
  double previous = time(points_.front().size);
  for (std::size_t k = 0; k + 1 < points_.size(); ++k) {
    const double from = points_[k].size, to = points_[k + 1].size;
    for (int sample = 1; sample <= samples; ++sample) {
      const double size = sample == samples ? to : from + (to - from) * sample / samples;
      const double t = time(size);
      if (t < previous * (1.0 - 1e-12)) return size;
      previous = t;
    }
  }
  return std::nullopt;
}

bool SpeedFunction::extrapolates(double size) const { return !is_constant() && size > points_.back().size; }

}  // namespace hetscale::model
