// Extra-P's text and JSON Lines formats: read as Extra-P reads them (its own
// test inputs, tests/empirical/data/extra-p), written so that they read back,
// and bad input refused with one line naming file, line and rule.
#include "hetscale/record/scaling_measurements.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/assertions.hpp"

namespace hetscale {
namespace {

const std::string extra_p_data = std::string(HETSCALE_EMPIRICAL_DATA_DIR) + "/extra-p/";

std::string TextError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_extra_p_text(text, "in.txt"); });
}
std::string LinesError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_extra_p_json_lines(text, "in.jsonl"); });
}

TEST(ExtraPText, ReadsRegionsMetricsAndRepetitions) {
  const auto m = read_scaling_measurements(extra_p_data + "one_parameter_1.txt");
  EXPECT_EQ(m.parameter, "x");
  ASSERT_EQ(m.series.size(), 1u);
  EXPECT_EQ(m.series[0].callpath, "compute");
  EXPECT_EQ(m.series[0].metric, "time");
  ASSERT_EQ(m.series[0].points.size(), 5u);
  EXPECT_EQ(m.series[0].points[0].x, 20.0);
  EXPECT_EQ(m.series[0].points[4].x, 60.0);
  ASSERT_EQ(m.series[0].points[0].values.size(), 6u);
  EXPECT_EQ(m.series[0].points[0].values[0], 82.00848518948744);
}

TEST(ExtraPText, ReadsAMetricSwitchWithoutANewRegionAndBarePoints) {
  const auto four = read_scaling_measurements(extra_p_data + "one_parameter_4.txt");
  ASSERT_EQ(four.series.size(), 2u);
  EXPECT_EQ(four.series[1].callpath, "compute");
  EXPECT_EQ(four.series[1].metric, "flops");
  const auto five = read_scaling_measurements(extra_p_data + "one_parameter_5.txt");
  EXPECT_EQ(five.series.size(), 4u);
  const auto seven = read_scaling_measurements(extra_p_data + "one_parameter_7.txt");
  EXPECT_EQ(seven.parameter, "p");
  ASSERT_EQ(seven.series.size(), 1u);
  EXPECT_EQ(seven.series[0].metric, "");  // no METRIC: Extra-P's Metric('')
  EXPECT_EQ(seven.series[0].points[4].x, 16000.0);
  // one_parameter_6: a short DATA line (four values) is four repetitions.
  const auto six = read_scaling_measurements(extra_p_data + "one_parameter_6.txt");
  EXPECT_EQ(six.series[1].points[4].values.size(), 4u);
}

TEST(ExtraPJsonLines, AccumulatesOneRepetitionALineAsExtraPDoes) {
  const auto lines = read_scaling_measurements(extra_p_data + "json_test_input.jsonl");
  const auto text = read_scaling_measurements(extra_p_data + "input_data_1p.txt");
  EXPECT_EQ(lines.parameter, "x");
  ASSERT_EQ(lines.series.size(), 1u);
  EXPECT_EQ(lines.series[0].callpath, "<root>");
  EXPECT_EQ(lines.series[0].metric, "metr");
  ASSERT_EQ(lines.series[0].points.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(lines.series[0].points[i].x, text.series[0].points[i].x);
    EXPECT_EQ(lines.series[0].points[i].values, text.series[0].points[i].values);
  }
}

TEST(ExtraPFormats, WhatIsWrittenReadsBackTheSame) {
  const auto original = read_scaling_measurements(extra_p_data + "one_parameter_5.txt");
  for (const auto& again : {parse_extra_p_json_lines(extra_p_json_lines(original), "written.jsonl"),
                            parse_extra_p_text(extra_p_text(original), "written.txt")}) {
    EXPECT_EQ(again.parameter, original.parameter);
    ASSERT_EQ(again.series.size(), original.series.size());
    for (std::size_t s = 0; s < original.series.size(); ++s) {
      EXPECT_EQ(again.series[s].callpath, original.series[s].callpath);
      EXPECT_EQ(again.series[s].metric, original.series[s].metric);
      ASSERT_EQ(again.series[s].points.size(), original.series[s].points.size());
      for (std::size_t i = 0; i < original.series[s].points.size(); ++i) {
        EXPECT_EQ(again.series[s].points[i].x, original.series[s].points[i].x);
        EXPECT_EQ(again.series[s].points[i].values, original.series[s].points[i].values);
      }
    }
  }
}

TEST(ExtraPFormats, JsonLinesAreOneObjectPerSeriesAndPoint) {
  const ScalingMeasurements m{"", "p", {{"t_par", "time", {{2, {1.5, 1.25}}, {4, {0.75}}}}}, {}};
  EXPECT_EQ(extra_p_json_lines(m),
            "{\"params\":{\"p\":2.0},\"callpath\":\"t_par\",\"metric\":\"time\",\"value\":[1.5,1.25]}\n"
            "{\"params\":{\"p\":4.0},\"callpath\":\"t_par\",\"metric\":\"time\",\"value\":[0.75]}\n");
}

TEST(ExtraPText, RefusesBadInputNamingTheLine) {
  // Extra-P's own negative case: no PARAMETER line.
  EXPECT_NE(testing_support::ErrorMessage([] { read_scaling_measurements(extra_p_data + "experiment_neg.txt"); })
                .find("POINTS before PARAMETER"),
            std::string::npos);
  const std::string head = "PARAMETER p\nPOINTS 2 4 8\nREGION r\n";
  EXPECT_NE(TextError("PARAMETER p q\n").find("line 1: a second parameter"), std::string::npos);
  EXPECT_NE(TextError("PARAMETER p\nPOINTS (2 1) (4 1)\n").find("more than one coordinate"), std::string::npos);
  EXPECT_NE(TextError("PARAMETER p\nPOINTS 2 0 4\n").find("line 2, POINTS: 0: a scale is a finite number > 0"),
            std::string::npos);
  EXPECT_NE(TextError("PARAMETER p\nPOINTS 2 2\n").find("point 2 given twice"), std::string::npos);
  EXPECT_NE(TextError(head + "DATA 1\nDATA 2\nDATA x\n").find("line 6, DATA: 'x' is not a number"),
            std::string::npos);
  EXPECT_NE(TextError(head + "DATA 1\nDATA 2\nDATA inf\n").find("must be finite"), std::string::npos);
  EXPECT_NE(TextError(head + "DATA 1\nDATA 2\nDATA 3\nDATA 4\n").find("line 7: more DATA lines than the 3 points"),
            std::string::npos);
  EXPECT_NE(TextError(head + "DATA 1\nDATA 2\n").find("has data at 2 of 3 points (none at p = 8)"),
            std::string::npos);
  EXPECT_NE(TextError(head + "EXPERIMENT e\n").find("line 4: unknown keyword 'EXPERIMENT'"), std::string::npos);
  EXPECT_NE(TextError("PARAMETER p\nPOINTS 2 4\nDATA 1\n").find("DATA before any REGION"), std::string::npos);
  EXPECT_NE(TextError(head + "DATA 1\nDATA 2\nDATA 3\nREGION r\nDATA 1\n").find("region 'r' metric '' given twice"),
            std::string::npos);
  EXPECT_NE(TextError("").find("in.txt: has no PARAMETER"), std::string::npos);
}

TEST(ExtraPJsonLines, RefusesBadInputNamingTheLineAndField) {
  const std::string good = "{\"params\":{\"p\":2},\"value\":1}\n";
  EXPECT_NE(LinesError(good + "{\"params\":{\"p\":4,\"q\":1},\"value\":1}\n").find("line 2, params"),
            std::string::npos);
  EXPECT_NE(LinesError(good + "{\"params\":{\"q\":4},\"value\":1}\n").find("parameter 'q', the lines before say 'p'"),
            std::string::npos);
  EXPECT_NE(LinesError(good + "{\"params\":{\"p\":-4},\"value\":1}\n").find("line 2, params.p: -4: a scale is"),
            std::string::npos);
  EXPECT_NE(LinesError(good + "{\"params\":{\"p\":4}}\n").find("line 2, value: is missing"), std::string::npos);
  EXPECT_NE(LinesError(good + "{\"params\":{\"p\":4},\"value\":[]}\n").find("line 2, value"), std::string::npos);
  EXPECT_NE(LinesError(good + "{\"params\":{\"p\":4},\"value\":1e999}\n").find("line 2"), std::string::npos);
  EXPECT_NE(LinesError(good + "[1]\n").find("line 2: is not a JSON object"), std::string::npos);
  EXPECT_NE(LinesError(good + "{\"params\":{\"p\":4},\"value\":1,\"metric\":\"m\"}\n")
                .find("has data at 1 of 2 points"),
            std::string::npos);
  EXPECT_NE(LinesError(good + "{\"params\":{\"p\":4},\"value\":1,\"callpath\":7}\n").find("line 2, callpath: must be a string"),
            std::string::npos);
  EXPECT_NE(LinesError("").find("has no data"), std::string::npos);
}

}  // namespace
}  // namespace hetscale
