// One point of a functional performance model on this process: what must
// hold however busy the machine is (the speeds themselves are for
// bench/, not tests).
#include "hetscale/measure/speed_function_benchmark.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

namespace hetscale::measure {
namespace {

TEST(SpeedFunctionBenchmark, APointIsRepeatedAndSaysWhatItMeasured) {
  std::size_t calls = 0, last_size = 0;
  const ShareWorkload work = [&](std::size_t size, EmulatedProcessor& processor) {
    ++calls;
    last_size = size;
    processor.compute([&] {
      volatile double sink = 0;
      for (std::size_t i = 0; i < size * 1000; ++i) sink = sink + 1.0;
    });
  };
  PointPrecision precision;
  precision.min_repetitions = 4;
  precision.max_repetitions = 6;
  precision.max_seconds = 5;
  const auto point = measure_speed_point(work, 50, 1.0, precision);
  EXPECT_EQ(last_size, 50u);
  EXPECT_GE(point.repetitions, 4u);
  EXPECT_LE(point.repetitions, 6u);
  EXPECT_GT(calls, point.repetitions);  // a probe first, and short calls grouped
  EXPECT_DOUBLE_EQ(point.point.size, 50.0);
  EXPECT_GT(point.point.speed, 0.0);
  EXPECT_GE(point.point.interval, 0.0);
  EXPECT_GE(point.other_load, 0.0);
  EXPECT_LE(point.other_load, 1.0);
}

TEST(SpeedFunctionBenchmark, KernelsAndCommandsAreWorkloads) {
  EmulatedProcessor processor(1.0);
  for (const char* kernel : {"ge", "mm", "conv"}) {
    const auto work = share_workload(kernel, 16, 8);
    work(8, processor);  // the largest share runs
    work(1, processor);
  }
  share_workload("command:true {size}", 0, 1)(3, processor);
  EXPECT_THROW(share_workload("command:false {size}", 0, 1)(3, processor), std::invalid_argument);
  EXPECT_THROW(share_workload("command:true", 0, 1), std::invalid_argument);
  EXPECT_THROW(share_workload("lu", 16, 8), std::invalid_argument);
  EXPECT_THROW(share_workload("ge", 0, 8), std::invalid_argument);
}

// ge's share goes through every elimination step as the kernel's process
// does: one computation (and an emulated node's sleep after it) per step
// that has some of the share's rows below the pivot. Order 64: 4 rows are
// rows 0, 16, 32 and 48 of the matrix, below the pivot in steps 0 .. 47;
// 64 rows have one below every pivot (steps 0 .. 62).
TEST(SpeedFunctionBenchmark, EliminationComputesEveryStepOfTheShare) {
  const auto work = share_workload("ge", 64, 64);
  EmulatedProcessor small(1.0), large(1.0);
  work(4, small);
  work(64, large);
  EXPECT_EQ(small.computations(), 48u);
  EXPECT_EQ(large.computations(), 63u);
  // About 20 times the rows' work: the fastest of a few runs of each, so
  // that an interruption of one (a busy machine) does not decide it.
  double fastest_small = small.cpu_seconds(), fastest_large = large.cpu_seconds();
  for (int run = 0; run < 5; ++run) {
    EmulatedProcessor again_small(1.0), again_large(1.0);
    work(4, again_small);
    work(64, again_large);
    fastest_small = std::min(fastest_small, again_small.cpu_seconds());
    fastest_large = std::min(fastest_large, again_large.cpu_seconds());
  }
  EXPECT_GT(fastest_large, fastest_small);
}

TEST(SpeedFunctionBenchmark, RefusesBadRequests) {
  const ShareWorkload nothing = [](std::size_t, EmulatedProcessor&) {};
  EXPECT_THROW(measure_speed_point(nothing, 0, 1.0, {}), std::invalid_argument);
  EXPECT_THROW(measure_speed_point(nothing, 1, 1.5, {}), std::invalid_argument);
  PointPrecision bad;
  bad.relative_half_width = 0;
  EXPECT_THROW(measure_speed_point(nothing, 1, 1.0, bad), std::invalid_argument);
  EXPECT_DOUBLE_EQ(student_t_95(1), 12.706);
  EXPECT_DOUBLE_EQ(student_t_95(30), 2.042);
  EXPECT_DOUBLE_EQ(student_t_95(1000), 1.960);
  EXPECT_THROW(student_t_95(0), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::measure
