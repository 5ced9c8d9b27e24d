#pragma once
// The seed models applied to one run: APGA 2004's heterogeneous speed-up and
// efficiency (Section 6.2), Clematis-Corana 1999's node-level energetic analysis, and the
// POP factors. Pure: takes a run record and optionally a platform.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/model/pop.hpp"

#include "hetscale/platform/platform.hpp"
#include "hetscale/record/mpi_profile.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/work_distribution.hpp"

namespace hetscale {

// Where the speeds of the analysis came from.
struct NodeSpeeds {
  std::string name;
  std::optional<double> declared;  // from the platform (relative or marked, as declared)
  std::optional<double> measured;  // work / t_comp from the run
  double v = 0.0;                  // APGA 2004 v_i used
  double s = 0.0;                  // Clematis-Corana 1999 s_i used (relative to the reference)
};

struct SpeedSummary {
  std::string v_source;               // "platform" or "measured (work / t_comp)"
  std::string s_source;               // how s_i was normalised
  std::string reference;              // the reference machine of s_i
  std::optional<double> v_reference;  // work per second of the reference, when measured from t_seq_ref
  std::vector<NodeSpeeds> nodes;
};

// APGA 2004, Section 6.2: from the measured shares p_i and the speeds v_i.
struct HeterogeneousMetrics {
  std::vector<double> shares;             // p_i = work_i / total work
  std::vector<double> normalized_speeds;  // v_i / sum v
  double speedup = 0.0;                   // Eq 5
  double max_speedup = 0.0;               // Eq 6
  double efficiency = 0.0;                // Eq 7
  double effective_processors = 0.0;      // Eq 8
  double diversity = 0.0;                 // Eq 10
  double t_n = 0.0;                       // max t_comp_i
  double t_beyond_computation = 0.0;      // Eq 14 T_id = t_par - t_n (the run's idle; a node's is NodeRecord::t_idle)
  double speedup_total = 0.0;             // Eq 15
  double efficiency_total = 0.0;          // s_tot / s_max
  double idle_diversity = 0.0;            // Eq 16
  double even_split_bound = 0.0;          // Eq 17
};

// Clematis-Corana 1999, per node.
struct EnergeticNode {
  std::string name;
  double s = 0.0;
  std::optional<double> overhead_ratio;        // R_i (Eq 10); none when t_comp = 0
  double eta = 0.0;                            // Eq 11
  double sigma = 0.0;                          // Eq 12
  double eta_eff = 0.0;                        // Eq 14
  double rho = 0.0, delta = 0.0, gamma = 0.0;  // Eq 15
  double work_share = 0.0;                     // Eq 29
  double work_vs_ideal = 0.0;                  // Eq 31
};

// Clematis-Corana 1999, for the system.
struct EnergeticSystem {
  double speedup = 0.0;                        // SU, Eq 18
  double ideal_speedup = 0.0;                  // SU_id, Eq 21
  double efficiency = 0.0;                     // eta, Eq 22
  double utilization = 0.0;                    // eta_u, Eq 24
  double effective_efficiency = 0.0;           // eta_eff, Eq 25
  double rho = 0.0, delta = 0.0, gamma = 0.0;  // Eq 22 with rho_i, delta_i, gamma_i
  double parallelism_degree = 0.0;             // P_deg, Eq 27
};

struct PopMetrics {
  double load_balance = 0.0;
  double communication_efficiency = 0.0;
  double parallel_efficiency = 0.0;
};

// A rank's OpenMP team in POP's states (the record's context.openmp) and
// the factors DLB TALP computes from them (model::openmp_factors).
struct OpenMpRank {
  std::string node;  // the rank's node name; "all ranks" for the sums
  double team = 0.0, other = 0.0;
  model::OpenMpTimes times;
  model::OpenMpFactors factors;
};

// A rank's OpenMP threads as processors of their own speeds (APGA 2004 over
// its team): each thread number's work in the parallel regions (on a CPU or
// blocked, at this machine's speed) and its time held back to an emulated
// speed, its speed work / (work + held) (1 with no emulation), and what a
// split of the regions' work in proportion to the speeds would give.
struct OpenMpThreads {
  std::string node;
  std::vector<int> numbers;
  std::vector<double> speeds, work, held;
  std::vector<double> shares, proposed_shares;  // work_i / sum work; Proposition 1: v_i / sum v
  double efficiency = 0.0;                      // APGA 2004, Eq 7 over the threads
  double busiest = 0.0, balanced = 0.0;         // Eq 2: max (work_i + held_i); sum work / sum v
  double in_regions = 0.0;                      // the MPI-calling thread's time in the regions (measured)
  double predicted_in_regions = 0.0;            // with the proposed shares: in_regions - (busiest - balanced)
};

// A rank's offloaded work (the record's context.offload): its devices'
// kernels and copies, each device's idle time (the run's elapsed time less
// its kernels and copies), DLB TALP 3.6's device factors over the rank's
// devices (model::device_factors; none when no device did anything) and the
// host's device offload efficiency (model::device_offload_efficiency: the
// rank's computation outside the offload runtime against its time in it).
struct OffloadRank {
  std::string node;
  std::size_t rank = 0;  // its number
  double runtime = 0.0, runtime_calls = 0.0;
  double host_busy = 0.0;  // the rank's computation outside the offload runtime (s)
  std::vector<MeasuredDevice> devices;
  std::vector<double> idle;
  std::optional<model::DeviceFactors> factors;
  std::optional<double> offload_efficiency;
};

// A rank's cores and device as two processors of the work it offloaded, by
// a speed model of both (analysis/host_device_split.hpp).
struct HostDeviceSplit {
  std::string node;
  double host_busy = 0.0, device_busy = 0.0;     // s: the host's computation, the device's kernels and copies
  double host_units = 0.0, device_units = 0.0;   // the work each did, by the model
  double now = 0.0;                              // max of the two busy times: the pair's time for it now
  double host_idle = 0.0, device_idle = 0.0;     // now less each one's busy time
  std::size_t split_host = 0, split_device = 0;  // the model's numerical split of their work
  double split_makespan = 0.0;                   // its predicted time
  double gain() const { return split_makespan > 0.0 ? now / split_makespan : 1.0; }
};

// What a measured run ran under that its numbers depend on (docs/measure.md):
// cores shared by ranks or threads, other load, emulated speeds not achieved.
struct RunConditions {
  bool measured = false;      // a record of `hetscale measure` that says how it ran
  bool cores_shared = false;
  std::string crowded_host;   // the host with the most ranks
  int crowded_ranks = 0;      // and its ranks
  double other_load = 0.0;    // the largest t_other / t_par of a node
  std::string other_load_node;
  struct Emulated {
    std::string node;
    double asked = 1.0, achieved = 1.0;
  };
  std::vector<Emulated> emulation_missed;  // achieved more than kEmulationTolerance from asked
  std::vector<double> emulated;            // the speeds asked per rank (--emulate-speeds); empty when none
  double unsplit = 0.0;                    // the largest unsplit time after short calls / t_par of a node
  std::string unsplit_node;

  bool loaded() const;
};
// Other load above this fraction of t_par on a node is said first.
inline constexpr double kOtherLoadCaution = 0.05;
// Time after runs of short calls not split between them and computation above
// this fraction of t_par on a node is said first.
inline constexpr double kUnsplitCaution = 0.02;
// An emulated speed achieved further than this (relative) from the one asked is said first.
inline constexpr double kEmulationTolerance = 0.10;

struct RunAnalysis {
  std::string run_source, platform_source, label;
  double t_par = 0.0;
  std::optional<double> t_seq_ref;
  std::vector<NodeRecord> nodes;  // as analysed (idle filled in)
  SpeedSummary speeds;
  HeterogeneousMetrics heterogeneous;
  std::vector<EnergeticNode> energetic_nodes;
  EnergeticSystem energetic;
  PopMetrics pop;
  // A measured run's OpenMP teams, per rank and then all ranks summed (empty
  // when the run measured none: docs/measure.md, --openmp).
  std::vector<OpenMpRank> openmp;
  // Its ranks' OpenMP threads of two or more, as processors of their speeds.
  std::vector<OpenMpThreads> openmp_threads;
  // Its ranks that offloaded work to devices; with a speed model of their
  // cores and devices (analyze --model), each one's pair as processors.
  std::vector<OffloadRank> offload;
  std::vector<HostDeviceSplit> host_device;
  // A measured run's MPI functions, most time first (at most the ten that took most).
  std::vector<MpiFunctionProfile> mpi_functions;
  // A measured run's regions, each analysed on its own with `analyze --region NAME`.
  std::vector<std::string> regions;
  // A kernel run's: how its work was shared (marked speeds or a functional model).
  std::optional<WorkDistribution> distribution;
  RunConditions conditions;
};

// How many of a measured run's MPI functions the analysis lists.
inline constexpr std::size_t listed_mpi_functions = 10;

// The conditions a run's record says it was measured under.
RunConditions run_conditions(const RunRecord& run);

// Throws InputError when the run and the platform do not fit together, or when
// the run lacks what the speeds need (work and t_comp > 0 without a platform).
RunAnalysis analyze_run(const RunRecord& run, const Platform* platform = nullptr);

}  // namespace hetscale
