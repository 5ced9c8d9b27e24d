#pragma once
// The performance-model normal form (Calotoiu et al., SC 2013; Extra-P):
//
//   f(x) = c0 + sum_k c_k x^(i_k) log2(x)^(j_k)
//
// with rational exponents i_k and whole j_k. Pure: no I/O. Printed as Extra-P
// prints it ("-0.889793409806316 + 0.20168243826499177 * x^(2)"), so the two
// tools' models can be compared as text.
#include <string>
#include <string_view>
#include <vector>

namespace hetscale::empirical {

// A rational exponent, kept reduced with a positive denominator (2, 1/2, -3/4).
class Exponent {
 public:
  Exponent() = default;
  // Throws std::invalid_argument naming the value for a zero denominator.
  Exponent(int numerator, int denominator = 1);

  int numerator() const { return numerator_; }
  int denominator() const { return denominator_; }
  double value() const { return static_cast<double>(numerator_) / denominator_; }
  bool is_zero() const { return numerator_ == 0; }
  // "2", "1/2", "-3/4"
  std::string text() const;

  friend bool operator==(const Exponent&, const Exponent&) = default;

 private:
  int numerator_ = 0, denominator_ = 1;
};

// x^(power) log2(x)^(log_power), one factor left out when its exponent is 0.
struct Term {
  Exponent power;
  int log_power = 0;

  double at(double x) const;
  bool has_log() const { return log_power != 0; }
  // Extra-P's spelling: "x^(1/2) * log2(x)^(1)", "log2(x)^(2)"
  std::string text(std::string_view variable = "x") const;

  friend bool operator==(const Term&, const Term&) = default;
};

struct WeightedTerm {
  double coefficient = 0.0;
  Term term;
};

// c0 + sum_k c_k term_k(x). No terms: the constant model.
struct NormalForm {
  double constant = 0.0;
  std::vector<WeightedTerm> terms;

  double at(double x) const;
  // As Extra-P prints a model: the constant left out when it is 0, a
  // coefficient left out when it is exactly 1, numbers as Python's repr
  // prints a float. "x" by default; "p", "C" or "N" for hetscale's variables.
  std::string text(std::string_view variable = "x") const;
};

// A double as Python's repr() writes it: the shortest digits that read back
// to the same double, fixed notation for exponents -4 to 15 ("0.25", "1e-05",
// "1e+16", "100.0"), "inf", "-inf", "nan".
std::string python_repr(double value);

}  // namespace hetscale::empirical
