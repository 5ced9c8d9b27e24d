// Chen et al. 2008 on measurements (Sections 4.4-4.5): the speed-efficiency trend
// line and the size that reaches a target E_s, psi between configurations
// (the paper's Tables 6, 9 and 11 from its Tables 5, 8 and 10), and the
// prediction of N' and psi' (Table 12) from communication costs.
#include "hetscale/analysis/isospeed.hpp"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "support/assertions.hpp"
#include "support/temp_folder.hpp"

#include <cmath>
#include <functional>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetscale/io/input_error.hpp"
#include "hetscale/model/isospeed.hpp"
#include "hetscale/record/comm_profile.hpp"

namespace hetscale {
namespace {

const std::string data_dir = HETSCALE_DATA_DIR;

using testing_support::ErrorMessage;

nlohmann::json PaperData() {
  std::ifstream in(data_dir + "/papers/seed001.json");
  return nlohmann::json::parse(in);
}

// A sweep on C = 1 Mflop/s with W = 1e6 flop at every N, so E_s = 1 / T:
// the points lie on whatever E_s(N) the test wants.
Sweep SweepOn(const std::vector<double>& sizes, double (*efficiency)(double)) {
  Sweep sweep;
  sweep.source = "s.json";
  sweep.kernel = "ge";
  sweep.configuration = "C";
  sweep.marked_speeds = {1.0};
  for (double n : sizes) sweep.points.push_back({n, 1e6, 1.0 / efficiency(n), 0.0, true, {}});
  return sweep;
}

double Quadratic(double n) { return 0.02 + 1.5e-3 * n - 1e-6 * n * n; }
double Cubic(double n) { return -0.05 + 1e-3 * n + 2e-6 * n * n - 3e-9 * n * n * n; }
double Linear(double n) { return n / 1000.0; }

// ------------------------------------------------------------------ trend line

// ----------------------------------------------------- refining the verified N

SweepPoint RunAt(double n, double efficiency) { return {n, 1e6, 1.0 / efficiency, 0.0, true, {}}; }

TEST(RefiningSize, InterpolatesBetweenTheMeasuredSizesAroundTheTarget) {
  const auto sweep = SweepOn({100, 200, 300, 400}, Linear);  // E_s = N / 1000
  // The trend line's N, 230, verified at E_s 0.2 (a slow run), 20 % below
  // 0.25: between 230 (0.2) and 300 (0.3), 230 + 0.05 / 0.1 x 70.
  EXPECT_EQ(choose_refining_size(sweep, {RunAt(230, 0.2)}, 0.25), 265.0);
}

TEST(RefiningSize, StopsWithinHalfTheToleranceOrWithoutACrossing) {
  const auto sweep = SweepOn({100, 200, 300, 400}, Linear);
  EXPECT_EQ(choose_refining_size(sweep, {RunAt(250, 0.26)}, 0.25), std::nullopt);  // 4 % off
  EXPECT_EQ(choose_refining_size(sweep, {RunAt(250, 0.2), RunAt(262, 0.256)}, 0.25), std::nullopt);
  EXPECT_EQ(choose_refining_size(sweep, {RunAt(420, 0.42)}, 0.5), std::nullopt);  // nothing reaches 0.5
  EXPECT_EQ(choose_refining_size(sweep, {}, 0.3), std::nullopt);
}

TEST(RefiningSize, RunsASweepPointsSizeAgainButNotAVerifiedOne) {
  const auto sweep = SweepOn({100, 200, 300, 400}, Linear);
  // 240 (0.2) to the sweep's 300 (0.3, on the target): 300, verified once.
  EXPECT_EQ(choose_refining_size(sweep, {RunAt(240, 0.2)}, 0.3), 300.0);
  // Verified at 300 already (a slow run there, 0.26): not again.
  EXPECT_EQ(choose_refining_size(sweep, {RunAt(240, 0.2), RunAt(300, 0.26), RunAt(330, 0.36)}, 0.3), std::nullopt);
}

TEST(RefiningSize, TakesTheCrossingNearestTheLastRunAndLeavesFailedChecksOut) {
  // Noisy: E_s crosses 0.3 three times.
  auto sweep = SweepOn({100, 200, 300, 400}, Linear);
  sweep.points[1] = RunAt(200, 0.35);
  sweep.points[2] = RunAt(300, 0.25);
  // The last run at 380 (0.45): the crossing beside it, 300 (0.25) to 380.
  EXPECT_EQ(choose_refining_size(sweep, {RunAt(380, 0.45)}, 0.3), 320.0);
  // A size whose check failed is not a measurement.
  sweep.points[2].check_passed = false;
  EXPECT_EQ(choose_refining_size(sweep, {RunAt(380, 0.45)}, 0.3), 180.0);  // 100 (0.1) to 200 (0.35)
}

// points exactly on a quadratic give it back, r^2 = 1
TEST(SpeedEfficiencyTrend, RecoversAnExactQuadratic) {
  const auto trend = fit_speed_efficiency_trend(SweepOn({100, 200, 300, 400, 500}, Quadratic), 2);
  ASSERT_EQ(trend.degree, 2u);
  ASSERT_EQ(trend.coefficients.size(), 3u);
  EXPECT_NEAR(trend.coefficients[0], 0.02, 1e-10);
  EXPECT_NEAR(trend.coefficients[1], 1.5e-3, 1e-12);
  EXPECT_NEAR(trend.coefficients[2], -1e-6, 1e-14);
  EXPECT_NEAR(trend.r_squared, 1.0, 1e-12);
  EXPECT_NEAR(trend_speed_efficiency(trend, 250), Quadratic(250), 1e-12);
}

// a cubic over large N (conditioning: N is scaled inside the fit)
TEST(SpeedEfficiencyTrend, RecoversAnExactCubicAtLargeSizes) {
  const std::vector<double> sizes{200, 300, 400, 500, 600, 700, 800};
  const auto trend = fit_speed_efficiency_trend(SweepOn(sizes, Cubic), 3);
  for (double n : {250.0, 550.0, 800.0}) EXPECT_NEAR(trend_speed_efficiency(trend, n), Cubic(n), 1e-10);
  EXPECT_NEAR(trend.coefficients[3], -3e-9, 1e-15);
  EXPECT_NEAR(trend.r_squared, 1.0, 1e-12);
}

// degree + 2 distinct sizes are needed: one more than the coefficients
TEST(SpeedEfficiencyTrend, TooFewSizesIsBadInputNamingTheSweep) {
  EXPECT_EQ(ErrorMessage([] {
              fit_speed_efficiency_trend(SweepOn({100, 200, 300}, Quadratic), 2);
            }),
            "s.json: points: the speed-efficiency trend needs at least 4 sizes for a degree-2 trend line, got 3");
  // A repeated size counts once.
  EXPECT_NE(ErrorMessage([] { fit_speed_efficiency_trend(SweepOn({100, 200, 300, 300}, Quadratic), 2); }), "");
  // A sweep made in memory (scale sweep) names its sizes.
  auto sweep = SweepOn({100, 200}, Linear);
  sweep.source.clear();
  EXPECT_EQ(ErrorMessage([&] { fit_speed_efficiency_trend(sweep, 1); }),
            "sizes: points: the speed-efficiency trend needs at least 3 sizes for a degree-1 trend line, got 2");
  EXPECT_EQ(ErrorMessage([] {
              fit_speed_efficiency_trend(SweepOn({1, 2, 3}, Linear), 0);
            }),
            "degree: must be a whole number from 1 to 6, got 0");
  EXPECT_EQ(ErrorMessage([] {
              fit_speed_efficiency_trend(SweepOn({1, 2, 3}, Linear), 7);
            }),
            "degree: must be a whole number from 1 to 6, got 7");
}

// a point whose numerical check failed is left out of the fit
TEST(SpeedEfficiencyTrend, FailedPointsAreLeftOut) {
  auto sweep = SweepOn({100, 200, 300, 400, 500}, Quadratic);
  sweep.points.push_back({250, 1e6, 1.0, 0.0, false, {}});  // E_s = 1, far off the curve
  const auto trend = fit_speed_efficiency_trend(sweep, 2);
  EXPECT_NEAR(trend.r_squared, 1.0, 1e-12);
  sweep.points.resize(3);
  sweep.points.push_back({250, 1e6, 1.0, 0.0, false, {}});
  EXPECT_NE(
      ErrorMessage([&] { fit_speed_efficiency_trend(sweep, 2); }).find("got 3 (distinct sizes whose check passed)"),
      std::string::npos);
}

// ------------------------------------------------------------------ target size

// E_s = N / 1000 swept on N = 100..500
TEST(TargetSize, SmallestWholeSizeReachingTheTarget) {
  const auto sweep = SweepOn({100, 200, 300, 400, 500}, Linear);
  const SweepTrend trend{1, {0.0, 1e-3}, 1.0};
  const auto within = find_target_size(sweep, trend, 0.3);
  EXPECT_EQ(within.speed_efficiency, 0.3);
  ASSERT_TRUE(within.size.has_value());
  EXPECT_EQ(*within.size, 300.0);
  EXPECT_FALSE(within.extrapolated);
  // Between whole sizes: 0.3005 is reached at N = 300.5, so 301.
  EXPECT_EQ(*find_target_size(sweep, trend, 0.3005).size, 301.0);
  // Beyond the sizes swept, up to twice the largest.
  const auto beyond = find_target_size(sweep, trend, 0.9);
  EXPECT_EQ(*beyond.size, 900.0);
  EXPECT_TRUE(beyond.extrapolated);
  // Already reached at the smallest size swept.
  EXPECT_EQ(*find_target_size(sweep, trend, 0.05).size, 100.0);
  // Never reached below 2 N_max = 1000.
  const SweepTrend flat{1, {0.2, 0.0}, 1.0};
  EXPECT_FALSE(find_target_size(sweep, flat, 0.3).size.has_value());
  EXPECT_FALSE(find_target_size(sweep, SweepTrend{1, {0.0, 0.5e-3}, 1.0}, 0.6).size.has_value());
}

TEST(TargetSize, TargetOutsideZeroOneIsBadInput) {
  const auto sweep = SweepOn({100, 200, 300}, Linear);
  const SweepTrend trend{1, {0.0, 1e-3}, 1.0};
  EXPECT_EQ(ErrorMessage([&] { find_target_size(sweep, trend, 1.5); }), "target: must be in (0, 1], got 1.5");
  EXPECT_EQ(ErrorMessage([&] { find_target_size(sweep, trend, 0.0); }), "target: must be in (0, 1], got 0");
  EXPECT_NE(ErrorMessage([&] { find_target_size(sweep, trend, std::nan("")); }), "");
  EXPECT_EQ(*find_target_size(SweepOn({100, 500}, Linear), trend, 1.0).size, 1000.0);
}

// Chen et al. 2008, Section 4.4.1: the paper read N ~ 310 (C2, Table 3) and ~ 480 (C4, Table 4)
// for E_s = 0.3 off its trend lines. Degrees 2 and 3 read 288-289 and 457-458 from
// the tables' own numbers (Table 3 already has E_s = 0.313 at N = 300); the straight
// line reads 305 and 475. docs/scalability.md discusses it.
TEST(TargetSize, PaperTables3And4) {
  struct Case {
    std::string file;
    std::vector<double> marked_speeds;
    double paper_size;
    double degree1, degree2, degree3;
  };
  const std::vector<Case> cases{{"table3.csv", {20.88, 20.88, 20.29}, 310, 305, 288, 289},
                                {"table4.csv", {20.88, 20.88, 20.29, 20.29, 20.29}, 480, 475, 457, 458}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const auto sweep = read_sweep_csv(data_dir + "/papers/seed001/" + c.file, "ge", c.marked_speeds, "C");
    const double expected[] = {c.degree1, c.degree2, c.degree3};
    for (std::size_t degree = 1; degree <= 3; ++degree) {
      const auto trend = fit_speed_efficiency_trend(sweep, degree);
      EXPECT_GT(trend.r_squared, 0.98);
      const auto target = find_target_size(sweep, trend, 0.3);
      ASSERT_TRUE(target.size.has_value());
      EXPECT_EQ(*target.size, expected[degree - 1]) << "degree " << degree;
      EXPECT_LT(std::abs(*target.size - c.paper_size) / c.paper_size, 0.08);
    }
  }
}

// ------------------------------------------------------------------ sweep CSV

TEST(SweepCsv, ReadsThePaperTableAndChecksW) {
  const auto sweep = read_sweep_csv(data_dir + "/papers/seed001/table4.csv", "ge", {102.63}, "C4");
  ASSERT_EQ(sweep.points.size(), 7u);
  EXPECT_EQ(sweep.points[4].size, 600.0);
  EXPECT_EQ(sweep.points[4].work, model::gaussian_elimination_workload(600));  // 1.44E+08 printed
  EXPECT_DOUBLE_EQ(sweep.points[4].seconds, 3.503558);
  EXPECT_NEAR(sweep.points[4].speed_efficiency(102.63), 0.39997, 1e-5);
  EXPECT_EQ(sweep.configuration, "C4");

  EXPECT_EQ(ErrorMessage([] { parse_sweep_csv("N,W,T_s\n100,661353,0.26\n", "t.csv", "mm", {62.05}, "C"); }),
            "t.csv: line 2: W = 661353 is not W(N) = 2000000 of kernel mm at N = 100 (0.5 % allowed); is the kernel "
            "right?");
  EXPECT_EQ(ErrorMessage([] { parse_sweep_csv("N,T_s\n100,0\n", "t.csv", "ge", {62.05}, "C"); }),
            "t.csv: line 2: T_s must be a number > 0, got '0'");
  EXPECT_EQ(ErrorMessage([] { parse_sweep_csv("N,T_s,T_ms\n", "t.csv", "ge", {62.05}, "C"); }),
            "t.csv: line 1: header is 'N,T_s,T_ms': needs the column N and one of T_ms or T_s (allowed: N, W, T_ms, "
            "T_s, speed, E_s)");
  EXPECT_EQ(ErrorMessage([] { parse_sweep_csv("N,T_s,x\n", "t.csv", "ge", {62.05}, "C"); }),
            "t.csv: line 1: unknown column 'x' in the header 'N,T_s,x'; allowed: N, W, T_ms, T_s, speed, E_s");
  EXPECT_EQ(ErrorMessage([] { parse_sweep_csv("N,T_s\n", "t.csv", "ge", {62.05}, "C"); }),
            "t.csv: has a header but no rows");
  EXPECT_EQ(ErrorMessage([] { parse_sweep_csv("N,T_s\n1,1\n", "t.csv", "fft", {62.05}, "C"); }),
            "kernel: unknown kernel 'fft'; kernels with a workload W(N): ge, mm, conv");
  EXPECT_EQ(ErrorMessage([] {
              parse_sweep_csv("N,T_s\n1,1\n", "t.csv", "ge", {62.05, -1}, "C");
            }),
            "marked-speed: item 2: must be a number > 0 (Mflop/s), got -1");
}

// read_sweep_file tells a JSON sweep from a CSV one by its content: the JSON
// carries what the options give, a CSV sweep needs --marked-speed and --kernel
TEST(SweepFile, JsonOrCsvByContent) {
  const testing_support::TempFolder folder;
  const auto table4 = data_dir + "/papers/seed001/table4.csv";
  const auto csv = read_sweep_file(table4, {"102.63", "ge", "", "", ""});
  EXPECT_EQ(csv.configuration, "table4");  // the file's stem
  EXPECT_EQ(csv.marked_speeds, std::vector<double>{102.63});
  EXPECT_EQ(csv.points.size(), 7u);
  EXPECT_EQ(read_sweep_file(table4, {"50,52.63", "ge", "C4", "", ""}).configuration, "C4");

  Sweep sweep = SweepOn({100, 200, 300}, Linear);
  const auto json = folder.write("c.json", "\n  " + sweep_json(sweep));
  const auto read = read_sweep_file(json, {});
  EXPECT_EQ(read.source, json);
  EXPECT_EQ(read.points.size(), 3u);
  EXPECT_EQ(read.configuration, "C");
}

TEST(SweepFile, OptionsThatDoNotApplyOrAreMissing) {
  const testing_support::TempFolder folder;
  const auto json = folder.write("c.json", sweep_json(SweepOn({100, 200, 300}, Linear)));
  EXPECT_EQ(ErrorMessage([&] {
              read_sweep_file(json, {"", "", "C9", "", ""});
            }),
            "configuration: applies to CSV sweeps only; " + json + " is a sweep file that carries it");
  EXPECT_EQ(ErrorMessage([&] {
              read_sweep_file(json, {"62", "ge", "", "", ""});
            }),
            "marked-speed: applies to CSV sweeps only; " + json + " is a sweep file that carries it");
  const auto csv = folder.write("c.csv", "N,T_s\n100,1\n");
  EXPECT_EQ(ErrorMessage([&] {
              read_sweep_file(csv, {"", "ge", "", "", ""});
            }),
            "marked-speed: is required for the CSV sweep " + csv +
                ": the configuration's marked speed C in Mflop/s (or one per process)");
  EXPECT_EQ(ErrorMessage([&] {
              read_sweep_file(csv, {"62", "", "", "", ""});
            }),
            "kernel: give either a kernel (ge, mm or conv) or a program of yours (W from its workload or a W column) "
            "for the CSV sweep " +
                csv);
  // the kernel is checked before the marked speeds
  EXPECT_EQ(ErrorMessage([&] {
              read_sweep_file(csv, {"0", "fft", "", "", ""});
            }),
            "kernel: unknown kernel 'fft'; kernels with a workload W(N): ge, mm, conv");
  EXPECT_EQ(ErrorMessage([&] {
              read_sweep_file(csv, {"62,0", "ge", "", "", ""});
            }),
            "marked-speed: item 2: must be > 0, got 0");
}

// ------------------------------------------------------------------ configurations and psi

// Chen et al. 2008, Tables 6, 9 and 11 from the shipped Tables 5, 8 and 10, against seed001.json
TEST(IsospeedPsi, ReproducesThePaperTables) {
  const auto paper = PaperData();
  const std::map<std::string, std::string> files{{"ge", "table5.csv"}, {"mm", "table8.csv"}, {"conv", "table10.csv"}};
  for (const auto& table : paper.at("isospeed_tables")) {
    const std::string kernel = table.at("kernel");
    SCOPED_TRACE(kernel);
    const auto configurations = read_configurations(data_dir + "/papers/seed001/" + files.at(kernel));
    const auto& printed = table.at("configurations");
    ASSERT_EQ(configurations.size(), printed.size());
    for (std::size_t i = 0; i < configurations.size(); ++i) {
      EXPECT_EQ(configurations[i].name, printed[i].at("name").get<std::string>());
      EXPECT_EQ(configurations[i].marked_speed, printed[i].at("marked_speed").get<double>());
      EXPECT_EQ(*configurations[i].size, printed[i].at("N").get<double>());
    }
    const auto psi = isospeed_psi(kernel, configurations);
    const auto paper_psi = table.at("psi").get<std::vector<double>>();
    ASSERT_EQ(psi.steps.size(), paper_psi.size());
    for (std::size_t i = 0; i < paper_psi.size(); ++i) {
      // One unit in the third decimal: the paper truncates some (0.2905 printed 0.290).
      EXPECT_NEAR(psi.steps[i].psi, paper_psi[i], 1e-3 + 1e-12) << psi.steps[i].from << " -> " << psi.steps[i].to;
      EXPECT_EQ(psi.steps[i].from, configurations[i].name);
      EXPECT_EQ(psi.steps[i].to, configurations[i + 1].name);
    }
  }
}

// The GE configurations run p = 3, 5, 9, 17, 33 (the server node counts two CPUs);
// MM and convolution one process per node
TEST(IsospeedPsi, ShippedConfigurationsCarryTheirProcesses) {
  const std::vector<std::size_t> ge{3, 5, 9, 17, 33}, mm{2, 4, 8, 16, 32};
  const auto table5 = read_configurations(data_dir + "/papers/seed001/table5.csv");
  const auto table10 = read_configurations(data_dir + "/papers/seed001/table10.csv");
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(*table5[i].processes, ge[i]);
    EXPECT_EQ(*table10[i].processes, mm[i]);
  }
}

TEST(IsospeedPsi, HandComputedPair) {
  // psi = C' W(N) / (C W(N')) = 4 * 2 * 10^3 / (2 * 2 * 20^3) = 0.25
  const std::vector<ScalingConfiguration> configurations{{"A", 2.0, 10.0, {}, {}, "x.csv", {}},
                                                         {"B", 4.0, 20.0, {}, {}, "x.csv", {}}};
  const auto table = isospeed_psi("mm", configurations);
  ASSERT_EQ(table.steps.size(), 1u);
  EXPECT_DOUBLE_EQ(table.steps[0].psi, 0.25);
  EXPECT_EQ(table.steps[0].work, 2000.0);
  EXPECT_EQ(table.steps[0].scaled_work, 16000.0);
  EXPECT_EQ(table.works, (std::vector<double>{2000.0, 16000.0}));
  EXPECT_EQ(table.sources, std::vector<std::string>{"x.csv"});
}

TEST(ConfigurationsCsv, BadInput) {
  const struct {
    std::string text, message;
  } cases[] = {
      {"name,N\nC2,310\nC4,480\n",
       "c.csv: line 1: header is 'name,N': the column marked_speed is missing (each configuration's marked speed C in "
       "Mflop/s, Chen et al. 2008 Definition 1); expected 'name,marked_speed,N' or 'name,marked_speed,N,processes'"},
      {"# comment\nname,marked_speed,N\nC2,62.05,310\nC4,fast,480\n",
       "c.csv: line 4: marked_speed must be a number > 0 (Mflop/s), got 'fast'"},
      {"name,marked_speed,N\nC2,0,310\nC4,1,480\n",
       "c.csv: line 2: marked_speed must be a number > 0 (Mflop/s), got '0'"},
      {"name,marked_speed,N\nC2,1,-310\nC4,1,480\n", "c.csv: line 2: N must be a number > 0, got '-310'"},
      {"name,marked_speed,N\nC2,62.05,310\n",
       "c.csv: has 1 configuration(s); psi compares two or more, in scaling order"},
      {"name,marked_speed,N\nC2,62.05,310\nC2,62.05,310\n", "c.csv: line 3: name 'C2' appears twice"},
      {"name,marked_speed,N,processes\nC2,62.05,310,2.5\nC4,1,2,3\n",
       "c.csv: line 2: processes must be a whole number >= 1, got '2.5'"},
      {"name,marked_speed,N\nC2,62.05\n", "c.csv: line 2: has 2 fields, expected 3 (name,marked_speed,N)"},
      {"N,marked_speed,name\n",
       "c.csv: line 1: header is 'N,marked_speed,name', expected 'name,marked_speed,N' or "
       "'name,marked_speed,N,processes'"},
      {"", "c.csv: is empty; expected the header 'name,marked_speed,N' and rows"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(ErrorMessage([&] { parse_configurations_csv(c.text, "c.csv"); }), c.message);
  }
}

Sweep TargetSweep(std::string source, std::string kernel, std::string name, std::vector<double> speeds,
                  std::optional<double> size) {
  Sweep sweep;
  sweep.source = std::move(source);
  sweep.kernel = std::move(kernel);
  sweep.configuration = std::move(name);
  sweep.marked_speeds = std::move(speeds);
  sweep.points = {{100, model::gaussian_elimination_workload(100), 1.0, 0.5, true, {}}};
  sweep.target = SweepTarget{0.3, size, false, std::nullopt, {}};
  return sweep;
}

// psi from sweeps: each one's target N (the verified run's N when there is one)
TEST(IsospeedPsi, FromSweeps) {
  auto c2 = TargetSweep("c2.json", "ge", "C2", {20.88, 20.88, 20.29}, 300);
  c2.target->verified = SweepPoint{310, model::gaussian_elimination_workload(310), 1.0, 0.5, true, {}};
  const auto c4 = TargetSweep("c4.json", "ge", "C4", {20.88, 20.88, 20.29, 20.29, 20.29}, 480);
  const auto table = psi_from_sweeps({c2, c4});
  ASSERT_EQ(table.steps.size(), 1u);
  EXPECT_EQ(table.steps[0].size, 310.0);
  EXPECT_EQ(*table.configurations[0].processes, 3u);
  EXPECT_NEAR(table.steps[0].psi, 0.445, 1e-3);
  EXPECT_EQ(table.sources, (std::vector<std::string>{"c2.json", "c4.json"}));

  const auto other_kernel = TargetSweep("mm.json", "mm", "C4", {1.0}, 480);
  EXPECT_EQ(ErrorMessage([&] {
              psi_from_sweeps({c2, other_kernel});
            }),
            "mm.json: kernel: is mm but c2.json is ge: psi compares one workload across configurations");
  const auto unreached = TargetSweep("u.json", "ge", "C4", {1.0}, std::nullopt);
  EXPECT_EQ(ErrorMessage([&] {
              psi_from_sweeps({c2, unreached});
            }),
            "u.json: target.N: the trend line never reached the target E_s = 0.3; no N to compare (sweep larger "
            "sizes or lower the target)");
  auto no_target = unreached;
  no_target.target.reset();
  EXPECT_NE(ErrorMessage([&] {
              psi_from_sweeps({c2, no_target});
            }).find("u.json: target.N: missing"),
            std::string::npos);
  EXPECT_EQ(ErrorMessage([&] { psi_from_sweeps({c2}); }),
            "c2.json: two or more sweeps are needed, one per configuration, in scaling order");
  const auto monte_carlo = TargetSweep("a.json", "mc", "C2", {1.0}, 10);
  EXPECT_EQ(ErrorMessage([&] {
              psi_from_sweeps({monte_carlo, monte_carlo});
            }),
            "a.json: kernel: unknown kernel 'mc'; kernels with a workload W(N): ge, mm, conv");
}

// ------------------------------------------------------------------ prediction

// Chen et al. 2008, Section 4.5 and Table 12: from the base C2 (N = 310, p = 3) the paper's
// parameters predict N' = 492, 928, 1683, 3226 for C4..C32; hetscale's root finder
// gives 505, 895, 1674, 3233 (within 5 %).
TEST(IsospeedPrediction, PaperTable12WithinFivePercent) {
  const auto profile = read_comm_profile(data_dir + "/papers/seed001-section45.json");
  const auto configurations = read_configurations(data_dir + "/papers/seed001/table5.csv");
  const auto prediction = predict_isospeed(profile.costs, "ge", configurations);
  const auto paper = PaperData().at("prediction");
  const auto table12 = paper.at("table12_predicted_N").get<std::vector<double>>();
  ASSERT_EQ(prediction.configurations.size(), table12.size() + 1);
  EXPECT_EQ(prediction.configurations[0].size, 310.0);
  EXPECT_NEAR(prediction.configurations[0].speed_efficiency, 0.2981, 1e-4);
  const double expected[] = {504.93, 894.70, 1674.14, 3232.99};
  for (std::size_t i = 0; i < table12.size(); ++i) {
    const auto& predicted = prediction.configurations[i + 1];
    SCOPED_TRACE(predicted.name);
    EXPECT_LT(std::abs(predicted.size - table12[i]) / table12[i], 0.05);
    EXPECT_NEAR(predicted.size, expected[i], 0.01);
    // N' holds the base's E_s.
    EXPECT_NEAR(predicted.speed_efficiency, prediction.configurations[0].speed_efficiency, 1e-9);
    // Measured N from Table 5 and the relative error.
    EXPECT_EQ(*predicted.measured_size, *configurations[i + 1].size);
    EXPECT_DOUBLE_EQ(*predicted.size_error, (predicted.size - *predicted.measured_size) / *predicted.measured_size);
  }
  // psi' by Definition 3 (chained over N') and by Corollary 2 nearly agree (alpha ~ 0).
  ASSERT_EQ(prediction.steps.size(), 4u);
  for (const auto& step : prediction.steps) {
    EXPECT_NEAR(step.psi_definition, step.psi_corollary2, 0.01);
    ASSERT_TRUE(step.measured_psi.has_value());
  }
  EXPECT_NEAR(prediction.steps[0].psi_definition, 0.3824, 1e-4);
  EXPECT_NEAR(*prediction.steps[0].measured_psi, 0.4452, 1e-4);
}

// Chen et al. 2008, Table 13 is Definition 3 applied to Table 12's N' (chained from N = 310)
TEST(IsospeedPrediction, PaperTable13IsDefinition3OnTable12) {
  const auto paper = PaperData();
  const auto& ge = paper.at("isospeed_tables")[0].at("configurations");
  auto sizes = paper.at("prediction").at("table12_predicted_N").get<std::vector<double>>();
  sizes.insert(sizes.begin(), 310.0);
  const auto table13 = paper.at("prediction").at("table13_predicted_psi").get<std::vector<double>>();
  for (std::size_t i = 0; i < table13.size(); ++i)
    EXPECT_NEAR(model::isospeed_efficiency_scalability(
                    ge[i].at("marked_speed"), model::gaussian_elimination_workload(sizes[i]),
                    ge[i + 1].at("marked_speed"), model::gaussian_elimination_workload(sizes[i + 1])),
                table13[i], 1e-3);
}

// The profile's costs are the parameters printed in the paper (seed001.json), in seconds.
TEST(IsospeedPrediction, ShippedProfileIsThePaperSection45) {
  const auto costs = read_comm_profile(data_dir + "/papers/seed001-section45.json").costs;
  const auto paper = PaperData().at("prediction");
  EXPECT_DOUBLE_EQ(costs.broadcast_intercept, paper.at("T_bcast_ms").at("intercept").get<double>() * 1e-3);
  EXPECT_DOUBLE_EQ(costs.broadcast_per_process, paper.at("T_bcast_ms").at("per_process").get<double>() * 1e-3);
  EXPECT_DOUBLE_EQ(costs.send_intercept, paper.at("T_send_ms").at("intercept").get<double>() * 1e-3);
  EXPECT_DOUBLE_EQ(costs.send_per_element, paper.at("T_send_ms").at("per_element").get<double>() * 1e-3);
  EXPECT_DOUBLE_EQ(costs.receive_intercept, paper.at("T_recv_ms").at("intercept").get<double>() * 1e-3);
  EXPECT_DOUBLE_EQ(costs.receive_per_element, paper.at("T_recv_ms").at("per_element").get<double>() * 1e-3);
  EXPECT_DOUBLE_EQ(costs.barrier_per_process, paper.at("T_barrier_ms").at("per_process").get<double>() * 1e-3);
  EXPECT_DOUBLE_EQ(costs.unit_computation, paper.at("t_c_ms").get<double>() * 1e-3);
}

model::CommunicationCosts PaperCosts() { return read_comm_profile(data_dir + "/papers/seed001-section45.json").costs; }

TEST(IsospeedPrediction, BaseChoiceAndBadInput) {
  const auto configurations = read_configurations(data_dir + "/papers/seed001/table5.csv");
  const auto from_c8 = predict_isospeed(PaperCosts(), "ge", configurations, "C8");
  ASSERT_EQ(from_c8.configurations.size(), 3u);
  EXPECT_EQ(from_c8.configurations[0].name, "C8");
  EXPECT_EQ(from_c8.configurations[0].size, 1000.0);

  EXPECT_EQ(ErrorMessage([&] { predict_isospeed(PaperCosts(), "ge", configurations, "C64"); }),
            "base: no configuration named 'C64'; the configurations are C2, C4, C8, C16, C32");
  EXPECT_EQ(ErrorMessage([&] { predict_isospeed(PaperCosts(), "ge", configurations, "C32"); }),
            "base: the base C32 has no larger configuration after it to predict for");
  EXPECT_EQ(
      ErrorMessage([&] { predict_isospeed(PaperCosts(), "conv", configurations); }),
      "kernel: prediction needs an overhead model T_o; hetscale has one for ge (Chen et al. 2008 Section 4.5) and "
      "mm, not for conv");
  auto without_processes = configurations;
  without_processes[1].processes.reset();
  EXPECT_EQ(ErrorMessage([&] { predict_isospeed(PaperCosts(), "ge", without_processes); }),
            data_dir +
                "/papers/seed001/table5.csv: C4: prediction needs the process count p of every "
                "configuration (the column processes)");
}

// mm: process 0's share is its marked speed over C when the per-process speeds are known
TEST(IsospeedPrediction, MatrixMultiplicationRootShare) {
  std::vector<ScalingConfiguration> configurations{{"A", 60.0, 200.0, 3, {30.0, 15.0, 15.0}, "a", {}},
                                                   {"B", 120.0, std::nullopt, 6, {}, "b", {}}};
  const auto prediction = predict_isospeed(PaperCosts(), "mm", configurations);
  EXPECT_DOUBLE_EQ(prediction.configurations[0].root_share, 0.5);
  EXPECT_DOUBLE_EQ(prediction.configurations[1].root_share, 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(prediction.configurations[0].overhead,
                   model::matrix_multiplication_overhead(PaperCosts(), 200.0, 3, 0.5));
  EXPECT_FALSE(prediction.configurations[1].measured_size.has_value());
  EXPECT_FALSE(prediction.steps[0].measured_psi.has_value());
  EXPECT_NEAR(prediction.configurations[1].speed_efficiency, prediction.configurations[0].speed_efficiency, 1e-9);
}

// A sweep made by the model itself: T_comp = W t_c / p, T = T_comp + T_o(N, p).
Sweep ModelSweep(const std::string& name, std::size_t processes, double target_size) {
  const auto costs = PaperCosts();
  Sweep sweep;
  sweep.source = name + ".json";
  sweep.kernel = "ge";
  sweep.configuration = name;
  sweep.marked_speeds.assign(processes, 20.0);
  for (double n : {100.0, 200.0, 300.0, 400.0}) {
    const double work = model::gaussian_elimination_workload(n);
    const double compute = work * costs.unit_computation / static_cast<double>(processes);
    sweep.points.push_back({n,
                            work,
                            compute + model::gaussian_elimination_overhead(costs, n, static_cast<double>(processes)),
                            compute,
                            true,
                            {}});
  }
  sweep.target = SweepTarget{0.3, target_size, false, std::nullopt, {}};
  return sweep;
}

// A sweep of `kernel` (ge or mm) on ranks of marked speed 1000 Mflop/s whose
// time at N is seconds(N, W(N)), every point passed.
Sweep SweepOfModel(const std::string& name, const std::string& kernel, std::size_t processes,
                   std::initializer_list<double> sizes, SweepTarget target,
                   const std::function<double(double, double)>& seconds) {
  Sweep sweep;
  sweep.source = name + ".json";
  sweep.kernel = kernel;
  sweep.configuration = name;
  sweep.marked_speeds.assign(processes, 1000.0);
  for (const double n : sizes) {
    const double work = kernel == "ge" ? model::gaussian_elimination_workload(n) : 2.0 * n * n * n;
    sweep.points.push_back({n, work, seconds(n, work), 0.0, true, {}});
  }
  sweep.target = std::move(target);
  return sweep;
}

// ge's steps measured (bench steps): o(L) linear between the lengths, flat
// past them, summed over L = N .. 2 as the midpoint integral.
StepCosts LinearSteps(int ranks, double at_10, double at_1000) {
  StepCosts costs;
  costs.source = fmt::format("steps-{}.json", ranks);
  costs.ranks = ranks;
  costs.costs = {{10, 0, 0, at_10}, {1000, 0, 0, at_1000}};
  return costs;
}

TEST(IsospeedPrediction, EliminationStepOverheadsSumTheSteps) {
  const auto flat = LinearSteps(2, 3e-5, 3e-5);
  EXPECT_NEAR(elimination_step_overheads(flat, 100), 99 * 3e-5, 1e-15);  // L = 100 .. 2: 99 steps
  EXPECT_EQ(elimination_step_overheads(flat, 1), 0.0);
  // Linear within the lengths: the sum over L = 11 .. N equals the midpoint integral.
  const auto linear = LinearSteps(2, 1e-5, 1e-5 + 990e-7);  // o(L) = 1e-5 + 1e-7 (L - 10)
  double sum = 0.0;
  for (int length = 2; length <= 500; ++length) sum += 1e-5 + (length > 10 ? 1e-7 * (length - 10) : 0.0);
  EXPECT_NEAR(elimination_step_overheads(linear, 500), sum, 1e-7 * 0.25);  // the kink at 10: a quarter of a slope
}

// With the steps measured on each configuration: T_c = r W / C with r fitted
// on the base; sweeps made by that model give back r and hold the base's E_s
// at N'.
TEST(IsospeedPrediction, FromStepCostsFitsTheComputationOnTheBase) {
  const double r = 2.0;
  const std::vector<StepCosts> steps{LinearSteps(2, 2e-5, 4e-5), LinearSteps(4, 6e-5, 9e-5)};
  const auto sweep_of = [&](const std::string& name, std::size_t processes, const StepCosts& costs) {
    return SweepOfModel(name, "ge", processes, {100.0, 200.0, 400.0, 800.0}, SweepTarget{0.1, 200.0, false, {}, {}},
                        [&](double n, double work) {
                          return r * work / (1000.0 * processes * 1e6) + elimination_step_overheads(costs, n);
                        });
  };
  const auto prediction = predict_from_step_costs({sweep_of("C2", 2, steps[0]), sweep_of("C4", 4, steps[1])}, steps);
  EXPECT_NE(prediction.computation.find("r = 2 fitted on C2.json"), std::string::npos) << prediction.computation;
  ASSERT_EQ(prediction.configurations.size(), 2u);
  const auto &base = prediction.configurations[0], &larger = prediction.configurations[1];
  EXPECT_NEAR(base.overhead, elimination_step_overheads(steps[0], 200.0), 1e-15);
  EXPECT_NEAR(larger.speed_efficiency, base.speed_efficiency, 1e-6);
  EXPECT_NEAR(larger.overhead, elimination_step_overheads(steps[1], larger.size), 1e-12);
  EXPECT_NEAR(larger.computation_time, r * larger.work / (4000.0 * 1e6), 1e-12);
  EXPECT_EQ(prediction.step_cost_sources, (std::vector<std::string>{"steps-2.json", "steps-4.json"}));
  // ge keeps the model's E_s at the base's N as the target, a verified run or not.
  auto verified_base = sweep_of("C2", 2, steps[0]);
  const auto& run = verified_base.points[1];  // N = 200
  verified_base.target->verified = run;
  verified_base.target->speed_efficiency = run.work / (run.seconds * 2000e6);  // the run held it
  EXPECT_FALSE(predict_from_step_costs({verified_base, sweep_of("C4", 4, steps[1])}, steps).measured_target);
  // A base whose verified run missed its target by more than 10 % is no base.
  verified_base.target->speed_efficiency *= 1.2;
  EXPECT_EQ(ErrorMessage([&] {
              predict_from_step_costs({verified_base, sweep_of("C4", 4, steps[1])}, steps);
            }),
            fmt::format("C2.json: target.verified: E_s {:.4g} at N = 200 missed the target {:g} by more than 10 %: "
                        "the base's N does not hold its target, so there is nothing to predict from (sweep it again)",
                        run.work / (run.seconds * 2000e6), verified_base.target->speed_efficiency));
  ASSERT_TRUE(prediction.computation_ratio);
  EXPECT_NEAR(*prediction.computation_ratio, r, 1e-9);

  // Bad input: another kernel, steps of another kernel, not one file per
  // sweep, another rank count.
  auto conv = sweep_of("C2", 2, steps[0]);
  conv.kernel = "conv";
  auto conv4 = sweep_of("C4", 4, steps[1]);
  conv4.kernel = "conv";
  EXPECT_EQ(ErrorMessage([&] {
              predict_from_step_costs({conv, conv4}, steps);
            }),
            "step-costs: are the steps of ge or mm (bench steps); C2.json is a sweep of conv");
  auto product_steps = steps;
  product_steps[1].kernel = "mm";
  EXPECT_EQ(ErrorMessage([&] {
              predict_from_step_costs({sweep_of("C2", 2, steps[0]), sweep_of("C4", 4, steps[1])}, product_steps);
            }),
            "steps-4.json: kernel: is mm but the sweeps are ge's: measure the steps with bench steps --kernel ge");
  EXPECT_EQ(ErrorMessage([&] {
              predict_from_step_costs({sweep_of("C2", 2, steps[0]), sweep_of("C4", 4, steps[1])}, {steps[0]});
            }),
            "step-costs: gives 1 files for 2 sweeps: give one per sweep, in the same order");
  EXPECT_EQ(ErrorMessage([&] {
              predict_from_step_costs({sweep_of("C2", 2, steps[0]), sweep_of("C4", 4, steps[1])}, {steps[0], steps[0]});
            }),
            "steps-2.json: ranks: is 2 but C4.json ran on 4 processes: measure the steps on the same configuration");
}

// mm's product measured at orders N: a power law between neighbouring orders,
// linear where a value is <= 0, the end pieces continued past the ends.
TEST(IsospeedPrediction, ProductStepPartFollowsAPowerLawBetweenTheOrders) {
  StepCosts costs;
  costs.source = "steps-mm.json";
  costs.kernel = "mm";
  costs.costs = {{100, 0, 2e-3, 1e-4}, {200, 0, 16e-3, 4e-4}, {400, 0, 128e-3, -1e-5}};
  const auto computation = [&](double n) { return product_step_part(costs, n, &StepCost::computation_seconds); };
  const auto overhead = [&](double n) { return product_step_part(costs, n, &StepCost::overhead_seconds); };
  for (double n : {50.0, 100.0, 141.0, 300.0, 800.0})  // 2e-3 (N / 100)^3 through and past the orders
    EXPECT_NEAR(computation(n), 2e-3 * std::pow(n / 100.0, 3.0), 1e-12 * computation(n)) << n;
  EXPECT_NEAR(overhead(150), 1e-4 * std::pow(1.5, 2.0), 1e-15);    // N^2 between 100 and 200
  EXPECT_NEAR(overhead(300), 4e-4 + (-1e-5 - 4e-4) * 0.5, 1e-15);  // linear: a value <= 0
  costs.costs.resize(1);
  EXPECT_EQ(ErrorMessage([&] { computation(150); }),
            "steps-mm.json: costs: has 1 measured size; mm's step needs two or more to follow N");
}

// mm with its product measured on each configuration: T_c = r times the
// measured computation, T_o the measured overhead, both at N; sweeps made by
// that model give back r and hold the base's E_s at N'.
TEST(IsospeedPrediction, FromProductStepCostsScalesTheMeasuredComputation) {
  const double r = 1.25;
  const auto product = [](const std::string& source, int ranks, double computation_at_100, double overhead_at_100) {
    StepCosts costs;
    costs.source = source;
    costs.kernel = "mm";
    costs.ranks = ranks;
    for (double n : {50.0, 100.0, 200.0, 400.0, 800.0}) {
      const double scale = n / 100.0;
      costs.costs.push_back({n, 0.0, computation_at_100 * std::pow(scale, 3.0), overhead_at_100 * scale * scale});
    }
    return costs;
  };
  const std::vector<StepCosts> steps{product("steps-2.json", 2, 4e-4, 5e-5), product("steps-4.json", 4, 1.5e-4, 2e-4)};
  const auto sweep_of = [&](const std::string& name, std::size_t processes, const StepCosts& costs) {
    return SweepOfModel(name, "mm", processes, {50.0, 100.0, 200.0, 400.0}, SweepTarget{1.0, 100.0, false, {}, {}},
                        [&](double n, double) {
                          return r * product_step_part(costs, n, &StepCost::computation_seconds) +
                                 product_step_part(costs, n, &StepCost::overhead_seconds);
                        });
  };
  const auto prediction = predict_from_step_costs({sweep_of("C2", 2, steps[0]), sweep_of("C4", 4, steps[1])}, steps);
  EXPECT_NE(prediction.computation.find("r = 1.25 times"), std::string::npos) << prediction.computation;
  ASSERT_EQ(prediction.configurations.size(), 2u);
  const auto &base = prediction.configurations[0], &larger = prediction.configurations[1];
  EXPECT_NEAR(base.computation_time, r * 4e-4, 1e-15);
  EXPECT_NEAR(base.overhead, 5e-5, 1e-15);
  EXPECT_NEAR(larger.speed_efficiency, base.speed_efficiency, 1e-6);
  const double scale = larger.size / 100.0;
  EXPECT_NEAR(larger.computation_time, r * 1.5e-4 * std::pow(scale, 3.0), 1e-9 * larger.computation_time);
  EXPECT_NEAR(larger.overhead, 2e-4 * scale * scale, 1e-9 * larger.overhead);
  EXPECT_GT(larger.size, 100.0);             // C4's larger overhead needs a larger N
  EXPECT_FALSE(prediction.measured_target);  // no verified run: the model's E_s at the base's N

  // The base's run at N verified, 10 % slower than the steps say: N' holds the
  // E_s it measured, lower than the model's, so a smaller N'.
  auto verified_base = sweep_of("C2", 2, steps[0]);
  const double verified_seconds = 1.1 * verified_base.points[1].seconds;  // N = 100
  verified_base.target->verified = SweepPoint{100.0, 2e6, verified_seconds, 0.0, true, {}};
  verified_base.target->speed_efficiency = 2e6 / (verified_seconds * 2000e6);  // the run held it
  const auto held = predict_from_step_costs({verified_base, sweep_of("C4", 4, steps[1])}, steps);
  ASSERT_TRUE(held.measured_target);
  EXPECT_NEAR(*held.measured_target, 2e6 / (verified_seconds * 2000e6), 1e-12);
  EXPECT_NEAR(held.configurations[1].speed_efficiency, *held.measured_target, 1e-6);
  EXPECT_LT(held.configurations[1].size, larger.size);
}

// From sweeps: t_c calibrated on the base (median of T_comp p / W), C_ref = C / p of the base
TEST(IsospeedPrediction, FromSweepsCalibratesTheUnitComputation) {
  CommProfile profile;
  profile.source = "p.json";
  profile.costs = PaperCosts();
  profile.costs.unit_computation = 1.0;  // wrong on purpose: the calibration replaces it
  const auto prediction = predict_from_sweeps(profile, {ModelSweep("C3", 3, 310), ModelSweep("C5", 5, 480)});
  EXPECT_NEAR(prediction.costs.unit_computation, 3.1e-8, 1e-20);
  EXPECT_DOUBLE_EQ(*prediction.costs.reference_marked_speed, 20.0);
  EXPECT_EQ(prediction.profile_source, "p.json");
  // Equal process speeds: the same N' as the homogeneous form with the paper's t_c.
  const std::vector<ScalingConfiguration> configurations{{"C3", 60.0, 310.0, 3, {}, "x", {}},
                                                         {"C5", 100.0, 480.0, 5, {}, "x", {}}};
  const auto homogeneous = predict_isospeed(PaperCosts(), "ge", configurations);
  EXPECT_NEAR(prediction.configurations[1].size, homogeneous.configurations[1].size, 1e-6);
  EXPECT_EQ(*prediction.configurations[1].measured_size, 480.0);
  EXPECT_NE(prediction.computation.find("calibrated on C3.json"), std::string::npos);

  // A profile with a reference marked speed is used as it is.
  profile.costs = PaperCosts();
  profile.costs.reference_marked_speed = 40.0;
  const auto as_is = predict_from_sweeps(profile, {ModelSweep("C3", 3, 310), ModelSweep("C5", 5, 480)});
  EXPECT_EQ(as_is.costs.unit_computation, 3.1e-8);
  EXPECT_EQ(*as_is.costs.reference_marked_speed, 40.0);

  // No T_comp and no t_c: nothing to compute T_c with.
  profile.costs = PaperCosts();
  profile.costs.unit_computation = 0.0;
  auto base = ModelSweep("C3", 3, 310);
  for (auto& point : base.points) point.compute_seconds = 0.0;
  EXPECT_EQ(ErrorMessage([&] {
              predict_from_sweeps(profile, {base, ModelSweep("C5", 5, 480)});
            }),
            "C3.json: points: have no T_comp_s to calibrate t_c, and p.json has no unit_computation");
}

// --- a user's program ------------------------------------------------------------

// GE's W(N) and overhead written out as a user would: psi and the prediction
// are the kernel's own, to rounding.
TEST(UsersProgram, GeWrittenOutIsTheKernel) {
  const auto workload = program_workload("my-solver", "2/3*N^3 - 1/2*N^2 - 19/6*N + 3");
  EXPECT_TRUE(workload.users_program);
  const auto configurations = read_configurations(data_dir + "/papers/seed001/table5.csv");
  const auto kernel_psi = isospeed_psi("ge", configurations);
  const auto user_psi = isospeed_psi(workload, configurations);
  ASSERT_EQ(user_psi.steps.size(), kernel_psi.steps.size());
  for (std::size_t i = 0; i < user_psi.steps.size(); ++i)
    EXPECT_NEAR(user_psi.steps[i].psi, kernel_psi.steps[i].psi, 1e-12 * kernel_psi.steps[i].psi);

  const auto profile = read_comm_profile(data_dir + "/papers/seed001-section45.json");
  const auto kernel = predict_isospeed(profile.costs, "ge", configurations);
  const auto user = predict_isospeed(profile.costs, workload, configurations, "",
                                     "bcast(p) + 2*(p-1)*(send(N)+recv(N)) + N*(2*bcast(p)+barrier(p))");
  ASSERT_EQ(user.configurations.size(), kernel.configurations.size());
  for (std::size_t i = 0; i < user.configurations.size(); ++i)
    EXPECT_NEAR(user.configurations[i].size, kernel.configurations[i].size, 1e-6 * kernel.configurations[i].size);
  EXPECT_EQ(user.overhead, "T_o = bcast(p) + 2*(p-1)*(send(N)+recv(N)) + N*(2*bcast(p)+barrier(p)) (given)");
}

TEST(UsersProgram, MeasuredWorkIsAPowerLawBetweenSizes) {
  // W = 2 N^3 measured at 100 and 200 (and 400): the power law through them is W(N) itself.
  Sweep sweep;
  sweep.source = "s.json";
  sweep.kernel = "my-mm";
  sweep.users_program = true;
  sweep.marked_speeds = {10.0};
  for (double n : {100.0, 200.0, 400.0})
    sweep.points.push_back(SweepPoint{n, 2 * n * n * n, 1.0, 0.0, true, {}, false});
  const auto workload = sweep_workload(sweep);
  ASSERT_TRUE(static_cast<bool>(workload.work));
  for (double n : {100.0, 150.0, 300.0, 800.0, 50.0})
    EXPECT_NEAR(workload.work(n), 2 * n * n * n, 1e-9 * 2 * n * n * n) << n;
  // With an expression the sweep's own W(N) is used.
  sweep.workload = "5*N";
  EXPECT_DOUBLE_EQ(sweep_workload(sweep).work(7), 35.0);
}

TEST(UsersProgram, OverheadOnlyForPrograms) {
  const auto configurations = read_configurations(data_dir + "/papers/seed001/table5.csv");
  const auto profile = read_comm_profile(data_dir + "/papers/seed001-section45.json");
  EXPECT_EQ(
      ErrorMessage([&] { predict_isospeed(profile.costs, program_workload("x", "N^2"), configurations, "", ""); }),
      "overhead: is required to predict x: T_o as an expression in N and p over the measured costs bcast(p), "
      "send(n), recv(n), barrier(p) (docs/scalability.md)");
  EXPECT_EQ(ErrorMessage([&] {
              predict_isospeed(profile.costs, program_workload("x", "N^2"), configurations, "", "bcast(N, p)");
            }),
            "overhead: \"bcast(N, p)\" is not an expression in N and p: at 8: ')' expected after the argument of "
            "bcast");
  EXPECT_EQ(ErrorMessage([&] { isospeed_psi(program_workload("x", ""), configurations); }),
            "workload: is required: psi needs x's W(N)");
}

}  // namespace
}  // namespace hetscale
