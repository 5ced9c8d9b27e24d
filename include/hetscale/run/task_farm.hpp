#pragma once
// Farming out your own tasks on MPI, with the policies of APGA 2004's task
// farm (distribute/farm_policy.hpp) and every rank measured as `hetscale farm`
// measures it: as mpi4py's MPIPoolExecutor does for Python, for C++.
//
// Every rank constructs the farm (MPI initialised); rank 0 is the server, the
// others are clients that run `work`. The server calls map() once per batch
// of tasks (as many batches as it likes, with its own work between them); then
// every rank calls finish(), where the clients serve until the server is done:
//
//   hetscale::run::TaskFarm farm(work, settings);
//   if (farm.is_server()) results = farm.map(tasks);
//   const auto run = farm.finish();  // the run record on the server, nothing on the clients
//
// With one rank the server runs every task itself. mpi.h stays in src/.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/distribute/farm_policy.hpp"
#include "hetscale/record/farm_context.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale::run {

// A task as the server hands it out: its number (yours: the results come back
// with it) and its payload (any bytes: a command, genes, a file name).
struct Task {
  std::size_t id = 0;
  std::string payload;
};

// What running a task attempt gives back.
struct TaskResult {
  int exit_code = 0;           // 0: succeeded
  int signal = 0;              // the signal that ended it, if any
  bool timed_out = false;
  double cpu_seconds = 0.0;    // its CPU time, for an emulated speed (FarmSettings::speeds); 0: none emulated
  double work_seconds = 0.0;   // its cost on a node of speed 1 when known (the farm then counts it as the
                               // client's work); 0: unknown, the task counts as one unit of work
  std::string data;            // returned to the server as it is
  bool succeeded() const { return exit_code == 0 && signal == 0 && !timed_out; }
};

// What the client's work function is given: the task, and which attempt this is (1, 2, ...).
struct TaskAttempt {
  std::size_t id = 0;
  std::size_t attempt = 1;
  std::string_view payload;
};
// Runs on a client (on the server when it is alone). An exception ends the
// run on every rank: return failures as a TaskResult.
using TaskFunction = std::function<TaskResult(const TaskAttempt&)>;

// A task attempt that ended, as the server learns of it.
struct TaskReport {
  std::size_t id = 0, attempt = 1;
  std::size_t client = 0;  // the client's rank (0: the server alone)
  std::string host;        // the client's host name
  double start = 0.0, end = 0.0;  // Unix times (seconds) on the client, emulated slowness included
  TaskResult result;
};

struct FarmSettings {
  distribute::PolicyKind policy = distribute::default_policy;
  // Declared speed of each client (proportional's shares); also emulated,
  // when `emulate_speeds`: after a task, its client sleeps until cpu_seconds /
  // speed have passed since the task began (a speed in (0, 1]).
  std::vector<double> speeds;
  bool emulate_speeds = false;
  // A failed attempt runs again, up to this many times (in a round of its
  // own after the batch's other tasks, on whichever client asks first).
  std::size_t retries = 0;
  // SIGINT and SIGTERM (from mpiexec when it is interrupted) end the running
  // tasks' process groups at once, and the farm then stops: map() and
  // finish() throw run::Stopped (run/stop_signals.hpp) on every rank. Else the
  // signals keep the handlers they had.
  bool stop_on_signals = false;
};

// Called on the server as tasks are handed out and end: each returns before
// the next task is handed out (a job log written here survives any stop).
struct FarmObserver {
  std::function<void(const Task& task, std::size_t attempt, std::size_t client, double unix_time)> on_start;
  // `will_retry`: the attempt failed and another follows.
  std::function<void(const TaskReport& report, bool will_retry)> on_end;
};

// One client's share of the run.
struct ClientAccount {
  std::size_t tasks = 0;             // attempts whose result counted
  std::size_t failed_attempts = 0;   // of them, those that failed
  std::size_t lost_tasks = 0;        // duplicates whose result came second (adaptive+, a batch not the last)
  double work = 0.0;                 // work of the results that counted (work_seconds, or 1 a task)
  double busy_seconds = 0.0;         // their time on the client
  double lost_seconds = 0.0;         // the lost duplicates' time
};

// The run as the server measured it.
struct FarmRun {
  RunRecord record;  // the clients as nodes (the server itself when alone), the server beside; no context
  std::vector<ClientAccount> clients;  // in the order of record.nodes
  std::vector<double> batch_seconds;   // each map() call's (each round of retries is part of its call)
  std::size_t clock_switches = 0, delay_reads = 0;
  double switch_cost_s = 0.0, delay_read_cost_s = 0.0, worst_rank_overhead_fraction = 0.0;
  bool other_load_measured = false;
};

class TaskFarm {
 public:
  // Collective over MPI_COMM_WORLD. Throws std::invalid_argument on settings
  // that do not fit the ranks (every rank the same verdict).
  TaskFarm(TaskFunction work, FarmSettings settings);
  ~TaskFarm();
  TaskFarm(const TaskFarm&) = delete;
  TaskFarm& operator=(const TaskFarm&) = delete;

  bool is_server() const;
  std::size_t clients() const;  // ranks - 1
  // Server only: the host of `client` (0: the server itself).
  const std::string& host_of(std::size_t client) const;

  // Server only: runs every task until it succeeds or its retries are spent,
  // and returns the last attempt of each, in the order of `tasks`. `last`:
  // no batch follows (adaptive+ then never runs a task twice at once; in an
  // earlier batch it may duplicate a straggler, first result wins).
  std::vector<TaskReport> map(const std::vector<Task>& tasks, const FarmObserver& observer = {}, bool last = true);

  // Every rank, once: the server stops the clients, the clients serve until
  // then. The server gets the run; the clients nothing.
  std::optional<FarmRun> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The context of the run's record as every farm on MPI writes it: where it
// ran (this host, now, `mpi_library`, `ranks`), its clients, policy and
// declared speeds, each client's tasks, each batch's seconds and what
// measuring cost. The caller adds what ran (the GA's settings, a task list).
FarmContext farm_context(const FarmRun& run, const FarmSettings& settings, int ranks, const std::string& mpi_library);

// Every check of the settings that needs no communication, for `ranks` ranks.
// Throws InputError whose source is the setting ("speeds", "policy").
void validate_farm_settings(const FarmSettings& settings, int ranks);

}  // namespace hetscale::run
