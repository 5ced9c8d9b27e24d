// Which process owns which rows (distribute/row_distribution.hpp): blocks in
// proportion to speed, rows dealt cyclically in proportion to speed, a
// process of speed 0 owning none (a functional partition that leaves a rank
// no rows), bad speeds refused.
#include "hetscale/distribute/row_distribution.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace hetscale::distribute {
namespace {

using Rows = std::vector<std::size_t>;

std::string ErrorOf(const std::vector<double>& speeds) {
  try {
    heterogeneous_block_rows(speeds, 10);
  } catch (const std::invalid_argument& error) {
    try {
      heterogeneous_cyclic_rows(speeds, 10);
    } catch (const std::invalid_argument& cyclic) {
      return std::string(error.what()) == cyclic.what() ? error.what() : "block and cyclic differ";
    }
    return "cyclic accepted";
  }
  return "no error";
}

TEST(RowDistribution, BlocksInProportionToSpeed) {
  const auto blocks = heterogeneous_block_rows({2.0, 1.0, 1.0}, 8);
  EXPECT_EQ(blocks.rows_of[0], (Rows{0, 1, 2, 3}));
  EXPECT_EQ(blocks.rows_of[1], (Rows{4, 5}));
  EXPECT_EQ(blocks.rows_of[2], (Rows{6, 7}));
  EXPECT_EQ(blocks.owner, (Rows{0, 0, 0, 0, 1, 1, 2, 2}));
}

TEST(RowDistribution, CyclicDealsEveryRunInProportion) {
  const auto cyclic = heterogeneous_cyclic_rows({2.0, 1.0}, 6);
  EXPECT_EQ(cyclic.owner, (Rows{0, 0, 1, 0, 0, 1}));  // (held + 1) / speed least, ties to the lower
  EXPECT_EQ(cyclic.rows_owned(0), 4u);
  EXPECT_EQ(cyclic.rows_owned(1), 2u);
}

TEST(RowDistribution, ASpeedOfZeroOwnsNoRows) {
  const auto blocks = heterogeneous_block_rows({3.0, 0.0, 2.0}, 5);
  EXPECT_EQ(blocks.rows_of[0], (Rows{0, 1, 2}));
  EXPECT_TRUE(blocks.rows_of[1].empty());
  EXPECT_EQ(blocks.rows_of[2], (Rows{3, 4}));
  const auto cyclic = heterogeneous_cyclic_rows({0.0, 1.0, 1.0}, 4);
  EXPECT_EQ(cyclic.owner, (Rows{1, 2, 1, 2}));
  EXPECT_EQ(cyclic.rows_owned(0), 0u);
}

TEST(RowDistribution, BadSpeedsRefused) {
  EXPECT_EQ(ErrorOf({}), "speeds must not be empty");
  EXPECT_EQ(ErrorOf({1.0, -1.0}), "speeds[1] must be a finite number >= 0, got -1");
  EXPECT_EQ(ErrorOf({0.0, 0.0}), "speeds must hold one > 0 to own the rows, got all 0");
}

}  // namespace
}  // namespace hetscale::distribute
