#pragma once
// Chen et al. 2008 on measurements (Sections 4.4-4.5): the speed-efficiency trend
// line of a sweep and the size N that reaches a target E_s; the
// isospeed-efficiency scalability psi between configurations; and its
// prediction from communication costs (Corollary 2). No MPI; a CSV's rows
// are read by record/sweep_csv.hpp. Bad input throws InputError naming its source: a
// file, or a setting by its word (target, workload, ...), which the command
// line says as its option.
// Marked speeds in Mflop/s, work in flop, times in seconds.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/model/communication.hpp"
#include "hetscale/record/comm_profile.hpp"
#include "hetscale/record/step_costs.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/record/sweep_csv.hpp"

namespace hetscale {

// --- Workloads -------------------------------------------------------------------

// The workload W(N) of a scalability study: one of hetscale's kernels (Chen et
// al. 2008, Section 4.1), or the user's own program, its W(N) given as an
// expression in N or known only where it was measured.
struct ProgramWorkload {
  std::string name;  // ge, mm, conv; or the user's name for the program
  bool users_program = false;
  std::string expression;              // the user's W(N) as given; empty for a kernel or measured W
  std::function<double(double)> work;  // W(N); empty for a user's program known only where measured
};

// hetscale's kernel ge, mm or conv; InputError(source, field) for another name.
ProgramWorkload kernel_workload_of(const std::string& kernel, const std::string& source, const std::string& field);
// The user's program `name` with W(N) = `expression` (io/expression.hpp, in N;
// empty: W known only where measured); InputError naming `option` when the
// expression is not one.
ProgramWorkload program_workload(const std::string& name, const std::string& expression,
                                 const std::string& option = "workload");
// A sweep's workload: its kernel's, its program's expression, or, for a
// program without one, its measured W interpolated as a power law between
// consecutive sizes (log W linear in log N; beyond the sizes swept, the
// nearest segment's power law).
ProgramWorkload sweep_workload(const Sweep& sweep);

// --- Trend line and target size (Section 4.4) --------------------------------

// The default degree of the trend line: a spreadsheet's default polynomial
// trend line (order 2). Degrees 2 and 3 read the same sizes off Tables 3-4
// (docs/scalability.md).
inline constexpr std::size_t default_trend_degree = 2;

// E_s(N) = sum c_k N^k of a trend line.
double trend_speed_efficiency(const SweepTrend& trend, double n);

// Least-squares polynomial E_s(N) of the given degree (1 to SweepTrend::max_degree)
// through the points whose check passed, with its r^2. Needs degree + 2 or more
// distinct N (one more than the coefficients). N is scaled internally.
SweepTrend fit_speed_efficiency_trend(const Sweep& sweep, std::size_t degree);

// The smallest whole N in [N_min, 2 N_max] (N_min, N_max: the sizes swept)
// where the trend line reaches `target` (in (0, 1], else InputError naming
// target); extrapolated when N > N_max; size empty when never reached.
SweepTarget find_target_size(const Sweep& sweep, const SweepTrend& trend, double target);

// Chen et al. 2008 Section 4.4, the step between a sweep's sizes and its verifying
// run: fits the trend line of `degree` through the points measured so far,
// sets sweep.trend and sweep.target, and returns the whole N to verify at
// (nothing when the line never reaches `target`). Too few points whose check
// passed is an outcome of the sweep, not bad input: the target is then kept
// with no N and no trend.
std::optional<double> choose_verifying_size(Sweep& sweep, double target, std::size_t degree);

// After the verifying runs so far (in order; the first at the trend line's
// N): the next N to run at, or nothing to stop. It stops when a verifying run
// is within half the tolerance of the target (|E_s - target| <= 5 % of it),
// or when no two measured sizes (the sweep's points and the verifying runs,
// whose check passed) next to each other have E_s on either side of the
// target. Otherwise it interpolates N linearly between the two such sizes
// nearest the last verifying run, rounded; nothing when a verifying run was
// at that N already (a sweep's point there is run again: where E_s is nearly
// flat its one run is as noisy as any, and mm's bases were refused when a
// point on the target stopped the refinement). A trend line through runs of
// milliseconds can miss the target by 20 % and more; this measures the N
// that holds it. Pure.
std::optional<double> choose_refining_size(const Sweep& sweep, const std::vector<SweepPoint>& verifying, double target);

// A sweep given as CSV, as the paper prints it (Tables 3-4): a header with N
// and one of T_ms or T_s; optional columns W (checked against the kernel's
// W(N) to 0.5 %), speed and E_s (printed values, recomputed). `#` lines are
// comments. marked_speeds: one per process (Mflop/s), or the configuration's
// C alone when the processes are not known (then counted as one).
// A user's program: W from the column W, or from its expression (then a W
// column is checked against it to 0.5 %); one of them is needed. No check ran:
// every point is unchecked.
Sweep parse_sweep_csv(std::string_view text, const std::string& source, const ProgramWorkload& workload,
                      const std::vector<double>& marked_speeds, const std::string& configuration);
Sweep parse_sweep_csv(std::string_view text, const std::string& source, const std::string& kernel,
                      const std::vector<double>& marked_speeds, const std::string& configuration);
Sweep read_sweep_csv(const std::string& path, const std::string& kernel, const std::vector<double>& marked_speeds,
                     const std::string& configuration);

// What a CSV sweep leaves out, as given on the command line (empty: not
// given): --marked-speed (C, or one marked speed per process, a number list),
// --kernel (ge, mm or conv: W(N)) or --program (a name of the user's) with
// --workload (W(N), an expression in N; without it the CSV needs a W column),
// and --configuration (default: the file's stem).
struct CsvSweepOptions {
  std::string marked_speed, kernel, configuration, program, workload;
};

// A sweep file told apart by its content: a JSON document (io::looks_like_json)
// is a hetscale.sweep/1 sweep, which carries what `csv` gives, so none of it
// may be given; anything else is a CSV sweep (parse_sweep_csv), which needs
// --marked-speed and --kernel. InputError naming the file or the setting
// (marked-speed, kernel, program, workload, configuration).
Sweep read_sweep_file(const std::string& path, const CsvSweepOptions& csv);

// --- Configurations and psi (Definition 3) -----------------------------------

// ScalingConfiguration and its CSV reader: record/sweep_csv.hpp.

// A verified E_s further than this from its target, relative to the target,
// missed it: the trend line's N does not hold the target there.
inline constexpr double kTargetTolerance = 0.10;
// |measured E_s - target| / target > kTargetTolerance.
bool target_missed(double verified_speed_efficiency, double target);
// Why a prediction cannot start from `base`: its verified run missed its
// target, so its N does not hold it (the sentence, as the error of
// predict_from_sweeps and predict_from_step_costs says it); nullopt when it
// can.
std::optional<std::string> base_target_problem(const Sweep& base);
// A prediction error ((N' - N) / N, (psi' - psi) / psi) over this is flagged.
inline constexpr double kPredictionErrorFlag = 0.10;
bool prediction_error_flagged(const std::optional<double>& relative_error);

// The N a sweep says holds its target E_s: the verified run's N if there is
// one, else the N read off the trend line; empty if neither.
std::optional<double> sweep_target_size(const Sweep& sweep);
// (sweep.configuration, C, target N, processes); InputError naming the sweep
// file when it has no target N.
ScalingConfiguration configuration_from_sweep(const Sweep& sweep);

struct PsiStep {
  std::string from, to;
  double marked_speed = 0.0, scaled_marked_speed = 0.0;  // C, C' (Mflop/s)
  double size = 0.0, scaled_size = 0.0;                  // N, N'
  double work = 0.0, scaled_work = 0.0;                  // W(N), W(N') (flop)
  double psi = 0.0;                                      // C' W / (C W')
};

struct PsiTable {
  std::string kernel;  // the workload's name
  ProgramWorkload workload;
  std::vector<std::string> sources;
  std::vector<ScalingConfiguration> configurations;
  std::vector<double> works;   // W(N) of each configuration (flop)
  std::vector<PsiStep> steps;  // consecutive configurations
};

// psi between consecutive configurations (kernel ge, mm or conv: its W(N));
// every configuration needs its N.
PsiTable isospeed_psi(const std::string& kernel, const std::vector<ScalingConfiguration>& configurations);
// The same for any workload with a W(N).
PsiTable isospeed_psi(const ProgramWorkload& workload, const std::vector<ScalingConfiguration>& configurations);
// The same from two or more sweeps of one kernel, each with a target N.
PsiTable psi_from_sweeps(const std::vector<Sweep>& sweeps);

// --- Prediction (Section 4.5, Corollary 2) ----------------------------------

struct PredictedConfiguration {
  std::string name;
  double marked_speed = 0.0;                                  // C, Mflop/s
  double processes = 0.0;                                     // p
  double root_share = 0.0;                                    // process 0's share of the rows (mm)
  double size = 0.0;                                          // base: its N; others: N' solving the condition
  double work = 0.0, computation_time = 0.0, overhead = 0.0;  // W(N), T_c, T_o
  double speed_efficiency = 0.0;                              // model E_s
  std::optional<double> measured_size;                        // N measured, if known
  std::optional<double> size_error;                           // (N' - N) / N
};

struct PredictedStep {
  std::string from, to;
  double psi_definition = 0.0;                    // C' W(N) / (C W(N')) over the predicted sizes
  double psi_corollary2 = 0.0;                    // T_o / T_o'
  std::optional<double> measured_psi, psi_error;  // from measured sizes; (psi' - psi) / psi
};

struct IsospeedPrediction {
  std::string kernel;  // the workload's name
  ProgramWorkload workload;
  std::string overhead;                        // how T_o is computed: the kernel's model, or the user's expression
  std::string profile_source;                  // the comm profile (empty: from step costs)
  std::vector<std::string> step_cost_sources;  // the step costs' files (predict_from_step_costs)
  std::optional<double> computation_ratio;     // r of T_c fitted on the base (from step costs)
  std::optional<double> measured_target;       // the base's measured E_s that N' holds (from step costs); else the
                                               // model's E_s at the base's N
  std::vector<std::string> sources;            // configurations file or sweep files
  std::string computation;                     // how T_c is computed, for people
  model::CommunicationCosts costs;             // as used (t_c possibly calibrated)
  std::vector<PredictedConfiguration> configurations;  // base first
  std::vector<PredictedStep> steps;
};

// Kernel ge or mm (the kernels with an overhead model). The base (named, or
// the first if base_name is empty) needs N and p, every later configuration
// p; configurations before the base are left out. mm: process 0's share is
// its marked speed / C when the per-process speeds are known, else 1/p.
IsospeedPrediction predict_isospeed(const model::CommunicationCosts& costs, const std::string& kernel,
                                    const std::vector<ScalingConfiguration>& configurations,
                                    const std::string& base_name = "");
// Any workload with a W(N). `overhead`: T_o as an expression in N and p over
// the measured costs, bcast(p), send(n), recv(n) and barrier(p) (n in
// doubles), required for a user's program (InputError naming overhead);
// empty for ge and mm, whose models are hetscale's.
IsospeedPrediction predict_isospeed(const model::CommunicationCosts& costs, const ProgramWorkload& workload,
                                    const std::vector<ScalingConfiguration>& configurations,
                                    const std::string& base_name, const std::string& overhead);
// The elimination's steps at order N cost beyond their computation: the
// per-step overhead o(L) at each remaining row length L = N, N-1, ..., 2,
// summed, o linear between the measured lengths and flat past the ends
// (taken as the integral of o from 1.5 to N + 0.5: the sum's midpoint form).
double elimination_step_overheads(const StepCosts& costs, double n);

// mm's product measured at orders N (bench steps --kernel mm): a part of its
// step (StepCost::computation_seconds or ::overhead_seconds) at order n, a
// power law between neighbouring measured orders (linear where a value is
// <= 0), the end pieces continued past the ends. InputError naming the
// source: fewer than two measured orders.
double product_step_part(const StepCosts& costs, double n, double StepCost::*part);

// Base = the first sweep, larger = the others, each sweep's steps measured on
// its configuration (bench steps; one StepCosts per sweep, in order, of the
// sweep's kernel and rank count). ge: T_o = elimination_step_overheads, T_c =
// r W / C. mm: T_o = the product's measured overhead at N, T_c = r times its
// slowest rank's measured computation at N (product_step_part): the rate of
// each rank's block of dgemm depends on its shape, so it is measured on each
// configuration. r fitted on the base sweep (least squares, relative, of T -
// T_o against W / C or the measured computation, over its passed points).
// InputError naming the source: another kernel, step costs of another
// kernel, a count that is not one per sweep, a rank count that is not the
// sweep's.
IsospeedPrediction predict_from_step_costs(const std::vector<Sweep>& sweeps, const std::vector<StepCosts>& step_costs);

// Base = the first sweep (its target N), larger = the others. Computation:
// if the profile has a reference marked speed, its costs as they are; else
// t_c calibrated on the base sweep as the median over its passed points of
// T_comp p / W, with C_ref = C / p of the base (equal to the homogeneous
// T_c = W t_c / p when all processes have the same marked speed); if the base
// sweep has no T_comp, the profile's t_c in the homogeneous form.
IsospeedPrediction predict_from_sweeps(const CommProfile& profile, const std::vector<Sweep>& sweeps,
                                       const std::string& overhead = "");

}  // namespace hetscale
