#include <algorithm>
#include <cstdio>
#include <map>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/measure/hold_back.hpp"
#include "hetscale/record/run_record.hpp"
#include "offload_devices.hpp"
#include "openmp_states.hpp"
#include "record_writers.hpp"

namespace hetscale::interpose {
namespace {

constexpr const char* measure_tool = "hetscale measure";

// One part of the run (the whole or a region) as a run record, with its MPI
// profile in the context.
RunRecord record_of(const Gathered& gathered, std::size_t part, const std::string& label, MeasuredContext context) {
  RunRecord record;
  record.label = label;
  double work = 0.0;
  std::vector<MpiFunctionProfile> profile;
  for (std::size_t f = 0; f < function_count; ++f) profile.push_back({functions[f].name});
  for (int r = 0; r < gathered.ranks; ++r) {
    const double* row = gathered.row(r, part);
    NodeRecord node;
    node.name = fmt::format("rank-{}", r);
    node.t_comp = row[comp];
    node.t_comm = row[comm];
    node.t_setup = row[setup];
    node.t_idle = row[idle];
    node.t_other = row[other];
    node.t_blocked = row[blocked];
    node.work = row[speed] * row[comp];  // in reference units: the reference node's seconds
    work += node.work;
    record.t_par = std::max(record.t_par, row[elapsed]);
    record.nodes.push_back(node);
    for (std::size_t f = 0; f < function_count; ++f) {
      auto& entry = profile[f];
      entry.seconds += row[fields + f];
      entry.seconds_max = std::max(entry.seconds_max, row[fields + f]);
      entry.calls += row[fields + function_count + f];
      entry.bytes += row[fields + 2 * function_count + f];
      entry.messages += row[fields + 3 * function_count + f];
    }
  }
  if (work > 0.0) record.t_seq_ref = work;
  std::erase_if(profile, [](const MpiFunctionProfile& entry) { return entry.calls <= 0.0; });
  for (auto& entry : profile) entry.seconds_mean = entry.seconds / gathered.ranks;
  std::stable_sort(profile.begin(), profile.end(),
                   [](const MpiFunctionProfile& a, const MpiFunctionProfile& b) { return a.seconds > b.seconds; });
  context.mpi_functions = std::move(profile);
  record.context.measured = std::move(context);
  return record;
}

// How the ranks shared this run's hosts: per rank the CPUs it may run on and
// its threads that computed (5 % of its time or more), per host its ranks;
// cores are shared when a host has more ranks than CPUs, or a rank more
// computing threads than the CPUs it may run on.
MeasuredSharing sharing_of(const Gathered& gathered) {
  MeasuredSharing sharing;
  std::map<std::string, int> cpus_of_host;
  for (int r = 0; r < gathered.ranks; ++r) {
    const double* row = gathered.row(r, 0);
    const int count = static_cast<int>(row[Field::cpus]), seen = static_cast<int>(row[threads_seen]);
    sharing.cpus.push_back(count);
    sharing.threads.push_back(seen);
    sharing.cores_shared = sharing.cores_shared || seen > count;
    sharing.ranks_per_host[gathered.host(r)] += 1;
    cpus_of_host[gathered.host(r)] = static_cast<int>(row[host_cpus]);
  }
  for (const auto& [name, ranks] : sharing.ranks_per_host)
    sharing.cores_shared = sharing.cores_shared || ranks > cpus_of_host[name];
  return sharing;
}

// The emulated speeds asked and achieved: each rank's MPI-calling threads'
// computation on a CPU against that computation held back to the speed.
MeasuredEmulation emulation_of(const Gathered& gathered) {
  MeasuredEmulation emulation;
  emulation.mechanism =
      "hold-back: after each computation of a thread that calls MPI (its time on a CPU, read exactly), the "
      "thread sleeps (1/v - 1) times that time before its next MPI call; its waits in MPI are not slowed; "
      "an OpenMP team's threads (GNU libgomp) are held back at the end of their part of each parallel region, "
      "other threads that never call MPI are not held back";
  for (int r = 0; r < gathered.ranks; ++r) {
    const double* row = gathered.row(r, 0);
    emulation.asked.push_back(row[emulated]);
    emulation.achieved.push_back(measure::achieved_speed(row[calling_on_cpu], row[calling_held], row[emulated]));
  }
  return emulation;
}

// The calls counted, not timed, in runs of short calls, when any rank had some.
std::optional<MeasuredShortCalls> short_calls_of(const Gathered& gathered, std::size_t part) {
  MeasuredShortCalls short_calls;
  short_calls.how =
      "after 32 short calls in a row (call and computation before it each under 2 us), one call in 32, at random, "
      "is timed and the others counted: each counted call gets its function's mean time, the rest of the "
      "interval is computation; where what is left comes to 2 us or more a call, or the thread left its CPU, the "
      "calls also get what a sampler (every 2 ms: the thread inside a counted call or not) saw in them beyond their "
      "means, and each such break adds at most a sampling period of its computation's time on a CPU to unsplit, "
      "the bound of t_comp's error";
  bool any = false;
  for (int r = 0; r < gathered.ranks; ++r) {
    const double* row = gathered.row(r, part);
    short_calls.counted_calls.push_back(row[counted_calls]);
    short_calls.unsplit_seconds.push_back(row[unsplit]);
    any = any || row[counted_calls] > 0.0;
  }
  if (!any) return std::nullopt;
  return short_calls;
}

// Each rank's OpenMP team in POP's states, when a rank ran a parallel region
// under an OpenMP runtime that started the tool (openmp_states.hpp).
std::optional<MeasuredOpenMp> openmp_of(const Gathered& gathered) {
  MeasuredOpenMp openmp;
  openmp.how =
      "from the OpenMP runtime's tool interface (OMPT), each thread's time split by its own clock: useful is time "
      "on a CPU computing (in parallel regions, and outside them the MPI-calling thread's computation); imbalance "
      "and scheduling are the threads' waits at each outermost region's barriers (the least thread's wait times "
      "the team is scheduling, the rest imbalance, as DLB TALP splits them); serialization is the other threads "
      "of the team idle while the MPI-calling thread computes outside regions; mpi is that thread's MPI time "
      "outside regions for every thread of the team (TALP counts the idle threads' part as serialization); "
      "other is time waiting for a CPU, in no factor; in_regions is the MPI-calling thread's time in the regions; "
      "threads lists each thread number's work in the regions (on a CPU or blocked) and the time it was held back "
      "to its speed (--emulate-thread-speeds; work + held is its useful time)";
  bool any = false;
  for (int r = 0; r < gathered.ranks; ++r) {
    const double* row = gathered.row(r, 0);
    for (auto [field, list] : {std::pair{omp_team, &openmp.team},
                               {omp_useful, &openmp.useful},
                               {omp_mpi, &openmp.mpi},
                               {omp_imbalance, &openmp.imbalance},
                               {omp_scheduling, &openmp.scheduling},
                               {omp_serialization, &openmp.serialization},
                               {omp_other, &openmp.other}})
      list->push_back(row[field]);
    openmp.in_regions.push_back(row[omp_in_regions]);
    any = any || row[omp_team] > 0.0;
    // Its threads by number (a number two threads took in turn summed).
    std::map<int, MeasuredOpenMpThread> threads;
    for (std::size_t k = 0; k + openmp_thread_values <= gathered.openmp_threads.count(r); k += openmp_thread_values) {
      const double* values = gathered.openmp_threads.of(r) + k;
      auto& thread = threads[static_cast<int>(values[0])];
      thread.number = static_cast<int>(values[0]);
      thread.speed = values[1];
      thread.work += values[2];
      thread.held += values[3];
    }
    auto& listed = openmp.threads.emplace_back();
    for (const auto& [number, thread] : threads) listed.push_back(thread);
  }
  if (!any) return std::nullopt;
  return openmp;
}

// Each rank's offloaded work, when a rank called the offload runtime or a
// device told it what it did (offload_devices.hpp).
std::optional<MeasuredOffload> offload_of(const Gathered& gathered) {
  MeasuredOffload offload;
  offload.how =
      "runtime_s is the rank's time in the offload runtime's entry points (LLVM libomptarget's: target regions and "
      "target data; the host in its device runtime), of it runtime_other_s waiting for a CPU and runtime_mpi_thread_s "
      "on the threads that call MPI (the rest on other threads of the rank), runtime_calls their calls; per device, as "
      "the runtime's plugin "
      "told it: its kernels and their seconds (kernel_s), its copies to and from host memory, their bytes and "
      "seconds (copy_s)";
  bool any = false;
  for (int r = 0; r < gathered.ranks; ++r) {
    const double* row = gathered.row(r, 0);
    offload.runtime_seconds.push_back(row[offload_seconds]);
    offload.runtime_waited.push_back(row[offload_waited]);
    offload.runtime_calls.push_back(row[offload_calls]);
    offload.runtime_on_mpi_threads.push_back(row[offload_on_mpi_threads]);
    auto& devices = offload.devices.emplace_back();
    for (std::size_t k = 0; k + device_values <= gathered.devices.count(r); k += device_values) {
      const double* values = gathered.devices.of(r) + k;
      devices.push_back(
          {static_cast<int>(values[0]), values[1], values[2], values[3], values[4], values[5], values[6], values[7]});
    }
    any = any || row[offload_calls] > 0.0 || !devices.empty();
  }
  if (!any) return std::nullopt;
  return offload;
}

// Each rank's threads with a time of their own, when a rank has more than one.
std::vector<std::vector<MeasuredThread>> threads_of(const Gathered& gathered, bool& several) {
  several = false;
  std::vector<std::vector<MeasuredThread>> ranks;
  for (int r = 0; r < gathered.ranks; ++r) {
    auto& threads = ranks.emplace_back();
    const std::size_t values = gathered.threads.count(r);
    several = several || values > thread_fields;
    for (std::size_t k = 0; k < values / thread_fields; ++k) {
      const double* row = gathered.threads.of(r) + k * thread_fields;
      threads.push_back({row[thread_calls_mpi] > 0.0, row[thread_on_cpu], row[thread_held], row[thread_other],
                         row[thread_blocked], row[thread_setup], row[thread_comm], row[thread_idle]});
    }
  }
  return ranks;
}

}  // namespace

void write_run_record(const Gathered& gathered, const measure::MeasureSettings& settings,
                      const std::string& transfer_model_source, const std::string& clock_name) {
  const std::string run_label = fmt::format("measured: {} on {} rank{}", settings.program, gathered.ranks,
                                            gathered.ranks == 1 ? "" : "s");
  MeasuredContext context;
  context.tool = measure_tool;
  context.program = settings.program;
  context.ranks = static_cast<std::size_t>(gathered.ranks);
  bool any_paused = false, any_emulated = false;
  std::vector<double> paused_seconds;
  for (int r = 0; r < gathered.ranks; ++r) {
    context.hosts.push_back(gathered.host(r));
    paused_seconds.push_back(gathered.row(r, 0)[paused]);
    any_paused = any_paused || gathered.row(r, 0)[paused] > 0.0;
    any_emulated = any_emulated || gathered.row(r, 0)[emulated] < 1.0;
  }
  context.speeds = settings.speeds.empty()          ? std::string("none given: every rank of speed 1")
                   : settings.speeds_source.empty() ? std::string("given (HETSCALE_MEASURE_SPEEDS)")
                                                    : settings.speeds_source;
  context.times =
      "each thread's time split exactly by its own counters (thread CPU clock, run-queue delay); the rank is one "
      "timeline: t_comp its busiest thread's computation on a CPU (and held back to an emulated speed), t_other "
      "that thread's wait for a CPU; t_setup: MPI_Init, MPI_Finalize and communicator, group, window, datatype "
      "and file creation; t_comm: of each call that moves data, its modelled transfer cost (latency + bytes / "
      "bandwidth, capped by the call's time), an estimate, and all of each MPI-IO read, write and sync; t_idle: "
      "the rest of those calls and every wait (MPI time only while no thread computes); t_blocked: the rest, "
      "outside MPI and not ready to run (sleeping, file I/O)";
  context.transfer_model = transfer_model_source;
  context.clock = fmt::format("{}, its rate measured against steady_clock over the run", clock_name);
  context.sharing = sharing_of(gathered);
  if (any_emulated) context.emulation = emulation_of(gathered);
  context.short_calls = short_calls_of(gathered, 0);
  context.openmp = openmp_of(gathered);
  context.offload = offload_of(gathered);
  bool several_threads = false;
  auto threads = threads_of(gathered, several_threads);
  if (several_threads) context.threads = std::move(threads);
  if (any_paused) {
    context.measuring_off = "MPI_Pcontrol(0) to MPI_Pcontrol(1): left out of every rank's times";
    context.measuring_off_seconds = paused_seconds;
  }
  for (std::size_t k = 0; k < gathered.region_names.size(); ++k) {
    const auto& name = gathered.region_names[k];
    MeasuredContext region;
    region.tool = measure_tool;
    region.region = name;
    region.short_calls = short_calls_of(gathered, 1 + k);
    context.regions.push_back(record_of(gathered, 1 + k, fmt::format("region {} of {}", name, run_label), region));
  }
  const auto record = record_of(gathered, 0, run_label, std::move(context));
  try {
    io::write_file_atomically(settings.out, run_record_json(record));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hetscale: measure: the run record was not written: %s\n", error.what());
  }
}


}  // namespace hetscale::interpose
