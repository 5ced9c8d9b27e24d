#include "hetscale/run/task_farm.hpp"

#include <mpi.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <type_traits>

#include <fmt/core.h>

#include "hetscale/io/host_and_time.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/measure/node_times.hpp"
#include "hetscale/measure/rank_clock.hpp"
#include "hetscale/programs/farm_protocol.hpp"
#include "hetscale/run/stop_signals.hpp"

namespace hetscale::run {

FarmContext farm_context(const FarmRun& run, const FarmSettings& settings, int ranks, const std::string& mpi_library) {
  FarmContext context;
  context.tool = "hetscale farm";
  context.host = io::host_name();
  context.date = io::utc_now();
  context.mpi_library = mpi_library;
  context.ranks = static_cast<std::size_t>(ranks);
  context.clients = static_cast<std::size_t>(ranks - 1);
  context.policy = to_string(settings.policy);
  context.speeds = settings.speeds;
  for (std::size_t i = 0; i < run.clients.size(); ++i)
    context.tasks.push_back(
        {run.record.nodes[i].name, run.clients[i].tasks, run.clients[i].lost_tasks, run.clients[i].lost_seconds});
  context.generation_seconds = run.batch_seconds;
  context.measurement = FarmMeasurement{run.clock_switches,
                                        run.delay_reads,
                                        run.switch_cost_s,
                                        run.delay_read_cost_s,
                                        run.worst_rank_overhead_fraction,
                                        run.other_load_measured ? "/proc/self/schedstat" : "unavailable (0)"};
  return context;
}

void validate_farm_settings(const FarmSettings& settings, int ranks) {
  const std::size_t clients = static_cast<std::size_t>(ranks > 1 ? ranks - 1 : 0);
  const std::size_t expected = std::max<std::size_t>(clients, 1);
  if (!settings.speeds.empty() && settings.speeds.size() != expected)
    throw InputError(
        "speeds", "",
        fmt::format("{} values for {} clients ({} MPI ranks, rank 0 is the server); give one speed per client{}",
                    settings.speeds.size(), clients, ranks,
                    clients == 0 ? ", or one for the server when it runs alone" : ""));
  for (std::size_t i = 0; i < settings.speeds.size(); ++i) {
    const double speed = settings.speeds[i];
    if (!std::isfinite(speed) || speed <= 0.0 || (settings.emulate_speeds && speed > 1.0))
      throw InputError("speeds", fmt::format("item {}", i + 1),
                       fmt::format("must be {}, got {:g}",
                                   settings.emulate_speeds ? "in (0, 1] (a node cannot be emulated "
                                                             "faster than this machine)"
                                                           : "> 0",
                                   speed));
  }
  if (settings.policy == distribute::PolicyKind::proportional && settings.speeds.empty() && clients > 0)
    throw InputError("policy", "", "'proportional' needs the clients' declared speeds");
}

namespace {

constexpr int server_rank = 0;
constexpr std::size_t host_name_size = 256;

// --- messages: plain values and a byte string, packed in order ----------------
class Packer {
 public:
  template <class T>
  Packer& put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* bytes = reinterpret_cast<const char*>(&value);
    bytes_.append(bytes, sizeof(T));
    return *this;
  }
  Packer& put_bytes(std::string_view bytes) {
    bytes_.append(bytes);
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class Unpacker {
 public:
  explicit Unpacker(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    if (bytes_.size() < sizeof(T)) throw std::runtime_error("a farm message ended early");
    T value;
    std::memcpy(&value, bytes_.data(), sizeof(T));
    bytes_.remove_prefix(sizeof(T));
    return value;
  }
  std::string_view rest() const { return bytes_; }

 private:
  std::string_view bytes_;
};

struct Incoming {
  int source = 0;
  programs::Signal signal = programs::Signal::YesWork;
  std::string body;
};

// Waits for the next message from `source` (idle), polling without burning a
// core: many ranks share few cores. `on_poll` runs about every millisecond.
Incoming receive(measure::RankClock& clock, int source, const std::function<void()>& on_poll = {}) {
  clock.switch_to(measure::Activity::idle);
  MPI_Status status;
  int arrived = 0;
  long pause_ns = 2000;
  auto last_poll = std::chrono::steady_clock::now();
  for (;;) {
    throw_if_stopped();
    MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
    if (arrived) break;
    if (on_poll && std::chrono::steady_clock::now() - last_poll > std::chrono::milliseconds(1)) {
      on_poll();
      clock.switch_to(measure::Activity::idle);
      last_poll = std::chrono::steady_clock::now();
      continue;
    }
    const timespec pause{0, pause_ns};
    nanosleep(&pause, nullptr);
    pause_ns = std::min(pause_ns * 2, 200000L);
  }
  clock.switch_to(measure::Activity::communication);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Incoming message;
  message.source = status.MPI_SOURCE;
  message.signal = static_cast<programs::Signal>(status.MPI_TAG);
  message.body.resize(static_cast<std::size_t>(count));
  MPI_Recv(message.body.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return message;
}

void send(measure::RankClock& clock, int destination, programs::Signal signal, const std::string& body = {}) {
  clock.switch_to(measure::Activity::communication);
  MPI_Send(body.data(), static_cast<int>(body.size()), MPI_BYTE, destination, static_cast<int>(signal), MPI_COMM_WORLD);
}

// A task attempt run here, timed, its client's speed emulated; Stopped when
// the run was asked to stop meanwhile.
struct Ran {
  TaskResult result;
  double start = 0.0, end = 0.0;  // Unix times
  double busy_seconds = 0.0;      // monotonic, emulated slowness included
};

Ran run_here(const TaskFunction& work, const TaskAttempt& attempt, std::optional<double> emulated_speed,
             measure::RankClock& clock) {
  clock.switch_to(measure::Activity::computation);
  Ran ran;
  ran.start = io::unix_seconds_now();
  const double started = measure::monotonic_seconds();
  ran.result = work(attempt);
  throw_if_stopped();  // a task a stop ended is not a result
  if (emulated_speed) measure::finish_at_speed(started, ran.result.cpu_seconds, *emulated_speed);
  ran.busy_seconds = measure::monotonic_seconds() - started;
  ran.end = io::unix_seconds_now();
  return ran;
}

}  // namespace

// --- the farm's state ------------------------------------------------------------
struct TaskFarm::State {
  std::unique_ptr<StopOnSignals> stop;  // settings.stop_on_signals
  TaskFunction work;
  FarmSettings settings;
  int rank = 0, ranks = 1;
  std::vector<std::string> hosts;  // on the server: every rank's
  std::unique_ptr<distribute::FarmPolicy> policy;
  std::unique_ptr<programs::FarmServer> server;
  measure::ClockCosts clock_costs;
  measure::RankClock clock;
  std::vector<ClientAccount> accounts;
  std::vector<double> batch_seconds;
  bool finished = false;
  bool every_work_known = true;  // every counted result had its work_seconds

  // The batch being served.
  struct Round {
    const std::vector<Task>* tasks = nullptr;
    std::vector<std::size_t> indices;  // the generation's task j is (*tasks)[indices[j]]
    std::vector<std::size_t>* attempts = nullptr;
    std::vector<TaskReport>* reports = nullptr;
    std::vector<std::size_t> retry;  // indices to run again
    const FarmObserver* observer = nullptr;
    std::vector<std::vector<std::size_t>>* failed_on = nullptr;  // per task: the ranks it failed on
    // A round of retries binds its slots to tasks as it hands them out: each
    // to a task that has not failed on the client taking it, when one is left.
    bool retrying = false;
    std::vector<bool> bound;           // per slot
    std::vector<std::size_t> unbound;  // tasks not yet in a slot, in order
  } round;

  std::size_t clients() const { return static_cast<std::size_t>(ranks - 1); }
  std::optional<double> speed_of(std::size_t client_index) const {
    if (!settings.emulate_speeds || settings.speeds.empty()) return std::nullopt;
    return settings.speeds[client_index];
  }
  bool will_retry(const TaskResult& result, std::size_t attempts) const {
    return !result.succeeded() && attempts < settings.retries + 1;
  }

  // --- server ---
  void serve_round(bool last) {
    if (round.retrying) {
      round.bound.assign(round.indices.size(), false);
      round.unbound = round.indices;
      set_aside();
    }
    dispatch(server->begin_generation(round.indices.size(), last, clock.elapsed()));
    while (!server->generation_complete()) handle(receive(clock, MPI_ANY_SOURCE, [this] { poll(); }));
    if (round.retrying) {
      round.unbound.clear();
      set_aside();
    }
    clock.switch_to(measure::Activity::setup);
  }

  bool failed_on(std::size_t index, std::size_t rank) const {
    const auto& ranks = (*round.failed_on)[index];
    return std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
  }

  // The round's task in slot `slot`, handed to rank `rank`.
  std::size_t bind(std::size_t slot, std::size_t rank) {
    if (!round.retrying || round.bound[slot]) return round.indices[slot];
    auto& unbound = round.unbound;
    auto chosen =
        std::find_if(unbound.begin(), unbound.end(), [&](std::size_t index) { return !failed_on(index, rank); });
    if (chosen == unbound.end()) chosen = unbound.begin();  // it failed on this client, and no other asked
    round.indices[slot] = *chosen;
    round.bound[slot] = true;
    unbound.erase(chosen);
    set_aside();
    return round.indices[slot];
  }

  // A client on which every task left to hand out has failed stands aside
  // (its requests wait) while another client has not failed one of them, so
  // that a retry runs on another client when there is one (as GNU parallel's
  // --retries does); under the static policies the lists are fixed.
  void set_aside() {
    if (!policy->can_set_aside()) return;
    std::vector<bool> aside(clients(), false);
    for (std::size_t client = 0; client < clients(); ++client)
      aside[client] =
          !round.unbound.empty() && std::all_of(round.unbound.begin(), round.unbound.end(),
                                                [&](std::size_t index) { return failed_on(index, client + 1); });
    const bool everyone = std::all_of(aside.begin(), aside.end(), [](bool a) { return a; });
    for (std::size_t client = 0; client < clients(); ++client) policy->set_aside(client, aside[client] && !everyone);
  }

  void run_round_alone() {
    for (const std::size_t index : round.indices) {
      const Task& task = (*round.tasks)[index];
      const std::size_t attempt = (*round.attempts)[index];
      if (round.observer->on_start) round.observer->on_start(task, attempt, 0, io::unix_seconds_now());
      const Ran ran = run_here(work, {task.id, attempt, task.payload}, speed_of(0), clock);
      clock.switch_to(measure::Activity::setup);
      finish_attempt(index, 0, ran.result, ran.start, ran.end, ran.busy_seconds);
    }
  }

  // A counted result of the round's task `index` from client `client` (0: the server alone).
  void finish_attempt(std::size_t index, std::size_t client, const TaskResult& result, double start, double end,
                      double busy_seconds) {
    TaskReport report;
    report.id = (*round.tasks)[index].id;
    report.attempt = (*round.attempts)[index];
    report.client = client;
    report.host = hosts[client];
    report.start = start;
    report.end = end;
    report.result = result;
    const bool again = will_retry(result, report.attempt);
    auto& account = accounts[client == 0 ? 0 : client - 1];
    ++account.tasks;
    if (!result.succeeded()) ++account.failed_attempts;
    account.work += result.work_seconds > 0.0 ? result.work_seconds : 1.0;
    every_work_known = every_work_known && result.work_seconds > 0.0;
    account.busy_seconds += busy_seconds;
    if (round.observer->on_end) round.observer->on_end(report, again);
    if (!result.succeeded()) (*round.failed_on)[index].push_back(client);
    if (again) round.retry.push_back(index);
    (*round.reports)[index] = std::move(report);
  }

  void poll() { dispatch(server->poll(clock.elapsed())); }

  void handle(const Incoming& message) {
    const std::size_t client = static_cast<std::size_t>(message.source - 1);
    if (message.signal == programs::Signal::WorkRequest) {
      dispatch(server->on_work_request(client, clock.elapsed()));
      return;
    }
    if (message.signal != programs::Signal::WorkEnd)
      throw std::runtime_error(
          fmt::format("the server received an unexpected {} from rank {}", to_string(message.signal), message.source));
    Unpacker in(message.body);
    const auto generation = in.get<std::uint64_t>();
    const auto task = in.get<std::uint64_t>();
    const double busy = in.get<double>(), start = in.get<double>(), end = in.get<double>();
    TaskResult result;
    result.exit_code = in.get<std::int32_t>();
    result.signal = in.get<std::int32_t>();
    result.timed_out = in.get<std::uint8_t>() != 0;
    result.cpu_seconds = in.get<double>();
    result.work_seconds = in.get<double>();
    result.data = std::string(in.rest());
    const double nominal = result.work_seconds > 0.0 ? result.work_seconds : 1.0;
    distribute::ResultUse use = distribute::ResultUse::first;
    auto answers = server->on_work_end(client, generation, task, nominal, busy, clock.elapsed(), use);
    if (use == distribute::ResultUse::first) {
      clock.switch_to(measure::Activity::setup);
      finish_attempt(round.indices[task], client + 1, result, start, end, busy);
    } else {
      ++accounts[client].lost_tasks;
      accounts[client].lost_seconds += busy;
    }
    dispatch(answers);
  }

  void dispatch(const std::vector<programs::Outgoing>& messages) {
    for (const auto& message : messages) {
      Packer body;
      if (message.has_task) {
        const std::size_t index = bind(message.task, message.client + 1);
        const Task& task = (*round.tasks)[index];
        const std::size_t attempt = (*round.attempts)[index];
        if (round.observer->on_start && !message.duplicate) {
          clock.switch_to(measure::Activity::setup);
          round.observer->on_start(task, attempt, message.client + 1, io::unix_seconds_now());
        }
        body.put<std::uint64_t>(message.generation)
            .put<std::uint64_t>(message.task)
            .put<std::uint64_t>(task.id)
            .put<std::uint64_t>(attempt)
            .put_bytes(task.payload);
      }
      send(clock, static_cast<int>(message.client) + 1, message.signal, body.bytes());
    }
  }

  // --- client ---
  void serve_as_client() {
    programs::FarmClient protocol(policy->clients_prefetch());
    const auto speed = speed_of(static_cast<std::size_t>(rank - 1));
    while (!protocol.stopped()) {
      const Incoming message = receive(clock, server_rank);
      const bool has_task = message.signal == programs::Signal::YesWork && !message.body.empty();
      for (const auto action : protocol.on_signal(message.signal, has_task)) {
        if (action == programs::ClientAction::request_work) send(clock, server_rank, programs::Signal::WorkRequest);
        if (action != programs::ClientAction::evaluate) continue;
        Unpacker in(message.body);
        const auto generation = in.get<std::uint64_t>();
        const auto task = in.get<std::uint64_t>();
        const auto id = in.get<std::uint64_t>();
        const auto attempt = in.get<std::uint64_t>();
        const Ran ran = run_here(work, {id, attempt, in.rest()}, speed, clock);
        Packer body;
        body.put<std::uint64_t>(generation)
            .put<std::uint64_t>(task)
            .put<double>(ran.busy_seconds)
            .put<double>(ran.start)
            .put<double>(ran.end)
            .put<std::int32_t>(ran.result.exit_code)
            .put<std::int32_t>(ran.result.signal)
            .put<std::uint8_t>(ran.result.timed_out ? 1 : 0)
            .put<double>(ran.result.cpu_seconds)
            .put<double>(ran.result.work_seconds)
            .put_bytes(ran.result.data);
        send(clock, server_rank, programs::Signal::WorkEnd, body.bytes());
        for (const auto next : protocol.finished_evaluation())
          if (next == programs::ClientAction::request_work) send(clock, server_rank, programs::Signal::WorkRequest);
      }
    }
  }
};

TaskFarm::TaskFarm(TaskFunction work, FarmSettings settings) : state_(std::make_unique<State>()) {
  auto& s = *state_;
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.ranks);
  validate_farm_settings(settings, s.ranks);
  if (!work) throw std::invalid_argument("TaskFarm: the work function is empty");
  s.work = std::move(work);
  s.settings = std::move(settings);
  if (s.settings.stop_on_signals) s.stop = std::make_unique<StopOnSignals>();
  measure::tighten_timer_slack();
  const std::size_t client_slots = std::max<std::size_t>(s.clients(), 1);
  s.policy = distribute::make_farm_policy(
      s.settings.policy, client_slots,
      s.settings.speeds.empty() ? std::vector<double>(client_slots, 1.0) : s.settings.speeds);
  s.accounts.assign(client_slots, {});

  // Every rank's host name, on the server.
  std::string own = io::host_name();
  own.resize(host_name_size, '\0');
  std::string all(s.rank == server_rank ? host_name_size * static_cast<std::size_t>(s.ranks) : 0, '\0');
  MPI_Gather(own.data(), static_cast<int>(host_name_size), MPI_CHAR, all.data(), static_cast<int>(host_name_size),
             MPI_CHAR, server_rank, MPI_COMM_WORLD);
  if (s.rank == server_rank) {
    for (int r = 0; r < s.ranks; ++r) s.hosts.emplace_back(all.c_str() + host_name_size * static_cast<std::size_t>(r));
    s.clock_costs = measure::measure_clock_costs(20000);
    if (s.clients() > 0) s.server = std::make_unique<programs::FarmServer>(*s.policy, s.clients());
  }
  MPI_Barrier(MPI_COMM_WORLD);
  s.clock.start(s.rank == server_rank ? measure::Activity::setup : measure::Activity::idle);
}

TaskFarm::~TaskFarm() = default;

bool TaskFarm::is_server() const { return state_->rank == server_rank; }
const std::string& TaskFarm::host_of(std::size_t client) const {
  if (!is_server()) throw std::logic_error("TaskFarm::host_of is the server's (rank 0)");
  return state_->hosts.at(client);
}
std::size_t TaskFarm::clients() const { return state_->clients(); }

std::vector<TaskReport> TaskFarm::map(const std::vector<Task>& tasks, const FarmObserver& observer, bool last) {
  auto& s = *state_;
  if (!is_server()) throw std::logic_error("TaskFarm::map is the server's (rank 0); the clients call finish()");
  if (s.finished) throw std::logic_error("TaskFarm::map after finish()");
  const double batch_start = s.clock.elapsed();
  std::vector<TaskReport> reports(tasks.size());
  std::vector<std::size_t> attempts(tasks.size(), 0);
  std::vector<std::vector<std::size_t>> failed_on(tasks.size());
  std::vector<std::size_t> indices(tasks.size());
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  for (bool retrying = false; !indices.empty(); retrying = true) {
    for (const std::size_t index : indices) ++attempts[index];
    s.round =
        State::Round{&tasks, std::move(indices), &attempts, &reports, {}, &observer, &failed_on, retrying, {}, {}};
    if (s.clients() == 0)
      s.run_round_alone();
    else
      s.serve_round(last);
    indices = std::move(s.round.retry);
    std::sort(indices.begin(), indices.end());
  }
  s.batch_seconds.push_back(s.clock.elapsed() - batch_start);
  return reports;
}

std::optional<FarmRun> TaskFarm::finish() {
  auto& s = *state_;
  if (s.finished) throw std::logic_error("TaskFarm::finish called twice");
  s.finished = true;
  if (is_server() && s.server) {
    static const FarmObserver no_observer;
    s.round.observer = &no_observer;
    while (!s.server->quiescent()) s.handle(receive(s.clock, MPI_ANY_SOURCE, [&s] { s.poll(); }));
    s.dispatch(s.server->shutdown());
  } else if (!is_server()) {
    s.serve_as_client();
  }
  const measure::TimeBreakdown own = s.clock.stop();

  const auto packed = measure::pack_times(own);
  const std::size_t size = measure::packed_times_size;
  std::vector<double> all(is_server() ? size * static_cast<std::size_t>(s.ranks) : 0);
  MPI_Gather(packed.data(), static_cast<int>(size), MPI_DOUBLE, all.data(), static_cast<int>(size), MPI_DOUBLE,
             server_rank, MPI_COMM_WORLD);
  if (!is_server()) return std::nullopt;

  FarmRun run;
  RunRecord& record = run.record;
  record.t_par = own.elapsed;
  double total_work = 0.0;
  for (const auto& account : s.accounts) total_work += account.work;
  if (s.clients() == 0) {
    const auto& account = s.accounts.front();
    record.nodes.push_back(
        measure::node_from_times("server", all.data(), account.work, account.lost_seconds, record.t_par));
  } else {
    for (std::size_t client = 0; client < s.clients(); ++client) {
      const auto& account = s.accounts[client];
      record.nodes.push_back(measure::node_from_times(fmt::format("client-{}", client + 1),
                                                      all.data() + size * (client + 1), account.work,
                                                      account.lost_seconds, record.t_par));
    }
    record.server = measure::node_from_times("server", all.data(), 0.0, 0.0, record.t_par);
  }
  // The whole work on a node of speed 1, when every result said what it was worth.
  if (s.every_work_known) record.t_seq_ref = total_work;
  run.clients = s.accounts;
  run.batch_seconds = s.batch_seconds;
  const auto cost = measure::measurement_cost(all, static_cast<std::size_t>(s.ranks), s.clock_costs);
  run.clock_switches = cost.clock_switches;
  run.delay_reads = cost.delay_reads;
  run.switch_cost_s = s.clock_costs.switch_seconds;
  run.delay_read_cost_s = s.clock_costs.delay_read_seconds;
  run.worst_rank_overhead_fraction = cost.worst_rank_overhead_fraction;
  run.other_load_measured = cost.other_load_measured;
  return run;
}

}  // namespace hetscale::run
