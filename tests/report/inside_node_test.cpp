// Inside the ranks: the tables and bars of OpenMP threads and devices, built
// from one analysis for analyze's text and the report's page. A rank's two
// threads (thread 1 held back as long as it worked: speed 0.5) and one device
// (kernels 1 s, copies 0.5 s, in a run of 2 s: idle 0.5 s); a rank of 20
// threads shows its slowest and fastest only.
#include "hetscale/report/inside_node.hpp"

#include <string>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "hetscale/record/run_record.hpp"

namespace hetscale::report {
namespace {

RunAnalysis Analysed(const std::string& second_rank_threads) {
  return analyze_run(parse_run_record(fmt::format(R"({{
    "schema": "hetscale.run/1", "t_par": 2,
    "nodes": [{{"name": "r0", "work": 1.5, "t_comp": 1.5, "t_idle": 0.5}},
              {{"name": "r1", "work": 1.5, "t_comp": 1.5, "t_idle": 0.5}}],
    "context": {{"program": "app",
      "openmp": {{"team": [2, 20], "useful": [1, 1], "in_regions": [1, 1],
                 "threads": [[{{"thread": 0, "work": 0.5, "held": 0}}, {{"thread": 1, "work": 0.5, "held": 0.5}}],
                             {}]}},
      "offload": {{"runtime_s": [1, 0], "runtime_other_s": [0, 0], "runtime_calls": [3, 0],
        "devices": [[{{"device": 0, "kernels": 2, "kernel_s": 1, "copies_to": 1, "bytes_to": 8,
                       "copies_from": 1, "bytes_from": 8, "copy_s": 0.5}}], []]}}}}
  }})",
                                                  second_rank_threads),
                                      "r.json"));
}

std::string Threads(int count) {
  std::string list = "[";
  for (int t = 0; t < count; ++t)
    list += fmt::format("{}{{\"thread\": {}, \"work\": 0.1, \"held\": {}}}", t ? ", " : "", t, t == 7 ? 0.3 : 0.0);
  return list + "]";
}

TEST(InsideNode, ThreadsAndDevicesAsTablesAndBars) {
  const auto analysis = Analysed(Threads(20));
  const auto tables = inside_node_tables(analysis);
  ASSERT_EQ(tables.size(), 3u);  // OpenMP factors, threads, devices
  const auto& [threads, thread_lines] = tables[1];
  // Rank r0's two threads, then r1's slowest (thread 7, 0.1 / 0.4) and fastest (thread 0).
  ASSERT_EQ(threads.rows.size(), 4u);
  EXPECT_EQ(threads.rows[1][1], "1");
  EXPECT_EQ(threads.rows[1][2], "0.5000");
  EXPECT_EQ(threads.rows[2][1], "7");
  EXPECT_EQ(threads.rows[2][2], "0.2500");
  EXPECT_EQ(threads.rows[3][1], "0");
  ASSERT_EQ(thread_lines.size(), 2u);
  EXPECT_NE(thread_lines[0].find("efficiency e = 0.6667"), std::string::npos) << thread_lines[0];
  EXPECT_NE(thread_lines[1].find("20 threads (slowest and fastest shown)"), std::string::npos) << thread_lines[1];
  const auto& [devices, device_lines] = tables[2];
  ASSERT_EQ(devices.rows.size(), 1u);
  EXPECT_EQ(devices.rows[0][9], "0.5");      // idle: 2 - 1 - 0.5
  EXPECT_EQ(devices.rows[0][13], "0.5000");  // parallel efficiency: 1 / (1 x 2)
  ASSERT_EQ(device_lines.size(), 1u);

  const auto figures = inside_node_figures(analysis, "run");
  ASSERT_EQ(figures.size(), 2u);
  ASSERT_TRUE(figures[0].bars && figures[1].bars);
  EXPECT_EQ(figures[0].id, "run-threads");
  EXPECT_EQ(figures[0].bars->categories.size(), 4u);
  EXPECT_EQ(figures[0].bars->values[1][1], 0.5);  // r0's thread 1 held back 0.5 s
  EXPECT_EQ(figures[1].id, "run-devices");
  EXPECT_EQ(figures[1].bars->values, (std::vector<std::vector<double>>{{1.0}, {0.5}, {0.5}}));
}

TEST(InsideNode, NothingInsideNothingShown) {
  const auto analysis = analyze_run(parse_run_record(
      R"({"schema": "hetscale.run/1", "t_par": 2, "nodes": [{"name": "r0", "work": 1, "t_comp": 1, "t_idle": 1}]})",
      "r.json"));
  EXPECT_TRUE(inside_node_tables(analysis).empty());
  EXPECT_TRUE(inside_node_figures(analysis, "run").empty());
}

}  // namespace
}  // namespace hetscale::report
