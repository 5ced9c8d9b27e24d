#include "hetscale/sim/simgrid_farm.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>

#include <fmt/core.h>
#include <simgrid/s4u.hpp>

#include "hetscale/io/input_error.hpp"
#include "hetscale/sim/simgrid_platform.hpp"
#include "hetscale/programs/farm_protocol.hpp"
#include "hetscale/sim/simgrid_engine.hpp"
#include "farm_shared.hpp"

namespace hetscale::sim {

namespace sg4 = simgrid::s4u;

void validate_simulated_farm(const Platform& platform, const SimulatedFarmOptions& options) {
  if (platform.nodes.size() < 2)
    throw InputError(
        platform.source, "nodes",
        fmt::format("has {} node; the farm needs a server node and at least one client node", platform.nodes.size()));
  if (options.clients > platform.nodes.size() - 1)
    throw InputError("clients", "",
                     fmt::format("{} clients need {} nodes, but {} has {} (the first node hosts the server)",
                                 options.clients, options.clients + 1, platform.source, platform.nodes.size()));
  if (!platform.relative_speeds())
    throw InputError(platform.source, "reference",
                     "marked speeds need a reference (a node name or a marked speed) to say how long an evaluation "
                     "takes on each node (its time is given for a node of speed 1)");
  if (options.tasks_per_generation == 0) throw InputError("tasks-per-generation", "", "must be >= 1, got 0");
  if (options.generations == 0) throw InputError("generations", "", "must be >= 1, got 0");
  if (!std::isfinite(options.evaluation_seconds) || options.evaluation_seconds <= 0.0)
    throw InputError("eval-time", "", fmt::format("must be a number > 0, got {}", options.evaluation_seconds));
  for (std::size_t i = 0; i < options.task_costs.size(); ++i)
    if (!std::isfinite(options.task_costs[i]) || options.task_costs[i] <= 0.0)
      throw InputError("task_costs", fmt::format("item {}", i + 1),
                       fmt::format("must be a number of seconds > 0, got {}", options.task_costs[i]));
  if (!std::isfinite(options.send_overhead_seconds) || options.send_overhead_seconds < 0.0)
    throw InputError("send-overhead", "", fmt::format("must be a number >= 0, got {}", options.send_overhead_seconds));
}

std::vector<double> simulated_client_speeds(const Platform& platform, const SimulatedFarmOptions& options) {
  const auto speeds = platform.relative_speeds().value();
  const std::size_t clients = options.clients ? options.clients : platform.nodes.size() - 1;
  return {speeds.begin() + 1, speeds.begin() + 1 + static_cast<std::ptrdiff_t>(clients)};
}

namespace {

using detail::ActorTimes;
using detail::Message;  // the receiver owns it

class Farm {
 public:
  Farm(const Platform& platform, const SimulatedFarmOptions& options)
      : platform_(platform), options_(options), farm_(platform, options), clients_(farm_.client_speeds.size()) {}

  SimulatedFarmRun run() {
    std::vector<std::string> arguments{"hetscale"};
    for (const auto& argument : simgrid_arguments()) arguments.push_back(argument);
    // An actor's stack has a guard page: two memory mappings an actor, and
    // Linux allows 65,530 a process (vm.max_map_count). Past 30,000 clients
    // the stacks go without guards.
    if (clients_.size() > 30000) arguments.emplace_back("--cfg=contexts/guard-size:0");
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    int argc = static_cast<int>(arguments.size());
    sg4::Engine engine(&argc, argv.data());
    const auto hosts = build_simgrid_platform(engine, platform_);

    server_box_ = sg4::Mailbox::by_name("server");
    for (std::size_t client = 0; client < clients_.size(); ++client)
      client_boxes_.push_back(sg4::Mailbox::by_name(fmt::format("client-{}", client + 1)));
    auto server = sg4::Actor::create("server", hosts[0], [this] { serve(); });
    // Messages are sent eagerly (as MPI sends small messages): each mailbox
    // has its receiver, so a transfer starts when it is sent.
    server_box_->set_receiver(server);
    relay_group_ = options_.relay_group ? *options_.relay_group
                   : clients_.size() > 1000
                       ? static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(clients_.size()))))
                       : 0;
    if (relay_group_ > 0) {
      arrived_ = sg4::Semaphore::create(0);
      for (std::size_t first = 0, group = 0; first < clients_.size(); first += relay_group_, ++group) {
        relay_boxes_.push_back(sg4::Mailbox::by_name(fmt::format("server-relay-{}", group)));
        auto actor = sg4::Actor::create(fmt::format("relay-{}", group), hosts[0],
                                        [this, box = relay_boxes_.back()] { relay(box); });
        actor->daemonize();  // blocked in its mailbox when the run ends
        relay_boxes_.back()->set_receiver(actor);
      }
    }
    for (std::size_t client = 0; client < clients_.size(); ++client) {
      auto actor =
          sg4::Actor::create(fmt::format("client-{}", client + 1), hosts[client + 1], [this, client] { work(client); });
      client_boxes_[client]->set_receiver(actor);
    }
    engine.run();
    return record();
  }

 private:
  // The sender spends the send overhead (LogP's o) on every message; the
  // transfer then goes on without it, as an eager MPI send does.
  // `overhead_spent`: the sender has already slept the overhead (with the
  // computation before it, one activity for two).
  void send(sg4::Mailbox* box, std::unique_ptr<Message> message, double bytes, ActorTimes& times,
            bool overhead_spent = false) {
    if (options_.send_overhead_seconds > 0.0) {
      if (!overhead_spent) sg4::this_actor::sleep_for(options_.send_overhead_seconds);
      times.comm += options_.send_overhead_seconds;
    }
    message->sent_at = sg4::Engine::get_clock();
    ++messages_;
    box->put_init(message.release(), static_cast<uint64_t>(bytes))->detach();
  }

  // The mailbox client `client` sends to: the server's, or its relay's.
  sg4::Mailbox* to_server(std::size_t client) const {
    return relay_group_ > 0 ? relay_boxes_[client / relay_group_] : server_box_;
  }

  // A relay: each message of its group, as it arrives, to the server's inbox.
  // The server is woken only when it waits: a busy server takes the next
  // message from the inbox without a semaphore (two simulator calls fewer).
  void relay(sg4::Mailbox* box) {
    for (;;) {
      inbox_.emplace_back(box->get<Message>());
      if (server_waiting_) {
        server_waiting_ = false;
        arrived_->release();
      }
    }
  }

  // The server's next message, from its mailbox or from the relays.
  std::unique_ptr<Message> receive_at_server() {
    if (relay_group_ == 0) return receive(server_box_, server_times_);
    const double waiting_since = sg4::Engine::get_clock();
    if (inbox_.empty()) {
      server_waiting_ = true;
      arrived_->acquire();
    }
    std::unique_ptr<Message> message = std::move(inbox_.front());
    inbox_.pop_front();
    const double now = sg4::Engine::get_clock();
    server_times_.comm += detail::wire_wait(waiting_since, now, message->sent_at);
    return message;
  }

  std::unique_ptr<Message> receive(sg4::Mailbox* box, ActorTimes& times) {
    const double waiting_since = sg4::Engine::get_clock();
    std::unique_ptr<Message> message(box->get<Message>());
    const double now = sg4::Engine::get_clock();
    times.comm += detail::wire_wait(waiting_since, now, message->sent_at);
    return message;
  }

  // --- the server ---------------------------------------------------------
  void serve() {
    dispatch(farm_.sequence.begin(sg4::Engine::get_clock()));
    while (!(farm_.sequence.finished() && farm_.server.quiescent())) {
      const auto message = receive_at_server();
      const double now = sg4::Engine::get_clock();
      if (message->signal == programs::Signal::WorkRequest) {
        dispatch(farm_.server.on_work_request(message->client, now));
        continue;
      }
      dispatch(farm_.work_end(*message, now, clients_[message->client]));
    }
    t_par_ = sg4::Engine::get_clock();
    dispatch(farm_.server.shutdown());
  }

  void dispatch(const std::vector<programs::Outgoing>& messages) {
    for (const auto& outgoing : messages)
      send(client_boxes_[outgoing.client], std::make_unique<Message>(detail::message_of(outgoing)),
           outgoing.has_task ? farm_.task_bytes : envelope_bytes, server_times_);
  }

  // --- a client -------------------------------------------------------------
  void work(std::size_t client) {
    programs::FarmClient protocol(farm_.policy->clients_prefetch());
    auto& times = clients_[client];
    const double client_flops = simulated_flops(platform_, client + 1);
    // A node without an availability trace runs its one client at its full
    // speed: the computation takes flops / speed, a sleep of that long is the
    // same time at a fraction of the simulator's cost (an execution costs
    // SimGrid's CPU model a share computation among all running ones), and
    // the WorkEnd's send overhead follows in the same sleep.
    const bool dedicated = platform_.nodes[client + 1].availability.empty();
    while (!protocol.stopped()) {
      const auto message = receive(client_boxes_[client], times);
      for (const auto action : protocol.on_signal(message->signal, message->has_task)) {
        if (action == programs::ClientAction::request_work) request(client);
        if (action != programs::ClientAction::evaluate) continue;
        const double flops = farm_.task_flops(message->task);
        const double dedicated_seconds = flops / client_flops;
        const double start = sg4::Engine::get_clock();
        double compute = dedicated_seconds;
        if (dedicated) {
          sg4::this_actor::sleep_for(dedicated_seconds + options_.send_overhead_seconds);
        } else {
          sg4::this_actor::execute(flops);
          compute = sg4::Engine::get_clock() - start;
        }
        ++evaluations_;
        // What the node would have taken dedicated is computation; the rest
        // went to other load (Clematis-Corana 1999's T_oth).
        // (Rounding aside: a difference below 1e-9 of the time is none.)
        const double own = compute - dedicated_seconds > 1e-9 * compute ? dedicated_seconds : compute;
        times.other += compute - own;
        times.comp += own;
        auto result = std::make_unique<Message>();
        result->signal = programs::Signal::WorkEnd;
        result->client = client;
        result->generation = message->generation;
        result->task = message->task;
        result->nominal_seconds = farm_.result_nominal_seconds();
        result->compute_seconds = compute;
        result->dedicated_seconds = own;
        send(to_server(client), std::move(result), envelope_bytes + result_bytes, times, dedicated);
        for (const auto next : protocol.finished_evaluation())
          if (next == programs::ClientAction::request_work) request(client);
      }
    }
  }

  void request(std::size_t client) {
    auto message = std::make_unique<Message>();
    message->signal = programs::Signal::WorkRequest;
    message->client = client;
    send(to_server(client), std::move(message), envelope_bytes, clients_[client]);
  }

  SimulatedFarmRun record() {
    detail::SimulatedFarmTimes times{clients_,  server_times_, t_par_,
                                     messages_, evaluations_,  farm_.sequence.generation_seconds()};
    return detail::simulated_farm_run(platform_, options_, farm_.client_speeds, times,
                                      "SimGrid " + simgrid_version() + " (S4U actors, CM02 network model)");
  }

  const Platform& platform_;
  const SimulatedFarmOptions& options_;
  detail::FarmParts farm_;
  std::vector<ActorTimes> clients_;
  ActorTimes server_times_;
  sg4::Mailbox* server_box_ = nullptr;
  std::size_t relay_group_ = 0;                 // 0: no relays
  std::vector<sg4::Mailbox*> relay_boxes_;      // one a group of clients
  std::deque<std::unique_ptr<Message>> inbox_;  // what the relays handed on, in order
  sg4::SemaphorePtr arrived_;                   // released when a message arrives for a waiting server
  bool server_waiting_ = false;
  std::vector<sg4::Mailbox*> client_boxes_;
  double t_par_ = 0.0;
  std::size_t messages_ = 0, evaluations_ = 0;
};

}  // namespace

SimulatedFarmRun simulate_farm_on_platform(const Platform& platform, const SimulatedFarmOptions& options) {
  return Farm(platform, options).run();
}

}  // namespace hetscale::sim
