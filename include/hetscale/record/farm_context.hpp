#pragma once
// The context block of a farm's run record (APGA 2004's task farm), typed:
// what ran, where, and how it was measured. The MPI farm (`hetscale farm`)
// and the SimGrid farm (`hetscale simulate farm`) fill it, the report reads
// it back. Fields only one backend has are optional. docs/formats.md.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hetscale {

// One client's share of the run.
struct FarmClientTasks {
  std::string name;
  std::size_t tasks = 0;
  std::size_t lost_tasks = 0;  // duplicates whose result came second
  double lost_seconds = 0.0;   // their computation
};

// The GA that drove the farm (MPI farm).
struct FarmGaSettings {
  std::string scheme, crossover;
  std::size_t population = 0, generations = 0;
  double crossover_rate = 0.0, mutation_rate = 0.0, selection_pressure = 0.0;
  std::uint64_t seed = 0;
};

// What measuring cost (MPI farm): the per-rank clocks' switches and reads.
struct FarmMeasurement {
  std::size_t clock_switches = 0, delay_reads = 0;
  double switch_cost_s = 0.0, delay_read_cost_s = 0.0;
  double worst_rank_overhead_fraction = 0.0;
  std::string other_load_from;
};

struct FarmContext {
  std::string tool;  // "hetscale farm", "hetscale simulate farm"
  // Where it ran: on MPI ...
  std::optional<std::string> host, date, mpi_library;
  std::optional<std::size_t> ranks;
  // ... or in the simulator.
  std::optional<std::string> simulator, platform;
  std::size_t clients = 0;
  std::string policy;
  std::optional<std::string> objective;
  std::optional<std::size_t> tasks_per_generation, generations;  // the simulator's workload
  std::optional<double> eval_time_s, time_scale;                 // the synthetic objective's evaluation
  std::optional<std::size_t> atoms;                              // Lennard-Jones
  // A bag of the user's tasks (hetscale farm --tasks | --command; objective "tasks").
  std::optional<std::string> task_list;               // the task file, or the template and its inputs
  std::optional<std::size_t> tasks_run, failed_tasks;  // tasks run this time; failed after their retries (all runs)
  std::optional<std::size_t> retries;
  std::optional<double> timeout_s;
  std::optional<std::string> job_log;
  std::vector<double> speeds;                                    // declared client speeds (empty: all 1)
  std::optional<FarmGaSettings> ga;
  std::optional<double> best_fitness;
  std::optional<std::vector<double>> best_genome;
  std::vector<FarmClientTasks> tasks;
  std::vector<double> generation_seconds;
  std::optional<std::size_t> messages;
  std::size_t evaluations = 0;
  std::optional<FarmMeasurement> measurement;

  // The tasks of a generation: the GA's population, or the simulator's count.
  std::optional<std::size_t> tasks_each_generation() const;
  std::optional<std::size_t> generation_count() const;
};

// Its JSON is a run record's context (record/run_context.hpp): its keys in the
// order of the struct (absent optionals left out); a context is a farm's when
// its tool names a farm and it says how many clients, and fields of the wrong
// type are left out, not refused (a report reads what it can).

}  // namespace hetscale
