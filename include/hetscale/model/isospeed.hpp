#pragma once
// Seed 001 (Chen, Sun, Wu): marked speed, speed-efficiency and the
// isospeed-efficiency scalability of an algorithm-system combination.
// Speeds in any unit of work per unit of time; pure functions.
#include <span>

namespace hetscale::model {

// seed 001, Definition 1: the marked speed of a system is C = sum C_i
double marked_speed(std::span<const double> node_marked_speeds);

// seed 001, Section 3.2: achieved speed S = W / T
double achieved_speed(double work, double time);

// seed 001, Definition 2: speed-efficiency E_s = S / C = W / (T C)
double speed_efficiency(double work, double time, double marked_speed);

// seed 001, Definition 3: psi(C, C') = C' W / (C W'), W' the work that holds E_s on C'
double isospeed_efficiency_scalability(double marked_speed, double work, double scaled_marked_speed,
                                       double scaled_work);

// seed 001, Section 2 (Sun and Rover): homogeneous isospeed psi(p, p') = p' W / (p W')
double isospeed_scalability(double processors, double work, double scaled_processors, double scaled_work);

// seed 001, Corollary 1 (and the proof of Theorem 1): with no communication and
// no sequential part the work that holds E_s on C' is W' = C' W / C, so psi = 1
double ideal_scaled_work(double marked_speed, double work, double scaled_marked_speed);

// seed 001, Theorem 1: balanced load, sequential part alpha:
// psi = (t_0 + T_o) / (t_0' + T_o')
double scalability_with_sequential_part(double sequential_time, double overhead, double scaled_sequential_time,
                                        double scaled_overhead);

// seed 001, Theorem 2: sequential part on the same node before and after, beta = alpha / C_i:
// psi = (C beta W - C' beta W + C T_o) / (C T_o')
double scalability_same_sequential_node(double marked_speed, double scaled_marked_speed, double beta,
                                        double work, double overhead, double scaled_overhead);

// seed 001, Corollary 2: alpha = 0: psi = T_o / T_o'
double scalability_from_overheads(double overhead, double scaled_overhead);

// seed 001, Section 4.1.1: Gaussian elimination W(N) = 2/3 N^3 - 1/2 N^2 - 19/6 N + 3
double gaussian_elimination_workload(double n);

// seed 001, Section 4.1.2: matrix multiplication W(N) = 2 N^3
double matrix_multiplication_workload(double n);

// seed 001, Section 4.1.3: 2D convolution W(N) = 66 N^2 lg N + 21 N^2 + 84 N lg N
double convolution_workload(double n);

}  // namespace hetscale::model
