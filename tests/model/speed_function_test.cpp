// A node's speed as a function of its share's size (functional performance
// models): interpolation between measured points, the constant special case
// (a marked speed), what is refused.
#include "hetscale/model/speed_function.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace hetscale::model {
namespace {

void ExpectInvalid(const std::vector<SpeedPoint>& points, const std::string& fragment) {
  try {
    SpeedFunction function(points);
    FAIL() << "taken: " << fragment;
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(SpeedFunction, LinearBetweenPointsConstantOutside) {
  const SpeedFunction f({{100, 10.0}, {200, 30.0}, {400, 20.0}});
  EXPECT_DOUBLE_EQ(f.speed(150), 20.0);
  EXPECT_DOUBLE_EQ(f.speed(300), 25.0);
  EXPECT_DOUBLE_EQ(f.speed(200), 30.0);
  EXPECT_DOUBLE_EQ(f.speed(50), 10.0);   // below the first point: its speed
  EXPECT_DOUBLE_EQ(f.speed(800), 20.0);  // past the last: its speed, an extrapolation
  EXPECT_TRUE(f.extrapolates(401));
  EXPECT_FALSE(f.extrapolates(400));
  EXPECT_DOUBLE_EQ(f.time(300), 300 / 25.0);
  EXPECT_DOUBLE_EQ(f.time(0), 0.0);
  EXPECT_EQ(f.interpolation_used(), Interpolation::linear);
}

TEST(SpeedFunction, AMarkedSpeedIsTheConstantCase) {
  const auto f = SpeedFunction::constant(2.5);
  EXPECT_TRUE(f.is_constant());
  for (const double size : {0.5, 1.0, 1e6}) EXPECT_DOUBLE_EQ(f.speed(size), 2.5);
  EXPECT_FALSE(f.extrapolates(1e9));
}

TEST(SpeedFunction, AkimaReproducesALineAndStaysBetweenThePoints) {
  std::vector<SpeedPoint> line;
  for (int k = 1; k <= 6; ++k) line.push_back({100.0 * k, 5.0 + 0.01 * 100.0 * k});
  const SpeedFunction f(line, Interpolation::akima);
  EXPECT_EQ(f.interpolation_used(), Interpolation::akima);
  for (double x = 100; x <= 600; x += 37) EXPECT_NEAR(f.speed(x), 5.0 + 0.01 * x, 1e-12) << x;

  // A speed that drops at a cache boundary: no overshoot past what was measured
  const SpeedFunction drop({{1, 10}, {2, 10}, {3, 10}, {4, 2}, {5, 2}, {6, 2}}, Interpolation::akima);
  for (double x = 1; x <= 6; x += 0.05) {
    EXPECT_LE(drop.speed(x), 10.0) << x;
    EXPECT_GE(drop.speed(x), 2.0) << x;
  }
  EXPECT_DOUBLE_EQ(drop.speed(2.5), 10.0);  // flat where the points are flat
  // a smooth speed is followed more closely than by the line
  std::vector<SpeedPoint> curve;
  for (int k = 1; k <= 8; ++k) curve.push_back({1.0 * k, std::sqrt(1.0 * k)});
  const SpeedFunction akima(curve, Interpolation::akima), linear(curve);
  double akima_error = 0, linear_error = 0;
  for (double x = 2; x <= 7; x += 0.1) {
    akima_error = std::max(akima_error, std::abs(akima.speed(x) - std::sqrt(x)));
    linear_error = std::max(linear_error, std::abs(linear.speed(x) - std::sqrt(x)));
  }
  EXPECT_LT(akima_error, linear_error / 3);
}

TEST(SpeedFunction, SaysWhereItsTimeFalls) {
  // 100 units at 10/s take 10 s, 200 at 30/s take 6.7 s: a line through the origin meets it twice
  EXPECT_DOUBLE_EQ(SpeedFunction({{100, 10}, {200, 30}}).size_where_time_decreases().value(), 100 + 100.0 / 32);
  EXPECT_FALSE(SpeedFunction({{100, 10}, {200, 15}, {300, 5}}).size_where_time_decreases());
  EXPECT_FALSE(SpeedFunction::constant(3).size_where_time_decreases());
}

TEST(SpeedFunction, AkimaNeedsFivePoints) {
  const SpeedFunction f({{1, 1}, {2, 3}, {3, 2}, {4, 5}}, Interpolation::akima);
  EXPECT_EQ(f.interpolation(), Interpolation::akima);
  EXPECT_EQ(f.interpolation_used(), Interpolation::linear);
  EXPECT_DOUBLE_EQ(f.speed(1.5), 2.0);
}

TEST(SpeedFunction, RefusesWhatIsNotASpeedFunction) {
  ExpectInvalid({}, "at least one point");
  ExpectInvalid({{100, 1}, {100, 2}}, "point 2: sizes must increase, got 100 after 100");
  ExpectInvalid({{100, 1}, {50, 2}}, "point 2: sizes must increase");
  ExpectInvalid({{100, 0}}, "point 1: speed must be a number > 0, got 0");
  ExpectInvalid({{100, 1}, {200, -3}}, "point 2: speed must be a number > 0, got -3");
  ExpectInvalid({{0, 1}}, "point 1: size must be a number > 0, got 0");
  ExpectInvalid({{1, NAN}}, "point 1: speed must be a number > 0");
  ExpectInvalid({{1, 1, -1}}, "point 1: interval must be a number >= 0");
  EXPECT_THROW(SpeedFunction::constant(1).speed(-1), std::invalid_argument);
  EXPECT_EQ(interpolation_from_string("akima"), Interpolation::akima);
  EXPECT_THROW(interpolation_from_string("cubic"), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::model
