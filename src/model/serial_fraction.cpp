#include "hetscale/model/serial_fraction.hpp"

#include "model/checks.hpp"

namespace hetscale::model {
namespace {

double processor_count(std::size_t processors) {
  if (processors == 0) throw std::invalid_argument("number of processors N must be >= 1, got 0");
  return static_cast<double>(processors);
}

}  // namespace

double speedup(double single_processor_time, double parallel_time) {
  detail::require_positive(single_processor_time, "tau_1");
  detail::require_positive(parallel_time, "tau_N");
  return single_processor_time / parallel_time;
}

double parallel_time(double serial_time, double parallel_part_time, double overhead) {
  detail::require_non_negative(serial_time, "tau_s");
  detail::require_non_negative(parallel_part_time, "tau_p");
  detail::require_finite(overhead, "delta_tau");
  return serial_time + parallel_part_time + overhead;
}

double parallelization_overhead(double parallel_time, double serial_time, double parallel_part_time) {
  detail::require_non_negative(parallel_time, "tau_N");
  detail::require_non_negative(serial_time, "tau_s");
  detail::require_non_negative(parallel_part_time, "tau_p");
  return parallel_time - serial_time - parallel_part_time;
}

double theoretical_speedup_from_times(double single_processor_time, double serial_time, double parallel_part_time) {
  detail::require_positive(single_processor_time, "tau_1");
  return speedup_with_overhead(single_processor_time, serial_time, parallel_part_time, 0.0);
}

double speedup_with_overhead(double single_processor_time, double serial_time, double parallel_part_time,
                             double overhead) {
  return speedup(single_processor_time, parallel_time(serial_time, parallel_part_time, overhead));
}

double parallelization_efficiency(double speedup, double theoretical_speedup) {
  detail::require_non_negative(speedup, "S_N");
  detail::require_positive(theoretical_speedup, "S_N^th");
  return speedup / theoretical_speedup;
}

double serial_fraction_of_work(double serial_work, double parallel_work) {
  detail::require_non_negative(serial_work, "W_S");
  detail::require_non_negative(parallel_work, "W_P");
  detail::require_positive(serial_work + parallel_work, "W = W_S + W_P");
  return serial_work / (serial_work + parallel_work);
}

double theoretical_speedup_from_work(double work, double serial_fraction, std::size_t processors,
                                     double processor_speed) {
  detail::require_positive(work, "W");
  detail::require_fraction(serial_fraction, "serial fraction f");
  detail::require_positive(processor_speed, "processor speed nu");
  const double n = processor_count(processors);
  const double one_processor = work / processor_speed;
  return one_processor /
         ((1.0 - serial_fraction) * work / (n * processor_speed) + serial_fraction * work / processor_speed);
}

double theoretical_speedup(double serial_fraction, std::size_t processors) {
  detail::require_fraction(serial_fraction, "serial fraction f");
  const double n = processor_count(processors);
  return 1.0 / ((1.0 - serial_fraction) / n + serial_fraction);
}

double linear_workload(double fixed_work, double work_per_history, double histories) {
  detail::require_finite(fixed_work, "a'");
  detail::require_finite(work_per_history, "b'");
  detail::require_non_negative(histories, "N_h");
  return fixed_work + work_per_history * histories;
}

double single_processor_time(double serial_time, double time_per_history, double histories) {
  detail::require_finite(serial_time, "a");
  detail::require_finite(time_per_history, "b");
  detail::require_non_negative(histories, "N_h");
  return serial_time + time_per_history * histories;
}

double serial_fraction(double serial_time, double single_processor_time) {
  detail::require_finite(serial_time, "a");
  detail::require_positive(single_processor_time, "tau_1");
  return serial_time / single_processor_time;
}

double karp_flatt_serial_fraction(double speedup, std::size_t processors) {
  detail::require_positive(speedup, "speed-up S");
  if (processors < 2)
    throw std::invalid_argument(fmt::format("Karp-Flatt needs p >= 2 processors, got {}", processors));
  const double p = static_cast<double>(processors);
  return (1.0 / speedup - 1.0 / p) / (1.0 - 1.0 / p);
}

}  // namespace hetscale::model
