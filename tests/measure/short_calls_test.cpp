// Runs of short MPI calls (measure/short_calls.hpp): which calls are timed,
// how the counted ones' time is split, and what a break costs.
#include "hetscale/measure/short_calls.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <tuple>

namespace hetscale::measure {
namespace {

// Ticks of 1 ns: short under 2,000; runs begin after 4 timed calls, at most
// 16; one call in 8 timed.
ShortCalls two_functions() { return ShortCalls(2000.0, 2, 4, 16, 8); }

void into_a_run(ShortCalls& calls) {
  for (int k = 0; k < 4; ++k) calls.timed(0, 300.0, 50.0, false);
  ASSERT_TRUE(calls.in_run());
}

// What split() charged, by function: ticks and calls.
struct Charged {
  std::map<std::size_t, std::pair<double, double>> by_function;
  double rest = 0.0, rest_on_cpu = 0.0;
};
// `on_cpu`: of the interval on a CPU (all of it unless given).
Charged split(ShortCalls& calls, double interval, double on_cpu = -1.0) {
  Charged charged;
  const auto rest =
      calls.split(interval, on_cpu < 0.0 ? interval : on_cpu, [&](std::size_t f, double ticks, double count, double) {
        charged.by_function[f].first += ticks;
        charged.by_function[f].second += count;
      });
  charged.rest = rest.ticks;
  charged.rest_on_cpu = rest.on_cpu;
  return charged;
}

TEST(ShortCalls, ARunBeginsAfterTheNeededShortCallsAndTimesOneCallInEightAtRandom) {
  auto calls = two_functions();
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(calls.time_call(0));
    calls.timed(0, 300.0, 50.0, false);
  }
  EXPECT_FALSE(calls.in_run());
  calls.timed(0, 300.0, 50.0, false);
  ASSERT_TRUE(calls.in_run());
  int timed = 0;
  for (int k = 0; k < 8000; ++k) timed += calls.time_call(0) ? 1 : 0;
  EXPECT_NEAR(timed, 1000, 100);
}

TEST(ShortCalls, ALongCallALongComputationOrALeftCpuEndsTheStreak) {
  for (const auto& [call, computation, left] :
       {std::tuple{2500.0, 50.0, false}, std::tuple{300.0, 2500.0, false}, std::tuple{300.0, 50.0, true}}) {
    auto calls = two_functions();
    for (int k = 0; k < 3; ++k) calls.timed(0, 300.0, 50.0, false);
    calls.timed(0, call, computation, left);
    EXPECT_FALSE(calls.in_run());
    for (int k = 0; k < 3; ++k) calls.timed(0, 300.0, 50.0, false);
    EXPECT_FALSE(calls.in_run()) << "the streak starts again from 0";
    calls.timed(0, 300.0, 50.0, false);
    EXPECT_TRUE(calls.in_run());
  }
}

TEST(ShortCalls, AFunctionsFirstCallIsTimedEvenInARun) {
  auto calls = two_functions();
  into_a_run(calls);
  for (int k = 0; k < 16; ++k) EXPECT_TRUE(calls.time_call(1));
}

// Counted calls get their function's mean over its timed calls (each new one
// weighs an eighth); the rest of the interval is computation.
TEST(ShortCalls, CountedCallsGetTheirFunctionsMeans) {
  auto calls = two_functions();
  calls.timed(0, 400.0, 50.0, false);
  calls.timed(1, 100.0, 50.0, false);
  calls.timed(0, 480.0, 50.0, false);  // mean 410
  calls.counted(0, 8.0);
  calls.counted(0, 8.0);
  calls.counted(1, 64.0);
  ASSERT_TRUE(calls.any_counted());
  const auto charged = split(calls, 1200.0);
  EXPECT_DOUBLE_EQ(charged.by_function.at(0).first, 820.0);
  EXPECT_DOUBLE_EQ(charged.by_function.at(0).second, 2.0);
  EXPECT_DOUBLE_EQ(charged.by_function.at(1).first, 100.0);
  EXPECT_DOUBLE_EQ(charged.rest, 280.0);
  EXPECT_FALSE(calls.any_counted());
  EXPECT_DOUBLE_EQ(calls.counted_calls(), 3.0);
  EXPECT_DOUBLE_EQ(calls.unsplit(), 0.0);
  EXPECT_DOUBLE_EQ(split(calls, 77.0).rest, 77.0) << "nothing counted: all computation";
}

// A thread that made its last calls: its counted calls get their means.
TEST(ShortCalls, CountedCallsLeftAtTheEndAreSettledAtTheirMeans) {
  auto calls = two_functions();
  calls.timed(0, 400.0, 50.0, false);
  calls.counted(0, 8.0);
  calls.counted(0, 8.0);
  double ticks = 0.0, count = 0.0, bytes = 0.0;
  calls.settle([&](std::size_t, double t, double c, double b) {
    ticks += t;
    count += c;
    bytes += b;
  });
  EXPECT_DOUBLE_EQ(ticks, 800.0);
  EXPECT_DOUBLE_EQ(count, 2.0);
  EXPECT_DOUBLE_EQ(bytes, 16.0);
  EXPECT_FALSE(calls.any_counted());
  EXPECT_DOUBLE_EQ(calls.counted_calls(), 2.0);
}

// Means longer than the interval are cut to it, and the cut is owed by the next interval.
TEST(ShortCalls, AMeanCutToItsIntervalIsCarried) {
  auto calls = two_functions();
  calls.timed(0, 300.0, 50.0, false);
  calls.counted(0, 0.0);
  EXPECT_DOUBLE_EQ(split(calls, 250.0).rest, 0.0);
  calls.counted(0, 0.0);
  const auto charged = split(calls, 450.0);
  EXPECT_DOUBLE_EQ(charged.by_function.at(0).first, 350.0);
  EXPECT_DOUBLE_EQ(charged.rest, 100.0);
}

TEST(ShortCalls, ABreakIsUnsplitEndsTheRunAndDoublesTheCallsNeeded) {
  auto calls = two_functions();
  into_a_run(calls);
  calls.counted(0, 0.0);
  calls.counted(0, 0.0);
  // 3 computations may take up to 6,000: 10,000 left by the calls' 600 is a break.
  EXPECT_DOUBLE_EQ(split(calls, 10600.0).rest, 10000.0);
  EXPECT_DOUBLE_EQ(calls.unsplit(), 10000.0);
  EXPECT_FALSE(calls.in_run());
  EXPECT_EQ(calls.needed(), 8u);
  for (int k = 0; k < 4; ++k) calls.timed(0, 300.0, 50.0, false);
  EXPECT_FALSE(calls.in_run());
  for (int k = 0; k < 4; ++k) calls.timed(0, 300.0, 50.0, false);
  EXPECT_TRUE(calls.in_run());
  calls.counted(0, 0.0);
  // The thread left its CPU: a break however short; of its 600 left by the
  // call's 300, the 200 on a CPU are unsplit (the 400 waiting for a CPU are
  // not computation whoever had them).
  split(calls, 900.0, 500.0);
  EXPECT_DOUBLE_EQ(calls.unsplit(), 10200.0);
  EXPECT_EQ(calls.needed(), 16u);
  calls.counted(0, 0.0);
  split(calls, 9000.0);
  EXPECT_EQ(calls.needed(), 16u) << "at most 16";
}

// With a sampler (every 1,000): a break's calls get what the sampler saw in
// them beyond their means, on a CPU in the share it saw; the computation
// the rest; unsplit grows by at most a period.
TEST(ShortCalls, ASampledBreakGivesTheCallsWhatTheSamplerSawInThem) {
  auto calls = two_functions();
  calls.sampled_every(1000.0);
  into_a_run(calls);
  EXPECT_TRUE(calls.in_run());
  calls.entering();
  calls.sample(1000.0, 1000.0);
  calls.sample(1000.0, 1000.0);
  calls.counted(0, 0.0);         // a call of 300 on average that waited about 2,000, spinning
  calls.sample(1000.0, 1000.0);  // computation
  calls.entering();
  calls.counted(0, 0.0);
  // A break: the calls get the 2,000 the sampler saw (their means' 600 and
  // 1,400 more); of the 8,600 left, 1,000 may be off.
  const auto spun = split(calls, 10600.0);
  EXPECT_DOUBLE_EQ(spun.by_function.at(0).first, 2000.0);
  EXPECT_DOUBLE_EQ(spun.rest, 8600.0);
  EXPECT_DOUBLE_EQ(spun.rest_on_cpu, 8600.0);
  EXPECT_DOUBLE_EQ(calls.unsplit(), 1000.0);
  EXPECT_FALSE(calls.in_run());
  // A call that waited off its CPU (a busy neighbour had it): the
  // computation keeps all the time on a CPU the calls' means leave.
  for (int k = 0; k < 8; ++k) calls.timed(0, 300.0, 50.0, false);
  ASSERT_TRUE(calls.in_run());
  calls.entering();
  calls.sample(1000.0, 0.0);
  calls.sample(1000.0, 0.0);
  calls.counted(0, 0.0);
  const auto waited = split(calls, 10300.0, 8300.0);
  EXPECT_DOUBLE_EQ(waited.by_function.at(0).first, 2000.0);
  EXPECT_DOUBLE_EQ(waited.rest, 8300.0);
  EXPECT_DOUBLE_EQ(waited.rest_on_cpu, 8000.0);
  EXPECT_DOUBLE_EQ(calls.unsplit(), 2000.0);
  // A break the sampler saw in computation.
  for (int k = 0; k < 16; ++k) calls.timed(0, 300.0, 50.0, false);
  ASSERT_TRUE(calls.in_run());
  calls.entering();
  calls.counted(0, 0.0);
  calls.sample(1000.0, 1000.0);  // no call under way
  calls.sample(1000.0, 1000.0);
  const auto computed = split(calls, 8300.0);
  EXPECT_DOUBLE_EQ(computed.by_function.at(0).first, 300.0);
  EXPECT_DOUBLE_EQ(computed.rest, 8000.0);
  EXPECT_DOUBLE_EQ(calls.unsplit(), 3000.0);
  // Seen beyond a break's interval (a look stands for a period): carried to the next break.
  for (int k = 0; k < 16; ++k) calls.timed(0, 300.0, 50.0, false);
  calls.entering();
  calls.sample(1000.0, 1000.0);
  calls.counted(0, 0.0);
  const auto short_wait = split(calls, 700.0, 600.0);
  EXPECT_DOUBLE_EQ(short_wait.by_function.at(0).first, 700.0);
  EXPECT_DOUBLE_EQ(short_wait.rest, 0.0);
  for (int k = 0; k < 16; ++k) calls.timed(0, 300.0, 50.0, false);
  calls.entering();
  calls.counted(0, 0.0);
  const auto next = split(calls, 5300.0);
  EXPECT_DOUBLE_EQ(next.by_function.at(0).first, 600.0) << "its mean and the 300 carried";
  EXPECT_DOUBLE_EQ(next.rest, 4700.0);
  EXPECT_THROW(calls.sampled_every(0.0), std::invalid_argument);
}

// A long run without a break halves the calls needed, down to the first count.
TEST(ShortCalls, ALongRunWithoutABreakHalvesTheCallsNeeded) {
  auto calls = two_functions();
  into_a_run(calls);
  for (int k = 0; k < 2; ++k) {
    calls.counted(0, 0.0);
    split(calls, 9000.0);
  }
  ASSERT_EQ(calls.needed(), 16u);
  const auto counted_calls = [&](int n) {
    for (int k = 0; k < n; ++k) {
      calls.counted(0, 0.0);
      split(calls, 400.0);
    }
  };
  counted_calls(127);
  EXPECT_EQ(calls.needed(), 16u);
  counted_calls(1);
  EXPECT_EQ(calls.needed(), 8u) << "after 8 x 16 counted calls";
  counted_calls(64);
  EXPECT_EQ(calls.needed(), 4u);
  counted_calls(1000);
  EXPECT_EQ(calls.needed(), 4u) << "never under the first count";
}

// A loop whose calls take 200 or 400 ticks in turn (a partner that is late
// every other call) and 50 of computation, timed as the interposer times it
// (one call in 32):
// the calls' total as split is within 3 % of the truth (the calls timed are
// chosen at random: a fixed stride would time only one of the two), and the
// parts add up exactly.
TEST(ShortCalls, ASteadyLoopIsSplitWithinAFewPercent) {
  ShortCalls calls(2000.0, 1);
  double truth = 0.0, as_split = 0.0, total = 0.0, split_total = 0.0;
  double since_boundary = 0.0;  // the interval since the last timed boundary
  const auto charge = [&](std::size_t, double ticks, double, double) { as_split += ticks; };
  for (int k = 0; k < 100000; ++k) {
    const double call = k % 2 == 0 ? 200.0 : 400.0, computation = 50.0;
    since_boundary += computation;
    total += computation + call;
    truth += call;
    if (calls.time_call(0)) {
      const double rest = calls.split(since_boundary, since_boundary, charge).ticks;
      split_total += since_boundary;
      calls.timed(0, call, rest, false);
      as_split += call;
      split_total += call;
      since_boundary = 0.0;
    } else {
      calls.counted(0, 8.0);
      since_boundary += call;
    }
  }
  calls.split(since_boundary, since_boundary, charge);
  split_total += since_boundary;
  EXPECT_NEAR(as_split / truth, 1.0, 0.03);
  EXPECT_DOUBLE_EQ(split_total, total);
  EXPECT_GT(calls.counted_calls(), 90000.0);
  EXPECT_DOUBLE_EQ(calls.unsplit(), 0.0);
}

TEST(ShortCalls, BadLimitsAreRefused) {
  EXPECT_THROW(ShortCalls(0.0, 1), std::invalid_argument);
  EXPECT_THROW(ShortCalls(1.0, 1, 0), std::invalid_argument);
  EXPECT_THROW(ShortCalls(1.0, 1, 32, 16), std::invalid_argument);
  EXPECT_THROW(ShortCalls(1.0, 1, 32, 64, 12), std::invalid_argument);
  EXPECT_THROW(ShortCalls(1.0, 1, 32, 64, 0), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::measure
