#pragma once
// What both farm simulators (SimGrid actors in simgrid_farm.cpp, the event
// simulation of event_farm.cpp) share: the farm they build from the platform
// and options, the messages they pass, what they keep of each simulated
// process, and the run record they make of it.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "hetscale/distribute/farm_policy.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/programs/farm_protocol.hpp"
#include "hetscale/sim/simgrid_farm.hpp"

namespace hetscale::sim::detail {

// One process's time, split as Clematis-Corana 1999 splits a node's: waiting
// for a message while it is on the wire is communication, waiting before it
// was sent is idle.
struct ActorTimes {
  double comp = 0.0, lost = 0.0, comm = 0.0, other = 0.0;
  double work = 0.0;  // nominal seconds of results that counted
  std::size_t tasks = 0, lost_tasks = 0;
};

struct Message;

// The clients' speeds, the policy, the server and its generations, and what
// a task costs. Not movable: the server refers to the policy, the generations
// to the server.
struct FarmParts {
  FarmParts(const Platform& platform, const SimulatedFarmOptions& options);
  FarmParts(const FarmParts&) = delete;
  FarmParts& operator=(const FarmParts&) = delete;

  const SimulatedFarmOptions& options;
  std::vector<double> client_speeds;
  std::unique_ptr<distribute::FarmPolicy> policy;
  programs::FarmServer server;
  programs::GenerationSequence sequence;
  double reference_flops = 1.0;        // of a node of relative speed 1
  double task_bytes = envelope_bytes;  // of a YesWork that carries a task

  // A task's flops: its seconds on a node of relative speed 1.
  double task_flops(std::size_t task) const;
  // What a result counts as work: the evaluation's nominal seconds, or one
  // unit for a task of a bag (the cost is unknown to the policy).
  double result_nominal_seconds() const;

  // The server's part of a WorkEnd that arrived `now`: the policy's answers,
  // then the next generation's signals if it completed one (to send in that
  // order); the client's task and work counted, or a duplicate that lost
  // counted as lost computation; options.on_generation told of a completed
  // generation.
  std::vector<programs::Outgoing> work_end(const Message& result, double now, ActorTimes& client);

 private:
  std::size_t reported_generations_ = 0;
};

// A signal on the wire.
struct Message {
  programs::Signal signal = programs::Signal::YesWork;
  std::size_t client = 0;
  bool has_task = false;
  std::size_t generation = 0, task = 0;
  double nominal_seconds = 0.0, compute_seconds = 0.0;
  double dedicated_seconds = 0.0;  // of compute_seconds, what the node would take without other load
  double sent_at = 0.0;
};

// The server's outgoing signal as a message.
Message message_of(const programs::Outgoing& outgoing);

// A process that began waiting for a message at `waiting_since` and got it
// `now`: the wait while the message was on the wire (sent at `sent_at`) is
// communication, before it was sent idle.
inline double wire_wait(double waiting_since, double now, double sent_at) {
  return std::min(now - waiting_since, now - sent_at);
}

// What a simulated farm run leaves, for its record.
struct SimulatedFarmTimes {
  std::vector<ActorTimes> clients;
  ActorTimes server;
  double t_par = 0.0;
  std::size_t messages = 0, evaluations = 0;
  std::vector<double> generation_seconds;
};

// The run record (per node: t_comp, t_comm, t_setup = lost duplicates,
// t_other, t_idle the rest of t_par) with the farm's context block.
SimulatedFarmRun simulated_farm_run(const Platform& platform, const SimulatedFarmOptions& options,
                                    const std::vector<double>& client_speeds, const SimulatedFarmTimes& times,
                                    const std::string& simulator);

}  // namespace hetscale::sim::detail
