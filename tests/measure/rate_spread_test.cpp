// A rank's rate spread (measure/rate_spread.hpp): segments grouped by the MPI
// call that ends them, their deviation from the group's mean against their size.
#include "hetscale/measure/rate_spread.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace hetscale::measure {
namespace {

double spread_of(const std::vector<std::pair<std::size_t, double>>& segments, std::size_t groups = 3) {
  SegmentGroups grouped(groups);
  double deviation = 0.0, magnitude = 0.0;
  for (const auto& [group, size] : segments) {
    const auto added = grouped.add(group, size);
    deviation += added.deviation;
    magnitude += added.magnitude;
  }
  return rate_spread(deviation, magnitude);
}

// The first segment of a group (the program's start) is left out.
TEST(RateSpread, EqualStepsHaveNone) {
  EXPECT_DOUBLE_EQ(spread_of({{0, 0.5}, {0, 0.01}, {0, 0.01}, {0, 0.01}, {0, 0.01}}), 0.0);
}

// Steps of 9 and 11 ms: deviation 1 ms each, sizes about 10 ms: about 10 %.
TEST(RateSpread, IsTheDeviationAgainstTheSize) {
  const double spread = spread_of({{0, 0.0}, {0, 0.009}, {0, 0.011}, {0, 0.009}, {0, 0.011}});
  EXPECT_NEAR(spread, std::sqrt(4 * 1e-6 / (2 * 0.009 * 0.009 + 2 * 0.011 * 0.011)), 1e-12);
  EXPECT_NEAR(spread, 0.0995, 1e-4);
}

// Two kinds of step (a force computation ending at one call, a neighbour list
// ending at another) each steady: no spread, though the segments differ.
TEST(RateSpread, KindsOfStepAreGroupedByTheirCall) {
  EXPECT_NEAR(spread_of({{0, 0.01}, {1, 0.1}, {0, 0.01}, {1, 0.1}, {0, 0.01}, {1, 0.1}}), 0.0, 1e-12);
  EXPECT_GT(spread_of({{0, 0.01}, {0, 0.1}, {0, 0.01}, {0, 0.1}, {0, 0.01}}), 0.5);
}

// Tiny segments between back-to-back calls weigh nothing against the steps.
TEST(RateSpread, TinySegmentsWeighNothing) {
  const double steady = spread_of({{0, 0.01}, {1, 1e-7}, {0, 0.01}, {1, 3e-7}, {0, 0.01}, {1, 1e-7}});
  EXPECT_LT(steady, 1e-4);
}

TEST(RateSpread, NothingAddedIsNoSpreadAndAGroupOutOfRangeIsIgnored) {
  EXPECT_DOUBLE_EQ(rate_spread(0.0, 0.0), 0.0);
  SegmentGroups grouped(1);
  const auto added = grouped.add(5, 1.0);
  EXPECT_DOUBLE_EQ(added.deviation, 0.0);
  EXPECT_DOUBLE_EQ(added.magnitude, 0.0);
}

}  // namespace
}  // namespace hetscale::measure
