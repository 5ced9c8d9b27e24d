#pragma once
// Assertions shared by the test suites.
#include <gtest/gtest.h>

#include <cmath>
#include <exception>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include "hetscale/io/input_error.hpp"

namespace hetscale::testing_support {

inline constexpr double kRelTol = 1e-12;

// |actual - expected| <= rel * |expected|.
inline ::testing::AssertionResult RelNear(double actual, double expected, double rel = kRelTol) {
  if (std::abs(actual - expected) <= rel * std::abs(expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "actual " << actual << " differs from expected " << expected
                                       << " by more than " << rel << " relative";
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

// The what() of the InputError that `call` throws, or "" if it throws none.
template <class Call>
std::string InputErrorMessage(Call&& call) {
  try {
    call();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace hetscale::testing_support
