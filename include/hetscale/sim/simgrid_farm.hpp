#pragma once
// The task farm of APGA 2004 on a simulated platform (SimGrid S4U): the same
// FarmServer, FarmClient and policies as the MPI farm, as actors. The
// platform's first node hosts the server, the next `clients` nodes the
// clients; messages cross the platform's network, evaluations run at the
// hosts' speeds (and availability). The result is a run record like a
// measured one.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/platform/platform.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/distribute/farm_policy.hpp"

namespace hetscale::sim {

// What sending one small message costs the sender (LogP's overhead o):
// a few microseconds for an MPI send over TCP. It also keeps a server from
// sending thousands of messages in the same instant.
inline constexpr double default_send_overhead_seconds = 5e-6;

struct SimulatedFarmOptions {
  distribute::PolicyKind policy = distribute::default_policy;
  std::size_t tasks_per_generation = 128;
  std::size_t generations = 10;
  double evaluation_seconds = 1.0;  // nominal time of one evaluation on a node of relative speed 1
  std::size_t clients = 0;          // 0: every node but the first
  std::size_t genes = 8;            // an individual's size: a YesWork carries 8 bytes per gene
  double send_overhead_seconds = default_send_overhead_seconds;  // the sender's time per message (LogP's o)
  std::string label;
  // A bag of tasks of unequal cost instead (a job log replayed, `simulate farm
  // --tasks-from`): each task's seconds on a node of relative speed 1, in list
  // order, one generation; unknown to the policy, as a user's are (each task
  // counts as one unit of work). Replaces tasks_per_generation, generations
  // and evaluation_seconds when not empty.
  std::vector<double> task_costs;
  // Clients send to the server through relays of this many clients each: a
  // relay actor on the server's node takes a group's messages off its own
  // mailbox and hands them to the server as they arrive. SimGrid 3.32 takes a
  // message off a mailbox's queue in time linear in the queue's length
  // (MailboxImpl::find_matching_comm erases from a boost::circular_buffer), so
  // one mailbox for 10,000 clients costs O(clients) a message. None given:
  // automatic, no relays up to 1,000 clients (one server mailbox), else
  // about sqrt(clients) a relay; 0: no relays.
  std::optional<std::size_t> relay_group;
  // Called as each generation completes (generations done, of how many), in
  // the simulation's own process: for a progress line.
  std::function<void(std::size_t done, std::size_t total)> on_generation;
};

// Message sizes on the wire, in bytes: a signal's envelope, and what an
// individual (8 bytes per gene) or a result adds to it.
inline constexpr double envelope_bytes = 64.0;
inline constexpr double result_bytes = 40.0;  // generation, task, fitness, nominal and compute time

struct SimulatedFarmRun {
  RunRecord record;
  double speed_sum = 0.0;       // sum of the clients' relative speeds (s_max in units of speed 1)
  std::size_t messages = 0;     // signals sent
  std::size_t evaluations = 0;  // including lost duplicates
  std::size_t events() const { return messages + evaluations; }
  // APGA 2004: s_tot / s_max = t_seq_ref / (t_par sum v_i), idle time counted
  // (as FarmSimulation::efficiency).
  double efficiency() const { return *record.t_seq_ref / (record.t_par * speed_sum); }
};

// Throws InputError (std::invalid_argument) naming the platform or the
// setting (clients, generations, eval-time, ...: the command line's option
// words) when the farm cannot run: fewer than two nodes, more clients than nodes
// after the first, a platform whose speeds are marked without a reference
// (the evaluation time needs relative speeds), zero tasks or generations, a
// bad evaluation time.
void validate_simulated_farm(const Platform& platform, const SimulatedFarmOptions& options);

// Runs the farm in this process's SimGrid engine (once per process; see
// run_isolated). Options must have passed validate_simulated_farm.
SimulatedFarmRun simulate_farm_on_platform(const Platform& platform, const SimulatedFarmOptions& options);

// The relative speeds of the clients the farm would use, in client order
// (for models and ceilings beside the simulation).
std::vector<double> simulated_client_speeds(const Platform& platform, const SimulatedFarmOptions& options);

}  // namespace hetscale::sim
