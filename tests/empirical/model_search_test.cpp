// Extra-P's default single-parameter modeler, reproduced: its own test cases
// (Extra-P 4.2, tests/test_basic_modeler.py, test_console.py, test_modeling.py;
// their inputs in tests/empirical/data/extra-p), each compared as Extra-P's
// tests compare (assertApprox: 6 significant places unless said), and the
// mechanics below them: printing, least squares, the search space.
#include "hetscale/empirical/model_search.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetscale/record/scaling_measurements.hpp"
#include "support/assertions.hpp"

namespace hetscale::empirical {
namespace {

const std::string extra_p_data = std::string(HETSCALE_EMPIRICAL_DATA_DIR) + "/extra-p/";

// Extra-P's assertApprox (tests/modelling_testcase.py): the difference scaled
// by the order of magnitude of the smaller value, rounded to `places`.
::testing::AssertionResult Approx(double expected, double actual, int places = 6) {
  double difference = std::abs(actual - expected);
  const double reference = std::min(std::abs(expected), std::abs(actual));
  if (reference != 0.0) difference /= std::pow(10.0, std::trunc(std::log10(reference)) + 1.0);
  if (std::round(difference * std::pow(10.0, places)) == 0.0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << expected << ", got " << actual << " (" << places
                                       << " places)";
}

// Extra-P's assertApproxFunction for a model of at most one term.
::testing::AssertionResult SameFunction(const NormalForm& expected, const NormalForm& actual, int places = 6) {
  if (auto constant = Approx(expected.constant, actual.constant, places); !constant)
    return constant << " in the constant of " << actual.text();
  if (expected.terms.size() != actual.terms.size())
    return ::testing::AssertionFailure() << "expected " << expected.text() << ", got " << actual.text();
  for (std::size_t k = 0; k < expected.terms.size(); ++k) {
    const auto &want = expected.terms[k], &got = actual.terms[k];
    if (!Approx(want.term.power.value(), got.term.power.value(), places) || want.term.log_power != got.term.log_power)
      return ::testing::AssertionFailure() << "expected " << expected.text() << ", got " << actual.text();
    if (auto coefficient = Approx(want.coefficient, got.coefficient, places); !coefficient)
      return coefficient << " in the coefficient of " << actual.text();
  }
  return ::testing::AssertionSuccess();
}

std::vector<ScalingPoint> Sampled(const NormalForm& function, const std::vector<double>& at) {
  std::vector<ScalingPoint> points;
  for (double x : at) points.push_back({x, {function.at(x)}});
  return points;
}

std::vector<ScalingPoint> PointsOf(const ScalingSeries& series) {
  std::vector<ScalingPoint> points;
  for (const auto& measurement : series.points) points.push_back({measurement.x, measurement.values});
  return points;
}

NormalForm Model(double constant, int numerator, int denominator, int log_power, double coefficient) {
  return NormalForm{constant, {{coefficient, Term{Exponent(numerator, denominator), log_power}}}};
}

// -------------------------------------------------------- printing, pieces

TEST(PythonRepr, WritesFloatsAsPythonsReprDoes) {
  EXPECT_EQ(python_repr(0.25), "0.25");
  EXPECT_EQ(python_repr(100.0), "100.0");
  EXPECT_EQ(python_repr(1e-5), "1e-05");
  EXPECT_EQ(python_repr(0.0001), "0.0001");
  EXPECT_EQ(python_repr(0.00012), "0.00012");
  EXPECT_EQ(python_repr(1e16), "1e+16");
  EXPECT_EQ(python_repr(1234567890123456.0), "1234567890123456.0");
  EXPECT_EQ(python_repr(-0.889793409806316), "-0.889793409806316");
  EXPECT_EQ(python_repr(9.999979858002777e-07), "9.999979858002777e-07");
  EXPECT_EQ(python_repr(1.5e300), "1.5e+300");
  EXPECT_EQ(python_repr(-0.0), "-0.0");
  EXPECT_EQ(python_repr(0.1 + 0.2), "0.30000000000000004");
}

TEST(NormalForm, PrintsAsExtraPPrints) {
  EXPECT_EQ(Model(-0.889793409806316, 2, 1, 0, 0.20168243826499177).text(),
            "-0.889793409806316 + 0.20168243826499177 * x^(2)");
  EXPECT_EQ(Model(0.0, 1, 2, 1, 3.0).text("p"), "3.0 * p^(1/2) * log2(p)^(1)");
  EXPECT_EQ(Model(2.0, 0, 1, 2, 1.0).text(), "2.0 + log2(x)^(2)");
  EXPECT_EQ(Model(2.0, -3, 4, 0, -1.5).text("C"), "2.0 + -1.5 * C^(-3/4)");
  EXPECT_EQ((NormalForm{4.068, {}}.text()), "4.068");
}

TEST(NormalForm, EvaluatesPowersAndBaseTwoLogarithms) {
  EXPECT_DOUBLE_EQ(Model(1.0, 3, 2, 2, 2.0).at(16.0), 1.0 + 2.0 * 64.0 * 16.0);
  EXPECT_DOUBLE_EQ(Model(0.0, -1, 1, 0, 8.0).at(4.0), 2.0);
}

TEST(Exponent, IsKeptReducedWithAPositiveDenominator) {
  EXPECT_EQ(Exponent(2, 4).text(), "1/2");
  EXPECT_EQ(Exponent(3, -6).text(), "-1/2");
  EXPECT_EQ(Exponent(4, 2).text(), "2");
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([] { Exponent(1, 0); }, {"1/0"}));
}

TEST(LeastSquares, SolvesAnOverdeterminedSystemExactly) {
  // y = 3 - 2 x + 0.5 x^2 at five points.
  std::vector<double> a, y;
  for (double x : {1.0, 2.0, 3.0, 5.0, 8.0}) {
    a.insert(a.end(), {1.0, x, x * x});
    y.push_back(3.0 - 2.0 * x + 0.5 * x * x);
  }
  const auto c = least_squares(a, 3, y);
  EXPECT_TRUE(testing_support::ScaledNear(c[0], 3.0, 1e-12));
  EXPECT_TRUE(testing_support::ScaledNear(c[1], -2.0, 1e-12));
  EXPECT_TRUE(testing_support::ScaledNear(c[2], 0.5, 1e-12));
}

TEST(LeastSquares, GivesTheMinimumNormSolutionOfARankDeficientSystem) {
  // Two equal columns: every c0 + c1 = 2 fits; the shortest is (1, 1), as numpy's lstsq gives.
  const std::vector<double> a{1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, y{2.0, 2.0, 2.0};
  const auto c = least_squares(a, 2, y);
  EXPECT_TRUE(testing_support::ScaledNear(c[0], 1.0, 1e-12));
  EXPECT_TRUE(testing_support::ScaledNear(c[1], 1.0, 1e-12));
  // One equation, two unknowns: the shortest solution of c0 + 3 c1 = 10 is (1, 3).
  const auto short_one = least_squares(std::vector<double>{1.0, 3.0}, 2, std::vector<double>{10.0});
  EXPECT_TRUE(testing_support::ScaledNear(short_one[0], 1.0, 1e-12));
  EXPECT_TRUE(testing_support::ScaledNear(short_one[1], 3.0, 1e-12));
}

TEST(BuildingBlocks, AreExtraPsInItsOrder) {
  const auto blocks = building_blocks(SearchOptions::extra_p());
  ASSERT_EQ(blocks.size(), 42u);
  EXPECT_EQ(blocks.front().text(), "log2(x)^(1)");
  EXPECT_EQ(blocks[15].text(), "x^(4/5)");
  EXPECT_EQ(blocks.back().text(), "x^(3) * log2(x)^(1)");
  auto with_negative = SearchOptions::extra_p();
  with_negative.negative_exponents = true;
  const auto all = building_blocks(with_negative);
  ASSERT_EQ(all.size(), 84u);
  EXPECT_EQ(all[42].text(), "log2(x)^(-1)");
  EXPECT_EQ(all[65].text(), "x^(-1/4)");
  EXPECT_EQ(all.back().text(), "x^(-3)");
  with_negative.log_terms = false;
  EXPECT_EQ(building_blocks(with_negative).size(), 38u);
}

// ------------------------------------------ Extra-P's own test cases

// test_console.py (test_print): one_parameter_1.txt's model is
// -0.88979340... + 0.20168243... * x^(2), RSS 3.43E+01, Adjusted R^2 1.00E+00.
TEST(ExtraPTestCases, OneParameter1GivesExtraPsModel) {
  const auto measurements = read_scaling_measurements(extra_p_data + "one_parameter_1.txt");
  ASSERT_EQ(measurements.series.size(), 1u);
  const auto fitted = search_model(PointsOf(measurements.series.front()), SearchOptions::extra_p());
  const std::string text = fitted.function.text();
  EXPECT_TRUE(std::regex_match(text, std::regex(R"(-0\.88979340\d+ \+ 0\.20168243\d+ \* x\^\(2\))"))) << text;
  EXPECT_TRUE(SameFunction(Model(-0.88979340, 2, 1, 0, 0.20168243), fitted.function));
  EXPECT_EQ(fmt::format("{:.2E}", fitted.rss), "3.43E+01");
  EXPECT_EQ(fmt::format("{:.2E}", fitted.adjusted_r_squared), "1.00E+00");
}

// test_modeling.py (test_default_single_parameter_modeling), one_parameter_6.txt:
// met1 constant 4.068 (7 places), met2 to met4 one term x^(2).
TEST(ExtraPTestCases, OneParameter6GivesAConstantAndThreeSquares) {
  const auto measurements = read_scaling_measurements(extra_p_data + "one_parameter_6.txt");
  ASSERT_EQ(measurements.series.size(), 4u);
  const auto met1 = search_model(PointsOf(measurements.series[0]), SearchOptions::extra_p());
  EXPECT_TRUE(met1.function.terms.empty());
  EXPECT_NEAR(met1.function.constant, 4.068, 0.5e-7);
  for (std::size_t s = 1; s < 4; ++s) {
    const auto fitted = search_model(PointsOf(measurements.series[s]), SearchOptions::extra_p());
    ASSERT_EQ(fitted.function.terms.size(), 1u) << measurements.series[s].callpath;
    EXPECT_EQ(fitted.function.terms[0].term, (Term{Exponent(2), 0})) << fitted.function.text();
  }
}

const std::vector<std::vector<int>> every_block = {
    {0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1}, {1, 3, 1}, {1, 4, 2}, {1, 3, 2}, {1, 2, 0},
    {1, 2, 1}, {1, 2, 2}, {2, 3, 0}, {3, 4, 0}, {2, 3, 1}, {3, 4, 1}, {4, 5, 0}, {2, 3, 2}, {3, 4, 2},
    {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {5, 4, 0}, {5, 4, 1}, {4, 3, 0}, {4, 3, 1}, {3, 2, 0}, {3, 2, 1},
    {3, 2, 2}, {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2}, {9, 4, 0}, {7, 3, 0}, {5, 2, 0},
    {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};
const std::vector<std::vector<int>> some_blocks = {
    {0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 2, 0}, {1, 2, 1}, {1, 2, 2}, {2, 3, 0}, {1, 1, 0},
    {1, 1, 1}, {1, 1, 2}, {5, 4, 0}, {4, 3, 0}, {3, 2, 0}, {5, 3, 0}, {7, 4, 0}, {2, 1, 0},
    {9, 4, 0}, {7, 3, 0}, {5, 2, 0}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};
const std::vector<double> doubling = {2, 4, 8, 16, 32};

// test_basic_modeler.py test_modeling: 200 + 10 term(x) for every block.
TEST(ExtraPTestCases, EveryBlockIsRecoveredFromFivePoints) {
  for (const auto& b : every_block) {
    const auto truth = Model(200, b[0], b[1], b[2], 10);
    EXPECT_TRUE(SameFunction(truth, search_model(Sampled(truth, doubling), SearchOptions::extra_p()).function));
  }
}

// test_modeling2 (coefficients 200 to 500000, constant 200) and test_modeling3
// (coefficient 1000, constants 200 to 500000).
TEST(ExtraPTestCases, BlocksAreRecoveredAtEveryCoefficientAndConstant) {
  for (const auto& b : some_blocks)
    for (double scale : {200.0, 3000.0, 40000.0, 500000.0}) {
      const auto steep = Model(200, b[0], b[1], b[2], scale);
      EXPECT_TRUE(SameFunction(steep, search_model(Sampled(steep, doubling), SearchOptions::extra_p()).function));
      const auto raised = Model(scale, b[0], b[1], b[2], 1000);
      EXPECT_TRUE(SameFunction(raised, search_model(Sampled(raised, doubling), SearchOptions::extra_p()).function));
    }
}

// test_modeling_negative_exponents: the blocks negated, coefficient 1000,
// constants 2 to 5000, with negative exponents allowed.
TEST(ExtraPTestCases, NegativeBlocksAreRecoveredWhenAllowed) {
  auto options = SearchOptions::extra_p();
  options.negative_exponents = true;
  for (const auto& b : some_blocks)
    for (double constant : {2.0, 30.0, 400.0, 5000.0}) {
      const auto truth = Model(constant, -b[0], b[1], -b[2], 1000);
      EXPECT_TRUE(SameFunction(truth, search_model(Sampled(truth, doubling), options).function));
    }
}

// test_compare: 43 data sets without cross-validation, checked to 3 places.
TEST(ExtraPTestCases, WithoutCrossValidationTheComparisonsAgree) {
  std::ifstream file(extra_p_data + "test_compare.txt");
  ASSERT_TRUE(file) << "test_compare.txt";
  auto options = SearchOptions::extra_p();
  options.cross_validation = false;
  std::size_t cases = 0;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line.front() == '#') continue;
    std::istringstream in(line);
    std::string first;
    in >> first;
    NormalForm expected;
    double power = 0.0, log_power = 0.0, c0 = 0.0, c1 = 0.0;
    if (first != "constant") {
      power = std::stod(first);
      in >> log_power;
    }
    in >> c0 >> c1;
    std::vector<ScalingPoint> points;
    for (double x : {4.0, 8.0, 16.0, 32.0, 64.0, 128.0}) {
      double value = 0.0;
      in >> value;
      points.push_back({x, {value}});
    }
    ASSERT_TRUE(in) << line;
    const auto fitted = search_model(points, options).function;
    ++cases;
    EXPECT_TRUE(Approx(c0, fitted.constant, 3)) << line << "\n got " << fitted.text();
    if (first == "constant") {
      EXPECT_TRUE(fitted.terms.empty()) << fitted.text();
      continue;
    }
    ASSERT_EQ(fitted.terms.size(), 1u) << line;
    EXPECT_TRUE(Approx(power, fitted.terms[0].term.power.value(), 3)) << line << "\n got " << fitted.text();
    EXPECT_EQ(fitted.terms[0].term.log_power, static_cast<int>(log_power)) << fitted.text();
    EXPECT_TRUE(Approx(c1, fitted.terms[0].coefficient, 3)) << line << "\n got " << fitted.text();
  }
  EXPECT_EQ(cases, 43u);
}

// --------------------------------------------------- beyond Extra-P's search

TEST(ModelSearch, FindsATwoTermStrongScalingModel) {
  // a / p + b p log2 p: computation shrinking, communication growing.
  const NormalForm truth{0.5, {{40.0, Term{Exponent(-1), 0}}, {0.01, Term{Exponent(1), 1}}}};
  SearchOptions two_terms;
  two_terms.max_terms = 2;
  const auto fitted = search_model(Sampled(truth, {2, 4, 6, 8, 12, 16}), two_terms);
  ASSERT_EQ(fitted.function.terms.size(), 2u) << fitted.function.text();
  for (double p : {32.0, 64.0}) EXPECT_TRUE(testing_support::RelNear(fitted.function.at(p), truth.at(p), 1e-6));
}

TEST(ModelSearch, KeepsTheHeldOutFitsOfEveryPoint) {
  const auto truth = Model(1.0, 1, 1, 0, 2.0);
  const auto fitted = search_model(Sampled(truth, {1, 2, 3, 4}), SearchOptions::extra_p());
  ASSERT_EQ(fitted.held_out_functions.size(), 4u);
  ASSERT_EQ(fitted.held_out_predictions.size(), 4u);
  EXPECT_EQ(fitted.fitted_values, (std::vector<double>{3.0, 5.0, 7.0, 9.0}));
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(testing_support::ScaledNear(fitted.held_out_predictions[i], truth.at(i + 1.0), 1e-9));
}

TEST(ModelSearch, OneTermByDefault) {
  const NormalForm truth{0.5, {{40.0, Term{Exponent(-1), 0}}, {0.01, Term{Exponent(1), 1}}}};
  const auto fitted = search_model(Sampled(truth, {2, 4, 6, 8, 12, 16}));
  EXPECT_EQ(fitted.function.terms.size(), 1u) << fitted.function.text();
}

TEST(Backtests, RefitTheChosenModelOnTheSmallestScalesAndPredictTheLarger) {
  const auto truth = Model(1.0, 1, 2, 0, 3.0);  // 1 + 3 x^(1/2)
  // Given out of order: the backtests go by scale.
  const auto fitted = search_model(Sampled(truth, {8, 1, 4, 2, 16}));
  ASSERT_EQ(fitted.function.terms.size(), 1u);
  EXPECT_EQ(fitted.scales, (std::vector<double>{8, 1, 4, 2, 16}));
  // Two coefficients: fitted on the smallest 2, 3 and 4 scales, 3 + 2 + 1 predictions.
  ASSERT_EQ(fitted.backtests.size(), 6u);
  const double up_to[] = {2, 2, 2, 4, 4, 8}, at[] = {4, 8, 16, 8, 16, 16};
  for (std::size_t b = 0; b < 6; ++b) {
    EXPECT_EQ(fitted.backtests[b].fitted_up_to, up_to[b]);
    EXPECT_EQ(fitted.backtests[b].x, at[b]);
    EXPECT_EQ(fitted.backtests[b].measured, truth.at(at[b]));
    EXPECT_TRUE(testing_support::ScaledNear(fitted.backtests[b].predicted, truth.at(at[b]), 1e-9));
  }
  EXPECT_LT(error_per_doubling(fitted), 1e-9);  // exact data carry exactly
}

TEST(Backtests, GiveTheRootMeanSquareRelativeErrorPerDoubling) {
  FittedModel fitted;
  fitted.backtests = {{2, 4, 1.1, 1.0},    // 0.1 / 1.1 in one doubling
                      {2, 8, 0.5, 1.0},    // 0.5 / 1.0 in two
                      {2, 8, 1.0, 0.0},    // nothing measured: left out
                      {4, 4, 2.0, 1.0}};   // no doubling: left out
  const double a = 0.1 / 1.1, b = 0.25;
  EXPECT_DOUBLE_EQ(error_per_doubling(fitted), std::sqrt((a * a + b * b) / 2));
  EXPECT_EQ(error_per_doubling(FittedModel{}), 0.0);
}

TEST(Predict, WidensTheHeldOutFitsByTheirErrorsAndByTheDoublingsBeyondTheScales) {
  FittedModel fitted;
  fitted.function = NormalForm{10.0, {}};
  fitted.scales = {1.0, 2.0};
  fitted.fitted_values = {10.0, 10.0};
  fitted.held_out_functions = {NormalForm{9.0, {}}, NormalForm{11.0, {}}};
  fitted.held_out_predictions = {9.0, 11.0};
  fitted.backtests = {{1.0, 2.0, 12.0, 10.0}};  // 2 / 12 per doubling
  const double held_out = std::sqrt((0.1 * 0.1 + (1.0 / 11) * (1.0 / 11)) / 2);
  const auto inside = predict(fitted, 1.5);
  EXPECT_EQ(inside.value, 10.0);
  EXPECT_DOUBLE_EQ(inside.low, 9.0 / (1 + held_out));
  EXPECT_DOUBLE_EQ(inside.high, 11.0 * (1 + held_out));
  const double h = held_out + 2 * (2.0 / 12);  // at 8: two doublings beyond 2
  const auto beyond = predict(fitted, 8.0);
  EXPECT_DOUBLE_EQ(beyond.low, 9.0 / (1 + h));
  EXPECT_DOUBLE_EQ(beyond.high, 11.0 * (1 + h));
  const auto below = predict(fitted, 0.25);  // two doublings below 1
  EXPECT_DOUBLE_EQ(below.high, 11.0 * (1 + h));
  // A negative value (unconstrained coefficients) moves away from 0 as much.
  fitted.held_out_functions = {NormalForm{-9.0, {}}, NormalForm{-11.0, {}}};
  fitted.function = NormalForm{-10.0, {}};
  const auto negative = predict(fitted, 1.5);
  EXPECT_DOUBLE_EQ(negative.low, -11.0 - 11.0 * held_out / (1 + held_out));
  EXPECT_DOUBLE_EQ(negative.high, -9.0 + 9.0 * held_out);
}

TEST(SumOfModels, AddsTheFunctionsAndTheHeldOutFitsAndScoresTheSum) {
  const auto first = search_model(Sampled(Model(1.0, -1, 1, 0, 8.0), {1, 2, 4, 8}));  // 1 + 8/x
  const auto second = search_model(Sampled(Model(0.5, 1, 1, 0, 0.25), {1, 2, 4, 8}));  // 0.5 + x/4
  std::vector<double> measured;
  for (double x : {1.0, 2.0, 4.0, 8.0}) measured.push_back(1.5 + 8 / x + x / 4);
  const std::vector<FittedModel> parts{first, second};
  const auto sum = sum_of_models(parts, measured);
  EXPECT_TRUE(testing_support::ScaledNear(sum.function.constant, 1.5, 1e-9));
  ASSERT_EQ(sum.function.terms.size(), 2u);
  EXPECT_TRUE(testing_support::ScaledNear(sum.function.at(16.0), 1.5 + 0.5 + 4.0, 1e-9));
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(sum.held_out_predictions[i], first.held_out_predictions[i] + second.held_out_predictions[i]);
    EXPECT_DOUBLE_EQ(sum.held_out_functions[i].at(3.0),
                     first.held_out_functions[i].at(3.0) + second.held_out_functions[i].at(3.0));
  }
  EXPECT_LT(sum.smape, 1e-6);
  EXPECT_EQ(sum.hypotheses_tried, first.hypotheses_tried + second.hypotheses_tried);
  EXPECT_TRUE(sum.backtests.empty());
  // Like terms are merged.
  const std::vector<FittedModel> twice{first, first};
  EXPECT_EQ(sum_of_models(twice, measured).function.terms.size(), 1u);
  // Parts at other scales, or measured values of another count, are refused.
  const auto elsewhere = search_model(Sampled(Model(1.0, -1, 1, 0, 8.0), {1, 2, 4, 16}));
  const std::vector<FittedModel> mismatched{first, elsewhere};
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { sum_of_models(mismatched, measured); },
                                                          {"sum_of_models"}));
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming(
      [&] { sum_of_models(parts, std::vector<double>{1.0}); }, {"1 measured values", "4 scales"}));
}

TEST(ModelSearch, ConstantDataGiveTheConstant) {
  const auto fitted = search_model(std::vector<ScalingPoint>{{2, {5.0}}, {4, {5.0}}, {8, {5.0}}});
  EXPECT_TRUE(fitted.function.terms.empty());
  EXPECT_EQ(fitted.function.constant, 5.0);
  EXPECT_EQ(fitted.hypotheses_tried, 1u);
}

TEST(ModelSearch, UsesTheChosenMeasureOfTheRepetitions) {
  const ScalingPoint point{2.0, {5.0, 1.0, 3.0, 100.0}};
  EXPECT_EQ(measured_value(point, Measure::mean), 27.25);
  EXPECT_EQ(measured_value(point, Measure::median), 4.0);
  EXPECT_EQ(measured_value(point, Measure::minimum), 1.0);
  EXPECT_EQ(measured_value(point, Measure::maximum), 100.0);
}

TEST(ModelSearch, RefusesWhatNoModelCanBeFittedTo) {
  using testing_support::ThrowsInvalidArgumentNaming;
  const auto search = [](std::vector<ScalingPoint> points) { return [points] { search_model(points); }; };
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(search({{2, {1.0}}}), {"1 point(s)"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(search({{2, {1.0}}, {0, {2.0}}}), {"scale 0", "> 0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(search({{2, {1.0}}, {-4, {2.0}}}), {"scale -4"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(search({{2, {1.0}}, {2, {2.0}}}), {"two points at x = 2"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(search({{2, {1.0}}, {4, {}}}), {"x = 4", "no values"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(search({{2, {1.0}}, {4, {NAN}}}), {"finite"}));
  SearchOptions three;
  three.max_terms = 3;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { search_model(std::vector<ScalingPoint>{{1, {1.0}}, {2, {2.0}}}, three); },
                                          {"max_terms 3"}));
}

}  // namespace
}  // namespace hetscale::empirical
