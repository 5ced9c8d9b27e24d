#pragma once
// Assertions shared by the test suites.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include "hetscale/io/input_error.hpp"

namespace hetscale::testing_support {

inline constexpr double rel_tol = 1e-12;

// |actual - expected| <= rel * |expected|.
inline ::testing::AssertionResult RelNear(double actual, double expected, double rel = rel_tol) {
  if (std::abs(actual - expected) <= rel * std::abs(expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "actual " << actual << " differs from expected " << expected
                                       << " by more than " << rel << " relative";
}

// |actual - expected| <= tolerance * max(1, |expected|): relative for large
// values, absolute near 0.
inline ::testing::AssertionResult ScaledNear(double actual, double expected, double tolerance) {
  if (std::abs(actual - expected) <= tolerance * std::max(1.0, std::abs(expected)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "actual " << actual << " differs from expected " << expected;
}

// The call throws std::invalid_argument whose what() contains every fragment.
template <class Call>
::testing::AssertionResult ThrowsInvalidArgumentNaming(Call&& call,
                                                       std::initializer_list<std::string_view> fragments) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    for (std::string_view fragment : fragments)
      if (what.find(fragment) == std::string::npos)
        return ::testing::AssertionFailure() << "message \"" << what << "\" does not contain \"" << fragment
                                             << "\"";
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

// The what() of the Error (by default an InputError) that `call` throws, or
// "" if it throws none.
template <class Error = InputError, class Call>
std::string ErrorMessage(Call&& call) {
  try {
    call();
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace hetscale::testing_support
