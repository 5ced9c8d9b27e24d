#pragma once
// The farm protocol run in simulated time: the same FarmServer, FarmClient
// and policies as the MPI farm, with clients of given true speeds, equal
// tasks (or a bag of tasks of given costs) and a fixed one-way message time. It answers "what does this policy
// allow on these speeds" without the noise of a real run, and gives the
// ceiling of any policy: the greedy earliest-finish-time schedule.
#include <cstddef>
#include <vector>

#include "hetscale/distribute/farm_policy.hpp"

namespace hetscale::sim {

struct SimulatedFarmSetup {
  std::vector<double> client_speeds;    // true speeds, relative to a node of speed 1
  std::vector<double> declared_speeds;  // what `proportional` is told; empty = the true speeds
  std::size_t tasks_per_generation = 32;
  std::size_t generations = 10;
  double task_seconds = 1.0;     // nominal evaluation time on a node of speed 1
  double latency_seconds = 0.0;  // one-way time of every message
  // A bag of tasks of unequal cost instead (a user's tasks, or a job log
  // replayed): their costs in seconds on a node of speed 1, in list order,
  // one generation. Their costs are unknown to the policy, as a user's are:
  // each counts as one task (nominal 1). Replaces tasks_per_generation,
  // generations and task_seconds when not empty.
  std::vector<double> task_costs;
};

struct SimulatedClient {
  std::size_t tasks = 0;       // results that counted
  std::size_t lost_tasks = 0;  // duplicates that lost
  double t_comp = 0.0;         // computation of the results that counted
  double t_lost = 0.0;         // computation of the duplicates that lost
};

struct FarmSimulation {
  double t_par = 0.0;      // until the server sends Shutdown
  double t_seq_ref = 0.0;  // all tasks on a node of speed 1
  double speed_sum = 0.0;  // sum of the clients' true speeds (s_max in units of speed 1)
  std::vector<SimulatedClient> clients;
  std::vector<double> generation_seconds;
  std::size_t events = 0;
  // APGA 2004: s_tot / s_max = t_seq_ref / (t_par sum v_i), with idle time counted.
  double efficiency() const { return t_seq_ref / (t_par * speed_sum); }
};

// Throws std::invalid_argument on an empty or non-positive speed list, zero
// tasks or generations, or negative times.
FarmSimulation simulate_farm(distribute::PolicyKind policy, const SimulatedFarmSetup& setup);

// The greedy earliest-finish-time schedule of `tasks` equal tasks of
// `task_seconds` (on speed 1) on clients of `speeds`, all free at 0: each
// task to the client that would finish it first. Its makespan:
double earliest_finish_makespan(const std::vector<double>& speeds, std::size_t tasks, double task_seconds);
// The same of a bag of tasks of unequal `task_costs` (seconds on speed 1) in
// list order, each to the client that would finish it first: the ceiling of
// a farm that knew every task's cost beforehand and kept the list's order.
double earliest_finish_makespan(const std::vector<double>& speeds, const std::vector<double>& task_costs);
// Not a lower bound: an online policy that takes the tasks in another order
// can finish sooner. What no schedule of the bag can beat:
// max(sum of costs / sum v, the longest cost / the fastest v). Throws
// std::invalid_argument for no speeds, a speed or a cost that is not > 0.
double makespan_lower_bound(const std::vector<double>& speeds, const std::vector<double>& task_costs);
// and its efficiency, tasks task_seconds / (makespan sum v): the ceiling of
// any farm of indivisible equal tasks on these speeds, per generation.
double earliest_finish_efficiency(const std::vector<double>& speeds, std::size_t tasks, double task_seconds);

}  // namespace hetscale::sim
