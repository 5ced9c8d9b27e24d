#pragma once
// What each rank sends rank 0 in MPI_Finalize (a row of times and, per MPI
// function, seconds, calls, bytes and messages, for the run and each region;
// its threads' breakdowns), and what rank 0 holds once it has gathered them:
// the input of the run record's and the TALP document's writers.
#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "accounting.hpp"

namespace hetscale::interpose {

// What one rank sends rank 0 in MPI_Finalize, for the run and each region:
// its times (the rank as one timeline, measure/rank_timeline.hpp), then per
// function its seconds, calls and bytes.
enum Field : std::size_t {
  elapsed,
  comp,
  comm,
  setup,
  idle,
  other,
  blocked,
  speed,
  process_id,
  paused,
  emulated,        // the emulated speed asked (1: none)
  calling_on_cpu,  // the MPI-calling threads' computation on a CPU
  calling_held,    // and held back: the speed achieved is on_cpu / (on_cpu + held)
  cpus,            // CPUs this rank may run on (its affinity)
  host_cpus,       // CPUs of its host (online)
  threads_seen,    // threads that computed 5 % of the rank's time or more
  counted_calls,   // calls counted, not timed, in runs of short calls
  unsplit,         // the time after them not split between them and computation (s)
  // POP's OpenMP states summed over the rank's team (openmp_states.hpp), s; team 0: none seen
  omp_team,
  omp_useful,
  omp_mpi,
  omp_imbalance,
  omp_scheduling,
  omp_serialization,
  omp_other,
  omp_in_regions,  // the MPI-calling thread's time in them
  // The offload runtime (offload_devices.hpp): the rank's time in its entry points (s), of it its
  // waits for a CPU (s), their calls, and of the time the part on threads that call MPI (s)
  offload_seconds,
  offload_waited,
  offload_calls,
  offload_on_mpi_threads,
  fields
};
inline const std::size_t width = fields + 4 * function_count;

// One thread's breakdown, for the record's context.threads.
enum ThreadField : std::size_t {
  thread_calls_mpi,
  thread_on_cpu,
  thread_held,
  thread_other,
  thread_blocked,
  thread_setup,
  thread_comm,
  thread_idle,
  thread_fields
};

// Rows of a length each rank chose, gathered at rank 0: rank r's values are
// values[offsets[r]] to values[offsets[r] + counts[r]].
struct RankRows {
  std::vector<double> values;
  std::vector<int> counts, offsets;

  std::size_t count(int rank) const { return static_cast<std::size_t>(counts[static_cast<std::size_t>(rank)]); }
  const double* of(int rank) const {
    return &values[static_cast<std::size_t>(offsets[static_cast<std::size_t>(rank)])];
  }
};

// The rows rank 0 gathered: [rank][part][field], part 0 the run and part
// 1 + k the k-th region; each rank's threads (thread_fields values each),
// its OpenMP threads (openmp_thread_rows) and its devices (device_rows).
struct Gathered {
  int ranks = 0;
  std::vector<std::string> region_names;
  std::vector<double> rows;
  std::vector<char> hosts;
  RankRows threads, openmp_threads, devices;

  const double* row(int rank, std::size_t part) const {
    return &rows[(static_cast<std::size_t>(rank) * (1 + region_names.size()) + part) * width];
  }
  std::string host(int rank) const { return &hosts[static_cast<std::size_t>(rank) * MPI_MAX_PROCESSOR_NAME]; }
};

}  // namespace hetscale::interpose
