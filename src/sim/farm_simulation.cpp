#include "hetscale/sim/farm_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/programs/farm_protocol.hpp"
#include "model/checks.hpp"

namespace hetscale::sim {
namespace {

struct Event {
  double time;
  std::size_t order;  // ties: in the order scheduled
  std::function<void()> action;
  bool operator>(const Event& other) const { return time != other.time ? time > other.time : order > other.order; }
};

class Simulator {
 public:
  Simulator(distribute::PolicyKind kind, const SimulatedFarmSetup& setup)
      : setup_(setup),
        policy_(
            distribute::make_farm_policy(kind, setup.client_speeds.size(),
                                         setup.declared_speeds.empty() ? setup.client_speeds : setup.declared_speeds)),
        server_(*policy_, setup.client_speeds.size()),
        sequence_(server_, setup.task_costs.empty() ? setup.tasks_per_generation : setup.task_costs.size(),
                  setup.task_costs.empty() ? setup.generations : 1),
        clients_(setup.client_speeds.size(),
                 ClientModel{programs::FarmClient(policy_->clients_prefetch()), {}, false}) {
    result_.clients.resize(clients_.size());
  }

  FarmSimulation run() {
    for (const double speed : setup_.client_speeds) result_.speed_sum += speed;
    result_.t_seq_ref = setup_.task_seconds * static_cast<double>(setup_.tasks_per_generation * setup_.generations);
    if (!setup_.task_costs.empty())
      result_.t_seq_ref = std::accumulate(setup_.task_costs.begin(), setup_.task_costs.end(), 0.0);
    deliver(sequence_.begin(0.0), 0.0);
    while (!events_.empty()) {
      Event event = events_.top();
      events_.pop();
      now_ = event.time;
      ++result_.events;
      event.action();
    }
    if (!done_) throw std::logic_error("the simulated farm stopped before its last generation");
    result_.generation_seconds = sequence_.generation_seconds();
    return result_;
  }

 private:
  struct ClientModel {
    programs::FarmClient protocol;
    std::deque<programs::Outgoing> inbox;
    bool computing = false;
  };

  void at(double time, std::function<void()> action) { events_.push({time, order_++, std::move(action)}); }

  void deliver(const std::vector<programs::Outgoing>& messages, double now) {
    for (const auto& message : messages)
      at(now + setup_.latency_seconds, [this, message] {
        auto& client = clients_[message.client];
        client.inbox.push_back(message);
        if (!client.computing) serve_inbox(message.client);
      });
  }

  // A client reads its next message only when it is not evaluating, as the
  // real client program does.
  void serve_inbox(std::size_t index) {
    auto& client = clients_[index];
    while (!client.computing && !client.inbox.empty()) {
      const programs::Outgoing message = client.inbox.front();
      client.inbox.pop_front();
      for (const auto action : client.protocol.on_signal(message.signal, message.has_task)) {
        if (action == programs::ClientAction::request_work) send_request(index);
        if (action == programs::ClientAction::evaluate) evaluate(index, message);
      }
    }
  }

  void send_request(std::size_t index) {
    at(now_ + setup_.latency_seconds, [this, index] {
      deliver(server_.on_work_request(index, now_), now_);
      maybe_shut_down();
    });
  }

  void evaluate(std::size_t index, const programs::Outgoing& task) {
    auto& client = clients_[index];
    client.computing = true;
    const double cost = setup_.task_costs.empty() ? setup_.task_seconds : setup_.task_costs[task.task];
    const double compute = cost / setup_.client_speeds[index];
    at(now_ + compute, [this, index, task, compute] {
      clients_[index].computing = false;
      at(now_ + setup_.latency_seconds, [this, index, task, compute] { work_end(index, task, compute); });
      for (const auto action : clients_[index].protocol.finished_evaluation())
        if (action == programs::ClientAction::request_work) send_request(index);
      serve_inbox(index);
    });
  }

  void work_end(std::size_t index, const programs::Outgoing& task, double compute) {
    distribute::ResultUse use = distribute::ResultUse::first;
    // A bag of tasks: the cost is unknown to the policy, each task one unit.
    const double nominal = setup_.task_costs.empty() ? setup_.task_seconds : 1.0;
    auto answers = server_.on_work_end(index, task.generation, task.task, nominal, compute, now_, use);
    auto& record = result_.clients[index];
    if (use == distribute::ResultUse::first) {
      ++record.tasks;
      record.t_comp += compute;
    } else {
      ++record.lost_tasks;
      record.t_lost += compute;
    }
    deliver(answers, now_);
    deliver(sequence_.after_work_end(now_), now_);
    maybe_shut_down();
  }

  void maybe_shut_down() {
    if (sequence_.finished() && server_.quiescent() && !done_) {
      done_ = true;
      result_.t_par = now_;
      deliver(server_.shutdown(), now_);
    }
  }

  const SimulatedFarmSetup& setup_;
  std::unique_ptr<distribute::FarmPolicy> policy_;
  programs::FarmServer server_;
  programs::GenerationSequence sequence_;
  std::vector<ClientModel> clients_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::size_t order_ = 0;
  double now_ = 0.0;
  bool done_ = false;
  FarmSimulation result_;
};

}  // namespace

FarmSimulation simulate_farm(distribute::PolicyKind policy, const SimulatedFarmSetup& setup) {
  model::detail::require_speeds(setup.client_speeds, "client_speeds");
  if (!setup.declared_speeds.empty()) {
    model::detail::require_speeds(setup.declared_speeds, "declared_speeds");
    if (setup.declared_speeds.size() != setup.client_speeds.size())
      throw std::invalid_argument(fmt::format("declared_speeds has {} values for {} clients",
                                              setup.declared_speeds.size(), setup.client_speeds.size()));
  }
  if (setup.tasks_per_generation == 0) throw std::invalid_argument("tasks_per_generation must be >= 1, got 0");
  if (setup.generations == 0) throw std::invalid_argument("generations must be >= 1, got 0");
  if (!std::isfinite(setup.task_seconds) || setup.task_seconds <= 0.0)
    throw std::invalid_argument(fmt::format("task_seconds must be a finite number > 0, got {}", setup.task_seconds));
  for (std::size_t i = 0; i < setup.task_costs.size(); ++i)
    if (!std::isfinite(setup.task_costs[i]) || setup.task_costs[i] <= 0.0)
      throw std::invalid_argument(
          fmt::format("task_costs[{}] must be a finite number > 0, got {}", i, setup.task_costs[i]));
  if (!std::isfinite(setup.latency_seconds) || setup.latency_seconds < 0.0)
    throw std::invalid_argument(
        fmt::format("latency_seconds must be a finite number >= 0, got {}", setup.latency_seconds));
  return Simulator(policy, setup).run();
}

double earliest_finish_makespan(const std::vector<double>& speeds, std::size_t tasks, double task_seconds) {
  model::detail::require_speeds(speeds);
  if (!std::isfinite(task_seconds) || task_seconds <= 0.0)
    throw std::invalid_argument(fmt::format("task_seconds must be a finite number > 0, got {}", task_seconds));
  // (finish time of the client's next task, client); the earliest takes the task.
  using Slot = std::pair<double, std::size_t>;
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> next_finish;
  for (std::size_t i = 0; i < speeds.size(); ++i) next_finish.push({task_seconds / speeds[i], i});
  double makespan = 0.0;
  for (std::size_t k = 0; k < tasks; ++k) {
    const auto [finish, client] = next_finish.top();
    next_finish.pop();
    makespan = std::max(makespan, finish);
    next_finish.push({finish + task_seconds / speeds[client], client});
  }
  return makespan;
}

double earliest_finish_makespan(const std::vector<double>& speeds, const std::vector<double>& task_costs) {
  model::detail::require_speeds(speeds, "speeds");
  std::vector<double> free(speeds.size(), 0.0);
  for (std::size_t i = 0; i < task_costs.size(); ++i) {
    if (!std::isfinite(task_costs[i]) || task_costs[i] <= 0.0)
      throw std::invalid_argument(fmt::format("task_costs[{}] must be a finite number > 0, got {}", i, task_costs[i]));
    std::size_t best = 0;
    for (std::size_t client = 1; client < speeds.size(); ++client)
      if (free[client] + task_costs[i] / speeds[client] < free[best] + task_costs[i] / speeds[best]) best = client;
    free[best] += task_costs[i] / speeds[best];
  }
  return task_costs.empty() ? 0.0 : *std::max_element(free.begin(), free.end());
}

double makespan_lower_bound(const std::vector<double>& speeds, const std::vector<double>& task_costs) {
  model::detail::require_speeds(speeds, "speeds");
  double work = 0.0, longest = 0.0;
  for (std::size_t i = 0; i < task_costs.size(); ++i) {
    if (!std::isfinite(task_costs[i]) || task_costs[i] <= 0.0)
      throw std::invalid_argument(fmt::format("task_costs[{}] must be a finite number > 0, got {}", i, task_costs[i]));
    work += task_costs[i];
    longest = std::max(longest, task_costs[i]);
  }
  double speed_sum = 0.0, fastest = 0.0;
  for (const double speed : speeds) speed_sum += speed, fastest = std::max(fastest, speed);
  return std::max(work / speed_sum, longest / fastest);
}

double earliest_finish_efficiency(const std::vector<double>& speeds, std::size_t tasks, double task_seconds) {
  if (tasks == 0) throw std::invalid_argument("tasks must be >= 1, got 0");
  double sum = 0.0;
  for (const double speed : speeds) sum += speed;
  return static_cast<double>(tasks) * task_seconds / (earliest_finish_makespan(speeds, tasks, task_seconds) * sum);
}

}  // namespace hetscale::sim
