// The optimizer's result, typed: what `hetscale optimize --json` writes reads
// back the same, older files without a context block still read, and what is
// not such a result is refused with the file named.
#include "hetscale/record/optimize_record.hpp"

#include <string>

#include <gtest/gtest.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"

namespace hetscale {
namespace {

const std::string golden_dir = HETSCALE_CLI_GOLDEN_DIR;            // tests/cli/golden
const std::string report_inputs_dir = HETSCALE_REPORT_INPUTS_DIR;  // tests/cli/report

OptimizeRecord one_ga_run() {
  OptimizeRecord record;
  record.context = ResultContext{"hetscale", "0.1.0", {{"program", "p.c"}, {"machine", "m.json"}}};
  record.program = "p.c";
  record.machine = "a machine";
  record.processors = {1, 4};
  record.plans = 16;
  record.solver = "ga tgga two-point";
  OptimizeLevel level;
  level.level = 1;
  level.procs = 4;
  level.alignment = 2;
  level.alignment_patterns = "a: row";
  level.t_comp = 0.25;
  level.t_comm = 0.125;
  level.structure = "scatter";
  level.redistributions = {{"a", "replicated", "row", "scatter", 0.125}};
  record.plan = {level, level};
  record.iterations = 3;
  record.later_pass = {level};
  record.time = 1.5;
  record.optimum = 1.25;
  record.ga = OptimizeGaSettings{"tgga", "two-point", 4, 0.5, 1.0, 2.0, 100, 9};
  record.evaluations = 40;
  record.generations = 2;
  record.best_fitness = {2.0, 1.5};
  record.mean_fitness = {3.0, 2.5};
  return record;
}

TEST(OptimizeRecord, AGaRunReadsBackTheSame) {
  const std::string written = optimize_record_json(one_ga_run());
  const OptimizeRecord read = parse_optimize_record(written, "run.json");
  EXPECT_EQ(optimize_record_json(read), written);
  ASSERT_TRUE(read.context.has_value());
  EXPECT_EQ(read.context->inputs.at(1).second, "m.json");
  EXPECT_EQ(read.plan.at(1).redistributions.at(0).structure, "scatter");
  EXPECT_EQ(read.later_pass.size(), 1u);
  EXPECT_FALSE(read.runs.has_value());
}

TEST(OptimizeRecord, RepeatedRunsReadBackTheSame) {
  OptimizeRecord record = one_ga_run();
  record.evaluations.reset();
  record.generations.reset();
  record.best_fitness.clear();
  record.mean_fitness.clear();
  record.runs = OptimizeRuns{5, 0.8, 10.5, 1.5, 200.0, 30.0, {2.0, 1.25}, {3.0, 2.0}};
  const std::string written = optimize_record_json(record);
  const OptimizeRecord read = parse_optimize_record(written, "runs.json");
  EXPECT_EQ(optimize_record_json(read), written);
  ASSERT_TRUE(read.runs.has_value());
  EXPECT_EQ(read.runs->runs, 5u);
  EXPECT_EQ(read.runs->mean_best_fitness, (std::vector<double>{2.0, 1.25}));
}

// What the command line wrote (a golden output) is what the record writes again.
TEST(OptimizeRecord, TheCommandLinesOutputReadsBackTheSame) {
  for (const char* name : {"optimize_h1_exact_json.txt", "optimize_h2_ga_memetic_runs5_json.txt"}) {
    const std::string text = io::read_text_file(golden_dir + "/" + name);
    const OptimizeRecord read = parse_optimize_record(text, name);
    EXPECT_EQ(optimize_record_json(read), text) << name;
    ASSERT_TRUE(read.context.has_value()) << name;
    EXPECT_EQ(read.context->tool, "hetscale");
  }
}

TEST(OptimizeRecord, AFileWithoutAContextBlockStillReads) {
  const auto read = parse_optimize_record(io::read_text_file(report_inputs_dir + "/optimize-h1-ga.json"), "old.json");
  EXPECT_FALSE(read.context.has_value());
  EXPECT_EQ(read.solver, "ga ssga one-point");
  EXPECT_EQ(read.plan.size(), 5u);
  EXPECT_FALSE(read.best_fitness.empty());
}

// Found by tests/fuzz (regressions/optimize_record): a processor count no int
// holds was converted to int (undefined behaviour). A count that is not a
// whole number an int holds reads as missing, in a list as in a field.
TEST(OptimizeRecord, ACountNoIntHoldsReadsAsMissing) {
  const auto read = parse_optimize_record(R"({"schema": "hetscale.optimize/1", "processors": [1, 4.2e33, 16],
      "plan": [{"level": -1, "procs": 1e300, "alignment": 2.5}, {"level": 2, "procs": 4.0, "alignment": 1}]})",
                                          "big.json");
  EXPECT_TRUE(read.processors.empty());
  ASSERT_EQ(read.plan.size(), 2u);
  EXPECT_EQ(read.plan[0].level, -1);
  EXPECT_EQ(read.plan[0].procs, 0);
  EXPECT_EQ(read.plan[0].alignment, 0);
  EXPECT_EQ(read.plan[1].procs, 4);
  EXPECT_EQ(
      parse_optimize_record(R"({"schema": "hetscale.optimize/1", "processors": [1, 4.0, 16]})", "ok.json").processors,
      (std::vector<int>{1, 4, 16}));
}

TEST(OptimizeRecord, RefusesWhatIsNotAnOptimizerResult) {
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {"[1, 2]", ""}, {"not json", ""}, {R"({"schema": "hetscale.run/1"})", "schema"}, {"{}", "schema"}}) {
    try {
      parse_optimize_record(text, "x.json");
      ADD_FAILURE() << text;
    } catch (const InputError& error) {
      EXPECT_EQ(error.source(), "x.json") << text;
      EXPECT_EQ(error.field(), field) << text;
    }
  }
}

}  // namespace
}  // namespace hetscale
