// A trace's rank files checked as SimGrid 3.32 reads them, and a replay's
// log read into each rank's times (sim/trace_replay.hpp); the replay itself
// runs in the command's tests (tests/cli/simulate_tests.cmake).
#include "hetscale/sim/trace_replay.hpp"

#include <gtest/gtest.h>

#include "hetscale/io/input_error.hpp"

namespace hetscale::sim {
namespace {

Platform two_nodes() {
  Platform platform;
  platform.nodes.resize(2);
  platform.nodes[0].name = "fast";
  platform.nodes[0].speed = 1.0;
  platform.nodes[1].name = "slow";
  platform.nodes[1].speed = 0.5;
  return platform;
}

TEST(TraceCheck, CountsTheComputedFlops) {
  EXPECT_EQ(check_trace("0 init\n# a comment\n\n0 compute 1e9\n0 send 1 0 1000\n0 compute 2.5e8\n0 finalize\n", 0,
                        "rank-0.trace"),
            1.25e9);
}

TEST(TraceCheck, RefusesWhatSimGridWouldNotReplay) {
  const auto refused = [](const std::string& text, std::size_t rank) {
    try {
      check_trace(text, rank, "t");
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused("0 init\n1 compute 5\n", 0), "t: line 2: is for rank 1, in the file of rank 0");
  EXPECT_EQ(refused("0 compute 5\n", 0), "t: line 1: comes before the rank's init (its first action must be init)");
  EXPECT_EQ(refused("0 init\n0 waitany 1\n", 0),
            "t: line 2: 'waitany' is not an action SimGrid replays (MPI_Waitany, one-sided and I/O calls are not)");
  EXPECT_EQ(refused("0 init\n0 compute 5", 0), "t: line 2: is cut short (no new line)");
  EXPECT_EQ(refused("0 init\n0 compute -1\n", 0), "t: line 2: compute '-1': flops are a number >= 0");
  EXPECT_EQ(refused("\n# nothing\n", 0), "t: has no actions");
}

TEST(ReplayLog, SumsEachRanksActionsAndTakesTheLastSimulatedTime) {
  const std::string log =
      "[0.000000] [smpi_coll/INFO] Switch to algorithm ompi for collective bcast\n"
      "[fast:0:(1) 1.000000] ./src/smpi/internals/smpi_replay.cpp:71: [smpi_replay/VERBOSE] 0 compute 1e9 1.000000\n"
      "[slow:1:(2) 2.000000] [smpi_replay/VERBOSE] 1 compute 1e9 2.000000\n"
      "[fast:0:(1) 2.008010] [smpi_replay/VERBOSE] 0 send 1 0 1000000 1.008010\n"
      "[slow:1:(2) 2.008010] [smpi_replay/VERBOSE] 1 recv 0 0 1000000 0.008010\n"
      "[fast:0:(1) 2.008020] [smpi_replay/VERBOSE] 0 allreduce 8 0 0.000010\n"
      "[slow:1:(2) 2.008010] [smpi_replay/INFO] Simulation time 2.008010\n"
      "[fast:0:(1) 2.008020] [smpi_replay/INFO] Simulation time 2.008020\n";
  const auto replay = parse_replay_log(log, 2);
  EXPECT_EQ(replay.t_par, 2.00802);
  ASSERT_EQ(replay.ranks.size(), 2u);
  EXPECT_EQ(replay.ranks[0].compute, 1.0);
  EXPECT_NEAR(replay.ranks[0].mpi, 1.00802, 1e-12);
  EXPECT_EQ(replay.ranks[0].finish, 2.00802);
  EXPECT_EQ(replay.ranks[1].compute, 2.0);
  EXPECT_NEAR(replay.ranks[1].mpi, 0.00801, 1e-12);
  EXPECT_THROW(parse_replay_log("[0.000000] [smpi_coll/INFO] nothing\n", 2), std::runtime_error);
  // Lines of another shape are passed over.
  EXPECT_EQ(parse_replay_log("[h:0:(1) x] [smpi_replay/VERBOSE] zero compute 1 y\n"
                             "[h:0:(1) 1.0] [smpi_replay/INFO] Simulation time 1.5\n",
                             1)
                .t_par,
            1.5);
}

TEST(ReplayRecord, PartsAddUpToTheSimulatedTime) {
  TraceReplay replay;
  replay.t_par = 2.0;
  replay.ranks = {{1e9, 1.9, 1.0, 0.9}, {5e8, 2.0, 1.5, 0.5}};  // flops, finish, computing, in MPI
  const auto record = replay_record(replay, two_nodes(), "trace");
  ASSERT_EQ(record.nodes.size(), 2u);
  EXPECT_EQ(record.nodes[0].name, "fast");
  EXPECT_EQ(record.nodes[0].work, 1e9);
  for (const auto& node : record.nodes) EXPECT_NEAR(node.accounted_time(), 2.0, 1e-12);
}

TEST(ReplayRecord, RanksSharingAHostAreNamedByRankAndHost) {
  TraceReplay replay;
  replay.t_par = 1.0;
  replay.ranks = {{1e9, 1.0, 1.0, 0.0}, {1e9, 1.0, 1.0, 0.0}};
  Platform platform = two_nodes();
  platform.nodes[1] = platform.nodes[0];
  const auto record = replay_record(replay, platform, "trace");
  EXPECT_EQ(record.nodes[0].name, "rank-0@fast");
  EXPECT_EQ(record.nodes[1].name, "rank-1@fast");
}

TEST(ReplayLog, MpiTimeIsSplitByTheTransferModel) {
  // Rank 0's isend of 1e6 bytes completes in its wait (0.5 s); at 1e-5 s and
  // 1e7 bytes/s the transfer is 0.10001 s of it. Its allreduce of 8 bytes
  // moves 16: 1.0000016e-5 s of its 1 s.
  const std::string log =
      "[a:0:(1) 0.0] [smpi_replay/VERBOSE] 0 isend 1 3 1000000 0.000000\n"
      "[a:0:(1) 0.5] [smpi_replay/VERBOSE] 0 wait 0 1 3 0.500000\n"
      "[a:0:(1) 1.5] [smpi_replay/VERBOSE] 0 allreduce 8 0 1.000000\n"
      "[a:0:(1) 1.5] [smpi_replay/INFO] Simulation time 1.5\n";
  const auto replay = parse_replay_log(log, 2, {1e-5, 1e7});
  EXPECT_NEAR(replay.ranks[0].mpi, 1.5, 1e-12);
  EXPECT_NEAR(replay.ranks[0].transfer, 0.10001 + 1e-5 + 16.0 / 1e7, 1e-12);
  EXPECT_EQ(parse_replay_log(log, 2).ranks[0].transfer, 0.0);  // no model: all waiting
}

TEST(ReplayShares, FactorsTakeEachRankFromItsTracedShareToTheOneAsked) {
  // Traced evenly; asked 2:1.
  const auto factors = share_factors({5e8, 5e8}, {2.0, 1.0});
  ASSERT_EQ(factors.size(), 2u);
  EXPECT_NEAR(factors[0], 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(factors[1], 2.0 / 3.0, 1e-12);
  // Traced 3:1, asked even: the total work is kept.
  const auto back = share_factors({3.0, 1.0}, {1.0, 1.0});
  EXPECT_NEAR(3.0 * back[0] + 1.0 * back[1], 4.0, 1e-12);
  EXPECT_THROW(share_factors({1.0, 1.0}, {1.0}), InputError);
  EXPECT_THROW(share_factors({1.0, 1.0}, {1.0, 0.0}), InputError);
  EXPECT_THROW(share_factors({1.0, 0.0}, {1.0, 1.0}), InputError);  // nothing to rescale
}

// An even split traced while rank 1's CPU ran 1.5 times as long for the same
// work (its traced work 0.6 of the whole): from the split it ran with, each
// rank's own rate is kept (rank 1's 1/3 share costs 1.5 times rank 0's 1/3).
TEST(ReplayShares, FromTheSplitTheTraceRanWithEachRankKeepsItsRate) {
  const auto factors = share_factors({1.0, 1.5}, {2.0, 1.0}, {1.0, 1.0});
  EXPECT_NEAR(1.0 * factors[0], 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(1.5 * factors[1], 1.5 * 2.0 / 3.0, 1e-12);
  // From the traced work instead, rank 1's slowness would move work to rank 0.
  const auto from_work = share_factors({1.0, 1.5}, {2.0, 1.0});
  EXPECT_NEAR(1.0 * from_work[0], 2.5 * 2.0 / 3.0, 1e-12);
  EXPECT_THROW(share_factors({1.0, 1.0}, {1.0, 1.0}, {1.0}), InputError);
  EXPECT_THROW(share_factors({1.0, 1.0}, {1.0, 1.0}, {1.0, -1.0}), InputError);
}

TEST(ReplayShares, OnlyComputationIsRescaled) {
  EXPECT_EQ(rescaled_computation("0 init\n0 compute 1000\n0 send 1 0 1000\n0 compute 10\n", 1.5),
            "0 init\n0 compute 1500\n0 send 1 0 1000\n0 compute 15\n");
}

TEST(ReplayRepeat, ACopyTalksWithinItselfAndCollectivesSpanEveryCopy) {
  const std::string text =
      "1 init\n1 isend 0 3 100\n1 irecv -555 4 8\n1 wait 1 0 3\n1 wait -556 1 4\n1 allreduce 8 0\n"
      "1 allgatherv 8 8 16\n1 alltoallv 3 1 2 5 2 3\n1 finalize\n";
  EXPECT_EQ(repeated_trace(text, 1, 2, 2, 3),
            "5 init\n5 isend 4 3 100\n5 irecv -555 4 8\n5 wait 5 4 3\n5 wait -556 5 4\n5 allreduce 8 0\n"
            "5 allgatherv 8 8 16 8 16 8 16\n5 alltoallv 3 1 2 1 2 1 2 5 2 3 2 3 2 3\n5 finalize\n");
}

TEST(ReplayWhatIf, SpeedsPutEachRankOnANodeOfItsOwn) {
  Platform platform = two_nodes();
  platform.network.emplace();
  platform.network->latency_s = 1e-6;
  platform.network->bandwidth_Bps = 1e9;
  const auto placement = what_if_placement("speeds=1,0.5", platform, "", 4);
  ASSERT_EQ(placement.nodes.size(), 4u);
  EXPECT_EQ(placement.nodes[3].speed, 0.5);
  EXPECT_EQ(placement.nodes[2].name, "rank-2");
  EXPECT_TRUE(placement.network.has_value());
  EXPECT_THROW(what_if_placement("speed=1", platform, "", 2), InputError);
  EXPECT_THROW(what_if_placement("speeds=1,-1", platform, "", 2), InputError);
}

TEST(ReplayEfficiencyOf, AnEvenSplitOnSpeedsOneAndAHalfIsTwoThirds) {
  // 1e9 flops each, on 1 and 0.5 Gflop/s: 2 s; the 2e9 flops alone on the fast node: 2 s.
  TraceReplay replay;
  replay.t_par = 2.0;
  replay.ranks = {{1e9, 1.0, 1.0, 1.0}, {1e9, 2.0, 2.0, 0.0}};
  Platform placement = two_nodes();
  placement.reference_marked_speed = 1000.0;
  const auto efficiency = replay_efficiency(replay, placement);
  EXPECT_NEAR(efficiency.speedup, 1.0, 1e-12);
  EXPECT_NEAR(efficiency.max_speedup, 1.5, 1e-12);
  EXPECT_NEAR(efficiency.efficiency, 2.0 / 3.0, 1e-12);
  // Two ranks on one node of one core: each has half of it.
  placement.nodes[1] = placement.nodes[0];
  replay.t_par = 2.0;
  EXPECT_NEAR(replay_efficiency(replay, placement).efficiency, 1.0, 1e-12);
}

}  // namespace
}  // namespace hetscale::sim
