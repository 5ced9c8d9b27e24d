#pragma once
// The scalability kernels on real MPI processes (Chen et al. 2008 Section 4.1, seed
// 002's Monte Carlo), one process per processor, work shared in proportion to
// the processes' marked speeds. Process 0 generates the data, distributes it,
// takes its own share, and collects the result; the run is timed from a
// common start to process 0 holding the answer, which is then checked against
// a serial reference. Each process can be an emulated slower node. mpi.h
// stays private to the .cpp files.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/model/speed_function.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/programs/kernels/photon_transport.hpp"
#include "hetscale/measure/speed_benchmark.hpp"

namespace hetscale::mpi {

enum class KernelKind {
  gaussian_elimination,   // "ge"
  matrix_multiplication,  // "mm"
  convolution,            // "conv"
  monte_carlo,            // "mc": photon transport, size = histories
};
std::string to_string(KernelKind kernel);
// Throws std::invalid_argument listing the allowed names.
KernelKind kernel_from_string(const std::string& name);
// W(N): Chen et al. 2008's workloads (flop) for ge, mm and conv; histories for mc.
double kernel_workload(KernelKind kernel, double size);

struct KernelOptions {
  KernelKind kernel = KernelKind::gaussian_elimination;
  std::size_t size = 100;             // N (matrix order, image side) or histories
  std::vector<double> speeds;         // emulated relative speed per rank, in (0, 1] (empty: all 1)
  std::vector<double> marked_speeds;  // Mflop/s per rank: the shares and C (empty: all equal)
  // --distribution fpm:MODEL: the rows shared by these speed functions (one
  // per rank, sizes in rows; distribute::partition_by_speed, numerical, at
  // each N) instead of in proportion to the marked speeds, which still give
  // C. Empty: by the marked speeds. Not for mc.
  std::vector<model::SpeedFunction> speed_functions;
  std::string distribution = "marked";  // what the record says: "marked" or "fpm:MODEL"
  std::uint64_t seed = 1;
  programs::kernels::SlabProblem slab;  // mc only
  std::string label;
};

// Every check that needs no communication, so all ranks reach the same
// verdict. Throws InputError naming the setting by its word (speeds, size,
// ...), which the command line says as its option.
void validate_kernel_options(const KernelOptions& options, int ranks);

// How rows are shared, by name: "marked" (in proportion to the marked speeds,
// the default) or "fpm:MODEL", the speed functions of a functional
// performance model read from MODEL (docs/partitioning.md). InputError naming
// the setting distribution, or the model's file.
void set_distribution(KernelOptions& options, const std::string& distribution);

struct KernelRun {
  RunRecord record;  // every rank's time breakdown
  SweepPoint point;  // N, W, T, T_comp, check
  KernelCheck check;
  double marked_speed = 0.0;  // C, Mflop/s
};

// Runs one kernel on MPI_COMM_WORLD; rank 0 returns the run. Collective.
std::optional<KernelRun> run_kernel(const KernelOptions& options);

// Which of a size's repetitions is its point: the run of median time, or the
// fastest (other work on a shared machine can only slow a run down).
enum class RepetitionChoice { median, fastest };
std::string to_string(RepetitionChoice choice);
// Throws std::invalid_argument listing the allowed names.
RepetitionChoice repetition_choice_from_string(const std::string& name);

struct SweepOptions {
  KernelOptions kernel;                               // size ignored
  std::vector<std::size_t> sizes;                     // in increasing order
  std::size_t degree = 2;                             // of the trend line E_s(N)
  std::optional<double> target;                       // E_s to read N for, then verify
  std::string configuration = "C";                    // name of this configuration
  std::size_t repetitions = 1;                        // runs per size
  RepetitionChoice point = RepetitionChoice::median;  // which of them is the point
  std::size_t refinements = 3;                        // verifying runs after the first, at most
};
void validate_sweep_options(const SweepOptions& options, int ranks);

// Called on rank 0 after each run: (runs done, runs planned, seconds so far, last run).
using SweepProgress = std::function<void(std::size_t, std::size_t, double, const KernelRun&)>;

// Called on rank 0 when the sizes are done and the sweep has a target, with
// the verifying runs made so far: with none, reads the N to verify off the
// points (and may set sweep.trend and sweep.target); after them, the N of
// the next verifying run; nothing to stop. analysis::choose_verifying_size
// (the trend line E_s(N) of Chen et al. 2008 Section 4.4) and
// analysis::choose_refining_size are the ones hetscale uses; the transport
// does not fit.
using VerifyingSizeChooser =
    std::function<std::optional<double>(Sweep& sweep, const std::vector<SweepPoint>& verifying)>;

// The sweep of Chen et al. 2008 Section 4.4 on MPI_COMM_WORLD: every size, then, with
// a target, the N `choose_verifying_size` reads off them and a verifying run
// at that N, and up to options.refinements more where the chooser says.
// sweep.target->verified is the verifying run nearest the target, and
// verifying_runs all of them when more than one ran. Rank 0 returns the
// sweep. Collective. Throws std::invalid_argument for a target without a
// chooser.
std::optional<Sweep> run_sweep(const SweepOptions& options, const VerifyingSizeChooser& choose_verifying_size,
                               const SweepProgress& progress = {});

// Every rank measures its own marked speed as a node of relative speed
// `emulated_speed`: the ranks of one host one at a time (a marked speed is a
// node's speed alone; ranks that benchmark at once on one machine share its
// cores, caches and memory and measure less than their emulated speeds say),
// the hosts at once. Rank 0 returns one measurement per rank. Collective.
std::optional<std::vector<measure::SpeedMeasurement>> measure_marked_speeds(double emulated_speed,
                                                                            double seconds_per_kernel);

// Rank 0's values replace every rank's (same length on every rank). Collective.
void share_from_rank_zero(std::vector<double>& values);

}  // namespace hetscale::mpi
