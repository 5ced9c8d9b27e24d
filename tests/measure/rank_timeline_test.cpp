// A rank is one timeline (measure/rank_timeline.hpp): its parts add up to its
// elapsed time whatever its threads do, and a rank of one thread keeps that
// thread's own breakdown.
#include "hetscale/measure/rank_timeline.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace hetscale::measure {
namespace {

double sum(const RankTimes& rank) {
  return rank.t_comp() + rank.other + rank.blocked + rank.setup + rank.comm + rank.idle;
}

TEST(RankTimeline, OneThreadKeepsItsOwnBreakdown) {
  ThreadTimes main{true, 1.0, 0.5, 0.25, 0.125, 0.1, 0.2, 0.325};
  const auto rank = rank_timeline({main}, 2.5);
  EXPECT_DOUBLE_EQ(rank.on_cpu, 1.0);
  EXPECT_DOUBLE_EQ(rank.held, 0.5);
  EXPECT_DOUBLE_EQ(rank.other, 0.25);
  EXPECT_DOUBLE_EQ(rank.setup, 0.1);
  EXPECT_DOUBLE_EQ(rank.comm, 0.2);
  EXPECT_DOUBLE_EQ(rank.idle, 0.325);
  EXPECT_NEAR(rank.blocked, 0.125, 1e-12);
  EXPECT_NEAR(sum(rank), 2.5, 1e-12);
}

// MPI_THREAD_MULTIPLE: two threads in MPI at once, each 2.3 s of waiting in a
// 2.5 s run, after the main thread computed 0.2 s: summed, the waits were
// 4.6 s of a 2.5 s run; as one timeline they are 2.3 s.
TEST(RankTimeline, TwoThreadsInMpiAtOnceAreNotAddedUp) {
  ThreadTimes main{true, 0.2, 0, 0, 2.25, 0.05, 0, 0};
  ThreadTimes first{true, 0.0, 0, 0, 0, 0, 0.3, 2.0};
  ThreadTimes second{true, 0.0, 0, 0, 0, 0, 0.3, 2.0};
  const auto rank = rank_timeline({main, first, second}, 2.5);
  EXPECT_DOUBLE_EQ(rank.t_comp(), 0.2);
  EXPECT_EQ(rank.busiest_thread, 0u);
  EXPECT_NEAR(rank.comm + rank.idle, 2.3, 1e-12);
  EXPECT_NEAR(sum(rank), 2.5, 1e-12);
  EXPECT_GE(rank.blocked, 0.0);
}

// The main thread sleeps while a worker (which never calls MPI) computes 0.4 s
// on a CPU it shares: the rank computes 0.4 s and waits 0.4 s for a CPU.
TEST(RankTimeline, AWorkerComputesWhileTheMainThreadSleeps) {
  ThreadTimes main{true, 0.001, 0, 0, 0.8, 0.01, 0, 0.02};
  ThreadTimes worker{false, 0.4, 0, 0.4, 0, 0, 0, 0};
  const auto rank = rank_timeline({main, worker}, 0.831);
  EXPECT_DOUBLE_EQ(rank.t_comp(), 0.4);
  EXPECT_DOUBLE_EQ(rank.other, 0.4);
  EXPECT_EQ(rank.busiest_thread, 1u);
  EXPECT_NEAR(sum(rank), 0.831, 1e-12);
}

// A communication thread in MPI the whole run while the main thread computes
// the whole run: the MPI time is overlapped, none of it is lost.
TEST(RankTimeline, MpiWhileAnotherThreadComputesIsOverlapped) {
  ThreadTimes main{true, 3.0, 0, 0, 0, 0, 0, 0};
  ThreadTimes progress{true, 0.0, 0, 0, 0, 0, 0.5, 2.5};
  const auto rank = rank_timeline({main, progress}, 3.0);
  EXPECT_DOUBLE_EQ(rank.t_comp(), 3.0);
  EXPECT_DOUBLE_EQ(rank.comm + rank.idle + rank.blocked, 0.0);
}

// OpenMP's pool on two cores shared with another rank: each thread computes
// 1 s on a CPU and waits 1 s for one; the rank computes 1 s, not 2.
TEST(RankTimeline, ThreadsThatShareTheWorkCountOnce) {
  ThreadTimes main{true, 1.0, 0, 1.0, 0, 0, 0.01, 0.1};
  ThreadTimes pool{false, 0.98, 0, 1.02, 0, 0, 0, 0};
  const auto rank = rank_timeline({main, pool}, 2.11);
  EXPECT_DOUBLE_EQ(rank.t_comp(), 1.0);
  EXPECT_DOUBLE_EQ(rank.other, 1.0);
  EXPECT_NEAR(sum(rank), 2.11, 1e-12);
}

TEST(RankTimeline, NothingMeasuredIsBlockedAndBadElapsedIsRefused) {
  const auto rank = rank_timeline({}, 1.5);
  EXPECT_DOUBLE_EQ(rank.blocked, 1.5);
  EXPECT_FALSE(rank.any_thread);
  EXPECT_THROW(rank_timeline({}, -1.0), std::invalid_argument);
  // Parts longer than the elapsed time (a thread's clock read late) are cut to it.
  ThreadTimes late{true, 2.0, 0, 1.0, 0, 0, 0, 0.5};
  const auto cut = rank_timeline({late}, 2.0);
  EXPECT_NEAR(sum(cut), 2.0, 1e-12);
  EXPECT_NEAR(cut.t_comp() / cut.other, 2.0, 1e-12);
}

}  // namespace
}  // namespace hetscale::measure
