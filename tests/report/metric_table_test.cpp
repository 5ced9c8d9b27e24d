// The metric table: each metric is described once, and the terminal table and
// the JSON document written from it agree metric by metric.
#include "hetscale/report/metric_table.hpp"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/analysis/what_if.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/report/json_report.hpp"
#include "hetscale/report/table.hpp"

namespace hetscale::report {
namespace {

using nlohmann::json;

const std::string examples_dir = HETSCALE_EXAMPLES_DIR;

RunAnalysis example_analysis() { return analyze_run(read_run_record(examples_dir + "/run-hetero.json")); }

std::vector<std::vector<Metric>> every_list() {
  const auto analysis = example_analysis();
  const std::vector<double> speeds{1.0, 2.0, 4.0};
  return {heterogeneous_metrics(analysis.heterogeneous),
          energetic_system_metrics(analysis.energetic),
          energetic_node_metrics(analysis.energetic_nodes.front()),
          pop_metrics(analysis.pop),
          distribution_metrics(evaluate_distribution(speeds, speeds)),
          worsening_metrics(evaluate_worsening(speeds, 0.1))};
}

TEST(MetricTable, NamesAndKeysAreUniqueAndEveryMetricSaysWhereItComesFrom) {
  for (const auto& list : every_list()) {
    std::set<std::string> names, keys;
    for (const auto& metric : list) {
      EXPECT_TRUE(names.insert(metric.name).second) << metric.name;
      EXPECT_TRUE(keys.insert(metric.key).second) << metric.key;
      EXPECT_FALSE(metric.source.empty()) << metric.name;
      EXPECT_EQ(metric.key.find(' '), std::string::npos) << metric.key;
    }
  }
}

TEST(MetricTable, TextFollowsTheFormat) {
  EXPECT_EQ(metric_text({"a", "a", 0.123456, MetricFormat::ratio, "x"}), "0.1235");
  EXPECT_EQ(metric_text({"a", "a", 1234.5678, MetricFormat::seconds, "x"}), "1234.57");
  EXPECT_EQ(metric_text({"a", "a", 1234.5678, MetricFormat::time, "x"}), "1234.57");
  EXPECT_EQ(metric_text({"a", "a", std::nullopt, MetricFormat::ratio, "x"}), "-");
  EXPECT_EQ(metric_heading({"t_n", "t_n", 1.0, MetricFormat::seconds, "x"}), "t_n (s)");
  EXPECT_EQ(metric_heading({"T_n", "T_n", 1.0, MetricFormat::time, "x"}), "T_n");
}

// Every metric of a run is in the table (name, text, source on one line) and
// in the JSON (its key, its value to the bit).
TEST(MetricTable, TableAndJsonOfARunShowTheSameMetrics) {
  const auto analysis = example_analysis();
  const std::string table = analysis_table(analysis);
  const json document = json::parse(analysis_json(analysis));
  const std::vector<std::pair<std::string, std::vector<Metric>>> blocks{
      {"heterogeneous", heterogeneous_metrics(analysis.heterogeneous)},
      {"energetic", energetic_system_metrics(analysis.energetic)},
      {"pop", pop_metrics(analysis.pop)}};
  for (const auto& [block, metrics] : blocks)
    for (const auto& metric : metrics) {
      ASSERT_TRUE(document.at(block).contains(metric.key)) << block << "." << metric.key;
      EXPECT_EQ(document.at(block).at(metric.key).get<double>(), *metric.value) << metric.key;
      bool found = false;
      std::size_t start = 0;
      while (!found && start < table.size()) {
        const auto end = table.find('\n', start);
        const std::string line = table.substr(start, end - start);
        found = line.rfind(metric_heading(metric) + " ", 0) == 0 &&
                line.find(" " + metric_text(metric) + "  " + metric.source) != std::string::npos;
        start = end == std::string::npos ? table.size() : end + 1;
      }
      EXPECT_TRUE(found) << metric.name << " not in the table:\n" << table;
    }
  const auto& nodes = document.at("energetic").at("nodes");
  ASSERT_EQ(nodes.size(), analysis.energetic_nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (const auto& metric : energetic_node_metrics(analysis.energetic_nodes[i])) {
      ASSERT_TRUE(nodes[i].contains(metric.key)) << metric.key;
      if (metric.value)
        EXPECT_EQ(nodes[i].at(metric.key).get<double>(), *metric.value) << metric.key;
      else
        EXPECT_TRUE(nodes[i].at(metric.key).is_null()) << metric.key;
    }
}

}  // namespace
}  // namespace hetscale::report
