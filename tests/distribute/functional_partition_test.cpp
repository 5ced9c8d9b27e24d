// Sharing units among nodes whose speed depends on their share: the
// partitioners against exhaustive search on random small models (property
// tests), the geometric and numerical partitioners against each other, the
// constant split, and what is refused.
#include "hetscale/distribute/functional_partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "hetscale/distribute/counts.hpp"

namespace hetscale::distribute {
namespace {

using model::Interpolation;
using model::SpeedFunction;
using model::SpeedPoint;

// A node measured at sizes 1 .. largest: its time d / s(d) grows with d
// (by a random step each size), so the speed may rise and fall (a cache).
// Linear interpolation keeps the time growing between the points; Akima's
// spline may not, and such a node (outside Lastovetsky and Reddy's shape
// restriction, which the partitioners assume) is drawn again.
SpeedFunction RandomNode(std::mt19937& random, std::size_t largest, Interpolation interpolation) {
  std::uniform_real_distribution<double> step(0.05, 1.0), first(0.05, 2.0);
  for (;;) {
    std::vector<SpeedPoint> points;
    double time = first(random);
    for (std::size_t size = 1; size <= largest; size += 1 + random() % 3) {
      points.push_back({static_cast<double>(size), static_cast<double>(size) / time});
      time += step(random) * static_cast<double>(1 + random() % 3);
    }
    SpeedFunction node(points, interpolation);
    if (!node.size_where_time_decreases()) return node;
    EXPECT_EQ(interpolation, Interpolation::akima) << "linear interpolation made the time decrease";
  }
}

std::size_t Sum(const std::vector<std::size_t>& units) {
  return std::accumulate(units.begin(), units.end(), std::size_t{0});
}

TEST(FunctionalPartition, AgreesWithExhaustiveSearchOnRandomSmallModels) {
  std::mt19937 random(20261126);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t nodes_count = 2 + random() % 3;
    const auto interpolation = trial % 2 ? Interpolation::akima : Interpolation::linear;
    std::vector<SpeedFunction> nodes;
    std::size_t covered = 0;
    for (std::size_t i = 0; i < nodes_count; ++i) {
      nodes.push_back(RandomNode(random, 8 + random() % 20, interpolation));
      covered += static_cast<std::size_t>(nodes.back().largest_size());
    }
    const std::size_t units = 1 + random() % std::min<std::size_t>(covered, 40);
    const auto best = partition_by_speed(nodes, units, PartitionAlgorithm::exhaustive);
    ASSERT_EQ(Sum(best.units), units);
    for (const auto algorithm : {PartitionAlgorithm::geometric, PartitionAlgorithm::numerical}) {
      const auto found = partition_by_speed(nodes, units, algorithm);
      ASSERT_EQ(Sum(found.units), units) << to_string(algorithm) << ", trial " << trial;
      for (std::size_t i = 0; i < nodes_count; ++i) EXPECT_FALSE(found.extrapolated[i]) << trial;
      EXPECT_NEAR(found.makespan, best.makespan, 1e-12 * best.makespan)
          << to_string(algorithm) << ", trial " << trial << ", " << units << " units";
    }
    // the constant split is never better than the best, where it keeps to the models' sizes
    const auto constant = partition_by_speed(nodes, units, PartitionAlgorithm::constant);
    if (std::none_of(constant.extrapolated.begin(), constant.extrapolated.end(), [](bool past) { return past; }))
      EXPECT_GE(constant.makespan, best.makespan * (1 - 1e-12)) << trial;
  }
}

// A speed that rises while the share's fixed costs are paid off and drops
// where the share leaves a cache: s0 x / (x + k) (1 - drop / (1 + e^-(x - c) / w)),
// measured at 20 sizes. Its time grows with the size.
SpeedFunction SmoothNode(std::mt19937& random, double largest) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double s0 = 50 + 500 * unit(random), k = 1 + 50 * unit(random), drop = 0.7 * unit(random);
  const double c = largest * (0.2 + 0.6 * unit(random)), w = largest * (0.01 + 0.05 * unit(random));
  std::vector<SpeedPoint> points;
  for (int j = 1; j <= 20; ++j) {
    const double x = largest * j / 20;
    points.push_back({x, s0 * x / (x + k) * (1 - drop / (1 + std::exp(-(x - c) / w)))});
  }
  return SpeedFunction(points, Interpolation::akima);
}

TEST(FunctionalPartition, GeometricAndNumericalAgreeOnLargeModels) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<SpeedFunction> nodes;
    for (std::size_t i = 0; i < 3; ++i) nodes.push_back(RandomNode(random, 2000, Interpolation::linear));
    for (std::size_t i = 0; i < 3; ++i) {
      nodes.push_back(SmoothNode(random, 2000));
      ASSERT_FALSE(nodes.back().size_where_time_decreases()) << trial;
    }
    const std::size_t units = 1000 + random() % 8000;
    const auto geometric = partition_by_speed(nodes, units, PartitionAlgorithm::geometric);
    const auto numerical = partition_by_speed(nodes, units, PartitionAlgorithm::numerical);
    EXPECT_NEAR(geometric.makespan, numerical.makespan, 1e-12 * numerical.makespan) << trial;
  }
}

TEST(FunctionalPartition, ConstantSpeedsShareInProportion) {
  const std::vector<SpeedFunction> nodes{SpeedFunction::constant(3), SpeedFunction::constant(1),
                                         SpeedFunction::constant(2)};
  const auto constant = partition_by_speed(nodes, 600, PartitionAlgorithm::constant);
  EXPECT_EQ(constant.units, (std::vector<std::size_t>{300, 100, 200}));
  EXPECT_DOUBLE_EQ(constant.makespan, 100.0);
  for (const auto algorithm : {PartitionAlgorithm::geometric, PartitionAlgorithm::numerical})
    EXPECT_EQ(partition_by_speed(nodes, 600, algorithm).units, constant.units) << to_string(algorithm);
  EXPECT_EQ(partition_by_speed(nodes, 7, PartitionAlgorithm::constant).units, proportional_counts(7, {3, 1, 2}));
}

// Two equal nodes, one of which slows to a third past 100 units (its share
// leaves the cache): the constant split at the even share (150 units, where
// the second node is slow) gives it too little; the functional split keeps
// it at its fast sizes and beats the constant one.
TEST(FunctionalPartition, BeatsTheConstantSplitAcrossACacheBoundary) {
  const std::vector<SpeedFunction> nodes{SpeedFunction({{10, 100}, {1000, 100}}),
                                         SpeedFunction({{10, 100}, {100, 100}, {110, 33}, {1000, 33}})};
  const auto constant = partition_by_speed(nodes, 300, PartitionAlgorithm::constant);
  const auto functional = partition_by_speed(nodes, 300, PartitionAlgorithm::numerical);
  EXPECT_LT(functional.makespan, constant.makespan * 0.9);
  EXPECT_EQ(functional.units, partition_by_speed(nodes, 300, PartitionAlgorithm::geometric).units);
  EXPECT_EQ(Sum(functional.units), 300u);
}

TEST(FunctionalPartition, RefusesWhatItCannotShare) {
  const std::vector<SpeedFunction> measured{SpeedFunction({{10, 1}, {100, 2}}), SpeedFunction({{10, 1}, {50, 1}})};
  try {
    partition_by_speed(measured, 151, PartitionAlgorithm::geometric);
    FAIL() << "151 units taken on models that cover 150";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("151 units are more than the models cover (150"), std::string::npos)
        << error.what();
  }
  const auto past = partition_by_speed(measured, 400, PartitionAlgorithm::numerical, true);
  EXPECT_EQ(Sum(past.units), 400u);
  EXPECT_TRUE(past.extrapolated[0] || past.extrapolated[1]);
  EXPECT_THROW(partition_by_speed({}, 10, PartitionAlgorithm::geometric), std::invalid_argument);
  EXPECT_THROW(partition_by_speed(measured, 0, PartitionAlgorithm::geometric), std::invalid_argument);
  const std::vector<SpeedFunction> many(8, SpeedFunction::constant(1));
  EXPECT_THROW(partition_by_speed(many, 1000, PartitionAlgorithm::exhaustive), std::invalid_argument);
  EXPECT_EQ(partition_algorithm_from_string("numerical"), PartitionAlgorithm::numerical);
  EXPECT_THROW(partition_algorithm_from_string("greedy"), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::distribute
