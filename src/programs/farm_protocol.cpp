#include "hetscale/programs/farm_protocol.hpp"

#include <stdexcept>

#include <fmt/core.h>

namespace hetscale::programs {

std::string to_string(Signal signal) {
  switch (signal) {
    case Signal::YesWork:
      return "YesWork";
    case Signal::WorkRequest:
      return "WorkRequest";
    case Signal::WorkEnd:
      return "WorkEnd";
    case Signal::NoWork:
      return "NoWork";
    case Signal::Shutdown:
      return "Shutdown";
  }
  return "unknown";
}

FarmServer::FarmServer(distribute::FarmPolicy& policy, std::size_t clients) : policy_(policy), clients_(clients) {
  if (clients == 0) throw std::invalid_argument("a farm server needs clients >= 1, got 0");
}

std::vector<Outgoing> FarmServer::begin_generation(std::size_t tasks, bool last, double now) {
  policy_.begin_generation(tasks, last, now);
  std::vector<Outgoing> out;
  for (std::size_t client = 0; client < clients_.size(); ++client) {
    auto& view = clients_[client];
    if (view.asleep) {
      // APGA 2004, Section 5.4.1 (initialization) and 5.3.3 (a sleeping client wakes on YesWork)
      out.push_back({client, Signal::YesWork});
      view.asleep = false;
      ++view.requests_due;  // it answers a wake-up with a WorkRequest
    } else if (view.waiting) {
      answer(client, now, out);
    }
  }
  state_ = ServerState::active;
  return out;
}

std::vector<Outgoing> FarmServer::on_work_request(std::size_t client, double now) {
  if (client >= clients_.size())
    throw std::invalid_argument(fmt::format("WorkRequest from client {} of {}", client, clients_.size()));
  std::vector<Outgoing> out;
  auto& view = clients_[client];
  if (view.requests_due == 0)
    throw std::invalid_argument(fmt::format("WorkRequest from client {}, which was not asked to send one", client));
  --view.requests_due;
  view.waiting = true;
  waiting_.insert(client);
  answer(client, now, out);
  return out;
}

std::vector<Outgoing> FarmServer::on_work_end(std::size_t client, std::size_t generation, std::size_t task,
                                              double nominal_seconds, double compute_seconds, double now,
                                              distribute::ResultUse& use) {
  if (client >= clients_.size() || clients_[client].holding == 0)
    throw std::invalid_argument(fmt::format("WorkEnd from client {}, which holds no task", client));
  --clients_[client].holding;
  --tasks_out_;
  if (!policy_.clients_prefetch()) ++clients_[client].requests_due;  // APGA 2004, Section 5.3.2
  use = policy_.on_work_end(client, generation, task, nominal_seconds, compute_seconds, now);
  if (use == distribute::ResultUse::lost) ++lost_;
  return poll(now);
}

std::vector<Outgoing> FarmServer::poll(double now) {
  // Only the clients kept waiting, in client order: a farm of many clients
  // pays for the requests it holds, not for its size.
  std::vector<Outgoing> out;
  const std::vector<std::size_t> waiting(waiting_.begin(), waiting_.end());
  for (const std::size_t client : waiting) answer(client, now, out);
  return out;
}

bool FarmServer::quiescent() const {
  if (!drained()) return false;
  for (const auto& view : clients_)
    if (view.requests_due) return false;
  return true;
}

std::vector<Outgoing> FarmServer::shutdown() {
  if (!quiescent())
    throw std::logic_error(fmt::format("Shutdown while {} tasks or requests are still out", tasks_out_));
  std::vector<Outgoing> out;
  for (std::size_t client = 0; client < clients_.size(); ++client) out.push_back({client, Signal::Shutdown});
  return out;
}

void FarmServer::answer(std::size_t client, double now, std::vector<Outgoing>& out) {
  auto& view = clients_[client];
  const distribute::Answer decision = policy_.on_work_request(client, now);
  switch (decision.kind) {
    case distribute::Answer::Kind::task:
    case distribute::Answer::Kind::duplicate:
      out.push_back({client, Signal::YesWork, true, policy_.generation(), decision.task,
                     decision.kind == distribute::Answer::Kind::duplicate});
      view.waiting = false;
      waiting_.erase(client);
      ++view.holding;
      ++tasks_out_;
      if (policy_.clients_prefetch()) ++view.requests_due;  // it asks again as soon as it starts
      break;
    case distribute::Answer::Kind::no_work:
      // APGA 2004, Section 5.4.2: no more individuals; the client sleeps
      out.push_back({client, Signal::NoWork});
      view.waiting = false;
      waiting_.erase(client);
      view.asleep = true;
      break;
    case distribute::Answer::Kind::wait:
      break;
  }
}

GenerationSequence::GenerationSequence(FarmServer& server, std::size_t tasks, std::size_t generations)
    : server_(server), tasks_(tasks), generations_(generations) {
  if (tasks == 0 || generations == 0)
    throw std::invalid_argument(
        fmt::format("a generation sequence needs tasks and generations >= 1, got {} and {}", tasks, generations));
}

std::vector<Outgoing> GenerationSequence::begin(double now) {
  if (begun_ != 0) throw std::logic_error("the generation sequence has begun already");
  generation_start_ = now;
  begun_ = 1;
  return server_.begin_generation(tasks_, generations_ == 1, now);
}

std::vector<Outgoing> GenerationSequence::after_work_end(double now) {
  if (finished_ || !server_.generation_complete()) return {};
  generation_seconds_.push_back(now - generation_start_);
  generation_start_ = now;
  if (begun_ == generations_) {
    finished_ = true;
    return {};
  }
  ++begun_;
  return server_.begin_generation(tasks_, begun_ == generations_, now);
}

std::vector<ClientAction> FarmClient::on_signal(Signal signal, bool has_task) {
  switch (signal) {
    case Signal::Shutdown:
      // APGA 2004, Section 5.3.3: the client shuts down by itself
      stopped_ = true;
      return {ClientAction::stop};
    case Signal::NoWork:
      state_ = ClientState::sleep;
      return {ClientAction::wait};
    case Signal::YesWork:
      if (!has_task) {
        if (state_ == ClientState::active) return {ClientAction::wait};
        // APGA 2004, Sections 5.3.1 and 5.3.3: YesWork switches to active mode
        state_ = ClientState::active;
        return {ClientAction::request_work};
      }
      state_ = ClientState::active;
      if (prefetch_) return {ClientAction::request_work, ClientAction::evaluate};
      return {ClientAction::evaluate};
    case Signal::WorkRequest:
    case Signal::WorkEnd:
      break;
  }
  throw std::invalid_argument(fmt::format("a client cannot receive {}", to_string(signal)));
}

std::vector<ClientAction> FarmClient::finished_evaluation() {
  // APGA 2004, Section 5.3.2: WorkEnd, then a new WorkRequest
  if (prefetch_) return {ClientAction::wait};
  return {ClientAction::request_work};
}

}  // namespace hetscale::programs
