#pragma once
// Chen et al. 2008 Section 4.5's communication forms fitted to measured samples (what
// `hetscale bench comm` timed), by least squares, with the fit quality of each:
//   T_bcast(p)   = a + b p   broadcast among p processes, at the smallest message measured
//   T_send(N)    = a + b N   one message of N doubles (T_recv likewise)
//   T_barrier(p) = c p       barrier among p processes, a line through the origin
// A time has no negative part: a and b are fitted under a, b >= 0 (the
// unconstrained line when it is non-negative, else the best line with the
// negative term held at 0). Every r_squared is 1 - SS_res / SS_tot with SS_tot
// about the mean of the times, the through-origin fit included, so that the
// values compare; it is below 0 when the form fits worse than a constant.
// And Stage-GA's communication structures (Section D, Table II):
//   t(d, p) = (M p + N) d + (R p + Q)   multiphase, broadcast, scatter, gather
//   t(d, p) = N d + Q                   shift
// for d doubles per processor among p processes: plain (unconstrained) linear
// least squares on all samples of the structure, with r_squared as above.
// Pure functions: no I/O, no MPI.
#include <span>
#include <vector>

#include "hetscale/analysis/serial_fit.hpp"
#include "hetscale/model/communication.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/comm_profile.hpp"

namespace hetscale {

// Least squares y = intercept + slope x with intercept, slope >= 0; needs two
// or more distinct x and y >= 0 (std::invalid_argument otherwise).
LinearFit fit_non_negative_line(std::span<const double> x, std::span<const double> y);

// Least squares y = slope x (intercept 0); needs one or more points, some x != 0.
LinearFit fit_through_origin(std::span<const double> x, std::span<const double> y);

struct CommFit {
  // The communication terms; unit_computation and reference_marked_speed are
  // not communication and stay unset (the speed benchmark gives them).
  model::CommunicationCosts costs;
  std::vector<CommFitQuality> fits;  // one per operation fitted, in the order above
};

// Fits broadcast, send and barrier samples (other operations are ignored).
// Receive samples, if any, get their own fit; without them T_recv = T_send.
// With one process count only (2 ranks), the broadcast line goes through the
// origin (a = 0). std::invalid_argument when an operation has no samples or
// send has fewer than two message sizes.
CommFit fit_communication_costs(std::span<const CommSample> samples);

// Least squares t = M p d + N d + R p + Q over the points (p[i], d[i], t[i]).
// With one process count only, M and R cannot be told from N and Q: they are
// 0 and t = N d + Q is fitted. Needs two or more distinct d
// (std::invalid_argument otherwise, or when the lengths differ). The result's
// structure name is empty.
StructureCosts fit_structure_form(std::span<const double> p, std::span<const double> d, std::span<const double> t);

// The structures of communication_structures that have samples (operation =
// the structure's name), each fitted to its form (shift: t = N d + Q), in
// that order; std::invalid_argument when one has fewer than two message sizes.
std::vector<StructureCosts> fit_structure_costs(std::span<const CommSample> samples);

// A measured profile (`hetscale bench comm`: samples, t_c, the reference
// marked speed) fitted: its costs and fit qualities from
// fit_communication_costs, the measured t_c and marked speed kept, and with
// `structures` Stage-GA's structure costs from fit_structure_costs.
void fit_measured_profile(CommProfile& profile, bool structures);

// The machine a fitted profile was measured on, as a platform for a replay:
// one node named `node` of `cores` cores of speed 1 (relative to itself),
// its network's latency the send cost's intercept (at least 1 ns) and its
// bandwidth 8 bytes (a double) over the send cost per double.
// std::invalid_argument when cores < 1 or the cost per double is not > 0.
Platform platform_of_profile(const CommProfile& profile, const std::string& node, int cores);

}  // namespace hetscale
