#pragma once
// Majumdar 1999 (Majumdar): speed-up, serial fraction and parallelization
// efficiency on N processors, and the Karp-Flatt experimentally determined
// serial fraction that users compare them with. Pure functions.
#include <cstddef>

namespace hetscale::model {

// Majumdar 1999, Eq 104: S_N = tau_1 / tau_N
double speedup(double single_processor_time, double parallel_time);

// Majumdar 1999, Eq 105: tau_N = tau_s + tau_p + delta_tau
double parallel_time(double serial_time, double parallel_part_time, double overhead);

// Majumdar 1999, Eq 106: delta_tau(N, W), the parallelization overhead of a measured run:
// what tau_N holds beyond tau_s + tau_p
double parallelization_overhead(double parallel_time, double serial_time, double parallel_part_time);

// Majumdar 1999, Eq 107: S_N^th = tau_1 / (tau_p + tau_s)
double theoretical_speedup_from_times(double single_processor_time, double serial_time, double parallel_part_time);

// Majumdar 1999, Eq 108: S_N = tau_1 / (tau_p + tau_s + delta_tau)
double speedup_with_overhead(double single_processor_time, double serial_time, double parallel_part_time,
                             double overhead);

// Majumdar 1999, Eq 109: eps_N = S_N / S_N^th
double parallelization_efficiency(double speedup, double theoretical_speedup);

// Majumdar 1999, Eq 110: f = W_S / (W_S + W_P)
double serial_fraction_of_work(double serial_work, double parallel_work);

// Majumdar 1999, Eq 111: S_N^th = (W / nu) / ((1 - f) W / (N nu) + f W / nu)
double theoretical_speedup_from_work(double work, double serial_fraction, std::size_t processors,
                                     double processor_speed);

// Majumdar 1999, Eq 112: S_N^th = 1 / ((1 - f) / N + f)
double theoretical_speedup(double serial_fraction, std::size_t processors);

// Majumdar 1999, Eq 113: W = a' + b' N_h
double linear_workload(double fixed_work, double work_per_history, double histories);

// Majumdar 1999, Eq 114: tau_1 = a + b N_h
double single_processor_time(double serial_time, double time_per_history, double histories);

// Majumdar 1999, Eq 115: f = tau_s / tau_1 = a / tau_1
double serial_fraction(double serial_time, double single_processor_time);

// Karp and Flatt (1990): e = (1/S - 1/p) / (1 - 1/p), for p >= 2
double karp_flatt_serial_fraction(double speedup, std::size_t processors);

}  // namespace hetscale::model
