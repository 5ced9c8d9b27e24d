#include "hetscale/model/isospeed.hpp"

#include <cmath>
#include <numeric>

#include "model/checks.hpp"

namespace hetscale::model {

double marked_speed(std::span<const double> node_marked_speeds) {
  detail::require_speeds(node_marked_speeds, "marked speeds");
  return std::accumulate(node_marked_speeds.begin(), node_marked_speeds.end(), 0.0);
}

double achieved_speed(double work, double time) {
  detail::require_non_negative(work, "work W");
  detail::require_positive(time, "time T");
  return work / time;
}

double speed_efficiency(double work, double time, double marked_speed) {
  detail::require_positive(marked_speed, "marked speed C");
  return achieved_speed(work, time) / marked_speed;
}

double isospeed_efficiency_scalability(double marked_speed, double work, double scaled_marked_speed,
                                       double scaled_work) {
  detail::require_positive(marked_speed, "marked speed C");
  detail::require_positive(work, "work W");
  detail::require_positive(scaled_marked_speed, "scaled marked speed C'");
  detail::require_positive(scaled_work, "scaled work W'");
  return scaled_marked_speed * work / (marked_speed * scaled_work);
}

double isospeed_scalability(double processors, double work, double scaled_processors, double scaled_work) {
  detail::require_positive(processors, "processors p");
  detail::require_positive(work, "work W");
  detail::require_positive(scaled_processors, "scaled processors p'");
  detail::require_positive(scaled_work, "scaled work W'");
  return scaled_processors * work / (processors * scaled_work);
}

double ideal_scaled_work(double marked_speed, double work, double scaled_marked_speed) {
  detail::require_positive(marked_speed, "marked speed C");
  detail::require_non_negative(work, "work W");
  detail::require_positive(scaled_marked_speed, "scaled marked speed C'");
  return scaled_marked_speed * work / marked_speed;
}

double scalability_with_sequential_part(double sequential_time, double overhead, double scaled_sequential_time,
                                        double scaled_overhead) {
  detail::require_non_negative(sequential_time, "t_0");
  detail::require_non_negative(overhead, "T_o");
  detail::require_non_negative(scaled_sequential_time, "t_0'");
  detail::require_non_negative(scaled_overhead, "T_o'");
  detail::require_positive(scaled_sequential_time + scaled_overhead, "t_0' + T_o'");
  return (sequential_time + overhead) / (scaled_sequential_time + scaled_overhead);
}

double scalability_same_sequential_node(double marked_speed, double scaled_marked_speed, double beta,
                                        double work, double overhead, double scaled_overhead) {
  detail::require_positive(marked_speed, "marked speed C");
  detail::require_positive(scaled_marked_speed, "scaled marked speed C'");
  detail::require_non_negative(beta, "beta = alpha / C_i");
  detail::require_positive(work, "work W");
  detail::require_non_negative(overhead, "T_o");
  detail::require_positive(scaled_overhead, "T_o'");
  const double c = marked_speed, c_scaled = scaled_marked_speed;
  return (c * beta * work - c_scaled * beta * work + c * overhead) / (c * scaled_overhead);
}

double scalability_from_overheads(double overhead, double scaled_overhead) {
  return scalability_with_sequential_part(0.0, overhead, 0.0, scaled_overhead);
}

double gaussian_elimination_workload(double n) {
  detail::require_positive(n, "matrix size N");
  return 2.0 / 3.0 * n * n * n - 0.5 * n * n - 19.0 / 6.0 * n + 3.0;
}

double matrix_multiplication_workload(double n) {
  detail::require_positive(n, "matrix size N");
  return 2.0 * n * n * n;
}

double convolution_workload(double n) {
  detail::require_positive(n, "matrix size N");
  const double lg = std::log2(n);
  return 66.0 * n * n * lg + 21.0 * n * n + 84.0 * n * lg;
}

}  // namespace hetscale::model
