#pragma once
// Chen et al. 2008's isospeed-efficiency scalability for people (terminal tables laid
// out like the paper's Tables 3-6 and 12-13) and for scripts (JSON with a
// schema and a context block). docs/scalability.md describes both.
#include <cstddef>
#include <string>

#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/step_costs.hpp"
#include "hetscale/record/sweep.hpp"

namespace hetscale::report {

// `hetscale scale psi`: the configurations (C, N, p, W) and psi between consecutive ones.
// `hetscale bench speed`: each rank's node (`platform`, marked speeds in
// Mflop/s), its emulated relative speed (`emulated`, empty: all 1) and each
// benchmark kernel's Mflop/s (elimination, dgemm, fft), then C, their marked
// speeds' sum.
std::string marked_speeds_table(const Platform& platform, const std::vector<double>& emulated,
                                const std::vector<std::vector<double>>& kernel_mflops);

std::string psi_table(const PsiTable& table);
// {"schema": "hetscale.psi/1", "context", "kernel", "configurations", "psi": [{"from", "to", "psi", ...}]}
std::string psi_json(const PsiTable& table);

// `hetscale scale predict`: N' per configuration (beside the measured N) and psi'.
std::string prediction_table(const IsospeedPrediction& prediction);
// {"schema": "hetscale.isospeed-prediction/1", "context", "kernel", "computation", "costs" (from a comm
// profile) or "r" (from step costs), "configurations", "psi"}
std::string prediction_json(const IsospeedPrediction& prediction);

// `hetscale scale fit`: the sweep's points with E_s, its trend line and the target N.
// (Its JSON is the sweep itself, record/sweep.hpp's sweep_json.)
std::string sweep_fit_table(const Sweep& sweep);

// `hetscale kernel` and `scale sweep`: one run at one size on a line: N, W,
// T, the achieved speed and E_s against C (`marked_speed`, Mflop/s) and its
// check; for the Monte Carlo kernel ("mc"), whose work is histories, N, T and
// the check.
std::string sweep_point_line(const SweepPoint& point, double marked_speed, const std::string& kernel);

// `hetscale bench steps`: a kernel's seconds per step at each length (ge: L;
// mm: N): the step, its computation and the overhead beyond it.
std::string step_costs_table(const StepCosts& costs);

// `hetscale kernel`'s summary of a run on `ranks` processes: the kernel, C
// and its sweep_point_line, its check, how its rows were shared when not by
// the marked speeds, and where its record was written (`out`, "" none).
std::string kernel_run_summary(const std::string& kernel, int ranks, const SweepPoint& point, double marked_speed,
                               const KernelCheck& check, const RunRecord& record, const std::string& out);

// `hetscale scale sweep` (and `simulate sweep`): the sweep as it ran: its
// kernel, configuration, processes and C (and, with `repetitions` > 1, that
// each point is the `point_choice` of them), a sweep_point_line per point,
// the trend line's degree and R^2, and the target's N with its verifying run.
std::string sweep_run_table(const Sweep& sweep, std::size_t repetitions, const std::string& point_choice);

}  // namespace hetscale::report
