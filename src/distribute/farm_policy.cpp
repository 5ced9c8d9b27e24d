#include "hetscale/distribute/farm_policy.hpp"

#include "hetscale/distribute/counts.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>

#include <fmt/core.h>

#include "model/checks.hpp"

namespace hetscale::distribute {

const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> names{"even", "proportional", "adaptive", "adaptive+"};
  return names;
}

std::string to_string(PolicyKind kind) { return policy_names()[static_cast<std::size_t>(kind)]; }

PolicyKind policy_from_string(const std::string& name) {
  const auto& names = policy_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<PolicyKind>(i);
  throw std::invalid_argument(
      fmt::format("unknown policy '{}'; allowed: even, proportional, adaptive, adaptive+", name));
}

namespace {

// What every policy tracks: which tasks have a result.
class PolicyBase : public FarmPolicy {
 public:
  explicit PolicyBase(std::size_t clients) : clients_(clients) {
    if (clients == 0) throw std::invalid_argument("a farm policy needs clients >= 1, got 0");
  }

  void begin_generation(std::size_t tasks, bool last, double now) override {
    ++generation_;
    done_.assign(tasks, false);
    outstanding_ = tasks;
    last_ = last;
    start_generation(tasks, now);
  }

  ResultUse on_work_end(std::size_t client, std::size_t generation, std::size_t task, double nominal_seconds,
                        double compute_seconds, double now) override {
    check_client(client);
    if (generation > generation_ || generation == 0)
      throw std::invalid_argument(
          fmt::format("WorkEnd for generation {} while generation {} runs", generation, generation_));
    if (generation == generation_ && task >= done_.size())
      throw std::invalid_argument(fmt::format("WorkEnd for task {} of a generation of {} tasks", task, done_.size()));
    const bool first = generation == generation_ && !done_[task];
    if (first) {
      done_[task] = true;
      --outstanding_;
    }
    record_end(client, generation, task, nominal_seconds, compute_seconds, now);
    return first ? ResultUse::first : ResultUse::lost;
  }

  bool generation_complete() const override { return outstanding_ == 0; }
  std::size_t generation() const override { return generation_; }
  std::size_t tasks_outstanding() const override { return outstanding_; }

 protected:
  virtual void start_generation(std::size_t tasks, double now) = 0;
  virtual void record_end(std::size_t, std::size_t, std::size_t, double, double, double) {}

  void check_client(std::size_t client) const {
    if (client >= clients_)
      throw std::invalid_argument(fmt::format("client {} is not one of the {} clients", client, clients_));
  }
  // set_aside for the dynamic policies.
  void set_aside_client(std::size_t client, bool aside) {
    check_client(client);
    aside_.resize(clients_, false);
    aside_[client] = aside;
  }
  bool aside(std::size_t client) const { return client < aside_.size() && aside_[client]; }
  bool done(std::size_t task) const { return done_[task]; }
  bool last_generation() const { return last_; }

  std::size_t clients_;

 private:
  std::vector<bool> done_;
  std::vector<bool> aside_;  // empty: none
  std::size_t generation_ = 0;
  std::size_t outstanding_ = 0;
  bool last_ = false;
};

// even and proportional: a fixed list of tasks per client, made when the
// generation begins; NoWork once a client's list is empty.
class StaticPolicy final : public PolicyBase {
 public:
  StaticPolicy(PolicyKind kind, std::size_t clients, std::vector<double> speeds)
      : PolicyBase(clients), kind_(kind), speeds_(std::move(speeds)) {
    if (kind == PolicyKind::proportional) {
      if (speeds_.size() != clients)
        throw std::invalid_argument(
            fmt::format("the proportional policy needs one declared speed per client: {} speeds for {} clients",
                        speeds_.size(), clients));
      proportional_counts(0, speeds_);  // validates the speeds
    }
  }
  PolicyKind kind() const override { return kind_; }

  Answer on_work_request(std::size_t client, double) override {
    check_client(client);
    if (queues_.empty()) throw std::logic_error("WorkRequest before the first generation began");
    auto& queue = queues_[client];
    if (queue.empty()) return {Answer::Kind::no_work, 0};
    const std::size_t task = queue.front();
    queue.pop_front();
    return {Answer::Kind::task, task};
  }

 private:
  void start_generation(std::size_t tasks, double) override {
    const auto counts = kind_ == PolicyKind::even ? even_counts(tasks, clients_) : proportional_counts(tasks, speeds_);
    queues_.assign(clients_, {});
    std::size_t next = 0;
    for (std::size_t client = 0; client < clients_; ++client)
      for (std::size_t k = 0; k < counts[client]; ++k) queues_[client].push_back(next++);
  }

  PolicyKind kind_;
  std::vector<double> speeds_;
  std::vector<std::deque<std::size_t>> queues_;
};

// APGA 2004, Section 5.4.2: every WorkRequest gets the next individual while
// there is one, and NoWork after that.
class AdaptivePolicy final : public PolicyBase {
 public:
  using PolicyBase::PolicyBase;
  PolicyKind kind() const override { return PolicyKind::adaptive; }
  bool can_set_aside() const override { return true; }
  void set_aside(std::size_t client, bool aside) override { set_aside_client(client, aside); }

  Answer on_work_request(std::size_t client, double) override {
    check_client(client);
    if (next_ < tasks_) return aside(client) ? Answer{Answer::Kind::wait, 0} : Answer{Answer::Kind::task, next_++};
    return {Answer::Kind::no_work, 0};
  }

 private:
  void start_generation(std::size_t tasks, double) override {
    tasks_ = tasks;
    next_ = 0;
  }
  std::size_t tasks_ = 0, next_ = 0;
};

// adaptive+: clients prefetch; a request gets a task only if the client is
// among those that would finish the remaining tasks earliest (greedy
// earliest-finish-time plan with the speeds measured so far); a free client
// with nothing planned may duplicate the running task expected to finish
// last, when it would finish it sooner. Requests it cannot serve yet wait.
// Tasks of unequal cost (a bag of the user's commands): the client asking is
// planned with a long task (the 90th percentile of the costs seen so far,
// each a computation time times its client's speed), and the task it runs,
// if it holds one, as possibly long too, so that a slow client does not take
// one of the last tasks when it may be a long one, nor queue one behind a
// long one; when that leaves the client out, it still gets the task if no
// client would finish a long task sooner (so some client always does).
class AdaptivePlusPolicy final : public PolicyBase {
 public:
  explicit AdaptivePlusPolicy(std::size_t clients)
      : PolicyBase(clients), work_(clients, 0.0), time_(clients, 0.0), queue_(clients), busy_until_(clients, 0.0) {}
  PolicyKind kind() const override { return PolicyKind::adaptive_plus; }
  bool clients_prefetch() const override { return true; }
  bool can_set_aside() const override { return true; }
  void set_aside(std::size_t client, bool aside) override { set_aside_client(client, aside); }

  Answer on_work_request(std::size_t client, double now) override {
    check_client(client);
    const double cost = task_cost();
    if (aside(client))
      return next_ < tasks_ || !last_generation() ? Answer{Answer::Kind::wait, 0} : Answer{Answer::Kind::no_work, 0};
    if (next_ < tasks_ && planned_to_get_a_task(client, now, cost)) return assign(client, next_++, now, cost);
    if (!queue_[client].empty()) return {Answer::Kind::wait, 0};  // busy: ask again when it finishes
    if (next_ >= tasks_ && !last_generation()) {
      if (auto task = task_worth_duplicating(client, now, cost)) {
        duplicated_[*task] = true;
        return assign(client, *task, now, cost, Answer::Kind::duplicate);
      }
    }
    if (next_ < tasks_) return {Answer::Kind::wait, 0};
    // Nothing left to hand out: wait for the next generation unless no more
    // work can come (the last generation), then sleep.
    return last_generation() ? Answer{Answer::Kind::no_work, 0} : Answer{Answer::Kind::wait, 0};
  }

 private:
  struct Running {
    std::size_t generation;
    std::size_t task;
    double start;  // when the client begins it (after what it holds before)
  };

  void start_generation(std::size_t tasks, double) override {
    tasks_ = tasks;
    next_ = 0;
    duplicated_.assign(tasks, false);
    // Results of the previous generation still running are lost work: the
    // clients stay busy with them.
  }

  void record_end(std::size_t client, std::size_t generation, std::size_t task, double nominal_seconds,
                  double compute_seconds, double now) override {
    if (compute_seconds > 0.0 && nominal_seconds > 0.0) {
      work_[client] += nominal_seconds;
      time_[client] += compute_seconds;
      nominal_total_ += nominal_seconds;
      time_total_ += compute_seconds;
      ++nominal_count_;
      observe_cost(compute_seconds * speed_estimate(client));
    }
    auto& queue = queue_[client];
    for (auto it = queue.begin(); it != queue.end(); ++it)
      if (it->generation == generation && it->task == task) {
        queue.erase(it);
        break;
      }
    // What is left starts now.
    const double speed = speed_estimate(client);
    const double cost = task_cost();
    busy_until_[client] = now;
    for (auto& running : queue) {
      running.start = busy_until_[client];
      busy_until_[client] += cost / speed;
    }
  }

  Answer assign(std::size_t client, std::size_t task, double now, double cost, Answer::Kind kind = Answer::Kind::task) {
    const double start = std::max(now, busy_until_[client]);
    queue_[client].push_back({generation(), task, start});
    busy_until_[client] = start + cost / speed_estimate(client);
    return {kind, task};
  }

  // Speeds measured so far: nominal work done per second of computation; a
  // client not yet measured counts at the mean of those measured (1 if none).
  double speed_estimate(std::size_t client) const {
    if (time_[client] > 0.0) return work_[client] / time_[client];
    return time_total_ > 0.0 ? nominal_total_ / time_total_ : 1.0;
  }
  double task_cost() const { return nominal_count_ ? nominal_total_ / static_cast<double>(nominal_count_) : 1.0; }

  double available_at(std::size_t client, double now) const { return std::max(now, busy_until_[client]); }

  // The costs of the last tasks (a ring), and their 90th percentile, brought
  // up to date every `recount` of them.
  static constexpr std::size_t cost_window = 256, recount = 32, fewest_for_quantile = 8;
  void observe_cost(double cost) {
    if (recent_costs_.size() < cost_window)
      recent_costs_.push_back(cost);
    else
      recent_costs_[observed_ % cost_window] = cost;
    ++observed_;
    if (observed_ < fewest_for_quantile || (observed_ % recount != 0 && observed_ != fewest_for_quantile)) return;
    std::vector<double> sorted = recent_costs_;
    const auto at = sorted.begin() + static_cast<std::ptrdiff_t>(0.9 * static_cast<double>(sorted.size() - 1));
    std::nth_element(sorted.begin(), at, sorted.end());
    long_cost_ = *at;
  }

  // Client `client` gets one of the remaining tasks iff, in the greedy
  // earliest-finish plan, fewer than `remaining` task slots of other clients
  // (each of the mean cost) finish strictly before its own task, planned as
  // a long one; or, when that leaves it out, if no client would finish a long
  // task sooner. With tasks of equal cost the two plans are one.
  bool planned_to_get_a_task(std::size_t client, double now, double cost) const {
    const bool unequal = long_cost_ > cost * (1.0 + 1e-6);
    double own_cost = unequal ? long_cost_ : cost;
    // A client that holds a task: the one it runs may be long too.
    if (unequal && !queue_[client].empty()) own_cost += long_cost_ - cost;
    if (fewer_slots_before(client, now, cost, own_cost)) return true;
    if (!unequal) return false;
    const double finish = available_at(client, now) + own_cost / speed_estimate(client);
    for (std::size_t other = 0; other < clients_; ++other)
      if (!aside(other) && available_at(other, now) + own_cost / speed_estimate(other) < finish * (1.0 - 1e-9))
        return false;
    return true;
  }

  bool fewer_slots_before(std::size_t client, double now, double cost, double own_cost) const {
    const std::size_t remaining = tasks_ - next_;
    const double finish = available_at(client, now) + own_cost / speed_estimate(client);
    const double tie = 1e-9 * std::max(std::abs(finish), cost);
    std::size_t earlier = 0;
    for (std::size_t other = 0; other < clients_ && earlier < remaining; ++other) {
      if (other == client || aside(other)) continue;
      // Slots k >= 1 with available + k cost / speed < finish: ceil(slots) - 1
      // of them. A slot within rounding of `finish` is a tie, and ties go to
      // the client asking: otherwise equal free clients could each leave the
      // last task to the other, and nobody would take it.
      const double slots = (finish - tie - available_at(other, now)) * speed_estimate(other) / cost;
      if (slots > 0.0) earlier += static_cast<std::size_t>(std::ceil(slots) - 1.0);
    }
    return earlier < remaining;
  }

  // The running task (held by another client, not yet duplicated) expected
  // to finish last, if `client` would finish a copy of it sooner.
  std::optional<std::size_t> task_worth_duplicating(std::size_t client, double now, double cost) const {
    const double own_finish = now + cost / speed_estimate(client);
    std::optional<std::size_t> best;
    double latest = own_finish;
    for (std::size_t holder = 0; holder < clients_; ++holder) {
      if (holder == client) continue;
      const double speed = speed_estimate(holder);
      for (const auto& running : queue_[holder]) {
        if (running.generation != generation() || done(running.task) || duplicated_[running.task]) continue;
        double expected = running.start + cost / speed;
        // Overdue (the estimate was wrong): assume it needs as long again.
        if (expected < now) expected = now + (now - running.start);
        if (expected > latest) {
          latest = expected;
          best = running.task;
        }
      }
    }
    return best;
  }

  std::vector<double> work_, time_;
  double nominal_total_ = 0.0, time_total_ = 0.0;  // over all clients: the sums of work_ and time_
  std::size_t nominal_count_ = 0;
  std::vector<std::vector<Running>> queue_;
  std::vector<double> busy_until_;
  std::vector<bool> duplicated_;
  std::size_t tasks_ = 0, next_ = 0;
  std::vector<double> recent_costs_;  // the last cost_window task costs
  std::size_t observed_ = 0;
  double long_cost_ = 0.0;  // their 90th percentile (0: too few yet)
};

}  // namespace

std::unique_ptr<FarmPolicy> make_farm_policy(PolicyKind kind, std::size_t clients,
                                             const std::vector<double>& declared_speeds) {
  switch (kind) {
    case PolicyKind::even:
    case PolicyKind::proportional:
      return std::make_unique<StaticPolicy>(kind, clients, declared_speeds);
    case PolicyKind::adaptive:
      return std::make_unique<AdaptivePolicy>(clients);
    case PolicyKind::adaptive_plus:
      return std::make_unique<AdaptivePlusPolicy>(clients);
  }
  throw std::invalid_argument("unknown policy kind");
}

}  // namespace hetscale::distribute
