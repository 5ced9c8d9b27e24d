// The POP Centre of Excellence efficiency factors (load balance, communication
// efficiency, parallel efficiency), checked on hand-computed examples.
#include "hetscale/model/pop.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

namespace hetscale::model {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

// POP factors on four nodes with useful (computation) times 8, 6, 10, 4 s and T_par = 12.5 s:
//   mean useful time = (8 + 6 + 10 + 4) / 4 = 28 / 4 = 7 s, max useful time = 10 s
//   load balance             LB  = 7 / 10    = 0.7
//   communication efficiency CommE = 10 / 12.5 = 0.8
//   parallel efficiency      PE  = 0.7 x 0.8 = 0.56  (= mean / T_par = 7 / 12.5)
TEST(PopFactors, HandComputedFourNodeExample) {
  const std::vector<double> useful{8.0, 6.0, 10.0, 4.0};
  const double t_par = 12.5;
  const double lb = load_balance(useful);
  const double comm = communication_efficiency(useful, t_par);
  EXPECT_DOUBLE_EQ(lb, 0.7);
  EXPECT_DOUBLE_EQ(comm, 0.8);
  EXPECT_DOUBLE_EQ(parallel_efficiency(lb, comm), 0.56);
  EXPECT_DOUBLE_EQ(parallel_efficiency(lb, comm), 7.0 / 12.5);
}

// POP: the order of the nodes does not matter (mean and max are symmetric)
TEST(PopFactors, FactorsDoNotDependOnNodeOrder) {
  const std::vector<double> useful{4.0, 10.0, 6.0, 8.0};
  EXPECT_DOUBLE_EQ(load_balance(useful), 0.7);
  EXPECT_DOUBLE_EQ(communication_efficiency(useful, 12.5), 0.8);
}

// POP: equal useful times give load balance 1; no communication (T_par = useful time) gives 1
TEST(PopFactors, PerfectBalanceAndNoCommunicationGiveOne) {
  const std::vector<double> useful{3.5, 3.5, 3.5};
  EXPECT_DOUBLE_EQ(load_balance(useful), 1.0);
  EXPECT_DOUBLE_EQ(communication_efficiency(useful, 3.5), 1.0);
  EXPECT_DOUBLE_EQ(parallel_efficiency(1.0, 1.0), 1.0);
  // Perfect balance, but T_par = 5 s: CommE = 3.5 / 5 = 0.7 and PE = 0.7.
  EXPECT_DOUBLE_EQ(parallel_efficiency(load_balance(useful), communication_efficiency(useful, 5.0)), 0.7);
  const std::vector<double> one_node{2.0};
  EXPECT_DOUBLE_EQ(load_balance(one_node), 1.0);
}

// POP: a node with zero useful time lowers load balance (mean / max with a zero in the mean)
TEST(PopFactors, IdleNodeLowersLoadBalance) {
  // (6 + 0) / 2 = 3, max 6: LB = 0.5
  const std::vector<double> useful{6.0, 0.0};
  EXPECT_DOUBLE_EQ(load_balance(useful), 0.5);
}

// POP: all-zero useful times leave the factors undefined (0 / 0), so they throw
TEST(PopFactors, AllZeroUsefulTimesThrow) {
  const std::vector<double> zeros{0.0, 0.0, 0.0};
  EXPECT_THROW(load_balance(zeros), std::invalid_argument);
  EXPECT_THROW(communication_efficiency(zeros, 1.0), std::invalid_argument);
  EXPECT_THAT([&] { load_balance(zeros); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("longest useful time"), HasSubstr("got 0"))));
}

// POP: empty, negative or NaN useful times, T_par <= 0 and a load balance outside [0, 1] throw, naming the value
TEST(PopFactors, BadArgumentsThrowNamingTheValue) {
  const std::vector<double> empty;
  const std::vector<double> negative{1.0, -2.0};
  const std::vector<double> with_nan{1.0, std::numeric_limits<double>::quiet_NaN()};
  const std::vector<double> useful{8.0, 6.0};
  EXPECT_THROW(load_balance(empty), std::invalid_argument);
  EXPECT_THAT([&] { load_balance(negative); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("useful times[1]"), HasSubstr("-2"))));
  EXPECT_THAT([&] { load_balance(with_nan); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("useful times[1]"), HasSubstr("nan"))));
  EXPECT_THAT([&] { communication_efficiency(useful, 0.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("T_par"), HasSubstr("got 0"))));
  EXPECT_THAT([&] { communication_efficiency(useful, -1.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("T_par"), HasSubstr("-1"))));
  EXPECT_THAT([] { parallel_efficiency(1.2, 0.5); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("load balance"), HasSubstr("1.2"))));
  EXPECT_THAT([] { parallel_efficiency(0.5, -0.1); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("communication efficiency"), HasSubstr("-0.1"))));
}

// POP's hybrid model, a process of two threads over 10 s (20 CPU-seconds):
// useful 12, MPI 2, serialization 2 (a thread idle while the other ran
// serially), imbalance 3 (waiting at implicit barriers), scheduling 1:
//   serialization efficiency = 14 / 16 = 0.875
//   load balance             = 16 / 19
//   scheduling efficiency    = 19 / 20 = 0.95
//   OpenMP parallel efficiency = 14 / 20 = 0.7, their product
TEST(OpenMpFactors, HandComputedTwoThreadExample) {
  const auto factors = openmp_factors({12.0, 2.0, 3.0, 1.0, 2.0});
  EXPECT_DOUBLE_EQ(factors.serialization_efficiency, 0.875);
  EXPECT_DOUBLE_EQ(factors.load_balance, 16.0 / 19.0);
  EXPECT_DOUBLE_EQ(factors.scheduling_efficiency, 0.95);
  EXPECT_DOUBLE_EQ(factors.parallel_efficiency, 0.7);
  EXPECT_NEAR(factors.serialization_efficiency * factors.load_balance * factors.scheduling_efficiency,
              factors.parallel_efficiency, 1e-15);
}

// No time in the OpenMP runtime: every factor is 1.
TEST(OpenMpFactors, WithoutRuntimeTimeEveryFactorIsOne) {
  const auto factors = openmp_factors({5.0, 1.0, 0.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(factors.serialization_efficiency, 1.0);
  EXPECT_DOUBLE_EQ(factors.load_balance, 1.0);
  EXPECT_DOUBLE_EQ(factors.scheduling_efficiency, 1.0);
  EXPECT_DOUBLE_EQ(factors.parallel_efficiency, 1.0);
}

TEST(OpenMpFactors, NegativeTimesAndNothingUsefulAreMisuse) {
  EXPECT_THAT(
      [] {
        openmp_factors({1.0, 0.0, -1.0, 0.0, 0.0});
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("OpenMP imbalance time")));
  EXPECT_THAT(
      [] {
        openmp_factors({0.0, 0.0, 1.0, 0.0, 0.0});
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("useful plus MPI time")));
  EXPECT_THROW(openmp_factors({std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0, 0.0, 0.0}), std::invalid_argument);
}

// One device busy with kernels half the run, no transfers: TALP's docs
// example, parallel efficiency 0.50 = 1.00 x 1.00 x 0.50.
TEST(DeviceFactors, OneDeviceHalfTheRun) {
  const auto factors = device_factors({{5.0}, {5.0}, 10.0});
  EXPECT_DOUBLE_EQ(factors.load_balance, 1.0);
  EXPECT_DOUBLE_EQ(factors.communication_efficiency, 1.0);
  EXPECT_DOUBLE_EQ(factors.orchestration_efficiency, 0.5);
  EXPECT_DOUBLE_EQ(factors.parallel_efficiency, 0.5);
}

// Two devices: kernels 6 s and 3 s, active (kernels and copies) 8 s and 4 s,
// in a run of 10 s: load balance 9 / (2 x 6) = 0.75, communication
// 6 / 8 = 0.75, orchestration 8 / 10 = 0.8, their product 9 / 20 = 0.45.
TEST(DeviceFactors, TwoDevicesByHand) {
  const auto factors = device_factors({{6.0, 3.0}, {8.0, 4.0}, 10.0});
  EXPECT_DOUBLE_EQ(factors.load_balance, 0.75);
  EXPECT_DOUBLE_EQ(factors.communication_efficiency, 0.75);
  EXPECT_DOUBLE_EQ(factors.orchestration_efficiency, 0.8);
  EXPECT_DOUBLE_EQ(factors.parallel_efficiency, 0.45);
  EXPECT_NEAR(factors.load_balance * factors.communication_efficiency * factors.orchestration_efficiency,
              factors.parallel_efficiency, 1e-15);
}

TEST(DeviceFactors, ImpossibleTimesAreMisuse) {
  EXPECT_THAT(
      [] {
        device_factors({{6.0}, {5.0}, 10.0});
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("useful time above its active time")));
  EXPECT_THAT(
      [] {
        device_factors({{6.0}, {12.0}, 10.0});
      },
      ThrowsMessage<std::invalid_argument>(HasSubstr("active time above the elapsed time")));
  EXPECT_THROW(device_factors({{1.0, 2.0}, {2.0}, 10.0}), std::invalid_argument);
  EXPECT_THROW(device_factors({{}, {}, 10.0}), std::invalid_argument);
  EXPECT_THROW(device_factors({{0.0}, {0.0}, 10.0}), std::invalid_argument);
}

// Host CPUs: 6 s useful, 1 s in the OpenMP runtime, 3 s blocked in the
// device runtime: 7 / 10.
TEST(DeviceOffloadEfficiency, ByHand) {
  EXPECT_DOUBLE_EQ(device_offload_efficiency(6.0, 1.0, 3.0), 0.7);
  EXPECT_DOUBLE_EQ(device_offload_efficiency(6.0, 0.0, 0.0), 1.0);
  EXPECT_THROW(device_offload_efficiency(-1.0, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(device_offload_efficiency(0.0, 0.0, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::model
