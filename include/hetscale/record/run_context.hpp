#pragma once
// The context of a run record, typed: what ran, where and how it was
// measured. Each tool that writes run records fills its part (hetscale
// measure: `measured`; hetscale kernel and scale sweep: `kernel`; the farms:
// `farm`) and every reader reads the same fields; the JSON is read and
// written in one place (run_record.cpp through run_context.cpp), as the
// record's "context" object (docs/formats.md).
//
// Records are also written by hand, and by older versions: a field of the
// wrong type is left out, not refused (a report reads what it can), and keys
// no part holds are kept as written, in `notes_json`.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/record/farm_context.hpp"
#include "hetscale/record/mpi_profile.hpp"
#include "hetscale/record/work_distribution.hpp"

namespace hetscale {

struct RunRecord;

// How a measured run's ranks shared their hosts: per rank the CPUs it may run
// on and its threads that computed, per host its ranks; cores are shared when
// a host has more ranks than CPUs, or a rank more computing threads than CPUs.
struct MeasuredSharing {
  std::vector<int> cpus, threads;
  std::map<std::string, int> ranks_per_host;
  bool cores_shared = false;
};

// The speeds a measured run emulated, per rank: asked, and achieved (the
// computation's time on a CPU against that computation held back).
struct MeasuredEmulation {
  std::string mechanism;  // for people: how the slowness was applied
  std::vector<double> asked, achieved;
};

// Calls that were counted, not timed, in runs of short calls
// (measure/short_calls.hpp), per rank: how many, and the time after them
// whose split between those calls and the computation could not be known
// (booked as computation; its time on a CPU: the bound of t_comp's error).
struct MeasuredShortCalls {
  std::string how;  // for people
  std::vector<double> counted_calls, unsplit_seconds;
};

// A rank's OpenMP team in POP's states (seconds summed over its threads, per
// rank), from the OpenMP runtime's tool interface: what model::openmp_factors
// takes. team: the threads of its largest outermost parallel region.
// One OpenMP thread number of a rank, over its regions (s): its work in them
// (on a CPU or blocked, at this machine's speed) and the time it was held
// back to its emulated speed; work + held is its useful time.
struct MeasuredOpenMpThread {
  int number = 0;
  double speed = 1.0, work = 0.0, held = 0.0;
};

struct MeasuredOpenMp {
  std::string how;  // for people
  std::vector<double> team, useful, mpi, imbalance, scheduling, serialization, other;
  std::vector<double> in_regions;                          // the MPI-calling thread's time in parallel regions
  std::vector<std::vector<MeasuredOpenMpThread>> threads;  // per rank, by thread number
};

// One device of a rank, as its offload runtime's plugin told it: its kernels
// and their seconds, its copies to and from the host, their bytes and seconds.
struct MeasuredDevice {
  int number = 0;
  double kernels = 0.0, kernel_seconds = 0.0;
  double copies_to = 0.0, bytes_to = 0.0, copies_from = 0.0, bytes_from = 0.0, copy_seconds = 0.0;
};

// A rank's offloaded work: its time in the offload runtime's entry points
// (the host in its device runtime), of it the time its threads waited for a
// CPU there, and their calls; and its devices.
struct MeasuredOffload {
  std::string how;                                                     // for people
  std::vector<double> runtime_seconds, runtime_waited, runtime_calls;  // per rank
  // Per rank, of runtime_seconds the part on threads that call MPI (inside
  // the rank's timeline); empty in records made before it was measured.
  std::vector<double> runtime_on_mpi_threads;
  std::vector<std::vector<MeasuredDevice>> devices;                    // per rank
};

// One thread's own breakdown, in seconds (ranks with several threads).
struct MeasuredThread {
  bool calls_mpi = false;
  double on_cpu = 0.0, held = 0.0, other = 0.0, blocked = 0.0, setup = 0.0, comm = 0.0, idle = 0.0;
};

// A program's run as `hetscale measure` writes it (or as a user describes
// one: a "program" alone is enough), or one region of it.
struct MeasuredContext {
  // Defined where RunRecord is complete (its regions are run records).
  MeasuredContext();
  MeasuredContext(const MeasuredContext&);
  MeasuredContext(MeasuredContext&&) noexcept;
  MeasuredContext& operator=(const MeasuredContext&);
  MeasuredContext& operator=(MeasuredContext&&) noexcept;
  ~MeasuredContext();

  std::optional<std::string> tool;     // "hetscale measure"
  std::optional<std::string> region;   // a region's own record: its name
  std::optional<std::string> program;  // the program measured
  std::optional<std::size_t> ranks;
  std::vector<std::string> hosts;  // per rank
  // For people: where the speeds came from, what each time means, the
  // transfer model and the clock.
  std::optional<std::string> speeds, times, transfer_model, clock;
  std::optional<MeasuredSharing> sharing;
  std::optional<MeasuredEmulation> emulation;
  std::optional<MeasuredShortCalls> short_calls;
  std::optional<MeasuredOpenMp> openmp;
  std::optional<MeasuredOffload> offload;
  std::vector<std::vector<MeasuredThread>> threads;  // per rank, when a rank had several; else empty
  std::optional<std::string> measuring_off;          // MPI_Pcontrol(0) to (1): what was left out
  std::vector<double> measuring_off_seconds;         // per rank
  std::vector<MpiFunctionProfile> mpi_functions;     // most time first
  std::vector<RunRecord> regions;                    // each region's own record
};

// The check of a kernel's result against its serial one.
struct KernelCheck {
  std::string quantity;
  double value = 0.0, tolerance = 0.0;
  bool passed = false;
};

// A scalability kernel's run (hetscale kernel, scale sweep; Chen et al. 2008).
struct KernelContext {
  std::string kernel;                // "ge", "mm", "conv", "mc"
  std::optional<std::size_t> N;      // the problem size
  std::optional<double> W, T_s;      // its work (flop) and the run's seconds
  std::vector<double> marked_speeds_Mflops;
  std::optional<WorkDistribution> distribution;  // how the rows were shared
  std::optional<double> marked_speed_Mflops;     // C, their sum
  std::vector<double> emulated_speeds;           // per rank; empty when simulated or not said
  std::optional<KernelCheck> check;
  std::optional<std::string> host, date, mpi_library;
  std::optional<std::uint64_t> seed;
  std::optional<double> E_s;  // speed-efficiency, when marked speeds were given
  // Run in the simulator: its name, the simulated hosts and what computation cost there.
  std::optional<std::string> simulator;
  std::vector<std::string> simulated_hosts;
  std::optional<std::string> simulated_computation;
};

struct RunContext {
  std::optional<MeasuredContext> measured;
  std::optional<KernelContext> kernel;
  std::optional<FarmContext> farm;
  std::string notes_json;  // the keys no part holds, as a JSON object's text; empty when none

  bool empty() const { return !measured && !kernel && !farm && notes_json.empty(); }

  // The tool that wrote the record ("hetscale measure", "hetscale farm"), if it says.
  std::optional<std::string> tool() const;
  // What ran, for telling runs of one program apart: the measured program,
  // the kernel, the farm's objective; none when the record does not say.
  std::optional<std::string> program() const;
  // The MPI functions measured, most time first; empty when none were.
  const std::vector<MpiFunctionProfile>& mpi_functions() const;
  // How a kernel's rows were shared; none for any other run.
  std::optional<WorkDistribution> distribution() const;
};

// A context object's JSON text read as a run record's reader reads it (for
// records assembled by hand, and tests); `source` names it in errors.
RunContext parse_run_context(std::string_view text, const std::string& source);
// The context as a run record's writer writes it (compact JSON).
std::string run_context_json(const RunContext& context);

}  // namespace hetscale
