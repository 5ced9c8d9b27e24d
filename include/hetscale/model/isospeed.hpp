#pragma once
// Chen et al. 2008 (Chen, Sun, Wu): marked speed, speed-efficiency and the
// isospeed-efficiency scalability of an algorithm-system combination.
// Speeds in any unit of work per unit of time; pure functions.
#include <span>
#include <string_view>

#include "hetscale/model/communication.hpp"

namespace hetscale::model {

// Chen et al. 2008, Definition 1: the marked speed of a system is C = sum C_i
double marked_speed(std::span<const double> node_marked_speeds);

// Chen et al. 2008, Section 3.2: achieved speed S = W / T
double achieved_speed(double work, double time);

// Chen et al. 2008, Definition 2: speed-efficiency E_s = S / C = W / (T C)
double speed_efficiency(double work, double time, double marked_speed);

// Chen et al. 2008, Definition 3: psi(C, C') = C' W / (C W'), W' the work that holds E_s on C'
double isospeed_efficiency_scalability(double marked_speed, double work, double scaled_marked_speed,
                                       double scaled_work);

// Chen et al. 2008, Section 2 (Sun and Rover): homogeneous isospeed psi(p, p') = p' W / (p W')
double isospeed_scalability(double processors, double work, double scaled_processors, double scaled_work);

// Chen et al. 2008, Corollary 1 (and the proof of Theorem 1): with no communication and
// no sequential part the work that holds E_s on C' is W' = C' W / C, so psi = 1
double ideal_scaled_work(double marked_speed, double work, double scaled_marked_speed);

// Chen et al. 2008, Theorem 1: balanced load, sequential part alpha:
// psi = (t_0 + T_o) / (t_0' + T_o')
double scalability_with_sequential_part(double sequential_time, double overhead, double scaled_sequential_time,
                                        double scaled_overhead);

// Chen et al. 2008, Theorem 2: sequential part on the same node before and after, beta = alpha / C_i:
// psi = (C beta W - C' beta W + C T_o) / (C T_o')
double scalability_same_sequential_node(double marked_speed, double scaled_marked_speed, double beta, double work,
                                        double overhead, double scaled_overhead);

// Chen et al. 2008, Corollary 2: alpha = 0: psi = T_o / T_o'
double scalability_from_overheads(double overhead, double scaled_overhead);

// Chen et al. 2008, Section 4.1.1: Gaussian elimination W(N) = 2/3 N^3 - 1/2 N^2 - 19/6 N + 3
double gaussian_elimination_workload(double n);

// Chen et al. 2008, Section 4.1.2: matrix multiplication W(N) = 2 N^3
double matrix_multiplication_workload(double n);

// Chen et al. 2008, Section 4.1.3: 2D convolution W(N) = 66 N^2 lg N + 21 N^2 + 84 N lg N
double convolution_workload(double n);

// Chen et al. 2008, Section 4.1: the workload W(N) of a kernel by its short name
// ("ge", "mm" or "conv"); any other name throws std::invalid_argument naming it.
using Workload = double (*)(double n);
Workload kernel_workload(std::string_view kernel);

// --- Prediction (Chen et al. 2008, Section 4.5) ------------------------------------
// Times in seconds, costs as in communication.hpp; message sizes in doubles.

// Chen et al. 2008, Section 4.5: T_bcast = a + b p
double broadcast_time(const CommunicationCosts& costs, double processes);
// Chen et al. 2008, Section 4.5: T_send = a + b N (N doubles)
double send_time(const CommunicationCosts& costs, double elements);
// Chen et al. 2008, Section 4.5: T_recv = a + b N (N doubles)
double receive_time(const CommunicationCosts& costs, double elements);
// Chen et al. 2008, Section 4.5: T_barrier = c p
double barrier_time(const CommunicationCosts& costs, double processes);

// Chen et al. 2008, Section 4.5: T_c = W t_c / p; with costs.reference_marked_speed
// C_ref set, T_c = W t_c C_ref / C (C and C_ref in the same unit; p unused).
double computation_time(const CommunicationCosts& costs, double work, double processes, double marked_speed);

// Chen et al. 2008, Section 4.5: Gaussian elimination on p processes, matrix size N:
// T_o = T_bcast + 2 (p-1)(T_send(N) + T_recv(N)) + N (2 T_bcast + T_barrier)
double gaussian_elimination_overhead(const CommunicationCosts& costs, double n, double processes);

// Not in the paper: matrix multiplication as Chen et al. 2008 Section 4.1.2 describes
// it and hetscale runs it. Process 0 keeps root_share of the N rows of A;
// every other process i (rows n_i, sum n_i = N (1 - root_share)) gets one
// send of its rows of A (n_i N doubles), one send of all of B (N^2 doubles),
// and sends its rows of C back (n_i N doubles, received by process 0):
// T_o = sum_{i != 0} [T_send(n_i N) + T_send(N^2) + T_recv(n_i N)]
//     = (p-1)(2 a_send + a_recv) + (p-1) b_send N^2 + (b_send + b_recv) N^2 (1 - root_share)
double matrix_multiplication_overhead(const CommunicationCosts& costs, double n, double processes, double root_share);

// Chen et al. 2008, Section 4.5 (the isospeed-efficiency condition's sides):
// E_s = W / ((T_c + T_o) C). C in units of work per second (flop/s for W in
// flop: a marked speed in Mflop/s times 1e6).
double predicted_speed_efficiency(double work, double computation_time, double overhead, double marked_speed);

}  // namespace hetscale::model
