#pragma once
// APGA 2004, Sections 5.3-5.4: the server and client programs of the adaptive
// parallel GA as state machines that do not know the transport. A backend
// (MPI, a simulator) delivers the signals it receives and sends the signals
// these return; the policy behind the server makes every decision.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "hetscale/distribute/farm_policy.hpp"

namespace hetscale::programs {

// APGA 2004, Sections 5.3-5.4: the signals of the adaptive protocol. A
// YesWork answering a WorkRequest carries the individual; a YesWork to a
// client in initialization or sleep mode only wakes it. A WorkEnd carries the
// result. Their values are the MPI tags.
enum class Signal : int { YesWork = 1, WorkRequest = 2, WorkEnd = 3, NoWork = 4, Shutdown = 5 };
// APGA 2004, Section 5.3: the client program's modes.
enum class ClientState { initialization, active, sleep };
// APGA 2004, Section 5.4: the server program's modes.
enum class ServerState { initialization, active };

std::string to_string(Signal signal);

// A signal the server sends. YesWork with has_task carries the individual
// (task `task` of generation `generation`); without it, it wakes the client.
struct Outgoing {
  std::size_t client = 0;
  Signal signal = Signal::YesWork;
  bool has_task = false;
  std::size_t generation = 0;
  std::size_t task = 0;
  bool duplicate = false;
};

class FarmServer {
 public:
  FarmServer(distribute::FarmPolicy& policy, std::size_t clients);

  ServerState state() const { return state_; }
  std::size_t clients() const { return clients_.size(); }

  // APGA 2004, Section 5.4.1: the first generation begins in initialization
  // mode, with YesWork to every client; later ones wake the sleeping clients
  // and answer the requests kept waiting.
  std::vector<Outgoing> begin_generation(std::size_t tasks, bool last, double now);
  // APGA 2004, Section 5.4.2, active mode.
  std::vector<Outgoing> on_work_request(std::size_t client, double now);
  // The answers a WorkEnd frees (a waiting request may now get a task);
  // `use` says whether the result counts or was a lost duplicate.
  std::vector<Outgoing> on_work_end(std::size_t client, std::size_t generation, std::size_t task,
                                    double nominal_seconds, double compute_seconds, double now,
                                    distribute::ResultUse& use);
  // Asks the policy again about requests kept waiting (time has passed).
  std::vector<Outgoing> poll(double now);

  bool generation_complete() const { return policy_.generation_complete(); }
  // No client holds a task whose WorkEnd has not arrived.
  bool drained() const { return tasks_out_ == 0; }
  // Drained, and no WorkRequest is on its way: every client sleeps or waits
  // for an answer, so Shutdown leaves no message unread.
  bool quiescent() const;
  // Shutdown to every client; only once quiescent.
  std::vector<Outgoing> shutdown();

  std::size_t lost_results() const { return lost_; }

 private:
  void answer(std::size_t client, double now, std::vector<Outgoing>& out);

  struct ClientView {
    bool asleep = true;            // initialization or sleep mode: needs a YesWork to ask
    bool waiting = false;          // its WorkRequest has no answer yet
    std::size_t holding = 0;       // tasks sent and not returned
    std::size_t requests_due = 0;  // WorkRequests the client will send (APGA 2004, Section 5.3)
  };
  distribute::FarmPolicy& policy_;
  std::vector<ClientView> clients_;
  std::set<std::size_t> waiting_;  // clients whose WorkRequest has no answer yet, in client order
  ServerState state_ = ServerState::initialization;
  std::size_t tasks_out_ = 0;
  std::size_t lost_ = 0;
};

// The simulators' workload: `generations` generations of `tasks` equal
// tasks, each begun when the one before it is complete (the MPI farm's
// generations come from its GA instead). Times every generation.
class GenerationSequence {
 public:
  GenerationSequence(FarmServer& server, std::size_t tasks, std::size_t generations);
  // The first generation's signals.
  std::vector<Outgoing> begin(double now);
  // Called after each WorkEnd: the next generation's signals when the
  // current one has just completed, else none.
  std::vector<Outgoing> after_work_end(double now);
  // Every generation is complete.
  bool finished() const { return finished_; }
  const std::vector<double>& generation_seconds() const { return generation_seconds_; }

 private:
  FarmServer& server_;
  std::size_t tasks_, generations_, begun_ = 0;
  double generation_start_ = 0.0;
  bool finished_ = false;
  std::vector<double> generation_seconds_;
};

// What a client does next.
enum class ClientAction {
  request_work,  // send WorkRequest
  evaluate,      // evaluate the individual just received, then call finished_evaluation()
  wait,          // wait for the next signal
  stop,          // Shutdown received
};

class FarmClient {
 public:
  explicit FarmClient(bool prefetch) : prefetch_(prefetch) {}
  ClientState state() const { return state_; }
  bool stopped() const { return stopped_; }

  // APGA 2004, Section 5.3: a signal arrived. The actions, in order (for
  // YesWork with an individual under prefetching: request_work, evaluate).
  std::vector<ClientAction> on_signal(Signal signal, bool has_task);
  // The evaluation is done and its WorkEnd sent: what next.
  std::vector<ClientAction> finished_evaluation();

 private:
  bool prefetch_;
  ClientState state_ = ClientState::initialization;
  bool stopped_ = false;
};

}  // namespace hetscale::programs
