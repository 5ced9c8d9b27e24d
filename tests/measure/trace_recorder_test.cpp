// A rank's time-independent trace (measure/trace_recorder.hpp): the lines
// SimGrid's replay reads, requests matched to their waits by the replay's
// key, receives from any source written with the sender that completed them.
#include "hetscale/measure/trace_recorder.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace hetscale::measure {
namespace {

// Everything the recorder wrote, once finished.
struct Written {
  std::string text;
  int pieces = 0;
  TraceRecorder::Sink sink() {
    return [this](std::string_view piece) {
      text += piece;
      ++pieces;
    };
  }
};

TEST(TraceRecorder, ComputationGoesBeforeTheNextActionInFlops) {
  Written out;
  TraceRecorder trace(1, out.sink());
  trace.computed(0.25);
  trace.computed(0.5);
  trace.send(0, 7, 1000);
  trace.computed(1e-9);  // too short for a line of its own: carried on
  trace.allreduce(8);
  trace.finish();
  EXPECT_EQ(out.text, "1 init\n1 compute 750000000\n1 send 0 7 1000\n1 allreduce 8 0\n1 finalize\n");
}

TEST(TraceRecorder, WaitsNameTheReplaysKeyOfTheirRequest) {
  Written out;
  TraceRecorder trace(0, out.sink());
  trace.isend(2, 5, 64, 11);
  trace.irecv(3, 6, 128, 12);
  trace.completed(12, 3, 6);
  trace.completed(11, 0, 0);  // a send's status says nothing: its key is its own
  trace.completed(99, 0, 0);  // not a request the trace holds (a collective's)
  trace.finish();
  EXPECT_EQ(out.text, "0 init\n0 isend 2 5 64\n0 irecv 3 6 128\n0 wait 3 0 6\n0 wait 0 2 5\n0 finalize\n");
}

TEST(TraceRecorder, AReceiveFromAnySourceIsWrittenWithItsSender) {
  Written out;
  TraceRecorder trace(0, out.sink());
  trace.irecv(TraceRecorder::any_source, TraceRecorder::any_tag, 8, 1);
  trace.computed(1.0);
  trace.completed(1, 2, 44);
  trace.finish();
  EXPECT_NE(out.text.find("0 irecv 2           44          8\n"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("0 wait 2 0 44\n"), std::string::npos) << out.text;
}

TEST(TraceRecorder, AnOpenReceiveHoldsTheTextBackUntilItCompletes) {
  Written out;
  TraceRecorder trace(0, out.sink(), 64);  // give text away every 64 bytes
  trace.irecv(TraceRecorder::any_source, 3, 8, 1);
  for (int i = 0; i < 20; ++i) trace.barrier();
  EXPECT_EQ(out.pieces, 1);  // "0 init" only: the receive's line is still open
  trace.completed(1, 1, 3);
  trace.barrier();
  EXPECT_GE(out.pieces, 2);
  trace.finish();
  EXPECT_NE(out.text.find("0 irecv 1           3           8\n"), std::string::npos) << out.text;
}

TEST(TraceRecorder, AReceiveOpenTooLongIsGivenUpAsAnySource) {
  Written out;
  TraceRecorder trace(0, out.sink(), 64, 128);  // keep a line open for 128 bytes at most
  trace.irecv(TraceRecorder::any_source, 3, 8, 1);
  for (int i = 0; i < 40; ++i) trace.barrier();
  trace.completed(1, 1, 3);
  trace.finish();
  // Written as any source, its wait keyed as SimGrid keys it (any source - 1).
  EXPECT_NE(out.text.find("0 irecv -555        3           8\n"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("0 wait -556 0 3\n"), std::string::npos) << out.text;
}

TEST(TraceRecorder, PersistentRequestsWriteEachStartAndKeepTheirKey) {
  Written out;
  TraceRecorder trace(1, out.sink());
  trace.persistent(5, true, 0, 9, 4000);
  trace.persistent(6, false, 0, 9, 4000);
  for (int i = 0; i < 2; ++i) {
    trace.start(6);
    trace.start(5);
    trace.completed(6, 0, 9);
    trace.completed(5, 1, 9);
  }
  trace.freed(5);
  trace.start(5);  // freed: nothing
  trace.finish();
  const std::string round = "1 irecv 0 9 4000\n1 isend 0 9 4000\n1 wait 0 1 9\n1 wait 1 0 9\n";
  EXPECT_EQ(out.text, "1 init\n" + round + round + "1 finalize\n");
}

TEST(TraceRecorder, CollectivesInTheReplaysWords) {
  Written out;
  TraceRecorder trace(0, out.sink());
  trace.bcast(100, 1);
  trace.reduce(8, 0);
  trace.scan(16, true);
  trace.alltoall(10, 10);
  trace.alltoallv({1, 2, 3}, {4, 5, 6});
  trace.gather(10, 30, 0, false);
  trace.gatherv(10, {10, 20, 30}, 0, true);
  trace.scatterv({1, 2, 3}, 1, 0);
  trace.reduce_scatter({8, 8, 8});
  trace.finish();
  EXPECT_EQ(out.text,
            "0 init\n0 bcast 100 1\n0 reduce 8 0 0\n0 exscan 16 0\n0 alltoall 10 10\n0 alltoallv 6 1 2 3 15 4 5 6\n"
            "0 gather 10 30 0\n0 allgatherv 10 10 20 30\n0 scatterv 1 2 3 1 0\n0 reducescatter 8 8 8 0\n"
            "0 finalize\n");
}

TEST(TraceRecorder, ACollectiveOfFewerRanksGoesThroughItsFirstMember) {
  Written first, other;
  TraceRecorder leader(2, first.sink()), member(5, other.sink());
  leader.subgroup({2, 5, 7}, 8, 16);
  member.subgroup({2, 5, 7}, 8, 16);
  leader.finish();
  member.finish();
  const std::string tag = std::to_string(TraceRecorder::subgroup_tag);
  EXPECT_EQ(first.text, "2 init\n2 recv 5 " + tag + " -1\n2 recv 7 " + tag + " -1\n2 send 5 " + tag + " 16\n2 send 7 " +
                            tag + " 16\n2 finalize\n");
  EXPECT_EQ(other.text, "5 init\n5 send 2 " + tag + " 8\n5 recv 2 " + tag + " -1\n5 finalize\n");
  TraceRecorder outsider(3, first.sink());
  EXPECT_THROW(outsider.subgroup({2, 5}, 1, 1), std::invalid_argument);
}

TEST(TraceRecorder, MisuseIsRefused) {
  Written out;
  EXPECT_THROW(TraceRecorder(-1, out.sink()), std::invalid_argument);
  EXPECT_THROW(TraceRecorder(0, nullptr), std::invalid_argument);
  TraceRecorder trace(0, out.sink());
  trace.finish();
  EXPECT_THROW(trace.barrier(), std::logic_error);
}

}  // namespace
}  // namespace hetscale::measure
