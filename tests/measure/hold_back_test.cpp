// Holding a thread back to an emulated speed (measure/hold_back.hpp): the
// computation takes c / v whether the thread waited for a CPU or slept.
#include "hetscale/measure/hold_back.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace hetscale::measure {
namespace {

TEST(HoldBack, OwesOneOverVMinusOneTimesTheComputation) {
  HoldBack hold(0.25, 0.0);
  EXPECT_DOUBLE_EQ(hold.computed(1.0, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(hold.due(), 3.0);  // 1 s on a CPU takes 4 s at a quarter of the speed
  hold.slept(3.0);
  EXPECT_DOUBLE_EQ(hold.owed(), 0.0);
}

// 8 ranks on 2 cores: 1 s on a CPU after waiting 2 s for one, at v = 0.25:
// the 2 s are paid from the 3 s owed, 1 s is left to sleep, no other load.
TEST(HoldBack, AWaitForACpuIsPaidFromWhatIsOwed) {
  HoldBack hold(0.25, 0.0);
  EXPECT_DOUBLE_EQ(hold.computed(1.0, 2.0), 2.0);
  EXPECT_DOUBLE_EQ(hold.due(), 1.0);
}

// Beyond what is owed the wait is other load: 1 s at v = 0.5 owes 1 s; a 1.5 s
// wait pays it, 0.5 s is other load, nothing is left to sleep.
TEST(HoldBack, AWaitBeyondWhatIsOwedIsOtherLoad) {
  HoldBack hold(0.5, 0.0);
  EXPECT_DOUBLE_EQ(hold.computed(1.0, 1.5), 1.0);
  EXPECT_DOUBLE_EQ(hold.due(), 0.0);
  HoldBack full_speed(1.0, 0.0);
  EXPECT_DOUBLE_EQ(full_speed.computed(1.0, 1.5), 0.0);  // no emulation: every wait is other load
}

// Under the quantum nothing is slept; the owed carries to the next segment,
// as does a sleep's overshoot (taken from what the next one owes).
TEST(HoldBack, SleepsOnceAQuantumIsOwedAndCarriesTheRest) {
  HoldBack hold(0.5, 100e-6);
  hold.computed(60e-6, 0.0);
  EXPECT_DOUBLE_EQ(hold.due(), 0.0);
  hold.computed(60e-6, 0.0);
  EXPECT_NEAR(hold.due(), 120e-6, 1e-15);
  hold.slept(150e-6);  // overslept by 30 us
  EXPECT_NEAR(hold.owed(), -30e-6, 1e-15);
  EXPECT_NEAR(hold.overslept(), 30e-6, 1e-15);
  EXPECT_DOUBLE_EQ(hold.computed(0.0, 10e-6), 0.0);  // nothing owed: a wait is other load
  hold.computed(130e-6, 0.0);
  EXPECT_NEAR(hold.due(), 100e-6, 1e-15);
  EXPECT_DOUBLE_EQ(hold.overslept(), 0.0);
}

// A sleep that overshoots near the end of a run (a woken thread waited 90 ms
// for a CPU on a busy machine): what no later computation paid back is other
// load, so the time held back is what the computation owed.
TEST(HoldBack, AnOvershootNotPaidBackIsNotComputation) {
  HoldBack hold(0.5, 0.0);
  hold.computed(0.100, 0.0);
  hold.slept(0.190);  // owed 0.100
  hold.computed(0.020, 0.0);
  const double held = 0.190;
  EXPECT_NEAR(hold.overslept(), 0.070, 1e-12);
  EXPECT_NEAR(held - hold.overslept(), 0.120, 1e-12);  // (1/v - 1) x 0.120 s on a CPU
  EXPECT_DOUBLE_EQ(hold.due(), 0.0);
}

TEST(HoldBack, ASpeedOutsideZeroToOneIsMisuse) {
  EXPECT_THROW(HoldBack(0.0, 0.0), std::invalid_argument);
  EXPECT_THROW(HoldBack(1.5, 0.0), std::invalid_argument);
  EXPECT_THROW(HoldBack(0.5, -1.0), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::measure
