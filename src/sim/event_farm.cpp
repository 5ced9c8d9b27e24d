#include "hetscale/sim/event_farm.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <queue>
#include <vector>

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"
#include "hetscale/programs/farm_protocol.hpp"
#include "hetscale/sim/simgrid_platform.hpp"
#include "farm_shared.hpp"

namespace hetscale::sim {

void validate_event_farm(const Platform& platform, const SimulatedFarmOptions& options) {
  validate_simulated_farm(platform, options);
  const std::size_t used = options.clients ? options.clients + 1 : platform.nodes.size();  // the server, the clients
  for (std::size_t i = 0; i < used; ++i)
    if (const auto& node = platform.nodes[i]; !node.availability.empty())
      throw InputError(platform.source, fmt::format("node {}: availability", node.name),
                       "the event simulation runs nodes at their full speed; a node of varying availability needs "
                       "the engine simgrid");
}

namespace {

using detail::ActorTimes;

using detail::Message;

// put: a message leaves its sender (it joins the receiver's mailbox);
// arrival: its last byte arrives; free: a process is done with what it did.
enum class EventKind { put, arrival, server_free, client_free };

// The server is process 0, client i process i + 1.
struct Event {
  double time;
  std::uint64_t order;  // ties: in the order scheduled
  EventKind kind;
  std::size_t process;
  std::uint64_t sequence;  // arrival: the message's place in its receiver's mailbox
  Message message;         // put: the message
  double arrives_at;       // put: when its last byte arrives
  bool operator>(const Event& other) const { return time != other.time ? time > other.time : order > other.order; }
};

// Each process (the server, a client) runs the loop of its SimGrid actor:
// take the next message (waiting if there is none), act on it, each send
// costing the overhead before the message leaves. Its mailbox is a queue in
// the order the messages were sent, as a SimGrid mailbox with a receiver is:
// the receiver takes the first sent, waiting for its last byte if it is
// still on the wire, even when a later one has arrived.
struct Process {
  struct Slot {
    Message message;
    bool arrived = false;
  };
  std::deque<Slot> mailbox;
  std::uint64_t first_sequence = 0;  // of mailbox.front()
  bool waiting = false;
  double waiting_since = 0.0;
  bool has_arrived_message() const { return !mailbox.empty() && mailbox.front().arrived; }
};

class EventFarm {
 public:
  EventFarm(const Platform& platform, const SimulatedFarmOptions& options)
      : platform_(platform),
        options_(options),
        farm_(platform, options),
        clients_(farm_.client_speeds.size()),
        protocols_(farm_.client_speeds.size(), programs::FarmClient(farm_.policy->clients_prefetch())) {
    times_.clients.resize(clients_.size());
    for (std::size_t client = 0; client < clients_.size(); ++client)
      client_flops_.push_back(simulated_flops(platform, client + 1));
    // Every route: the sender's private link, the backbone if any, the
    // receiver's private link (simgrid_platform.hpp).
    const SimulatedLink link = private_link(platform);
    route_latency_ = link.latency_s;
    double bandwidth = link.bandwidth_Bps;
    if (platform.network && platform.network->backbone) {
      route_latency_ += platform.network->backbone->latency_s;
      bandwidth = std::min(bandwidth, platform.network->backbone->bandwidth_Bps);
    }
    route_latency_ += link.latency_s;
    route_rate_ =
        route_latency_ > 0.0 ? std::min(bandwidth, simgrid_tcp_gamma_bytes / (2.0 * route_latency_)) : bandwidth;
  }

  SimulatedFarmRun run() {
    for (auto& client : clients_) client.waiting = true;  // each client's loop begins with a receive
    at(dispatch(farm_.sequence.begin(0.0), 0.0), EventKind::server_free);
    while (!events_.empty()) {
      const Event event = events_.top();
      events_.pop();
      now_ = event.time;
      switch (event.kind) {
        case EventKind::put: {
          auto& receiver = process(event.process);
          const std::uint64_t sequence = receiver.first_sequence + receiver.mailbox.size();
          receiver.mailbox.push_back({event.message, false});
          at(event.arrives_at, EventKind::arrival, event.process, sequence);
          break;
        }
        case EventKind::arrival: {
          auto& receiver = process(event.process);
          receiver.mailbox[event.sequence - receiver.first_sequence].arrived = true;
          if (receiver.waiting && receiver.has_arrived_message()) take_next(event.process);
          break;
        }
        case EventKind::server_free:
          server_free();
          break;
        case EventKind::client_free:
          client_free(event.process - 1);
          break;
      }
    }
    times_.generation_seconds = farm_.sequence.generation_seconds();
    return detail::simulated_farm_run(platform_, options_, farm_.client_speeds, times_,
                                      "hetscale event simulation (messages as SimGrid's CM02 model times one alone "
                                      "on its route)");
  }

 private:
  Process& process(std::size_t index) { return index == 0 ? server_ : clients_[index - 1]; }

  void at(double time, EventKind kind, std::size_t process = 0, std::uint64_t sequence = 0) {
    events_.push({time, order_++, kind, process, sequence, {}, 0.0});
  }

  // A message that leaves at `time` arrives after the route's latency and
  // its bytes at the route's rate (the order CM02 adds them in).
  double arrival(double time, double bytes) const { return (time + route_latency_) + bytes / route_rate_; }

  // Sends from a process free at `time` (its overhead first, unless already
  // spent): returns when it is free again.
  double send(double time, std::size_t receiver, Message message, double bytes, ActorTimes& sender,
              bool overhead_spent = false) {
    if (!overhead_spent) time += options_.send_overhead_seconds;
    sender.comm += options_.send_overhead_seconds;
    message.sent_at = time;
    ++times_.messages;
    events_.push({time, order_++, EventKind::put, receiver, 0, message, arrival(time, bytes)});
    return time;
  }

  double dispatch(const std::vector<programs::Outgoing>& messages, double time) {
    for (const auto& outgoing : messages)
      time = send(time, outgoing.client + 1, detail::message_of(outgoing),
                  outgoing.has_task ? farm_.task_bytes : envelope_bytes, times_.server);
    return time;
  }

  // The first message of a process's mailbox, taken now: waiting for it
  // while it was on the wire is communication; before it was sent, idle
  // (simgrid_farm.cpp's receive).
  Message take(std::size_t index, ActorTimes& times) {
    auto& receiver = process(index);
    receiver.waiting = false;
    const Message message = receiver.mailbox.front().message;
    receiver.mailbox.pop_front();
    ++receiver.first_sequence;
    times.comm += detail::wire_wait(receiver.waiting_since, now_, message.sent_at);
    return message;
  }

  void take_next(std::size_t index) {
    if (index == 0)
      serve_next();
    else
      act_on_next(index - 1);
  }

  // --- the server ---------------------------------------------------------
  void server_free() {
    if (farm_.sequence.finished() && farm_.server.quiescent()) {
      if (!done_) {
        done_ = true;
        times_.t_par = now_;
        dispatch(farm_.server.shutdown(), now_);
      }
      return;
    }
    server_.waiting = true;
    server_.waiting_since = now_;
    if (server_.has_arrived_message()) serve_next();
  }

  void serve_next() {
    const Message message = take(0, times_.server);
    double free_at = now_;
    if (message.signal == programs::Signal::WorkRequest) {
      free_at = dispatch(farm_.server.on_work_request(message.client, now_), free_at);
    } else {
      free_at = dispatch(farm_.work_end(message, now_, times_.clients[message.client]), free_at);
    }
    at(free_at, EventKind::server_free);
  }

  // --- a client -------------------------------------------------------------
  void client_free(std::size_t index) {
    if (protocols_[index].stopped()) return;
    auto& client = clients_[index];
    client.waiting = true;
    client.waiting_since = now_;
    if (client.has_arrived_message()) act_on_next(index);
  }

  void act_on_next(std::size_t index) {
    const Message message = take(index + 1, times_.clients[index]);
    double free_at = now_;
    for (const auto action : protocols_[index].on_signal(message.signal, message.has_task)) {
      if (action == programs::ClientAction::request_work) free_at = request(index, free_at);
      if (action == programs::ClientAction::evaluate) free_at = evaluate(index, message, free_at);
    }
    at(free_at, EventKind::client_free, index + 1);
  }

  double request(std::size_t index, double time) {
    Message message;
    message.signal = programs::Signal::WorkRequest;
    message.client = index;
    return send(time, 0, message, envelope_bytes, times_.clients[index]);
  }

  // At the node's full speed, the WorkEnd's overhead after it (as a
  // dedicated node's client does on SimGrid).
  double evaluate(std::size_t index, const Message& task, double time) {
    const double dedicated_seconds = farm_.task_flops(task.task) / client_flops_[index];
    time += dedicated_seconds + options_.send_overhead_seconds;
    ++times_.evaluations;
    times_.clients[index].comp += dedicated_seconds;
    Message result;
    result.signal = programs::Signal::WorkEnd;
    result.client = index;
    result.generation = task.generation;
    result.task = task.task;
    result.nominal_seconds = farm_.result_nominal_seconds();
    result.compute_seconds = result.dedicated_seconds = dedicated_seconds;
    time = send(time, 0, result, envelope_bytes + result_bytes, times_.clients[index], true);
    for (const auto next : protocols_[index].finished_evaluation())
      if (next == programs::ClientAction::request_work) time = request(index, time);
    return time;
  }

  const Platform& platform_;
  const SimulatedFarmOptions& options_;
  detail::FarmParts farm_;
  Process server_;
  std::vector<Process> clients_;
  std::vector<programs::FarmClient> protocols_;
  std::vector<double> client_flops_;
  double route_latency_ = 0.0, route_rate_ = 0.0;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t order_ = 0;
  double now_ = 0.0;
  bool done_ = false;
  detail::SimulatedFarmTimes times_;
};

}  // namespace

SimulatedFarmRun simulate_farm_with_events(const Platform& platform, const SimulatedFarmOptions& options) {
  return EventFarm(platform, options).run();
}

}  // namespace hetscale::sim
