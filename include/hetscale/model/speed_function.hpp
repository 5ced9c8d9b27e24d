#pragma once
// A node's speed as a function of the size of its share: the functional
// performance model of Lastovetsky and Reddy (FuPerMod), measured at a few
// sizes and interpolated between them. A marked speed (Chen et al. 2008) is
// its constant special case: one point. Sizes in units of work (rows,
// tasks), speeds in units per second, so a share of d units takes
// d / s(d) seconds. Pure.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace hetscale::model {

struct SpeedPoint {
  double size = 0.0;      // units of work
  double speed = 0.0;     // units per second, > 0
  double interval = 0.0;  // half-width of the speed's confidence interval (0: not known)
};

enum class Interpolation {
  linear,  // piecewise linear between the points
  akima,   // Akima's 1970 spline (needs 5 points; fewer fall back to linear)
};
std::string to_string(Interpolation interpolation);
// "linear" or "akima"; std::invalid_argument otherwise.
Interpolation interpolation_from_string(const std::string& name);

class SpeedFunction {
 public:
  // Points with sizes > 0 strictly increasing and speeds > 0 (finite);
  // std::invalid_argument naming the point otherwise.
  SpeedFunction(std::vector<SpeedPoint> points, Interpolation interpolation = Interpolation::linear);
  // A marked speed: the same at every size.
  static SpeedFunction constant(double speed);

  // The speed at `size` >= 0: interpolated between the points; the first
  // point's speed below it, the last point's above it (an extrapolation).
  // Akima's spline is kept, on each interval, between the speeds at its ends
  // (so that it never overshoots to a speed no point measured).
  double speed(double size) const;
  // The time of a share of `size` units: size / speed(size); 0 for 0.
  double time(double size) const;
  // Lastovetsky and Reddy's shape restriction: a line through the origin
  // meets the speed's graph once, that is the time size / s(size) grows with
  // the size. The first size (at the points, and at 32 sizes within each
  // interval) where the time is below the time at the size before it, if any.
  std::optional<double> size_where_time_decreases() const;
  // Whether `size` lies past the last point (a function of one point, a
  // marked speed, covers every size).
  bool extrapolates(double size) const;
  double largest_size() const { return points_.back().size; }
  bool is_constant() const { return points_.size() == 1; }
  const std::vector<SpeedPoint>& points() const { return points_; }
  // As asked; the one used is linear below 5 points.
  Interpolation interpolation() const { return interpolation_; }
  Interpolation interpolation_used() const;

 private:
  std::vector<SpeedPoint> points_;
  Interpolation interpolation_;
  std::vector<double> slopes_;  // Akima's derivative at each point (empty: linear)
};

}  // namespace hetscale::model
