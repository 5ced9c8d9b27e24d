#include "hetscale/empirical/model_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace hetscale::empirical {

Measure measure_from_string(const std::string& name) {
  if (name == "mean") return Measure::mean;
  if (name == "median") return Measure::median;
  if (name == "minimum") return Measure::minimum;
  if (name == "maximum") return Measure::maximum;
  throw std::invalid_argument(fmt::format("'{}': one of mean, median, minimum, maximum", name));
}

SearchOptions SearchOptions::extra_p() {
  SearchOptions options;
  options.max_terms = 1;
  options.negative_exponents = false;
  options.nonnegative_coefficients = false;
  return options;
}

std::string search_description(const SearchOptions& options) {
  const auto defaults = SearchOptions::extra_p();
  const bool extra_p = options.max_terms == defaults.max_terms &&
                       options.negative_exponents == defaults.negative_exponents &&
                       options.log_terms == defaults.log_terms &&
                       options.nonnegative_coefficients == defaults.nonnegative_coefficients &&
                       options.cross_validation == defaults.cross_validation;
  std::string text = extra_p ? "Extra-P's default search: " : "hetscale's search: ";
  text += options.max_terms == 1 ? "c0 + c1 t(x)" : "c0 + c1 t1(x) [+ c2 t2(x)]";
  text += options.log_terms ? ", t = x^i log2(x)^j" : ", t = x^i";
  text += options.negative_exponents ? ", i and j also negative" : "";
  text += options.nonnegative_coefficients ? ", every coefficient >= 0" : "";
  text += options.cross_validation ? ", the smallest leave-one-out SMAPE" : ", the smallest SMAPE";
  return text;
}

double measured_value(const ScalingPoint& point, Measure measure) {
  if (point.values.empty()) throw std::invalid_argument(fmt::format("the point at x = {} has no values", point.x));
  auto values = point.values;
  std::sort(values.begin(), values.end());
  switch (measure) {
    case Measure::median: {
      const std::size_t middle = values.size() / 2;
      return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
    }
    case Measure::minimum:
      return values.front();
    case Measure::maximum:
      return values.back();
    case Measure::mean:
      break;
  }
  return std::accumulate(point.values.begin(), point.values.end(), 0.0) / static_cast<double>(point.values.size());
}

std::vector<Term> building_blocks(const SearchOptions& options) {
  // Extra-P 4.2, modelers/single_parameter/basic.py: (a, b, c) is x^(a/b) log2(x)^c.
  struct Triple {
    int a, b, c;
  };
  static constexpr Triple positive[] = {{0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1},  {1, 3, 1}, {1, 4, 2},
                                        {1, 3, 2}, {1, 2, 0}, {1, 2, 1}, {1, 2, 2}, {2, 3, 0},  {3, 4, 0}, {2, 3, 1},
                                        {3, 4, 1}, {4, 5, 0}, {2, 3, 2}, {3, 4, 2}, {1, 1, 0},  {1, 1, 1}, {1, 1, 2},
                                        {5, 4, 0}, {5, 4, 1}, {4, 3, 0}, {4, 3, 1}, {3, 2, 0},  {3, 2, 1}, {3, 2, 2},
                                        {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2},  {9, 4, 0}, {7, 3, 0},
                                        {5, 2, 0}, {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};
  static constexpr Triple negative_log[] = {
      {0, 1, -1},  {0, 1, -2},  {-1, 4, -1}, {-1, 3, -1}, {-1, 4, -2}, {-1, 3, -2}, {-1, 2, -1}, {-1, 2, -2},
      {-2, 3, -1}, {-3, 4, -1}, {-2, 3, -2}, {-3, 4, -2}, {-1, 1, -1}, {-1, 1, -2}, {-5, 4, -1}, {-4, 3, -1},
      {-3, 2, -1}, {-3, 2, -2}, {-2, 1, -1}, {-2, 1, -2}, {-5, 2, -1}, {-5, 2, -2}, {-3, 1, -1}};
  std::vector<Term> blocks;
  const auto add = [&](const Triple& t) { blocks.push_back(Term{Exponent(t.a, t.b), t.c}); };
  for (const auto& t : positive)
    if (options.log_terms || t.c == 0) add(t);
  if (options.negative_exponents) {
    if (options.log_terms)
      for (const auto& t : negative_log) add(t);
    for (const auto& t : positive)
      if (t.c == 0) add({-t.a, t.b, 0});
  }
  return blocks;
}

// ------------------------------------------------------------ least squares

std::vector<double> least_squares(std::span<const double> a, std::size_t columns, std::span<const double> y) {
  if (columns == 0 || a.size() % columns != 0 || a.size() / columns != y.size())
    throw std::invalid_argument(fmt::format("least squares: a matrix of {} values in {} columns against {} values",
                                            a.size(), columns, y.size()));
  const std::size_t rows = y.size();
  // One-sided Jacobi (Hestenes): rotate columns of w = a until they are
  // orthogonal; then w = U Sigma, and v holds the rotations, a = U Sigma v^T.
  std::vector<double> w(a.begin(), a.end()), v(columns * columns, 0.0);
  for (std::size_t j = 0; j < columns; ++j) v[j * columns + j] = 1.0;
  const auto column_dot = [&](std::size_t p, std::size_t q) {
    double sum = 0.0;
    for (std::size_t r = 0; r < rows; ++r) sum += w[r * columns + p] * w[r * columns + q];
    return sum;
  };
  constexpr double eps = std::numeric_limits<double>::epsilon();
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (std::size_t p = 0; p + 1 < columns; ++p)
      for (std::size_t q = p + 1; q < columns; ++q) {
        const double alpha = column_dot(p, p), beta = column_dot(q, q), gamma = column_dot(p, q);
        if (gamma == 0.0 || std::abs(gamma) <= eps * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2.0 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1.0 + zeta * zeta));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = c * t;
        const auto rotate = [&](std::vector<double>& m, std::size_t count) {
          for (std::size_t r = 0; r < count; ++r) {
            const double mp = m[r * columns + p], mq = m[r * columns + q];
            m[r * columns + p] = c * mp - s * mq;
            m[r * columns + q] = s * mp + c * mq;
          }
        };
        rotate(w, rows);
        rotate(v, columns);
      }
    if (!rotated) break;
  }
  std::vector<double> sigma(columns);
  for (std::size_t j = 0; j < columns; ++j) sigma[j] = std::sqrt(column_dot(j, j));
  const double cutoff =
      eps * static_cast<double>(std::max(rows, columns)) * *std::max_element(sigma.begin(), sigma.end());
  std::vector<double> solution(columns, 0.0);
  for (std::size_t j = 0; j < columns; ++j) {
    if (!(sigma[j] > cutoff)) continue;
    double projection = 0.0;  // u_j . y, u_j = w_j / sigma_j
    for (std::size_t r = 0; r < rows; ++r) projection += w[r * columns + j] * y[r];
    const double weight = projection / (sigma[j] * sigma[j]);
    for (std::size_t i = 0; i < columns; ++i) solution[i] += weight * v[i * columns + j];
  }
  return solution;
}

std::vector<double> nonnegative_least_squares(std::span<const double> a, std::size_t columns,
                                              std::span<const double> y) {
  if (columns == 0 || columns > 16 || a.size() % columns != 0 || a.size() / columns != y.size())
    throw std::invalid_argument(
        fmt::format("nonnegative least squares: a matrix of {} values in {} columns against {} values", a.size(),
                    columns, y.size()));
  const std::size_t rows = y.size();
  // Most fits of a time need no constraint: then the plain solution is the answer.
  if (auto plain = least_squares(a, columns, y);
      std::all_of(plain.begin(), plain.end(), [](double c) { return c >= 0.0; }))
    return plain;
  std::vector<double> best(columns, 0.0);
  double best_rss = 0.0;
  for (double value : y) best_rss += value * value;  // every coefficient 0
  for (std::size_t subset = 1; subset < (std::size_t{1} << columns); ++subset) {
    std::vector<std::size_t> kept;
    for (std::size_t j = 0; j < columns; ++j)
      if (subset & (std::size_t{1} << j)) kept.push_back(j);
    std::vector<double> sub;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t j : kept) sub.push_back(a[r * columns + j]);
    const auto solution = least_squares(sub, kept.size(), y);
    if (std::any_of(solution.begin(), solution.end(), [](double c) { return c < 0.0; })) continue;
    std::vector<double> full(columns, 0.0);
    for (std::size_t k = 0; k < kept.size(); ++k) full[kept[k]] = solution[k];
    double rss = 0.0;
    for (std::size_t r = 0; r < rows; ++r) {
      double predicted = 0.0;
      for (std::size_t j = 0; j < columns; ++j) predicted += a[r * columns + j] * full[j];
      rss += (predicted - y[r]) * (predicted - y[r]);
    }
    if (rss < best_rss) best_rss = rss, best = std::move(full);
  }
  return best;
}

// ------------------------------------------------------------------ search

namespace {

struct Scores {
  double rss = 0.0, smape = 0.0;
};

// Extra-P's SMAPE share of one point: 2|d| / (|y| + |p|), none for 0 / 0.
double smape_share(double predicted, double measured) {
  const double scale = std::abs(measured) + std::abs(predicted);
  return scale == 0.0 ? 0.0 : 2.0 * std::abs(predicted - measured) / scale;
}

// 1 - (RSS / TSS)(n - 1)/(n - 1 - terms): 1 when the values do not vary (the
// constant fits them), NaN when n - 1 = terms.
double adjusted_r_squared(double rss, double total_sum_of_squares, std::size_t points, std::size_t terms) {
  if (total_sum_of_squares == 0.0) return 1.0;
  const double freedom = static_cast<double>(points) - 1.0 - static_cast<double>(terms);
  return freedom > 0 ? 1.0 - rss / total_sum_of_squares * (static_cast<double>(points) - 1.0) / freedom
                     : std::numeric_limits<double>::quiet_NaN();
}

// |predicted - measured| / max(|predicted|, |measured|), 0..1 (0 for 0 and 0):
// relative, and bounded, so that a part that is noise about a small value
// (0.4 s, then 0.001 s) does not widen its interval a hundredfold.
double relative_difference(double predicted, double measured) {
  const double larger = std::max(std::abs(predicted), std::abs(measured));
  return larger == 0.0 ? 0.0 : std::abs(predicted - measured) / larger;
}

class Hypothesis {
 public:
  Hypothesis(std::vector<Term> terms, std::span<const double> x, bool nonnegative)
      : terms_(std::move(terms)), columns_(terms_.size() + 1), nonnegative_(nonnegative) {
    design_.reserve(x.size() * columns_);
    for (double xi : x) {
      design_.push_back(1.0);
      for (const auto& term : terms_) design_.push_back(term.at(xi));
    }
  }

  std::size_t coefficients() const { return columns_; }
  bool finite() const {
    return std::all_of(design_.begin(), design_.end(), [](double d) { return std::isfinite(d); });
  }

  // Fitted on the rows other than left_out (none: every row).
  NormalForm fit(std::span<const double> y, std::size_t left_out = no_row) const {
    std::vector<std::size_t> rows;
    for (std::size_t r = 0; r < y.size(); ++r)
      if (r != left_out) rows.push_back(r);
    return fit_rows(y, rows);
  }
  // Fitted on the given rows only.
  NormalForm fit_rows(std::span<const double> y, std::span<const std::size_t> rows) const {
    std::vector<double> a, b;
    for (const std::size_t r : rows) {
      a.insert(a.end(), design_.begin() + static_cast<std::ptrdiff_t>(r * columns_),
               design_.begin() + static_cast<std::ptrdiff_t>((r + 1) * columns_));
      b.push_back(y[r]);
    }
    const auto c = nonnegative_ ? nonnegative_least_squares(a, columns_, b) : least_squares(a, columns_, b);
    NormalForm function{c[0], {}};
    for (std::size_t k = 0; k < terms_.size(); ++k) function.terms.push_back({c[k + 1], terms_[k]});
    return function;
  }
  double predict(const NormalForm& function, std::size_t row) const {
    double value = function.constant;
    for (std::size_t k = 0; k < function.terms.size(); ++k)
      value += function.terms[k].coefficient * design_[row * columns_ + 1 + k];
    return value;
  }

  static constexpr std::size_t no_row = static_cast<std::size_t>(-1);

 private:
  std::vector<Term> terms_;
  std::size_t columns_;
  bool nonnegative_;
  std::vector<double> design_;
};

// Extra-P's clean_constant_coefficient: a constant smaller than phi of the
// smallest value it was fitted to is taken as 0 (no refit); 0.0005 inside a
// fold, 0.001 on every point without cross-validation.
void clean_constant(NormalForm& function, std::span<const double> y, std::size_t left_out, double phi = 0.0005) {
  double smallest = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < y.size(); ++r)
    if (r != left_out) smallest = std::min(smallest, y[r]);
  const bool negligible =
      smallest == 0.0 ? std::abs(function.constant) < phi : std::abs(function.constant / smallest) < phi;
  if (negligible) function.constant = 0.0;
}

// Every term adds at least the minimum share of the value at some point.
bool every_term_contributes(const NormalForm& function, std::span<const double> x, std::span<const double> y,
                            double minimum) {
  for (const auto& [coefficient, term] : function.terms) {
    if (coefficient == 0.0) return false;
    double largest = 0.0;
    bool undefined = false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double share = std::abs(coefficient * term.at(x[i]) / y[i]);
      if (std::isnan(share) || std::isinf(share))
        undefined = true;
      else
        largest = std::max(largest, share);
    }
    if (!undefined && largest < minimum) return false;
  }
  return true;
}

void check_points(std::span<const ScalingPoint> points, const SearchOptions& options) {
  if (options.max_terms != 1 && options.max_terms != 2)
    throw std::invalid_argument(fmt::format("max_terms {}: 1 or 2 terms beside the constant", options.max_terms));
  if (points.size() < 2)
    throw std::invalid_argument(fmt::format("{} point(s): a model needs two or more scales", points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& point = points[i];
    if (!(point.x > 0.0) || !std::isfinite(point.x))
      throw std::invalid_argument(fmt::format("scale {} of point {}: a scale is a finite number > 0", point.x, i));
    if (point.values.empty()) throw std::invalid_argument(fmt::format("the point at x = {} has no values", point.x));
    for (double value : point.values)
      if (!std::isfinite(value))
        throw std::invalid_argument(fmt::format("value {} at x = {}: values must be finite", value, point.x));
    for (std::size_t j = 0; j < i; ++j)
      if (points[j].x == point.x)
        throw std::invalid_argument(
            fmt::format("two points at x = {}: give each scale once, with its repetitions", point.x));
  }
}

// The chosen hypothesis refitted on the k smallest scales, k from its number
// of coefficients to n - 1, and its predictions at each larger scale.
std::vector<FittedModel::Backtest> backtests_of(const NormalForm& chosen, std::span<const double> x,
                                                std::span<const double> y, bool nonnegative) {
  std::vector<Term> terms;
  for (const auto& weighted : chosen.terms) terms.push_back(weighted.term);
  const Hypothesis hypothesis(std::move(terms), x, nonnegative);
  std::vector<std::size_t> ascending(x.size());
  std::iota(ascending.begin(), ascending.end(), std::size_t{0});
  std::sort(ascending.begin(), ascending.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<FittedModel::Backtest> backtests;
  for (std::size_t k = hypothesis.coefficients(); k < x.size(); ++k) {
    const std::span<const std::size_t> smallest(ascending.data(), k);
    const auto function = hypothesis.fit_rows(y, smallest);
    for (std::size_t j = k; j < x.size(); ++j) {
      const std::size_t row = ascending[j];
      backtests.push_back({x[ascending[k - 1]], x[row], hypothesis.predict(function, row), y[row]});
    }
  }
  return backtests;
}

}  // namespace

FittedModel search_model(std::span<const ScalingPoint> points, const SearchOptions& options) {
  check_points(points, options);
  const std::size_t n = points.size();
  std::vector<double> x, y;
  for (const auto& point : points) x.push_back(point.x), y.push_back(measured_value(point, options.measure));

  // The constant model, scored in-sample as Extra-P scores it.
  FittedModel best;
  best.function.constant = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double d = best.function.constant - y[i];
    best.rss += d * d;
    best.smape += smape_share(best.function.constant, y[i]) / static_cast<double>(n) * 100.0;
    const double others = (best.function.constant * static_cast<double>(n) - y[i]) / static_cast<double>(n - 1);
    best.held_out_predictions.push_back(others);
    best.held_out_functions.push_back(NormalForm{others, {}});
  }
  const double total_sum_of_squares = best.rss;
  best.hypotheses_tried = 1;
  // The chosen model with what its prediction reads: the values and scales
  // it was fitted to, and how it carries beyond them.
  const auto chosen = [&] {
    best.backtests = backtests_of(best.function, x, y, options.nonnegative_coefficients);
    best.fitted_values = std::move(y);
    best.scales = std::move(x);
    return std::move(best);
  };
  if (total_sum_of_squares == 0.0) return chosen();
  std::size_t tried = 1;

  // Log factors are undefined below 1, and log2(1)^-j is infinite.
  auto blocks = building_blocks(options);
  const double smallest_x = *std::min_element(x.begin(), x.end());
  const bool logs_defined = options.negative_exponents ? smallest_x > 1.0 : smallest_x >= 1.0;
  if (!logs_defined) std::erase_if(blocks, [](const Term& t) { return t.has_log(); });

  std::vector<std::vector<Term>> candidates;
  for (const auto& block : blocks) candidates.push_back({block});
  if (options.max_terms >= 2)
    for (std::size_t i = 0; i < blocks.size(); ++i)
      for (std::size_t j = i + 1; j < blocks.size(); ++j) candidates.push_back({blocks[i], blocks[j]});

  for (auto& terms : candidates) {
    const Hypothesis hypothesis(std::move(terms), x, options.nonnegative_coefficients);
    if (n - 1 < hypothesis.coefficients() || !hypothesis.finite()) continue;
    ++tried;
    FittedModel candidate;
    for (std::size_t i = 0; i < n; ++i) {
      auto fold = hypothesis.fit(y, i);
      clean_constant(fold, y, i);
      const double predicted = hypothesis.predict(fold, i), d = predicted - y[i];
      candidate.rss += d * d;
      candidate.smape += smape_share(predicted, y[i]) / static_cast<double>(n) * 100.0;
      candidate.held_out_predictions.push_back(predicted);
      candidate.held_out_functions.push_back(std::move(fold));
    }
    candidate.function = hypothesis.fit(y);
    if (!options.cross_validation) {
      clean_constant(candidate.function, y, Hypothesis::no_row, 0.001);
      candidate.rss = candidate.smape = 0.0;
      std::size_t scored = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const double predicted = hypothesis.predict(candidate.function, i), d = predicted - y[i];
        candidate.rss += d * d;
        if (std::abs(predicted) + std::abs(y[i]) == 0.0) continue;
        candidate.smape += smape_share(predicted, y[i]);
        ++scored;
      }
      candidate.smape = scored == 0 ? 0.0 : candidate.smape / static_cast<double>(scored) * 100.0;
    }
    if (!std::isfinite(candidate.rss) || !std::isfinite(candidate.smape)) continue;
    if (!every_term_contributes(candidate.function, x, y, options.minimum_term_contribution)) continue;
    if (!(candidate.smape < best.smape)) continue;
    candidate.adjusted_r_squared =
        adjusted_r_squared(candidate.rss, total_sum_of_squares, n, candidate.function.terms.size());
    best = std::move(candidate);
  }
  best.hypotheses_tried = tried;
  return chosen();
}

double error_per_doubling(const FittedModel& fitted) {
  double squares = 0.0;
  std::size_t count = 0;
  for (const auto& backtest : fitted.backtests) {
    if (backtest.measured == 0.0 || !(backtest.x > backtest.fitted_up_to)) continue;
    const double rate =
        relative_difference(backtest.predicted, backtest.measured) / std::log2(backtest.x / backtest.fitted_up_to);
    squares += rate * rate;
    ++count;
  }
  return count == 0 ? 0.0 : std::sqrt(squares / static_cast<double>(count));
}

namespace {

// c0 + terms of a and of b, like terms merged.
NormalForm sum_of_functions(const NormalForm& a, const NormalForm& b) {
  NormalForm sum = a;
  sum.constant += b.constant;
  for (const auto& weighted : b.terms) {
    const auto like = std::find_if(sum.terms.begin(), sum.terms.end(),
                                   [&](const WeightedTerm& t) { return t.term == weighted.term; });
    if (like == sum.terms.end())
      sum.terms.push_back(weighted);
    else
      like->coefficient += weighted.coefficient;
  }
  return sum;
}

}  // namespace

FittedModel sum_of_models(std::span<const FittedModel> parts, std::span<const double> measured) {
  if (parts.empty()) throw std::invalid_argument("sum_of_models: no parts to add");
  const std::size_t n = parts.front().scales.size();
  if (measured.size() != n)
    throw std::invalid_argument(
        fmt::format("sum_of_models: {} measured values for parts at {} scales", measured.size(), n));
  for (const auto& part : parts)
    if (part.scales != parts.front().scales || part.held_out_functions.size() != n ||
        part.held_out_predictions.size() != n)
      throw std::invalid_argument(fmt::format("sum_of_models: a part at {} scales with {} held-out fits, another at {}",
                                              part.scales.size(), part.held_out_functions.size(), n));
  FittedModel sum;
  sum.scales = parts.front().scales;
  sum.fitted_values.assign(measured.begin(), measured.end());
  sum.held_out_predictions.assign(n, 0.0);
  sum.held_out_functions.assign(n, NormalForm{});
  for (const auto& part : parts) {
    sum.function = sum_of_functions(sum.function, part.function);
    sum.hypotheses_tried += part.hypotheses_tried;
    for (std::size_t i = 0; i < n; ++i) {
      sum.held_out_predictions[i] += part.held_out_predictions[i];
      sum.held_out_functions[i] = sum_of_functions(sum.held_out_functions[i], part.held_out_functions[i]);
    }
  }
  double mean = 0.0;
  for (const double value : measured) mean += value / static_cast<double>(n);
  double total_sum_of_squares = 0.0, in_sample = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = sum.held_out_predictions[i] - measured[i], fit = sum.function.at(sum.scales[i]) - measured[i];
    sum.rss += d * d;
    sum.smape += smape_share(sum.held_out_predictions[i], measured[i]) / static_cast<double>(n) * 100.0;
    total_sum_of_squares += (measured[i] - mean) * (measured[i] - mean);
    in_sample += fit * fit;
  }
  sum.adjusted_r_squared = adjusted_r_squared(in_sample, total_sum_of_squares, n, sum.function.terms.size());
  return sum;
}

Prediction predict(const FittedModel& fitted, double x) {
  const std::size_t points = fitted.fitted_values.size();
  if (fitted.held_out_functions.size() != points || fitted.held_out_predictions.size() != points)
    throw std::invalid_argument(
        fmt::format("predict: a model of {} points with {} held-out fits", points, fitted.held_out_functions.size()));
  Prediction prediction{x, fitted.function.at(x), 0.0, 0.0};
  double lowest = prediction.value, highest = prediction.value, squares = 0.0;
  std::size_t relative_errors = 0;
  for (std::size_t i = 0; i < points; ++i) {
    const double held_out = fitted.held_out_functions[i].at(x);
    lowest = std::min(lowest, held_out);
    highest = std::max(highest, held_out);
    const double measured = fitted.fitted_values[i];
    if (measured == 0.0) continue;
    const double error = relative_difference(fitted.held_out_predictions[i], measured);
    squares += error * error;
    ++relative_errors;
  }
  double h = relative_errors == 0 ? 0.0 : std::sqrt(squares / static_cast<double>(relative_errors));
  if (!fitted.scales.empty()) {
    const auto [smallest, largest] = std::minmax_element(fitted.scales.begin(), fitted.scales.end());
    const double doublings = x > *largest ? std::log2(x / *largest) : x < *smallest ? std::log2(*smallest / x) : 0.0;
    h += error_per_doubling(fitted) * doublings;
  }
  prediction.low = lowest - std::abs(lowest) * h / (1.0 + h);
  prediction.high = highest + std::abs(highest) * h;
  return prediction;
}

}  // namespace hetscale::empirical
