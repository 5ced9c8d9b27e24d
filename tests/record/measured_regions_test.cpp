// The regions of a measured run (record/measured_regions.hpp): named in the
// run's context, each read back as a run record of its own; a missing region
// names those there are; entries that name no region are passed over; a
// region whose record is not sound makes the run unreadable.
#include "hetscale/record/measured_regions.hpp"

#include <gtest/gtest.h>

#include <string>

#include "hetscale/io/input_error.hpp"

namespace hetscale {
namespace {

const std::string region_solve =
    R"({"schema": "hetscale.run/1", "label": "region solve", "t_par": 2, "t_seq_ref": 3,
        "context": {"region": "solve", "mpi_functions": []},
        "nodes": [{"name": "rank-0", "work": 1, "t_comp": 1, "t_idle": 1},
                  {"name": "rank-1", "work": 2, "t_comp": 2}]})";

RunRecord run_with_regions(const std::string& regions) {
  return parse_run_record(R"({"schema": "hetscale.run/1", "t_par": 5, "context": {"regions": )" + regions +
                              R"(}, "nodes": [{"name": "rank-0", "work": 1, "t_comp": 4}]})",
                          "run.json");
}

TEST(MeasuredRegions, EachRegionReadsBackAsARunRecord) {
  const auto run = run_with_regions(
      "[" + region_solve +
      R"(, {"schema": "hetscale.run/1", "t_par": 1, "context": {"region": "io"}, "nodes": [{"name": "rank-0"}]}])");
  EXPECT_EQ(region_names(run), (std::vector<std::string>{"solve", "io"}));
  const auto solve = region_record(run, "solve");
  EXPECT_EQ(solve.source, "run.json, region solve");
  EXPECT_EQ(solve.t_par, 2.0);
  ASSERT_EQ(solve.nodes.size(), 2u);
  EXPECT_EQ(solve.nodes[1].t_comp, 2.0);
}

TEST(MeasuredRegions, AMissingRegionNamesThoseThereAre) {
  const auto run = run_with_regions("[" + region_solve + "]");
  try {
    region_record(run, "io");
    FAIL() << "no region io";
  } catch (const InputError& error) {
    EXPECT_EQ(error.source(), "region");
    EXPECT_EQ(error.field(), "");
    EXPECT_EQ(error.problem(), "'io': no such region; the run run.json has 'solve'");
  }
  EXPECT_THROW(region_record(run_with_regions("[]"), "solve"), InputError);
}

TEST(MeasuredRegions, EntriesThatNameNoRegionArePassedOver) {
  const auto run = run_with_regions(R"([3, {"label": "x"}, {"context": {"region": 7}}, {"context": []}])");
  EXPECT_TRUE(region_names(run).empty());
  EXPECT_TRUE(region_names(parse_run_record(
                               R"({"schema": "hetscale.run/1", "t_par": 1, "nodes": [{"name": "a", "work": 1}]})",
                               "plain.json"))
                  .empty());
}

TEST(MeasuredRegions, AnUnsoundRegionIsTheRecordReadersError) {
  try {
    run_with_regions(R"([{"schema": "hetscale.run/1", "context": {"region": "bad"}, "nodes": []}])");
    FAIL() << "a region with no t_par was read";
  } catch (const InputError& error) {
    EXPECT_EQ(error.source(), "run.json, region bad");
    EXPECT_EQ(error.field(), "t_par");
  }
}

}  // namespace
}  // namespace hetscale
