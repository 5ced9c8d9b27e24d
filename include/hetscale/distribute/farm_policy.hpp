#pragma once
// The task farm's decisions, without the transport (APGA 2004, Section 5).
// A server hands out the tasks of one generation (the fitness evaluations of
// one GA batch) to its clients; a policy decides which client gets which task
// and when a client is told NoWork. The MPI farm and the simulators drive the
// same policy objects, so every backend runs the same decisions.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace hetscale::distribute {

enum class PolicyKind {
  even,           // Cantu-Paz: the same number of tasks to every client, static
  proportional,   // static, tasks in proportion to the declared client speeds
  adaptive,       // APGA 2004: a task per WorkRequest, NoWork when none is left
  adaptive_plus,  // beyond the paper: prefetching clients, earliest-finish tail, duplicates
};
// The policy a farm runs when none is named: the best measured, for the GA's
// generations and for a bag of tasks alike (docs/experiments.md).
inline constexpr PolicyKind default_policy = PolicyKind::adaptive_plus;
std::string to_string(PolicyKind kind);
// "even", "proportional", "adaptive", "adaptive+"; std::invalid_argument otherwise.
PolicyKind policy_from_string(const std::string& name);
const std::vector<std::string>& policy_names();

// The server's answer to one WorkRequest.
struct Answer {
  enum class Kind {
    task,       // YesWork with task `task`
    duplicate,  // YesWork with task `task`, already running elsewhere: the first result wins
    no_work,    // NoWork: the client sleeps until the next generation's YesWork
    wait,       // no answer yet: the request stays pending and is asked again later
  };
  Kind kind = Kind::wait;
  std::size_t task = 0;
};

// The outcome of a WorkEnd.
enum class ResultUse {
  first,  // the task's result: it counts
  lost,   // a duplicate's late result: its computation is lost work
};

class FarmPolicy {
 public:
  virtual ~FarmPolicy() = default;
  virtual PolicyKind kind() const = 0;
  // Whether a client asks for its next task as soon as it receives one
  // (hiding the request round trip), instead of after it finishes.
  virtual bool clients_prefetch() const { return false; }

  // A new generation of `tasks` tasks, numbered 0 .. tasks-1. `last`: no
  // generation follows (a duplicate then cannot shorten the run, since the
  // original must still be drained).
  virtual void begin_generation(std::size_t tasks, bool last, double now) = 0;
  // Client `client` sent a WorkRequest (or asks again after a `wait`).
  virtual Answer on_work_request(std::size_t client, double now) = 0;
  // Client `client` sent the WorkEnd of task `task` of generation
  // `generation` (1 = the first begun; an earlier generation's result is a
  // lost duplicate), whose evaluation took `compute_seconds` and is worth
  // `nominal_seconds` on a node of speed 1.
  virtual ResultUse on_work_end(std::size_t client, std::size_t generation, std::size_t task, double nominal_seconds,
                                double compute_seconds, double now) = 0;
  // The generation begun last (1, 2, ...; 0 before the first).
  virtual std::size_t generation() const = 0;
  // Every task of the generation has a result.
  virtual bool generation_complete() const = 0;
  // Tasks of the generation still without a result.
  virtual std::size_t tasks_outstanding() const = 0;

  // Whether a client can be set aside: the dynamic policies (adaptive,
  // adaptive+) hand tasks to whoever asks; the static ones have made each
  // client's list when the generation began.
  virtual bool can_set_aside() const { return false; }
  // A client set aside gets no new task while it is (its requests wait),
  // and the others are planned without it: for a task that failed on it,
  // to run again on another client (a user's task farm, run::TaskFarm).
  // Ignored by the static policies.
  virtual void set_aside(std::size_t client, bool aside) {
    (void)client;
    (void)aside;
  }
};

// `declared_speeds` (one per client, > 0) is required by `proportional` and
// ignored by the others. Throws std::invalid_argument on misuse.
std::unique_ptr<FarmPolicy> make_farm_policy(PolicyKind kind, std::size_t clients,
                                             const std::vector<double>& declared_speeds = {});

}  // namespace hetscale::distribute
