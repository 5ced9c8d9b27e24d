// A rank's cores and device as processors of its offloaded work, by a speed
// model of both: the work each did from its busy time, and the model's split.
#include "hetscale/analysis/host_device_split.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"

namespace hetscale {
namespace {

using testing_support::RelNear;
using testing_support::ThrowsInvalidArgumentNaming;

// Cores at 100 units/s, a device at 300 units/s: constant speeds, so the
// work each did is busy time x speed and the balanced split is 1 : 3.
SpeedModel cores_and_device(bool with_device) {
  SpeedModel model;
  model.source = "m.json";
  model.nodes.push_back({"n:0", "", {{1.0, 100.0, 0.0}}, {}});
  if (with_device) model.nodes.push_back({"n:0:device-0", "openmp:0", {{1.0, 300.0, 0.0}}, {}});
  return model;
}

OffloadRank offloaded(double host_busy, double kernels, double copies) {
  OffloadRank rank;
  rank.node = "rank-0";
  rank.host_busy = host_busy;
  MeasuredDevice device;
  device.kernel_seconds = kernels;
  device.copy_seconds = copies;
  rank.devices.push_back(device);
  return rank;
}

TEST(HostDeviceSplit, UnitsInInvertsTheModelsTime) {
  const auto function = model::SpeedFunction({{100.0, 50.0, 0.0}, {1000.0, 200.0, 0.0}}, model::Interpolation::linear);
  for (const double units : {10.0, 100.0, 550.0, 1000.0, 4000.0})
    EXPECT_TRUE(RelNear(units_in(function, function.time(units)), units, 1e-6)) << units;
  EXPECT_EQ(units_in(function, 0.0), 0.0);
}

TEST(HostDeviceSplit, EvenWorkOnUnequalProcessorsIsSplitByTheirSpeeds) {
  // Each did 300 units: the cores in 3 s, the device in 1 s (0.8 kernels + 0.2 copies).
  const auto splits = host_device_splits({offloaded(3.0, 0.8, 0.2)}, cores_and_device(true));
  ASSERT_EQ(splits.size(), 1u);
  const auto& split = splits[0];
  EXPECT_TRUE(RelNear(split.host_units, 300.0, 1e-6));
  EXPECT_TRUE(RelNear(split.device_units, 300.0, 1e-6));
  EXPECT_EQ(split.now, 3.0);
  EXPECT_EQ(split.host_idle, 0.0);
  EXPECT_TRUE(RelNear(split.device_idle, 2.0, 1e-12));
  EXPECT_EQ(split.split_host, 150u);  // 600 units at 100 : 300
  EXPECT_EQ(split.split_device, 450u);
  EXPECT_TRUE(RelNear(split.split_makespan, 1.5, 1e-9));
  EXPECT_TRUE(RelNear(split.gain(), 2.0, 1e-9));
}

TEST(HostDeviceSplit, AModelWithoutTheRanksDeviceIsBadInput) {
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming([] { host_device_splits({offloaded(1.0, 1.0, 0.0)}, cores_and_device(false)); },
                                  {"m.json", "nodes", "no device node for rank 0", "bench fpm --device"}));
}

}  // namespace
}  // namespace hetscale
