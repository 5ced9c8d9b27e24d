// Run records (schema "hetscale.run/1": per-node work and time breakdown,
// t_par, optional t_seq_ref) and timings CSV files (`procs,size,seconds`, for
// Majumdar 1999's serial-fraction fit). Bad input is an InputError whose what() is
// one line "SOURCE: FIELD: problem".
#include "hetscale/record/run_record.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hetscale/io/input_error.hpp"
#include "support/assertions.hpp"
#include "hetscale/record/timings.hpp"

namespace hetscale {
namespace {

// The what() of the InputError that parsing `text` throws ("" if none).
std::string RunError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_run_record(text, "r.json"); });
}

std::string TimingsError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_timings_csv(text, "t.csv"); });
}

// A record with one node whose fields are `node_fields`, t_par = 8.
std::string OneNodeRun(const std::string& node_fields) {
  return R"({"schema": "hetscale.run/1", "t_par": 8, "nodes": [{"name": "a", "work": 4, )" + node_fields + "}]}";
}

// ---------------------------------------------------------------- run record

// format: every field of a run record is read as written
TEST(RunRecordParse, AllFields) {
  const auto run = parse_run_record(R"({
    "schema": "hetscale.run/1",
    "label": "two workers",
    "context": {"mpi": "openmpi"},
    "t_par": 10,
    "t_seq_ref": 25,
    "nodes": [
      {"name": "a", "work": 30, "t_comp": 6, "t_comm": 1.5, "t_setup": 0.5, "t_idle": 1, "t_other": 1},
      {"name": "b", "work": 10, "t_comp": 7, "t_comm": 1, "t_setup": 0.25, "t_idle": 0.75, "t_other": 1}
    ],
    "server": {"name": "srv", "work": 0, "t_comp": 1, "t_comm": 8, "t_idle": 1}
  })",
                                    "r.json");
  EXPECT_EQ(run.source, "r.json");
  EXPECT_EQ(run.label, "two workers");
  EXPECT_EQ(run.t_par, 10.0);
  ASSERT_TRUE(run.t_seq_ref.has_value());
  EXPECT_EQ(*run.t_seq_ref, 25.0);
  ASSERT_EQ(run.nodes.size(), 2u);
  const auto& a = run.nodes[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.work, 30.0);
  EXPECT_EQ(a.t_comp, 6.0);
  EXPECT_EQ(a.t_comm, 1.5);
  EXPECT_EQ(a.t_setup, 0.5);
  EXPECT_EQ(a.t_idle, 1.0);
  EXPECT_EQ(a.t_other, 1.0);
  EXPECT_EQ(a.t_unaccounted, 0.0);  // 6 + 1.5 + 0.5 + 1 + 1 = 10 = t_par
  EXPECT_EQ(a.accounted_time(), 10.0);
  const auto& b = run.nodes[1];
  EXPECT_EQ(b.name, "b");
  EXPECT_EQ(b.work, 10.0);
  EXPECT_EQ(b.t_comp, 7.0);
  EXPECT_EQ(b.t_comm, 1.0);
  EXPECT_EQ(b.t_setup, 0.25);
  EXPECT_EQ(b.t_idle, 0.75);
  EXPECT_EQ(b.t_other, 1.0);
  EXPECT_EQ(b.t_unaccounted, 0.0);
  EXPECT_EQ(run.total_work(), 40.0);  // Clematis-Corana 1999 Eq 5: W = sum W_i
  EXPECT_EQ(run.context.notes_json, R"({"mpi":"openmpi"})");  // a key no part of the context holds
  ASSERT_TRUE(run.server.has_value());
  EXPECT_EQ(run.server->name, "srv");
}

// format: label, context, t_seq_ref and server are optional
TEST(RunRecordParse, OptionalFieldsMayBeLeftOut) {
  const auto run =
      parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 2, "nodes": [{"name": "a", "work": 1, "t_comp": 2}]})",
                       "r.json");
  EXPECT_EQ(run.label, "");
  EXPECT_FALSE(run.t_seq_ref.has_value());
  EXPECT_FALSE(run.server.has_value());
  EXPECT_TRUE(run.context.empty());
  ASSERT_EQ(run.nodes.size(), 1u);
  EXPECT_EQ(run.total_work(), 1.0);
}

// format: time fields left out are 0 (and the rest of t_par is idle, Clematis-Corana 1999 Eq 8)
TEST(RunRecordParse, MissingTimeFieldsAreZero) {
  const auto run = parse_run_record(OneNodeRun(R"("t_comp": 8)"), "r.json");
  const auto& node = run.nodes.at(0);
  EXPECT_EQ(node.t_comp, 8.0);
  EXPECT_EQ(node.t_comm, 0.0);
  EXPECT_EQ(node.t_setup, 0.0);
  EXPECT_EQ(node.t_idle, 0.0);
  EXPECT_EQ(node.t_other, 0.0);
  EXPECT_EQ(node.t_unaccounted, 0.0);
}

// format: a node's work left out is 0 (another node did the work)
TEST(RunRecordParse, MissingWorkIsZero) {
  const auto run = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 2,
    "nodes": [{"name": "a", "work": 3, "t_comp": 2}, {"name": "b", "t_comp": 2}]})",
                                    "r.json");
  EXPECT_EQ(run.nodes.at(1).work, 0.0);
  EXPECT_EQ(run.total_work(), 3.0);
}

// Clematis-Corana 1999 Eq 8: T_par = T_i, so what a node does not account for is idle
TEST(RunRecordIdleFill, PartsBelowTparAreFilledWithIdle) {
  // t_par = 8; parts 5 + 1 + 0.5 + 0.25 + 0.75 = 7.5, so 0.5 s is unaccounted
  const auto run = parse_run_record(
      OneNodeRun(R"("t_comp": 5, "t_comm": 1, "t_setup": 0.5, "t_idle": 0.25, "t_other": 0.75)"), "r.json");
  const auto& node = run.nodes.at(0);
  EXPECT_DOUBLE_EQ(node.t_unaccounted, 0.5);
  EXPECT_DOUBLE_EQ(node.t_idle, 0.25 + 0.5);
  EXPECT_DOUBLE_EQ(node.accounted_time(), 8.0);
  // the other parts are kept as written
  EXPECT_EQ(node.t_comp, 5.0);
  EXPECT_EQ(node.t_comm, 1.0);
  EXPECT_EQ(node.t_setup, 0.5);
  EXPECT_EQ(node.t_other, 0.75);
}

// Clematis-Corana 1999 Eq 8 on a node that gave only t_comp: all the rest is idle
TEST(RunRecordIdleFill, OnlyComputationGivenRestIsIdle) {
  const auto run = parse_run_record(OneNodeRun(R"("t_comp": 3)"), "r.json");
  EXPECT_DOUBLE_EQ(run.nodes.at(0).t_unaccounted, 5.0);  // 8 - 3
  EXPECT_DOUBLE_EQ(run.nodes.at(0).t_idle, 5.0);
}

// format: the server is read like a node, idle filled the same way
TEST(RunRecordIdleFill, ServerIsParsedAndFilled) {
  const auto run = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 8,
    "nodes": [{"name": "a", "work": 4, "t_comp": 8}],
    "server": {"name": "master", "t_comp": 0.5, "t_comm": 6}})",
                                    "r.json");
  ASSERT_TRUE(run.server.has_value());
  EXPECT_EQ(run.server->name, "master");
  EXPECT_EQ(run.server->work, 0.0);
  EXPECT_EQ(run.server->t_comp, 0.5);
  EXPECT_EQ(run.server->t_comm, 6.0);
  EXPECT_DOUBLE_EQ(run.server->t_unaccounted, 1.5);  // 8 - 0.5 - 6
  EXPECT_DOUBLE_EQ(run.server->t_idle, 1.5);
  // the server is reported beside the workers, not among them
  EXPECT_EQ(run.nodes.size(), 1u);
  EXPECT_EQ(run.total_work(), 4.0);
}

// format: parts may exceed t_par by up to 1 % (clock skew); nothing is filled then
TEST(RunRecordIdleFill, PartsWithinOnePercentAboveTparAccepted) {
  // t_par = 8; 8 + 0.0625 = 8.0625 is 0.78 % above, under 8.08
  const auto run = parse_run_record(OneNodeRun(R"("t_comp": 8, "t_comm": 0.0625)"), "r.json");
  const auto& node = run.nodes.at(0);
  EXPECT_EQ(node.t_unaccounted, 0.0);
  EXPECT_EQ(node.t_idle, 0.0);
  EXPECT_EQ(node.accounted_time(), 8.0625);
}

// format: parts more than 1 % above t_par are an input error
TEST(RunRecordErrors, PartsOverOnePercentAboveTparRejected) {
  // t_par = 8; 8 + 0.25 = 8.25 is 3.1 % above
  EXPECT_EQ(RunError(OneNodeRun(R"("t_comp": 8, "t_comm": 0.25)")),
            "r.json: nodes[0]: t_comp + t_comm + t_setup + t_idle + t_other + t_blocked = 8.25 s exceeds t_par = 8 s by more "
            "than 1 %; the parts of a node's time must add up to at most t_par");
  // 8.125 is 1.6 % above: still rejected
  EXPECT_NE(RunError(OneNodeRun(R"("t_comp": 8, "t_other": 0.125)")), "");
}

// format: a server's parts are checked against t_par too
TEST(RunRecordErrors, ServerPartsOverTparRejected) {
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 8,
    "nodes": [{"name": "a", "work": 4, "t_comp": 8}],
    "server": {"name": "master", "t_comm": 9}})"),
            "r.json: server: t_comp + t_comm + t_setup + t_idle + t_other + t_blocked = 9 s exceeds t_par = 8 s by more "
            "than 1 %; the parts of a node's time must add up to at most t_par");
}

// format: node names are unique
TEST(RunRecordErrors, DuplicateNodeNames) {
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 8,
    "nodes": [{"name": "a", "work": 1, "t_comp": 1}, {"name": "b", "work": 1, "t_comp": 1},
              {"name": "a", "work": 1, "t_comp": 1}]})"),
            "r.json: nodes[2].name: 'a' is given twice; node names must be unique");
}

// format: the analysis needs the work done: total work > 0
TEST(RunRecordErrors, TotalWorkZeroRejected) {
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 8,
    "nodes": [{"name": "a", "work": 0, "t_comp": 1}, {"name": "b", "t_comp": 1}]})"),
            "r.json: nodes: no node did any work (every `work` is 0 or missing); the analysis needs the work done");
}

// format: times and work are >= 0
TEST(RunRecordErrors, NegativeTimeOrWorkRejected) {
  EXPECT_EQ(RunError(OneNodeRun(R"("t_comp": 4, "t_comm": -1)")), "r.json: nodes[0].t_comm: must be >= 0, got -1");
  EXPECT_EQ(RunError(OneNodeRun(R"("t_comp": -0.5)")), "r.json: nodes[0].t_comp: must be >= 0, got -0.5");
  EXPECT_EQ(RunError(OneNodeRun(R"("t_other": -2)")), "r.json: nodes[0].t_other: must be >= 0, got -2");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 8, "nodes": [{"name": "a", "work": -4}]})"),
            "r.json: nodes[0].work: must be >= 0, got -4");
}

// format: t_par > 0; t_seq_ref > 0 when given
TEST(RunRecordErrors, TparZeroRejected) {
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 0, "nodes": [{"name": "a", "work": 1}]})"),
            "r.json: t_par: must be > 0, got 0");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "nodes": [{"name": "a", "work": 1}]})"),
            "r.json: t_par: missing (required)");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 1, "t_seq_ref": 0, "nodes": [{"name": "a", "work": 1}]})"),
            "r.json: t_seq_ref: must be > 0, got 0");
}

// format: context is a JSON object
TEST(RunRecordErrors, ContextMustBeAnObject) {
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 1, "context": ["mpi"], "nodes": [{"name": "a", "work": 1}]})"),
            "r.json: context: must be a JSON object, got array");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 1, "context": "mpi", "nodes": [{"name": "a", "work": 1}]})"),
            "r.json: context: must be a JSON object, got string");
}

// format: what no part of the context holds is kept as written (compact JSON), any fields allowed
TEST(RunRecordParse, ContextIsKept) {
  const auto run = parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 1,
    "context": {"cluster": {"nodes": 4, "names": ["x", "y"]}, "mpi": "openmpi 4.1"},
    "nodes": [{"name": "a", "work": 1}]})",
                                    "r.json");
  EXPECT_EQ(run.context.notes_json, R"({"cluster":{"names":["x","y"],"nodes":4},"mpi":"openmpi 4.1"})");
}

// format: unknown fields are refused, listing the allowed ones
TEST(RunRecordErrors, UnknownFieldRejected) {
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 1, "t_seq": 4, "nodes": [{"name": "a", "work": 1}]})"),
            "r.json: t_seq: unknown field; allowed here: schema, label, context, t_par, t_seq_ref, nodes, server");
  EXPECT_EQ(RunError(OneNodeRun(R"("t_compute": 1)")),
            "r.json: nodes[0].t_compute: unknown field; allowed here: name, work, t_comp, t_comm, t_setup, t_idle, "
            "t_other, t_blocked");
}

// format: the schema is "hetscale.run/1"
TEST(RunRecordErrors, SchemaChecked) {
  EXPECT_EQ(RunError(R"({"t_par": 1, "nodes": [{"name": "a", "work": 1}]})"),
            "r.json: schema: missing; expected \"hetscale.run/1\"");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.platform/1", "t_par": 1, "nodes": [{"name": "a", "work": 1}]})"),
            "r.json: schema: this is a platform (hetscale.platform/1), not a run record: give it as `--platform FILE`");
  // Another kind of hetscale's is said before any field the run record does not know.
  EXPECT_EQ(RunError(R"({"schema": "hetscale.fpm/1", "unit": "rows", "nodes": []})"),
            "r.json: schema: this is a speed model (hetscale.fpm/1), not a run record: read it with `hetscale model "
            "fpm` or `hetscale partition`, or give it to `hetscale kernel` as `--distribution fpm:FILE`");
}

// format: the top level is a JSON object with a non-empty array of nodes
TEST(RunRecordErrors, TopLevelAndNodesShape) {
  EXPECT_EQ(RunError("[1, 2]"), "r.json: (top level): must be a JSON object, got array");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 1, "nodes": []})"), "r.json: nodes: must not be empty");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 1, "nodes": [3]})"),
            "r.json: nodes[0]: must be a JSON object, got number");
}

// A number no double can hold is refused naming its field, wherever it is
TEST(RunRecordErrors, NumberOutsideTheRangeOfADoubleNamesItsField) {
  const std::string refused = "a number outside the range of a double (magnitude at most about 1.8e308): ";
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 1e999, "nodes": []})"),
            "r.json: t_par: " + refused + "number overflow parsing '1e999'");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "t_par": 8, "nodes": [{"name": "a"}, {"name": "b", "t_comp": -2E+309}]})"),
            "r.json: nodes[1].t_comp: " + refused + "number overflow parsing '-2E+309'");
  EXPECT_EQ(RunError(R"({"schema": "hetscale.run/1", "context": {"speeds": [1, [2, 1e400]]}})"),
            "r.json: context.speeds[1][1]: " + refused + "number overflow parsing '1e400'");
  EXPECT_EQ(RunError("1e999"), "r.json: (top level): " + refused + "number overflow parsing '1e999'");
}

// A file that cannot be opened is an InputError naming the path
TEST(RunRecordErrors, MissingFileIsNamed) {
  try {
    read_run_record("/nonexistent-hetscale-dir/run.json");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "/nonexistent-hetscale-dir/run.json: cannot be opened: No such file or directory");
  }
}

// ------------------------------------------------------------------ timings

// format: CSV with the header procs,size,seconds; # comments and blank lines skipped; lines counted
TEST(TimingsCsv, ParsesRowsSkippingCommentsAndBlankLines) {
  const auto timings = parse_timings_csv(
      "# synthetic\n"
      "procs,size,seconds\n"
      "\n"
      "1,1000,3\n"
      "  # another comment\n"
      " 4 , 8000 , 4.04 \r\n"
      "16,8e3,2.66\n",
      "t.csv");
  EXPECT_EQ(timings.source, "t.csv");
  ASSERT_EQ(timings.rows.size(), 3u);
  EXPECT_EQ(timings.rows[0].procs, 1u);
  EXPECT_EQ(timings.rows[0].size, 1000.0);
  EXPECT_EQ(timings.rows[0].seconds, 3.0);
  EXPECT_EQ(timings.rows[0].line, 4u);
  EXPECT_EQ(timings.rows[1].procs, 4u);
  EXPECT_EQ(timings.rows[1].size, 8000.0);
  EXPECT_EQ(timings.rows[1].seconds, 4.04);
  EXPECT_EQ(timings.rows[1].line, 6u);
  EXPECT_EQ(timings.rows[2].procs, 16u);
  EXPECT_EQ(timings.rows[2].size, 8000.0);
  EXPECT_EQ(timings.rows[2].seconds, 2.66);
  EXPECT_EQ(timings.rows[2].line, 7u);
}

// format: the header must be exactly procs,size,seconds
TEST(TimingsCsv, HeaderChecked) {
  EXPECT_EQ(TimingsError("procs,seconds,size\n1,2,3\n"),
            "t.csv: line 1: header is 'procs,seconds,size', expected 'procs,size,seconds'");
  EXPECT_EQ(TimingsError("# c\n1,1000,3\n"), "t.csv: line 2: header is '1,1000,3', expected 'procs,size,seconds'");
}

// format: procs is a whole number >= 1 (written 4 or 4.0)
TEST(TimingsCsv, ProcsMustBeWholeNumber) {
  EXPECT_EQ(TimingsError("procs,size,seconds\n1,1000,3\n2.5,1000,2\n"),
            "t.csv: line 3, procs: '2.5' must be a whole number >= 1");
  const auto timings = parse_timings_csv("procs,size,seconds\n4.0,1000,2\n", "t.csv");
  EXPECT_EQ(timings.rows.at(0).procs, 4u);
}

// format: every value is a finite number > 0
TEST(TimingsCsv, BadValuesNamed) {
  EXPECT_EQ(TimingsError("procs,size,seconds\n0,1000,3\n"), "t.csv: line 2, procs: '0' must be a finite number > 0");
  EXPECT_EQ(TimingsError("procs,size,seconds\n1,-5,3\n"), "t.csv: line 2, size: '-5' must be a finite number > 0");
  EXPECT_EQ(TimingsError("procs,size,seconds\n1,1000,abc\n"),
            "t.csv: line 2, seconds: 'abc' must be a finite number > 0");
  EXPECT_EQ(TimingsError("procs,size,seconds\n1,1000,\n"), "t.csv: line 2, seconds: '' must be a finite number > 0");
  EXPECT_EQ(TimingsError("procs,size,seconds\n1,1000,inf\n"),
            "t.csv: line 2, seconds: 'inf' must be a finite number > 0");
}

// format: three fields a row
TEST(TimingsCsv, WrongFieldCount) {
  EXPECT_EQ(TimingsError("procs,size,seconds\n1,1000\n"), "t.csv: line 2: has 2 fields, expected 3 (procs,size,seconds)");
  EXPECT_EQ(TimingsError("procs,size,seconds\n1,1000,3,4\n"),
            "t.csv: line 2: has 4 fields, expected 3 (procs,size,seconds)");
}

// format: an empty file (or only comments) has no header
TEST(TimingsCsv, EmptyFile) {
  EXPECT_EQ(TimingsError(""), "t.csv: is empty; expected the header 'procs,size,seconds' and rows");
  EXPECT_EQ(TimingsError("# nothing\n\n"), "t.csv: is empty; expected the header 'procs,size,seconds' and rows");
}

// format: a header needs rows after it
TEST(TimingsCsv, HeaderOnly) {
  EXPECT_EQ(TimingsError("procs,size,seconds\n# no rows\n"), "t.csv: has a header but no rows");
}

}  // namespace
}  // namespace hetscale
