#pragma once
// `hetscale bench comm`: the communication costs of Chen et al. 2008 Section 4.5
// measured on MPI_COMM_WORLD, with the operations the kernels use (the polite
// forms of src/mpi/polite.hpp, which wait by polling with sleeps), plus the
// unit computation time t_c of the speed benchmark: the measurements, which
// analysis/comm_fit.hpp (fit_measured_profile) fits to the paper's forms. See docs/communication.md for the method.
//   broadcast  among the first q ranks, q = 2..P, every message size
//   send       ping-pong between ranks 0 and 1, every message size (half the round trip)
//   barrier    among the first q ranks, q = 2..P
// and Stage-GA's communication structures (Section D), d doubles per
// processor, among the first q ranks, q = 2..P, every message size:
//   multiphase MPI_Ialltoall, d to and from every rank of the group
//   shift      each rank sends d to rank + 1 mod q and receives d from rank - 1
//   broadcast  the broadcast samples above (d from rank 0 to every rank)
//   scatter    MPI_Iscatter, d from rank 0 to every rank
//   gather     MPI_Igather, d from every rank to rank 0
// fitted to t = (M p + N) d + (R p + Q) (shift: N d + Q) into the profile's
// "structures".
// Timed on rank 0 from its start until every other rank has completed and
// acknowledged (less the time of one acknowledgement); with `asleep` each
// point is the median of single operations, with `back_to_back` the median of
// batches' means.
// mpi.h stays private to the .cpp.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/record/comm_profile.hpp"

namespace hetscale::mpi {

// How an operation is timed.
enum class CommTiming {
  back_to_back,  // many in a row after one barrier, mean per operation: the partners
                 // are awake, as in a kernel's loop of steps (the default)
  asleep,        // one at a time, after rank 0's head start: the partners wait asleep
                 // between polls, as when a process waits for a slow one
};

struct CommBenchmarkOptions {
  std::vector<std::size_t> sizes{1, 1000, 100000};  // message sizes, in doubles
  std::size_t repetitions = 20;                     // timed repetitions of every point, at least
  double min_seconds = 0.05;                        // and more, until a point has taken about this long
  double seconds_per_kernel = 0.2;                  // the speed benchmark (t_c) on rank 0
  CommTiming timing = CommTiming::back_to_back;
  bool structures = true;                 // also time Stage-GA's structures
  std::size_t structure_repetitions = 5;  // their timed repetitions per point, at least
  double structure_min_seconds = 0.01;    // and more, until a point has taken about this long
  std::string label;
};

inline constexpr std::size_t max_message_elements = 100'000'000;  // 800 MB of doubles
inline constexpr std::size_t max_repetitions = 1'000'000;         // of one point, min_seconds included

// Every check that needs no communication, the same on every rank, so that
// all ranks exit together. Throws hetscale::InputError naming the setting
// (sizes, repetitions, min-seconds: the command line's option words):
// fewer than 2 ranks, no sizes or fewer than two different ones (T_send =
// a + b N), a size of 0 or above max_message_elements, repetitions 0, a
// negative min_seconds, a non-positive seconds_per_kernel.
void validate_comm_benchmark_options(const CommBenchmarkOptions& options, int ranks);

// Message sizes in doubles from a number list: whole numbers from 1 to
// max_message_elements (InputError naming the setting sizes and the item).
std::vector<std::size_t> parse_message_sizes(const std::string& text);
// "back-to-back" or "asleep" (InputError naming the setting timing otherwise).
CommTiming parse_comm_timing(const std::string& text);

// Runs the benchmark on every rank of MPI_COMM_WORLD; rank 0 returns the
// measured profile (samples, t_c, the reference marked speed, context; no
// fits yet: fit_measured_profile), the others nothing. Options must
// have passed validate_comm_benchmark_options.
std::optional<CommProfile> run_comm_benchmark(const CommBenchmarkOptions& options);

}  // namespace hetscale::mpi
