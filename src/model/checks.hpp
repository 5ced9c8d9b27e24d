#pragma once
// Argument checks shared by the model functions: each throws
// std::invalid_argument with the argument's name and the value found.
#include <cmath>
#include <span>
#include <stdexcept>
#include <string_view>

#include <fmt/core.h>

namespace hetscale::model::detail {

inline void require_finite(double value, std::string_view name) {
  if (!std::isfinite(value))
    throw std::invalid_argument(fmt::format("{} must be a finite number, got {}", name, value));
}

inline void require_positive(double value, std::string_view name) {
  if (!std::isfinite(value) || value <= 0.0)
    throw std::invalid_argument(fmt::format("{} must be a finite positive number, got {}", name, value));
}

inline void require_non_negative(double value, std::string_view name) {
  if (!std::isfinite(value) || value < 0.0)
    throw std::invalid_argument(fmt::format("{} must be a finite number >= 0, got {}", name, value));
}

inline void require_fraction(double value, std::string_view name) {
  if (!std::isfinite(value) || value < 0.0 || value > 1.0)
    throw std::invalid_argument(fmt::format("{} must be in [0, 1], got {}", name, value));
}

inline void require_not_empty(std::size_t size, std::string_view name) {
  if (size == 0) throw std::invalid_argument(fmt::format("{} must not be empty", name));
}

inline void require_same_size(std::size_t a, std::size_t b, std::string_view name_a, std::string_view name_b) {
  if (a != b)
    throw std::invalid_argument(
        fmt::format("{} and {} must have the same length, got {} and {}", name_a, name_b, a, b));
}

// Every speed finite and > 0; at least one.
inline void require_speeds(std::span<const double> speeds, std::string_view name = "speeds") {
  require_not_empty(speeds.size(), name);
  for (std::size_t i = 0; i < speeds.size(); ++i)
    if (!std::isfinite(speeds[i]) || speeds[i] <= 0.0)
      throw std::invalid_argument(fmt::format("{}[{}] must be a finite positive number, got {}", name, i, speeds[i]));
}

// Every value finite and >= 0; at least one.
inline void require_non_negative_values(std::span<const double> values, std::string_view name) {
  require_not_empty(values.size(), name);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]) || values[i] < 0.0)
      throw std::invalid_argument(fmt::format("{}[{}] must be a finite number >= 0, got {}", name, i, values[i]));
}

// A distribution {p_i}: finite, >= 0, summing to 1.
inline void require_shares(std::span<const double> shares, std::size_t expected_size) {
  require_same_size(shares.size(), expected_size, "shares", "speeds");
  require_non_negative_values(shares, "shares");
  double sum = 0.0;
  for (double p : shares) sum += p;
  if (std::abs(sum - 1.0) > 1e-9)
    throw std::invalid_argument(fmt::format("shares must sum to 1, got a sum of {}", sum));
}

}  // namespace hetscale::model::detail
