#pragma once
// The task farm on real MPI processes (APGA 2004, Sections 5-6): rank 0 is the
// server and runs the GA, ranks 1..n are the clients and evaluate. Each rank
// measures where its time goes; rank 0 writes the run record. With one rank
// (no clients) the server evaluates by itself: APGA 2004's best serial version.
// mpi.h stays private to the .cpp files.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hetscale/ga/genetic_algorithm.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/distribute/farm_policy.hpp"

namespace hetscale::mpi {

// MPI_Init on construction, MPI_Finalize on destruction.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  static std::string library_version();
  // `text` as rank `root` has it, on every rank (collective).
  static std::string broadcast_text(const std::string& text, int root = 0);
  // Ends every rank at once (for internal errors, so nothing hangs).
  [[noreturn]] static void abort(int code);

 private:
  int rank_ = 0, size_ = 1;
};

// A command run on every rank: MPI is started, `prepare` checks the input
// (each rank the same checks, so bad input, std::invalid_argument, stops every
// rank with io::exit_bad_input and one line on stderr from rank 0), then
// `body` runs and returns the exit code. A stop by a signal (run::Stopped)
// ends the rank as the signal would (128 + signal); any other exception ends
// every rank at once (io::exit_internal_error).
int run_on_every_rank(int& argc, char**& argv, const std::function<void(int rank, int ranks)>& prepare,
                      const std::function<int(int rank, int ranks)>& body);

// Runs `work` on rank 0 alone (the rank that reads and writes the files);
// a std::invalid_argument it throws is thrown again on every rank, so all
// stop together. Collective.
void on_rank_zero_for_all(int rank, const std::function<void()>& work);

// Runs `work` on every rank; when it throws std::invalid_argument on any,
// the lowest such rank's message is thrown again on every rank, so all stop
// together. Collective.
void on_every_rank_for_all(const std::function<void()>& work);

struct FarmOptions {
  distribute::PolicyKind policy = distribute::default_policy;
  // "synthetic", "lennard-jones", "command:PROGRAM" or "library:PATH" (docs/tasks.md)
  std::string objective = "synthetic";
  double evaluation_seconds = 1.0;                  // synthetic: nominal evaluation time on a node of speed 1
  double time_scale = 1.0;                          // synthetic: multiplies every nominal time
  std::size_t dimensions = 8;                       // synthetic, command: genes
  std::optional<std::pair<double, double>> bounds;  // command: every gene's [lower, upper]
  std::size_t atoms = 13;                           // lennard-jones: cluster size
  std::vector<double> speeds;                       // one per client (empty: all 1); with no clients, the server's
  ga::GaParameters ga;                              // population, generations, seed, ...
  std::string label;
};

// Every check that needs no communication: each rank runs it on the same
// arguments and reaches the same verdict, so all ranks exit together.
// Throws hetscale::InputError naming the setting by its word (speeds,
// eval-time, ...), which the command line says as its option.
void validate_farm_options(const FarmOptions& options, int ranks);

struct FarmOutcome {
  RunRecord record;  // clients as nodes, the server beside them
  ga::GaResult ga;
};

// Called on rank 0 after every generation: (generation, generations, seconds since the start, best fitness).
using FarmProgress = std::function<void(std::size_t, std::size_t, double, double)>;

// Runs the farm on MPI_COMM_WORLD. Rank 0 returns the outcome, the others
// nothing. Options must have passed validate_farm_options.
std::optional<FarmOutcome> run_farm(const FarmOptions& options, const FarmProgress& progress = {});

// The GA farm's summary line: its policy, clients, objective, t_par,
// evaluations and best fitness, and where the run record was written (`out`,
// "" none).
std::string farm_summary(const FarmOptions& options, const FarmOutcome& outcome, int ranks, const std::string& out);

}  // namespace hetscale::mpi
