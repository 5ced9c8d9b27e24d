#pragma once
// Majumdar 1999 on measured timings: fit the single-processor time tau_1 = a + b N
// (Eq 114) by least squares, then for every multi-processor run the serial
// fraction f (Eq 115), the speed-up S_N (Eq 104), the theoretical speed-up
// S_N^th (Eq 112), the parallelization efficiency eps_N (Eq 109) and the
// Karp-Flatt serial fraction.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetscale/record/timings.hpp"

namespace hetscale {

struct LinearFit {
  double intercept = 0.0;
  double slope = 0.0;
  double r_squared = 1.0;  // 1 when the points are exactly on the line
  std::size_t points = 0;
};

// Least squares y = intercept + slope x; needs two or more distinct x.
LinearFit fit_line(std::span<const double> x, std::span<const double> y);

struct SerialFitRow {
  std::size_t procs = 0;
  double size = 0.0;
  double seconds = 0.0;                     // tau_N, measured
  double single_processor_time = 0.0;                      // tau_1: a + b N fitted, or measured
  std::optional<double> serial_fraction;                   // f = a / tau_1; none with tau_1 measured
  double speedup = 0.0;                                    // S_N = tau_1 / tau_N
  std::optional<double> theoretical_speedup;               // S_N^th = 1 / ((1 - f) / N + f)
  std::optional<double> parallelization_efficiency;        // eps_N = S_N / S_N^th
  double karp_flatt = 0.0;                                 // (1/S - 1/p) / (1 - 1/p)
};

// Where tau_1 comes from.
enum class SerialTime {
  line,            // a + b N fitted by least squares (Majumdar 1999, Eq 114); a < 0 is refused
  through_origin,  // b N fitted with a = 0: the constrained fit when a < 0; then f = 0 and S_N^th = N
  measured,        // the single-processor run at each size; f, S_N^th and eps_N unknown, Karp-Flatt e from S_N
};
// "line", "through-origin", "measured"; InputError naming the setting serial-time otherwise.
SerialTime serial_time_named(const std::string& name);
std::string serial_time_name(SerialTime how);

struct SerialFit {
  std::string source;
  SerialTime how = SerialTime::line;
  LinearFit single_processor;      // a = intercept (s), b = slope (s per unit of size)
  std::vector<SerialFitRow> rows;  // the multi-processor runs, in file order
};

// Throws InputError (naming the timings file) when there are fewer than two
// distinct sizes at procs = 1, when the fitted a is negative (the message says
// what that means and offers through-origin and measured), when tau_1 is not
// positive, or, measured, when a size has no single-processor run.
SerialFit fit_serial_fraction(const Timings& timings, SerialTime how = SerialTime::line);

}  // namespace hetscale
