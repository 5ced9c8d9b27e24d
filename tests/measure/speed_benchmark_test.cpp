// The marked-speed benchmark and the emulated slower node: what holds on any
// machine, however busy. How far the emulated speed shows in the marked speed
// (half speed, half the Mflop/s) is measured by bench/emulated_speed (`make
// bench`): other load on a shared machine slows the two measurements unevenly.
#include "hetscale/measure/speed_benchmark.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <time.h>

#include "hetscale/measure/emulated_node.hpp"

namespace hetscale::measure {
namespace {

TEST(SpeedBenchmark, EveryKernelRunsItsTimeAndTheMarkedSpeedIsTheirAverage) {
  for (const double speed : {1.0, 0.5}) {
    const auto measurement = measure_local_speed(speed, 0.05);
    ASSERT_EQ(measurement.kernels.size(), 3u);
    double sum = 0.0;
    for (const auto& kernel : measurement.kernels) {
      EXPECT_GT(kernel.mflops, 0.0) << kernel.kernel;
      EXPECT_GE(kernel.seconds, 0.05) << kernel.kernel << " at speed " << speed;
      sum += kernel.mflops;
    }
    EXPECT_EQ(std::string(measurement.kernels[0].kernel), "elimination");
    EXPECT_EQ(std::string(measurement.kernels[1].kernel), "dgemm");
    EXPECT_EQ(std::string(measurement.kernels[2].kernel), "fft");
    EXPECT_DOUBLE_EQ(measurement.marked_mflops, sum / 3.0);
    EXPECT_DOUBLE_EQ(measurement.unit_computation_seconds, 1e-6 / measurement.kernels[0].mflops);
  }
  EXPECT_THROW(measure_local_speed(1.5, 0.05), std::invalid_argument);
  EXPECT_THROW(measure_local_speed(1.0, 0.0), std::invalid_argument);
}

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// A node of speed v takes at least 1/v times the CPU time it computed: it
// sleeps (1/v - 1) times that after computing, and other load can only add.
TEST(EmulatedProcessor, TakesAtLeastItsCpuTimeOverItsSpeed) {
  for (const double speed : {1.0, 0.5, 0.25}) {
    EmulatedProcessor processor(speed);
    const auto start = std::chrono::steady_clock::now();
    double sink = 0.0;
    processor.compute([&] {
      const double end = thread_cpu_seconds() + 0.02;
      while (thread_cpu_seconds() < end) sink += std::sqrt(sink + 1.0);
    });
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GE(processor.cpu_seconds(), 0.02) << "speed " << speed;
    EXPECT_GE(wall, processor.cpu_seconds() / speed - 1e-3) << "speed " << speed << " (sink " << sink << ")";
  }
}

TEST(EmulatedProcessor, RefusesSpeedsOutsideZeroToOne) {
  EXPECT_THROW(EmulatedProcessor(0.0), std::invalid_argument);
  EXPECT_THROW(EmulatedProcessor(1.01), std::invalid_argument);
  EXPECT_THROW(EmulatedProcessor(std::nan("")), std::invalid_argument);
  EXPECT_NO_THROW(EmulatedProcessor(1.0));
}

}  // namespace
}  // namespace hetscale::measure
