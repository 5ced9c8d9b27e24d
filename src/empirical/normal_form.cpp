#include "hetscale/empirical/normal_form.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <system_error>

namespace hetscale::empirical {

Exponent::Exponent(int numerator, int denominator) {
  if (denominator == 0) throw std::invalid_argument(fmt::format("exponent {}/0: the denominator must not be 0", numerator));
  if (denominator < 0) numerator = -numerator, denominator = -denominator;
  const int divisor = std::gcd(numerator, denominator);
  numerator_ = divisor == 0 ? 0 : numerator / divisor;
  denominator_ = divisor == 0 ? 1 : denominator / divisor;
}

std::string Exponent::text() const {
  return denominator_ == 1 ? std::to_string(numerator_) : fmt::format("{}/{}", numerator_, denominator_);
}

double Term::at(double x) const {
  double value = 1.0;
  if (!power.is_zero()) value *= std::pow(x, power.value());
  if (log_power != 0) value *= std::pow(std::log2(x), log_power);
  return value;
}

std::string Term::text(std::string_view variable) const {
  std::string text;
  if (!power.is_zero()) text = fmt::format("{}^({})", variable, power.text());
  if (log_power != 0) {
    if (!text.empty()) text += " * ";
    text += fmt::format("log2({})^({})", variable, log_power);
  }
  return text;
}

double NormalForm::at(double x) const {
  double value = constant;
  for (const auto& [coefficient, term] : terms) value += coefficient * term.at(x);
  return value;
}

std::string NormalForm::text(std::string_view variable) const {
  if (terms.empty()) return python_repr(constant);
  std::string text = constant != 0.0 ? python_repr(constant) : std::string();
  for (const auto& [coefficient, term] : terms) {
    if (!text.empty()) text += " + ";
    if (coefficient != 1.0) text += python_repr(coefficient) + " * ";
    text += term.text(variable);
  }
  return text;
}

std::string python_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string scientific(buffer, written.ptr);  // "-1.2345e+02", shortest digits
  const auto e = scientific.find('e');
  const bool negative = scientific.front() == '-';
  std::string digits;
  for (char c : scientific.substr(0, e))
    if (c >= '0' && c <= '9') digits += c;
  const int exponent = std::atoi(scientific.c_str() + e + 1);
  std::string text = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    text += digits.substr(0, 1);
    if (digits.size() > 1) text += "." + digits.substr(1);
    return text + fmt::format("e{}{:02d}", exponent < 0 ? '-' : '+', std::abs(exponent));
  }
  if (exponent < 0) return text + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  const auto whole = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= whole) return text + digits + std::string(whole - digits.size(), '0') + ".0";
  return text + digits.substr(0, whole) + "." + digits.substr(whole);
}

}  // namespace hetscale::empirical
