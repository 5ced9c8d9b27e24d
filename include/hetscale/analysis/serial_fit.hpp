#pragma once
// Majumdar 1999 on measured timings: fit the single-processor time tau_1 = a + b N
// (Eq 114) by least squares, then for every multi-processor run the serial
// fraction f (Eq 115), the speed-up S_N (Eq 104), the theoretical speed-up
// S_N^th (Eq 112), the parallelization efficiency eps_N (Eq 109) and the
// Karp-Flatt serial fraction.
#include <cstddef>
#include <span>
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
  double single_processor_time = 0.0;       // tau_1 = a + b N, fitted
  double serial_fraction = 0.0;             // f = a / tau_1
  double speedup = 0.0;                     // S_N = tau_1 / tau_N
  double theoretical_speedup = 0.0;         // S_N^th = 1 / ((1 - f) / N + f)
  double parallelization_efficiency = 0.0;  // eps_N = S_N / S_N^th
  double karp_flatt = 0.0;                  // (1/S - 1/p) / (1 - 1/p)
};

struct SerialFit {
  std::string source;
  LinearFit single_processor;      // a = intercept (s), b = slope (s per unit of size)
  std::vector<SerialFitRow> rows;  // the multi-processor runs, in file order
};

// Throws InputError (naming the timings file) when there are fewer than two
// distinct sizes at procs = 1, or when the fitted a or tau_1 is not positive.
SerialFit fit_serial_fraction(const Timings& timings);

}  // namespace hetscale
