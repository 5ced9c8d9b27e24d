// The one rule for a rank's run-queue delay (measure/run_queue_split.hpp):
// shared by the interval's activities in proportion to their time, other load
// only where the activity works on the CPU, never more than the interval, and
// time conserved.
#include "hetscale/measure/run_queue_split.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace hetscale::measure {
namespace {

TEST(RunQueueSplit, WorkLosesItsShareAndAWaitKeepsIt) {
  RunQueueSplit split({true, false});  // working, waiting
  split.add(0, 3.0);
  split.add(1, 1.0);
  split.found(2.0);  // 1.5 of it while working, 0.5 while waiting
  EXPECT_DOUBLE_EQ(split.other_load(), 1.5);
  EXPECT_DOUBLE_EQ(split.kept()[0], 1.5);
  EXPECT_DOUBLE_EQ(split.kept()[1], 1.0);
  EXPECT_DOUBLE_EQ(split.kept()[0] + split.kept()[1] + split.other_load(), 4.0);
  EXPECT_DOUBLE_EQ(split.pending(), 0.0);
}

TEST(RunQueueSplit, IntervalsAddUpAndTheDelayIsAtMostTheInterval) {
  RunQueueSplit split({true, false});
  split.add(0, 1.0);
  split.found(5.0);  // a counter read late cannot give more than the interval
  EXPECT_DOUBLE_EQ(split.other_load(), 1.0);
  EXPECT_DOUBLE_EQ(split.kept()[0], 0.0);
  split.add(0, 2.0);
  split.add(1, 2.0);
  split.found(-1.0);  // a counter that went back gives nothing
  EXPECT_DOUBLE_EQ(split.other_load(), 1.0);
  EXPECT_DOUBLE_EQ(split.kept()[0], 2.0);
  EXPECT_DOUBLE_EQ(split.kept()[1], 2.0);
  split.found(1.0);  // an empty interval: nothing to share
  EXPECT_DOUBLE_EQ(split.other_load(), 1.0);
}

TEST(RunQueueSplit, AnActivityOutsideTheListIsMisuse) {
  RunQueueSplit split({true});
  EXPECT_THROW(split.add(1, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::measure
