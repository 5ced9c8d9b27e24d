#pragma once
// Choosing a performance-model normal form for measurements at several scales,
// as Extra-P's default single-parameter modeler does (Calotoiu et al. 2013;
// Extra-P 4.2's "Basic" modeler), and beyond it: hypotheses c0 + c1 t1(x)
// [+ c2 t2(x)] from a fixed set of terms, each fitted by least squares and
// scored by leave-one-out cross-validation (SMAPE), the constant model first.
// With SearchOptions::extra_p() the result is Extra-P's, to its printed
// digits (tests/empirical/model_search_test.cpp runs Extra-P's test cases).
// Pure: no I/O. docs/prediction.md.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hetscale/empirical/normal_form.hpp"

namespace hetscale::empirical {

// The value of a point a model is fitted to, from its repetitions.
enum class Measure { mean, median, minimum, maximum };
// "mean", "median", "minimum", "maximum"; std::invalid_argument otherwise.
Measure measure_from_string(const std::string& name);

struct SearchOptions {
  // 1 or 2 terms beside the constant. One, as Extra-P: two terms fitted to a
  // handful of noisy points pick up a steep second term that the points do
  // not show and that dominates at twice the scale (docs/prediction.md).
  std::size_t max_terms = 1;
  bool negative_exponents = true;   // x^(-i) log2(x)^(-j) too: a/p + b p log p for strong scaling
  bool log_terms = true;            // log2(x)^j factors (left out when some x < 1)
  Measure measure = Measure::mean;  // how a point's repetitions become one value
  // A candidate is refused when its smallest term adds less than this
  // fraction of the measured value at every point (Extra-P: 0.0005).
  double minimum_term_contribution = 0.0005;
  // A time is a sum of costs: the constant and every coefficient >= 0, fitted
  // by non-negative least squares. Unconstrained (Extra-P), a negative
  // constant and terms that cancel each other fit a handful of noisy points
  // and part beyond them, to negative times at twice the scale.
  bool nonnegative_coefficients = true;
  // Score by leave-one-out cross-validation (Extra-P's default). Without it,
  // by the in-sample error of the fit on every point, with Extra-P's
  // cleaning of a negligible constant (below 0.001 of the smallest value).
  bool cross_validation = true;

  // Extra-P 4.2's defaults: one term, no negative exponents, the mean, any signs.
  static SearchOptions extra_p();
};

// The search in words: "Extra-P's default search: one term ..." or hetscale's.
std::string search_description(const SearchOptions& options);

// One scale, x > 0, with the repetitions measured there.
struct ScalingPoint {
  double x = 0.0;
  std::vector<double> values;
};

double measured_value(const ScalingPoint& point, Measure measure);

// Extra-P's building blocks in Extra-P's order (its tie-breaks depend on it):
// the 42 terms of x^(i) log2(x)^(j) with i in {0, 1/4, 1/3, ..., 3} and j in
// {0, 1, 2}, then with negative exponents its 23 negative-log and 19
// negative-power terms. With log_terms false: the 19 (or 38) power terms.
std::vector<Term> building_blocks(const SearchOptions& options);

struct FittedModel {
  NormalForm function;
  // Leave-one-out cross-validation of the chosen hypothesis (for the constant,
  // and without cross_validation, in-sample, as Extra-P scores them): residual
  // sum of squares and the symmetric mean absolute percentage error, 0..200.
  double rss = 0.0, smape = 0.0;
  // 1 - (RSS / TSS)(n - 1)/(n - 1 - terms); 1 for the constant, NaN when n - 1 = terms.
  double adjusted_r_squared = 1.0;
  std::size_t hypotheses_tried = 0;  // the constant and each hypothesis the points determine
  // The value fitted at each point, in order (the measure of its repetitions).
  std::vector<double> fitted_values;
  // Fitted without point i, for each point in order: its prediction at x_i
  // and the function itself (the spread of a prediction, analysis/prediction).
  std::vector<double> held_out_predictions;
  std::vector<NormalForm> held_out_functions;
  // The scale of each point, in order.
  std::vector<double> scales;
  // How the chosen hypothesis carries beyond what it was fitted to: refitted
  // on the k smallest scales (k from its number of coefficients to n - 1), its
  // prediction at each larger scale. Empty for a model that is not a search's
  // (sum_of_models).
  struct Backtest {
    double fitted_up_to = 0.0;  // the largest scale of the k fitted
    double x = 0.0;             // a larger scale, predicted
    double predicted = 0.0, measured = 0.0;
  };
  std::vector<Backtest> backtests;
};

// The root mean square, over the backtests with a measured value other than
// 0, of the relative error per doubling of the scale beyond the largest one
// fitted: |predicted - measured| / max(|predicted|, |measured|) / log2(x /
// fitted_up_to). 0 without backtests.
double error_per_doubling(const FittedModel& fitted);

// The model's value at x, and an interval: the values at x of the models
// fitted without each point in turn, widened by the factor 1 + h, where h is
// the root mean square of the relative errors (|predicted - measured| /
// max(|predicted|, |measured|), at most 1) with which those models predicted
// the point left out, plus error_per_doubling times the doublings
// from the measured scales to x (none inside them): low = lowest / (1 + h),
// high = highest x (1 + h) (for a negative value, away from 0 by as much).
struct Prediction {
  double x = 0.0;
  double value = 0.0, low = 0.0, high = 0.0;
};
Prediction predict(const FittedModel& fitted, double x);

// Throws std::invalid_argument naming the value when there are fewer than two
// points, a point without values, an x that is not > 0 or not finite, two
// points at the same x, a value that is not finite, or max_terms not 1 or 2.
// A hypothesis is tried only when the points minus one determine it (n - 1 >=
// its coefficients); hypotheses whose leave-one-out error is not finite are
// skipped. Least squares as numpy.linalg.lstsq solves it (SVD, minimum norm).
FittedModel search_model(std::span<const ScalingPoint> points, const SearchOptions& options = {});

// The model of a sum, from models of its parts fitted at the same scales, in
// the same order: c0 and the terms added (like terms merged), the held-out
// fits and predictions added point by point; scored (rss, smape) against
// `measured`, the sum's own values there. Its backtests are left empty: the
// sum's interval is the parts' (analysis/prediction). Throws
// std::invalid_argument naming the sizes when the parts do not share their
// scales or `measured` has another size.
FittedModel sum_of_models(std::span<const FittedModel> parts, std::span<const double> measured);

// Least squares with every coefficient >= 0: the best of the unconstrained
// solutions on each subset of the columns that has no negative coefficient
// (exact for the few columns of a hypothesis: 2^columns subsets).
std::vector<double> nonnegative_least_squares(std::span<const double> a, std::size_t columns,
                                              std::span<const double> y);

// Least squares of y on the columns of a (rows x columns, row-major), by a
// singular value decomposition with numpy's default cut-off (eps max(rows,
// columns) sigma_max): the minimum-norm solution when a is rank-deficient.
std::vector<double> least_squares(std::span<const double> a, std::size_t columns, std::span<const double> y);

}  // namespace hetscale::empirical
