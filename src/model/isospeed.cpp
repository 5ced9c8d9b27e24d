#include "hetscale/model/isospeed.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "model/checks.hpp"

namespace hetscale::model {
namespace {

// A process count p: finite and >= 1 (p - 1 counts the other processes).
void require_processes(double processes) {
  if (!std::isfinite(processes) || processes < 1.0)
    throw std::invalid_argument(fmt::format("processes p must be a finite number >= 1, got {}", processes));
}

}  // namespace

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

double scalability_same_sequential_node(double marked_speed, double scaled_marked_speed, double beta, double work,
                                        double overhead, double scaled_overhead) {
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
  // Over one denominator, (4 N^3 - 3 N^2 - 19 N + 18) / 6: exact for whole N
  // up to about 10^5 (every term an exact double), so W prints as an integer.
  return (4.0 * n * n * n - 3.0 * n * n - 19.0 * n + 18.0) / 6.0;
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

Workload kernel_workload(std::string_view kernel) {
  if (kernel == "ge") return gaussian_elimination_workload;
  if (kernel == "mm") return matrix_multiplication_workload;
  if (kernel == "conv") return convolution_workload;
  throw std::invalid_argument(fmt::format("unknown kernel '{}'; kernels with a workload W(N): ge, mm, conv", kernel));
}

double broadcast_time(const CommunicationCosts& costs, double processes) {
  detail::require_non_negative(costs.broadcast_intercept, "broadcast intercept a");
  detail::require_non_negative(costs.broadcast_per_process, "broadcast per-process cost b");
  require_processes(processes);
  return costs.broadcast_intercept + costs.broadcast_per_process * processes;
}

double send_time(const CommunicationCosts& costs, double elements) {
  detail::require_non_negative(costs.send_intercept, "send intercept a");
  detail::require_non_negative(costs.send_per_element, "send per-element cost b");
  detail::require_non_negative(elements, "message size N");
  return costs.send_intercept + costs.send_per_element * elements;
}

double receive_time(const CommunicationCosts& costs, double elements) {
  detail::require_non_negative(costs.receive_intercept, "receive intercept a");
  detail::require_non_negative(costs.receive_per_element, "receive per-element cost b");
  detail::require_non_negative(elements, "message size N");
  return costs.receive_intercept + costs.receive_per_element * elements;
}

double barrier_time(const CommunicationCosts& costs, double processes) {
  detail::require_non_negative(costs.barrier_per_process, "barrier per-process cost c");
  require_processes(processes);
  return costs.barrier_per_process * processes;
}

double computation_time(const CommunicationCosts& costs, double work, double processes, double marked_speed) {
  detail::require_positive(costs.unit_computation, "unit computation time t_c");
  detail::require_non_negative(work, "work W");
  if (costs.reference_marked_speed) {
    detail::require_positive(*costs.reference_marked_speed, "reference marked speed C_ref");
    detail::require_positive(marked_speed, "marked speed C");
    return work * costs.unit_computation * *costs.reference_marked_speed / marked_speed;
  }
  require_processes(processes);
  return work * costs.unit_computation / processes;
}

double gaussian_elimination_overhead(const CommunicationCosts& costs, double n, double processes) {
  detail::require_positive(n, "matrix size N");
  require_processes(processes);
  const double broadcast = broadcast_time(costs, processes);
  return broadcast + 2.0 * (processes - 1.0) * (send_time(costs, n) + receive_time(costs, n)) +
         n * (2.0 * broadcast + barrier_time(costs, processes));
}

double matrix_multiplication_overhead(const CommunicationCosts& costs, double n, double processes, double root_share) {
  detail::require_positive(n, "matrix size N");
  require_processes(processes);
  detail::require_fraction(root_share, "root share");
  const double others = processes - 1.0, distributed_rows = n * (1.0 - root_share);
  // Intercepts: one send of A rows, one send of B, one receive of C rows per other process.
  const double startup = others * (send_time(costs, 0.0) + send_time(costs, 0.0) + receive_time(costs, 0.0));
  return startup + others * costs.send_per_element * n * n +
         (costs.send_per_element + costs.receive_per_element) * distributed_rows * n;
}

double predicted_speed_efficiency(double work, double computation_time, double overhead, double marked_speed) {
  detail::require_non_negative(computation_time, "computation time T_c");
  detail::require_non_negative(overhead, "overhead T_o");
  return speed_efficiency(work, computation_time + overhead, marked_speed);
}

}  // namespace hetscale::model
