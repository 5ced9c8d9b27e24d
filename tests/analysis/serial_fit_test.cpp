// Majumdar 1999 on measured timings: the least-squares fit tau_1 = a + b N (Eq 114)
// of the single-processor runs, then for every multi-processor run f = a /
// tau_1 (Eq 115), S_N = tau_1 / tau_N (Eq 104), S_N^th = 1 / ((1 - f)/N + f)
// (Eq 112), eps_N = S_N / S_N^th (Eq 109) and the Karp-Flatt serial fraction
// (1/S - 1/p) / (1 - 1/p).
#include "hetscale/analysis/serial_fit.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetscale/io/input_error.hpp"
#include "hetscale/record/timings.hpp"

namespace hetscale {
namespace {

// |actual - expected| <= rel * max(1, |expected|).
::testing::AssertionResult Near(double actual, double expected, double rel = 1e-9) {
  return testing_support::ScaledNear(actual, expected, rel);
}

std::string FitError(const Timings& timings, SerialTime how = SerialTime::line) {
  return testing_support::ErrorMessage([&] { fit_serial_fraction(timings, how); });
}

std::string FitLineError(const std::vector<double>& x, const std::vector<double>& y) {
  return testing_support::ErrorMessage<std::invalid_argument>([&] { fit_line(x, y); });
}

// ------------------------------------------------------------------ fit_line

// least squares on points exactly on y = 3 + 0.5 x gives the line back, r^2 = 1
TEST(FitLine, ExactPointsGiveTheLine) {
  const std::vector<double> x{1, 2, 3, 4, 7}, y{3.5, 4, 4.5, 5, 6.5};
  const auto fit = fit_line(x, y);
  EXPECT_TRUE(Near(fit.intercept, 3.0, 1e-12));
  EXPECT_TRUE(Near(fit.slope, 0.5, 1e-12));
  EXPECT_TRUE(Near(fit.r_squared, 1.0, 1e-12));
  EXPECT_EQ(fit.points, 5u);
}

// two points determine the line: through (1000, 3) and (3000, 5): b = 2/2000, a = 3 - 1 = 2
TEST(FitLine, TwoPointsDetermineTheLine) {
  const std::vector<double> x{1000, 3000}, y{3, 5};
  const auto fit = fit_line(x, y);
  EXPECT_TRUE(Near(fit.slope, 0.001, 1e-12));
  EXPECT_TRUE(Near(fit.intercept, 2.0, 1e-12));
  EXPECT_EQ(fit.points, 2u);
}

// noisy points from a fixed-seed generator: a and b within a few standard errors, 0 < 1 - r^2
TEST(FitLine, NoisyPointsRecoverTheLineWithinTolerance) {
  std::mt19937 generator(12345);  // mt19937's sequence is fixed by the standard
  std::vector<double> x, y;
  for (int k = 1; k <= 20; ++k) {
    const double noise = (static_cast<double>(generator()) / 4294967295.0 - 0.5) * 0.1;  // in [-0.05, 0.05]
    x.push_back(100.0 * k);
    y.push_back(2.0 + 0.003 * x.back() + noise);
  }
  const auto fit = fit_line(x, y);
  // noise sd = 0.1 / sqrt(12) = 0.029; sum (x - mean)^2 = 6.65e6, so SE(b) = 1.1e-5, SE(a) = 0.013
  EXPECT_NEAR(fit.slope, 0.003, 5e-5);
  EXPECT_NEAR(fit.intercept, 2.0, 0.06);
  EXPECT_LT(fit.r_squared, 1.0);
  EXPECT_GT(fit.r_squared, 0.999);
  EXPECT_EQ(fit.points, 20u);
  // least squares: the residuals are orthogonal to 1 and to x (the normal equations),
  // and r^2 = 1 - sum residual^2 / sum (y - mean y)^2
  double sum_r = 0.0, sum_xr = 0.0, sum_rr = 0.0, mean_y = 0.0;
  for (double value : y) mean_y += value / 20.0;
  double syy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - (fit.intercept + fit.slope * x[i]);
    sum_r += r, sum_xr += x[i] * r, sum_rr += r * r;
    syy += (y[i] - mean_y) * (y[i] - mean_y);
  }
  EXPECT_NEAR(sum_r, 0.0, 1e-10);
  EXPECT_NEAR(sum_xr, 0.0, 1e-7);
  EXPECT_TRUE(Near(fit.r_squared, 1.0 - sum_rr / syy, 1e-12));
}

// a line needs two distinct x values
TEST(FitLine, OneDistinctXThrows) {
  EXPECT_EQ(FitLineError({2, 2, 2}, {1, 2, 3}), "a line needs two or more distinct x values, got 3 points");
  EXPECT_EQ(FitLineError({2}, {1}), "a line needs two or more distinct x values, got 1 points");
  EXPECT_EQ(FitLineError({1, 2}, {1}), "x and y must have the same length, got 2 and 1");
}

// ------------------------------------------------------- fit_serial_fraction

// tau_1 = a + b N with a = 2 s, b = 0.001 s per unit of size (Majumdar 1999 Eq 114)
constexpr double intercept_a = 2.0, slope_b = 0.001;
double Tau1(double size) { return intercept_a + slope_b * size; }

// Single-processor runs at four sizes, mixed with multi-processor runs in file order.
Timings SyntheticTimings() {
  return Timings{"t.csv",
                 {{1, 1000, Tau1(1000), 2},
                  {1, 2000, Tau1(2000), 3},
                  {4, 8000, 4.04, 4},
                  {1, 4000, Tau1(4000), 5},
                  {8, 4000, 2.6, 6},
                  {1, 8000, Tau1(8000), 7},
                  {2, 8000, 6.02, 8}}};
}

// Majumdar 1999 Eq 114: a and b are fitted from the procs = 1 rows
TEST(FitSerialFraction, RecoversAAndB) {
  const auto fit = fit_serial_fraction(SyntheticTimings());
  EXPECT_EQ(fit.source, "t.csv");
  EXPECT_NEAR(fit.single_processor.intercept, intercept_a, 1e-9);
  EXPECT_NEAR(fit.single_processor.slope, slope_b, 1e-9 * slope_b);
  EXPECT_TRUE(Near(fit.single_processor.r_squared, 1.0, 1e-12));
  EXPECT_EQ(fit.single_processor.points, 4u);
}

// Majumdar 1999 Eqs 104, 109, 112, 115 and Karp-Flatt on every multi-processor row, in file order
TEST(FitSerialFraction, MultiProcessorRowsMatchHandFormulas) {
  const auto fit = fit_serial_fraction(SyntheticTimings());
  ASSERT_EQ(fit.rows.size(), 3u);
  const std::vector<std::size_t> procs{4, 8, 2};
  const std::vector<double> sizes{8000, 4000, 8000}, seconds{4.04, 2.6, 6.02};
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE("row " + std::to_string(i));
    const auto& row = fit.rows[i];
    EXPECT_EQ(row.procs, procs[i]);
    EXPECT_EQ(row.size, sizes[i]);
    EXPECT_EQ(row.seconds, seconds[i]);
    const double n = static_cast<double>(procs[i]);
    const double tau1 = Tau1(sizes[i]);
    const double f = intercept_a / tau1;
    const double s = tau1 / seconds[i];
    const double s_th = 1.0 / ((1.0 - f) / n + f);
    EXPECT_TRUE(Near(row.single_processor_time, tau1));
    EXPECT_TRUE(Near(*row.serial_fraction, f));
    EXPECT_TRUE(Near(row.speedup, s));
    EXPECT_TRUE(Near(*row.theoretical_speedup, s_th));
    EXPECT_TRUE(Near(*row.parallelization_efficiency, s / s_th));
    EXPECT_TRUE(Near(row.karp_flatt, (1.0 / s - 1.0 / n) / (1.0 - 1.0 / n)));
  }
  // the first row by hand: N = 8000, p = 4: tau_1 = 2 + 8 = 10, f = 0.2, S = 10 / 4.04,
  // S^th = 1 / (0.8/4 + 0.2) = 2.5, eps = (10/4.04) / 2.5, Karp-Flatt = (0.404 - 0.25) / 0.75
  const auto& first = fit.rows[0];
  EXPECT_TRUE(Near(first.single_processor_time, 10.0));
  EXPECT_TRUE(Near(*first.serial_fraction, 0.2));
  EXPECT_TRUE(Near(first.speedup, 10.0 / 4.04));
  EXPECT_TRUE(Near(*first.theoretical_speedup, 2.5));
  EXPECT_TRUE(Near(*first.parallelization_efficiency, 4.0 / 4.04));
  EXPECT_TRUE(Near(first.karp_flatt, 0.154 / 0.75));
  // the second: N = 4000, p = 8: tau_1 = 6, f = 1/3, S^th = 1 / ((2/3)/8 + 1/3) = 2.4,
  // S = 6 / 2.6, Karp-Flatt = (2.6/6 - 1/8) / (7/8)
  const auto& second = fit.rows[1];
  EXPECT_TRUE(Near(*second.serial_fraction, 1.0 / 3.0));
  EXPECT_TRUE(Near(*second.theoretical_speedup, 2.4));
  EXPECT_TRUE(Near(*second.parallelization_efficiency, (6.0 / 2.6) / 2.4));
  EXPECT_TRUE(Near(second.karp_flatt, (2.6 / 6.0 - 0.125) / 0.875));
}

// Majumdar 1999: a run that follows Amdahl exactly (tau_N = a + b N / p) has eps_N = 1, and Karp-Flatt = f
TEST(FitSerialFraction, ExactAmdahlRunHasUnitEfficiencyAndKarpFlattEqualsF) {
  Timings timings{"t.csv", {{1, 500, Tau1(500), 2}, {1, 5000, Tau1(5000), 3}}};
  const std::vector<std::size_t> procs{2, 3, 7, 16, 64};
  const std::vector<double> sizes{1000, 2500, 8000, 20000, 100000};
  for (std::size_t p : procs)
    for (double n : sizes)
      timings.rows.push_back({p, n, intercept_a + slope_b * n / static_cast<double>(p), timings.rows.size() + 2});
  const auto fit = fit_serial_fraction(timings);
  ASSERT_EQ(fit.rows.size(), procs.size() * sizes.size());
  for (const auto& row : fit.rows) {
    SCOPED_TRACE("p = " + std::to_string(row.procs) + ", N = " + std::to_string(row.size));
    EXPECT_TRUE(Near(*row.parallelization_efficiency, 1.0));
    EXPECT_TRUE(Near(row.speedup, *row.theoretical_speedup));
    EXPECT_TRUE(Near(row.karp_flatt, intercept_a / Tau1(row.size)));
    EXPECT_TRUE(Near(row.karp_flatt, *row.serial_fraction));
  }
}

// the same fit from a timings file (format: procs,size,seconds)
TEST(FitSerialFraction, FromParsedCsv) {
  const auto timings = parse_timings_csv(
      "# tau_1 = 2 + 0.001 N\n"
      "procs,size,seconds\n"
      "1,1000,3\n"
      "1,4000,6\n"
      "4,8000,4.04\n",
      "t.csv");
  const auto fit = fit_serial_fraction(timings);
  EXPECT_NEAR(fit.single_processor.intercept, 2.0, 1e-9);
  EXPECT_NEAR(fit.single_processor.slope, 0.001, 1e-12);
  ASSERT_EQ(fit.rows.size(), 1u);
  EXPECT_TRUE(Near(*fit.rows[0].parallelization_efficiency, 4.0 / 4.04));
}

// Majumdar 1999: a and b need single-processor runs at two or more sizes
TEST(FitSerialFractionErrors, FewerThanTwoDistinctSingleProcessorSizes) {
  EXPECT_EQ(FitError(Timings{"t.csv", {{1, 1000, 3, 2}, {1, 1000, 3.1, 3}, {4, 1000, 1, 4}}}),
            "t.csv: procs: needs single-processor rows (procs = 1) at two or more different sizes to fit tau_1 = a + "
            "b N, found 1");
  EXPECT_EQ(FitError(Timings{"t.csv", {{2, 1000, 3, 2}, {4, 2000, 3, 3}}}),
            "t.csv: procs: needs single-processor rows (procs = 1) at two or more different sizes to fit tau_1 = a + "
            "b N, found 0");
}

// Majumdar 1999 Eq 115: the serial time a is >= 0
TEST(FitSerialFractionErrors, NegativeFittedA) {
  // through (1000, 1) and (2000, 3): b = 0.002, a = 1 - 2 = -1
  EXPECT_EQ(FitError(Timings{"t.csv", {{1, 1000, 1, 2}, {1, 2000, 3, 3}, {2, 2000, 2, 4}}}),
            "t.csv: procs = 1 rows: the fitted serial time a = -1 s is negative: the single-processor time grows "
            "faster than a straight line through these sizes, so no serial part can be read off it (Majumdar 1999, "
            "Eq 114); take the serial time through-origin (a = 0: no serial part, f = 0) or measured "
            "(tau_1 measured at each size, Karp-Flatt e)");
}

// The two ways on from a negative a, on the same timings.
TEST(FitSerialFraction, ThroughTheOriginWhenAIsNegative) {
  // tau_1 = b N through (1000, 1) and (2000, 3): b = (1000 + 6000) / (1e6 + 4e6) = 0.0014
  const Timings timings{"t.csv", {{1, 1000, 1, 2}, {1, 2000, 3, 3}, {2, 2000, 2, 4}}};
  const auto fit = fit_serial_fraction(timings, SerialTime::through_origin);
  EXPECT_EQ(fit.single_processor.intercept, 0.0);
  EXPECT_NEAR(fit.single_processor.slope, 0.0014, 1e-15);
  ASSERT_EQ(fit.rows.size(), 1u);
  const auto& row = fit.rows[0];
  EXPECT_TRUE(Near(row.single_processor_time, 2.8));
  EXPECT_TRUE(Near(*row.serial_fraction, 0.0));
  EXPECT_TRUE(Near(*row.theoretical_speedup, 2.0));  // f = 0: S_N^th = N
  EXPECT_TRUE(Near(row.speedup, 1.4));
  EXPECT_TRUE(Near(*row.parallelization_efficiency, 0.7));
}

TEST(FitSerialFraction, MeasuredSingleProcessorTimeAndKarpFlatt) {
  // tau_1 measured at 2000: 3 s (the mean of 2.9 and 3.1); tau_2 = 2: S = 1.5, e = (1/1.5 - 1/2) / (1/2) = 1/3
  const Timings timings{"t.csv", {{1, 1000, 1, 2}, {1, 2000, 2.9, 3}, {1, 2000, 3.1, 4}, {2, 2000, 2, 5}}};
  const auto fit = fit_serial_fraction(timings, SerialTime::measured);
  ASSERT_EQ(fit.rows.size(), 1u);
  const auto& row = fit.rows[0];
  EXPECT_TRUE(Near(row.single_processor_time, 3.0));
  EXPECT_TRUE(Near(row.speedup, 1.5));
  EXPECT_TRUE(Near(row.karp_flatt, 1.0 / 3.0));
  EXPECT_FALSE(row.serial_fraction.has_value());
  EXPECT_FALSE(row.theoretical_speedup.has_value());
  EXPECT_FALSE(row.parallelization_efficiency.has_value());
  EXPECT_EQ(FitError(Timings{"t.csv", {{1, 1000, 1, 2}, {2, 2000, 2, 3}}}, SerialTime::measured),
            "t.csv: line 3: has no single-processor run at size 2000: the serial time measured needs one at every size "
            "it evaluates");
}

// Majumdar 1999 Eq 114: the fitted tau_1 must be > 0 at every multi-processor size
TEST(FitSerialFractionErrors, NonPositiveFittedTau1) {
  // through (1000, 5) and (2000, 4): b = -0.001, a = 6; at N = 8000, tau_1 = 6 - 8 = -2
  EXPECT_EQ(FitError(Timings{"t.csv", {{1, 1000, 5, 2}, {1, 2000, 4, 3}, {2, 8000, 1, 7}}}),
            "t.csv: line 7: the fitted tau_1 at size 8000 is -2 s, not > 0");
}

}  // namespace
}  // namespace hetscale
