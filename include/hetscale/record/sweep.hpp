#pragma once
// A scalability sweep (Chen et al. 2008, Section 4.4): one kernel run at several
// problem sizes N on one configuration (a set of processes with their marked
// speeds), each run's work W(N) and time T, and what was read off the
// speed-efficiency trend line. JSON schema "hetscale.sweep/1" (docs/formats.md):
//
// {
//   "schema": "hetscale.sweep/1",
//   "kernel": "ge" | "mm" | "conv" | "mc",   hetscale's kernels; or, for any other program:
//   "program": "lammps-lj",                the user's name for it, with optionally
//   "workload": "32000*N",                 W(N) as an expression in N (io/expression.hpp)
//   "configuration": "C2",                 name of the configuration
//   "marked_speeds": [20.9, 20.9, 20.3],   Mflop/s, one per process (rank order)
//   "marked_speed": 62.1,                  C = their sum (checked against them)
//   "points": [ { "N": 100, "W": 661353, "T_s": 0.26, "T_comp_s": 0.2,
//                 "speed_Mflops": 2.54, "E_s": 0.041, "check": "passed",
//                 "T_runs_s": [0.27, 0.26, 0.31] }, ... ],                 optional
//   "trend": { "degree": 3, "coefficients": [c0, c1, c2, c3], "r_squared": 0.99 },   optional
//   "target": { "E_s": 0.3, "N": 310, "extrapolated": false,                         optional
//               "verified": { "N": 310, "W": ..., "T_s": ..., "T_comp_s": ...,
//                             "speed_Mflops": ..., "E_s": 0.312, "check": "passed" },
//               "verifying_runs": [ { "N": 310, ... }, { "N": 296, ... } ] },      optional
//   "context": { ... }                     free-form: host, date, emulated speeds, ...
// }
//
// T_comp_s is the longest computation time of any process in that run (used
// to calibrate the computation part of a prediction); "check" is "passed" or
// "failed" (the kernel's numerical check against its serial reference: of
// every run, when several ran), absent when no check ran (a user's program). "T_runs_s" lists the time of every run at
// that size when several ran (`scale sweep --repetitions`); T_s is one of
// them, the median or the fastest (`--point`).
// "target.N" is null when the trend line does not reach the target.
// "verifying_runs" are the runs made to verify it, in order: the first at the
// trend line's N, each next one where the measured E_s crosses the target
// (scale sweep --refine); "verified" is the one nearest the target.
// Reading is strict (unknown fields refused, InputError naming the file and
// field): exactly one of kernel (one of the four above) and program (a name
// that is not empty); workload only with program, an expression in N; every marked speed, N, W and T_s
// is > 0, T_comp_s >= 0, T_runs_s has T_s among its numbers > 0, "marked_speed" (optional on reading) must agree with
// the sum of "marked_speeds" to 0.005 Mflop/s (two decimals, as printed);
// speed_Mflops and E_s are derived from W, T_s and C and recomputed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/io/provenance.hpp"

namespace hetscale {

struct SweepPoint {
  double size = 0.0;                     // N
  double work = 0.0;                     // W(N), units of work (flop)
  double seconds = 0.0;                  // T, elapsed
  double compute_seconds = 0.0;          // T_comp: longest computation time of a process
  bool check_passed = true;              // true too when no check ran
  std::vector<double> run_seconds;       // T of every run at this size, in run order, when more than one ran
  bool checked = true;                   // a numerical check ran (hetscale's kernels); false for a user's program
  double achieved_speed_mflops() const;  // W / T / 1e6
  // Chen et al. 2008, Definition 2: E_s = W / (T C), C in Mflop/s
  double speed_efficiency(double marked_speed_mflops) const;
};

struct SweepTrend {
  inline static constexpr std::size_t max_degree = 6;  // as a spreadsheet's polynomial trend line
  std::size_t degree = 0;
  std::vector<double> coefficients;  // E_s(N) = sum c_k N^k, lowest power first
  double r_squared = 0.0;
};

struct SweepTarget {
  double speed_efficiency = 0.0;           // the target E_s
  std::optional<double> size;              // N read off the trend line, if reached
  bool extrapolated = false;               // N lies beyond the largest size swept
  std::optional<SweepPoint> verified;      // the verifying run nearest the target E_s
  std::vector<SweepPoint> verifying_runs;  // every verifying run, in order (when more than one)
};

struct Sweep {
  inline static constexpr std::string_view schema = "hetscale.sweep/1";
  std::string source;          // where it was read from, for messages
  std::string kernel;          // hetscale's kernel (ge, mm, conv, mc), or the name of the user's program
  bool users_program = false;  // "program": not one of hetscale's kernels
  std::string workload;        // the user's program: W(N) as an expression in N, or empty (W as measured)
  std::string configuration;
  std::vector<double> marked_speeds;  // Mflop/s per process
  std::vector<SweepPoint> points;
  std::optional<SweepTrend> trend;
  std::optional<SweepTarget> target;
  io::Provenance context;  // where and how it was run
  double marked_speed() const;  // C = sum of marked_speeds, Mflop/s
  std::size_t processes() const { return marked_speeds.size(); }
};

Sweep parse_sweep(std::string_view text, const std::string& source);
Sweep read_sweep(const std::string& path);
std::string sweep_json(const Sweep& sweep);
// Whether every point's check passed, and the target's verifying run's too
// when `with_verifying_run`.
bool sweep_checks_passed(const Sweep& sweep, bool with_verifying_run);

// Of `runs` on the sweep's configuration, the one whose E_s is nearest
// `target` (the first of equals). Throws std::invalid_argument when there
// are none.
const SweepPoint& nearest_to_target(const Sweep& sweep, const std::vector<SweepPoint>& runs, double target);

}  // namespace hetscale
