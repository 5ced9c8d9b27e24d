// The scalability sweep record (hetscale.sweep/1): written by `hetscale scale
// sweep` and `scale fit --out`, read by `scale fit`, `psi` and `predict`.
#include "hetscale/record/sweep.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"

#include <string>

#include "hetscale/model/isospeed.hpp"

namespace hetscale {
namespace {

using testing_support::ErrorMessage;

Sweep FullSweep() {
  Sweep sweep;
  sweep.source = "c2.json";
  sweep.kernel = "ge";
  sweep.configuration = "C2";
  sweep.marked_speeds = {20.88, 20.88, 20.29};
  sweep.points = {{100, 661353, 0.26077, 0.2, true, {}}, {200, 5312703, 0.473786, 0.35, false, {}}};
  sweep.points[0].run_seconds = {0.31, 0.26077, 0.27};  // three runs, the fastest the point
  sweep.trend = SweepTrend{2, {-0.13, 0.0018, -1e-6}, 0.9988};
  sweep.target = SweepTarget{0.3, 310.0, false, SweepPoint{310, 19811638, 1.0234, 0.4, true, {}}};
  sweep.context.host = "sunwulf";
  sweep.context.emulated_speeds = {1, 0.5};
  return sweep;
}

void ExpectSamePoint(const SweepPoint& a, const SweepPoint& b) {
  EXPECT_EQ(a.size, b.size);
  EXPECT_EQ(a.work, b.work);
  EXPECT_EQ(a.seconds, b.seconds);
  EXPECT_EQ(a.compute_seconds, b.compute_seconds);
  EXPECT_EQ(a.check_passed, b.check_passed);
  EXPECT_EQ(a.run_seconds, b.run_seconds);
}

// Definition 2 per point: speed W / T in Mflop/s and E_s = W / (T C)
TEST(SweepRecord, PointSpeedAndSpeedEfficiency) {
  const SweepPoint point{300, 17954053, 0.925242, 0.0, true, {}};
  EXPECT_NEAR(point.achieved_speed_mflops(), 19.405, 5e-4);  // Chen et al. 2008, Table 3
  EXPECT_NEAR(point.speed_efficiency(62.05), 0.313, 5e-4);
  EXPECT_DOUBLE_EQ(FullSweep().marked_speed(), 62.05);
  EXPECT_EQ(FullSweep().processes(), 3u);
}

// sweep_json then parse_sweep gives the same sweep, and the same JSON again
TEST(SweepRecord, JsonRoundTrip) {
  const auto sweep = FullSweep();
  const std::string json = sweep_json(sweep);
  const auto read = parse_sweep(json, "back.json");
  EXPECT_EQ(read.source, "back.json");
  EXPECT_EQ(read.kernel, "ge");
  EXPECT_EQ(read.configuration, "C2");
  EXPECT_EQ(read.marked_speeds, sweep.marked_speeds);
  ASSERT_EQ(read.points.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) ExpectSamePoint(read.points[i], sweep.points[i]);
  ASSERT_TRUE(read.trend.has_value());
  EXPECT_EQ(read.trend->degree, 2u);
  EXPECT_EQ(read.trend->coefficients, sweep.trend->coefficients);
  EXPECT_EQ(read.trend->r_squared, sweep.trend->r_squared);
  ASSERT_TRUE(read.target.has_value());
  EXPECT_EQ(read.target->speed_efficiency, 0.3);
  EXPECT_EQ(read.target->size, 310.0);
  EXPECT_FALSE(read.target->extrapolated);
  ASSERT_TRUE(read.target->verified.has_value());
  ExpectSamePoint(*read.target->verified, *sweep.target->verified);
  EXPECT_EQ(read.context.host, "sunwulf");
  EXPECT_EQ(read.context.emulated_speeds, (std::vector<double>{1, 0.5}));
  EXPECT_EQ(sweep_json(read), json);
  // The derived fields are written for people and scripts.
  EXPECT_NE(json.find("\"E_s\": 0.0"), std::string::npos);
  EXPECT_NE(json.find("\"marked_speed\": 62.05"), std::string::npos);
  EXPECT_NE(json.find("\"check\": \"failed\""), std::string::npos);
  // Every run's time only where several ran.
  EXPECT_NE(json.find("\"T_runs_s\": [\n"), std::string::npos);
  EXPECT_EQ(json.find("T_runs_s"), json.rfind("T_runs_s"));
}

// the runs that verified the target, kept in order; the nearest is `verified`
TEST(SweepRecord, KeepsTheVerifyingRunsAndTheNearest) {
  auto sweep = FullSweep();
  // C = 62.05 Mflop/s, target E_s 0.3: 0.3 x 62.05 = 18.6 Mflop/s.
  sweep.target->verifying_runs = {{310, 19811638, 1.3, 1.0, true, {}},     // 15.2 Mflop/s: E_s 0.246
                                  {350, 28481750, 1.52, 1.1, true, {}},    // 18.7: E_s 0.302
                                  {340, 26103183, 1.45, 1.05, true, {}}};  // 18.0: E_s 0.290
  EXPECT_EQ(nearest_to_target(sweep, sweep.target->verifying_runs, 0.3).size, 350);
  EXPECT_THROW(nearest_to_target(sweep, {}, 0.3), std::invalid_argument);
  const auto read = parse_sweep(sweep_json(sweep), "back.json");
  ASSERT_EQ(read.target->verifying_runs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) ExpectSamePoint(read.target->verifying_runs[i], sweep.target->verifying_runs[i]);
  EXPECT_EQ(sweep_json(read), sweep_json(sweep));
  // Absent when one run verified.
  EXPECT_EQ(sweep_json(FullSweep()).find("verifying_runs"), std::string::npos);
}

// the smallest valid sweep; a target the trend line never reached is N = null
TEST(SweepRecord, MinimalSweepAndUnreachedTarget) {
  const auto sweep = parse_sweep(R"({"schema": "hetscale.sweep/1", "kernel": "mm", "configuration": "C",
      "marked_speeds": [10], "points": [{"N": 10, "W": 2000, "T_s": 0.5}],
      "target": {"E_s": 0.9, "N": null}})",
                                 "m.json");
  EXPECT_EQ(sweep.points[0].compute_seconds, 0.0);
  EXPECT_TRUE(sweep.points[0].check_passed);
  EXPECT_FALSE(sweep.trend.has_value());
  ASSERT_TRUE(sweep.target.has_value());
  EXPECT_FALSE(sweep.target->size.has_value());
  EXPECT_EQ(sweep.context.written_json, "{}");
  EXPECT_NE(sweep_json(sweep).find("\"N\": null"), std::string::npos);
}

// A sweep's context (io/provenance.hpp): the keys hetscale reads typed, a
// key of another type left unset, every key kept when the sweep is written
// again (in order of their names), and a field set written over the kept one.
TEST(SweepRecord, ContextTypedAndKept) {
  auto sweep = parse_sweep(R"({"schema": "hetscale.sweep/1", "kernel": "mm", "configuration": "C",
      "marked_speeds": [10], "points": [{"N": 10, "W": 2000, "T_s": 0.5}],
      "context": {"tool": "hetscale scale sweep", "ranks": "two", "host": "h1", "distribution": "fpm:m.json",
                  "emulated_speeds": [1, 0.5], "seed": 7}})",
                           "c.json");
  EXPECT_EQ(sweep.context.tool, "hetscale scale sweep");
  EXPECT_EQ(sweep.context.host, "h1");
  EXPECT_EQ(sweep.context.distribution, "fpm:m.json");
  EXPECT_EQ(sweep.context.emulated_speeds, (std::vector<double>{1, 0.5}));
  EXPECT_FALSE(sweep.context.ranks.has_value());  // "two" is no rank count
  sweep.context.host = "h2";
  const auto written = sweep_json(sweep);
  EXPECT_NE(written.find(R"("context": {
    "distribution": "fpm:m.json",
    "emulated_speeds": [
      1,
      0.5
    ],
    "host": "h2",
    "ranks": "two",
    "seed": 7,
    "tool": "hetscale scale sweep"
  })"),
            std::string::npos)
      << written;
  EXPECT_EQ(parse_sweep(written, "again.json").context.host, "h2");
}

std::string WithTop(const std::string& fields) {
  return R"({"schema": "hetscale.sweep/1", "kernel": "ge", "configuration": "C2", "marked_speeds": [20.88, 20.88, 20.29], )" +
         fields + "}";
}
const std::string example_points = R"("points": [{"N": 100, "W": 661353, "T_s": 0.26}])";

// A user's program: named as the user named it, W(N) kept as given, and no
// check field where none ran (read back as not checked, written without one).
TEST(SweepRecord, UsersProgramRoundTrip) {
  const std::string text =
      R"({"schema": "hetscale.sweep/1", "program": "lammps-lj", "workload": "32000*N", "configuration": "C2", )"
      R"("marked_speeds": [20.88, 20.88], "points": [{"N": 100, "W": 3200000, "T_s": 0.5}, )"
      R"({"N": 200, "W": 6400000, "T_s": 0.9, "check": "failed"}]})";
  const auto sweep = parse_sweep(text, "s.json");
  EXPECT_TRUE(sweep.users_program);
  EXPECT_EQ(sweep.kernel, "lammps-lj");
  EXPECT_EQ(sweep.workload, "32000*N");
  ASSERT_EQ(sweep.points.size(), 2u);
  EXPECT_FALSE(sweep.points[0].checked);
  EXPECT_TRUE(sweep.points[0].check_passed);  // unchecked points count in the trend line
  EXPECT_TRUE(sweep.points[1].checked);
  EXPECT_FALSE(sweep.points[1].check_passed);
  const std::string written = sweep_json(sweep);
  EXPECT_NE(written.find(R"("program": "lammps-lj")"), std::string::npos) << written;
  EXPECT_NE(written.find(R"("workload": "32000*N")"), std::string::npos) << written;
  EXPECT_EQ(written.find(R"("kernel")"), std::string::npos) << written;
  const auto again = parse_sweep(written, "again.json");
  EXPECT_EQ(sweep_json(again), written);
  EXPECT_EQ(written.find(R"("check": "passed")"), std::string::npos) << "no check ran at N = 100";
}

// Bad input: one line naming the file, the field and what is allowed.
TEST(SweepRecord, BadInput) {
  const struct {
    std::string text, message;
  } cases[] = {
      {WithTop(example_points + R"(, "extra": 1)"),
       "s.json: extra: unknown field; allowed here: schema, kernel, program, workload, configuration, marked_speeds, "
       "marked_speed, points, trend, target, context"},
      {WithTop(R"("points": [{"N": 100, "W": 661353, "T_s": 0.26, "T": 1}])"),
       "s.json: points[0].T: unknown field; allowed here: N, W, T_s, T_comp_s, speed_Mflops, E_s, check, T_runs_s"},
      {WithTop(R"("points": [{"N": 100, "W": 661353, "T_s": 0.26, "T_runs_s": [0.3, 0.27]}])"),
       "s.json: points[0].T_runs_s: does not hold T_s = 0.26: the point is one of its runs"},
      {WithTop(R"("points": [{"N": 100, "W": 661353, "T_s": 0.26, "T_runs_s": [0.26, 0]}])"),
       "s.json: points[0].T_runs_s[1]: must be a number > 0 (s), got 0"},
      {WithTop(R"("points": [{"N": 100, "W": 661353, "T_s": 0.26, "T_runs_s": 0.26}])"),
       "s.json: points[0].T_runs_s: must be a non-empty array of run times (s), got 0.26"},
      {R"({"schema": "hetscale.run/1"})",
       "s.json: schema: this is a run record (hetscale.run/1), not a scalability sweep (`hetscale scale sweep`): read "
       "it with `hetscale analyze` or `hetscale report`, or give several to `hetscale predict`"},
      {R"({"schema": "mine/1"})", R"(s.json: schema: is "mine/1", expected "hetscale.sweep/1")"},
      {WithTop(example_points + R"(, "marked_speed": 70)"),
       "s.json: marked_speed: is 70 but the marked_speeds sum to 62.05 (Mflop/s); C must be their sum"},
      {WithTop(R"("points": [{"N": 100, "W": 661353, "T_s": 0}])"), "s.json: points[0].T_s: must be > 0, got 0"},
      {WithTop(R"("points": [{"N": 100, "W": 661353, "T_s": -0.26}])"),
       "s.json: points[0].T_s: must be > 0, got -0.26"},
      {WithTop(R"("points": [{"N": 100, "W": 661353, "T_s": 1, "T_comp_s": -1}])"),
       "s.json: points[0].T_comp_s: must be >= 0, got -1"},
      {WithTop(R"("points": [{"N": 100, "W": 661353, "T_s": 1, "check": "ok"}])"),
       R"(s.json: points[0].check: is "ok", expected "passed" or "failed" (or no check field: none ran))"},
      {WithTop(R"("points": [])"), "s.json: points: must not be empty"},
      {WithTop(example_points + R"(, "target": {"E_s": 1.5, "N": 10})"),
       "s.json: target.E_s: must be in (0, 1], got 1.5"},
      {WithTop(example_points + R"(, "trend": {"degree": 2, "coefficients": [1, 2], "r_squared": 1})"),
       "s.json: trend.coefficients: must be an array of degree + 1 = 3 numbers"},
      {WithTop(example_points + R"(, "context": [])"), "s.json: context: must be a JSON object, got array"},
      {R"({"schema": "hetscale.sweep/1", "kernel": "lu", "configuration": "C", "marked_speeds": [1], )" +
           example_points + "}",
       R"(s.json: kernel: is "lu", expected one of ge, mm, conv, mc (a program of yours: "program"))"},
      {R"({"schema": "hetscale.sweep/1", "kernel": "ge", "program": "x", "configuration": "C", "marked_speeds": [1], )" +
           example_points + "}",
       "s.json: kernel: give exactly one of kernel (hetscale's ge, mm, conv, mc) and program (the name of yours)"},
      {R"({"schema": "hetscale.sweep/1", "configuration": "C", "marked_speeds": [1], )" + example_points + "}",
       "s.json: kernel: give exactly one of kernel (hetscale's ge, mm, conv, mc) and program (the name of yours)"},
      {R"({"schema": "hetscale.sweep/1", "kernel": "ge", "workload": "N", "configuration": "C", "marked_speeds": [1], )" +
           example_points + "}",
       "s.json: workload: goes with program only: a kernel's W(N) is its own"},
      {R"({"schema": "hetscale.sweep/1", "program": "", "configuration": "C", "marked_speeds": [1], )" +
           example_points + "}",
       "s.json: program: must not be empty"},
      {R"({"schema": "hetscale.sweep/1", "program": "lammps", "workload": "N^", "configuration": "C", )"
       R"("marked_speeds": [1], )" +
           example_points + "}",
       R"(s.json: workload: "N^" is not an expression in N: at 3: the expression ends where a number, a name or '(' )"
       "was expected"},
      {R"({"schema": "hetscale.sweep/1", "kernel": "ge", "configuration": "C", "marked_speeds": [1, 0], )" +
           example_points + "}",
       "s.json: marked_speeds[1]: must be a number > 0 (Mflop/s), got 0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(ErrorMessage([&] { parse_sweep(c.text, "s.json"); }), c.message);
  }
  // The declared C may be rounded to two decimals, as the paper prints it.
  EXPECT_EQ(parse_sweep(WithTop(example_points + R"(, "marked_speed": 62.054)"), "s.json").marked_speed(), 62.05);
}

}  // namespace
}  // namespace hetscale
