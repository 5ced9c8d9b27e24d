#include "hetscale/mpi/farm.hpp"

#include "hetscale/record/farm_context.hpp"

#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <memory>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/input_error.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/programs/farm_protocol.hpp"
#include "hetscale/programs/objectives.hpp"
#include "hetscale/measure/rank_clock.hpp"
#include "hetscale/io/host_and_time.hpp"

namespace hetscale::mpi {

// --- MPI session -------------------------------------------------------------
MpiSession::MpiSession(int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

std::string MpiSession::library_version() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string text(version, static_cast<std::size_t>(length));
  if (const auto end = text.find_first_of("\n,"); end != std::string::npos) text.resize(end);
  while (!text.empty() && (text.back() == '\0' || text.back() == ' ')) text.pop_back();
  return text;
}

void MpiSession::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

// --- options -----------------------------------------------------------------
namespace {
std::unique_ptr<programs::Objective> make_objective(const FarmOptions& options) {
  if (options.objective == "synthetic")
    return programs::make_synthetic_objective(options.evaluation_seconds, options.dimensions);
  return programs::make_lennard_jones_objective(options.atoms);
}
}  // namespace

void validate_farm_options(const FarmOptions& options, int ranks) {
  const std::size_t clients = static_cast<std::size_t>(ranks > 0 ? ranks - 1 : 0);
  if (options.objective != "synthetic" && options.objective != "lennard-jones")
    throw InputError("--objective", "",
                     fmt::format("unknown objective '{}'; allowed: synthetic, lennard-jones", options.objective));
  if (clients == 0 ? options.speeds.size() > 1 : (!options.speeds.empty() && options.speeds.size() != clients))
    throw InputError("--speeds", "",
                     fmt::format("has {} values for {} clients ({} MPI ranks, rank 0 is the server); give one speed "
                                 "per client{}",
                                 options.speeds.size(), clients, ranks,
                                 clients == 0 ? ", or one for the server when it runs alone" : ""));
  for (std::size_t i = 0; i < options.speeds.size(); ++i) {
    if (!std::isfinite(options.speeds[i]) || options.speeds[i] <= 0.0)
      throw InputError("--speeds", fmt::format("item {}", i + 1),
                       fmt::format("must be > 0, got {:g}", options.speeds[i]));
    if (options.objective == "lennard-jones" && options.speeds[i] > 1.0)
      throw InputError("--speeds", fmt::format("item {}", i + 1),
                       fmt::format("must be <= 1 with a real objective (a node cannot be emulated faster than "
                                   "this machine), got {:g}",
                                   options.speeds[i]));
  }
  if (!std::isfinite(options.evaluation_seconds) || options.evaluation_seconds < 0.0)
    throw InputError("--eval-time", "", fmt::format("must be >= 0, got {:g}", options.evaluation_seconds));
  if (!std::isfinite(options.time_scale) || options.time_scale <= 0.0)
    throw InputError("--time-scale", "", fmt::format("must be > 0, got {:g}", options.time_scale));
  if (options.ga.population == 0) throw InputError("--population", "", "must be >= 1, got 0");
  if (options.policy == distribute::PolicyKind::proportional && options.speeds.empty() && clients > 0)
    throw InputError("--policy", "", "'proportional' needs the clients' declared speeds: give --speeds");
  std::unique_ptr<programs::Objective> objective;
  try {
    objective = make_objective(options);
  } catch (const std::invalid_argument& error) {
    throw InputError(options.objective == "synthetic" ? "--dimensions" : "--atoms", "", error.what());
  }
  try {
    ga::GeneticAlgorithm(objective->domains(), options.ga);
  } catch (const std::invalid_argument& error) {
    throw InputError("GA parameters", "", error.what());
  }
}

namespace {

constexpr int server_rank = 0;

// --- messages ------------------------------------------------------------------
struct Incoming {
  int source = 0;
  programs::Signal signal = programs::Signal::YesWork;
  std::vector<double> body;
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
  MPI_Get_count(&status, MPI_DOUBLE, &count);
  Incoming message;
  message.source = status.MPI_SOURCE;
  message.signal = static_cast<programs::Signal>(status.MPI_TAG);
  message.body.resize(static_cast<std::size_t>(count));
  MPI_Recv(message.body.data(), count, MPI_DOUBLE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  return message;
}

void send(measure::RankClock& clock, int destination, programs::Signal signal, const std::vector<double>& body = {}) {
  clock.switch_to(measure::Activity::communication);
  MPI_Send(body.data(), static_cast<int>(body.size()), MPI_DOUBLE, destination, static_cast<int>(signal),
           MPI_COMM_WORLD);
}

// --- the server ------------------------------------------------------------------
struct ClientTally {
  std::size_t tasks = 0, lost_tasks = 0;
  double work = 0.0;      // nominal seconds of the results that counted
  double t_useful = 0.0;  // their computation
  double t_lost = 0.0;    // computation of duplicates that lost
};

// The GA's batch evaluator on rank 0: each batch is one generation of the
// farm, handed out by the FarmServer's policy.
class FarmEvaluator final : public ga::BatchEvaluator {
 public:
  FarmEvaluator(programs::FarmServer& server, measure::RankClock& clock, std::size_t batches)
      : server_(server), clock_(clock), batches_(batches), tally_(server.clients()) {}

  std::vector<double> evaluate(const std::vector<ga::Genome>& batch) override {
    ++batch_index_;
    batch_ = &batch;
    fitness_.assign(batch.size(), std::numeric_limits<double>::quiet_NaN());
    const auto generation_start = clock_.elapsed();
    dispatch(server_.begin_generation(batch.size(), batch_index_ >= batches_, clock_.elapsed()));
    while (!server_.generation_complete()) handle(receive(clock_, MPI_ANY_SOURCE, [this] { poll(); }));
    generation_seconds_.push_back(clock_.elapsed() - generation_start);
    clock_.switch_to(measure::Activity::setup);  // the GA's own work follows
    return fitness_;
  }

  // After the last generation: collect the lost duplicates and the last
  // requests, then Shutdown.
  void shut_down() {
    while (!server_.quiescent()) handle(receive(clock_, MPI_ANY_SOURCE, [this] { poll(); }));
    dispatch(server_.shutdown());
  }

  const std::vector<ClientTally>& tally() const { return tally_; }
  const std::vector<double>& generation_seconds() const { return generation_seconds_; }

 private:
  void poll() { dispatch(server_.poll(clock_.elapsed())); }

  void handle(const Incoming& message) {
    const std::size_t client = static_cast<std::size_t>(message.source - 1);
    if (message.signal == programs::Signal::WorkRequest) {
      dispatch(server_.on_work_request(client, clock_.elapsed()));
      return;
    }
    if (message.signal != programs::Signal::WorkEnd || message.body.size() != 5)
      throw std::runtime_error(
          fmt::format("the server received an unexpected {} from rank {}", to_string(message.signal), message.source));
    const auto generation = static_cast<std::size_t>(message.body[0]);
    const auto task = static_cast<std::size_t>(message.body[1]);
    const double fitness = message.body[2], nominal = message.body[3], compute = message.body[4];
    distribute::ResultUse use = distribute::ResultUse::first;
    auto answers = server_.on_work_end(client, generation, task, nominal, compute, clock_.elapsed(), use);
    auto& tally = tally_[client];
    if (use == distribute::ResultUse::first) {
      fitness_[task] = fitness;
      ++tally.tasks;
      tally.work += nominal;
      tally.t_useful += compute;
    } else {
      ++tally.lost_tasks;
      tally.t_lost += compute;
    }
    dispatch(answers);
  }

  void dispatch(const std::vector<programs::Outgoing>& messages) {
    for (const auto& message : messages) {
      std::vector<double> body;
      if (message.has_task) {
        const auto& genes = (*batch_)[message.task];
        body.reserve(3 + genes.size());
        body = {static_cast<double>(message.generation), static_cast<double>(message.task),
                message.duplicate ? 1.0 : 0.0};
        body.insert(body.end(), genes.begin(), genes.end());
      }
      send(clock_, static_cast<int>(message.client) + 1, message.signal, body);
    }
  }

  programs::FarmServer& server_;
  measure::RankClock& clock_;
  std::size_t batches_, batch_index_ = 0;
  const std::vector<ga::Genome>* batch_ = nullptr;
  std::vector<double> fitness_;
  std::vector<ClientTally> tally_;
  std::vector<double> generation_seconds_;
};

// With no clients, the server evaluates by itself (APGA 2004's zero clients).
class LocalEvaluator final : public ga::BatchEvaluator {
 public:
  LocalEvaluator(const programs::Objective& objective, double speed, double time_scale, measure::RankClock& clock)
      : objective_(objective), speed_(speed), time_scale_(time_scale), clock_(clock) {}

  std::vector<double> evaluate(const std::vector<ga::Genome>& batch) override {
    const auto generation_start = clock_.elapsed();
    std::vector<double> fitness;
    clock_.switch_to(measure::Activity::computation);
    for (const auto& genome : batch) {
      const auto evaluation = measure::evaluate_on_emulated_node(objective_, genome, speed_, time_scale_);
      fitness.push_back(evaluation.fitness);
      ++tally.tasks;
      tally.work += evaluation.nominal_seconds;
      tally.t_useful += evaluation.compute_seconds;
    }
    clock_.switch_to(measure::Activity::setup);
    generation_seconds.push_back(clock_.elapsed() - generation_start);
    return fitness;
  }

  ClientTally tally;
  std::vector<double> generation_seconds;

 private:
  const programs::Objective& objective_;
  double speed_, time_scale_;
  measure::RankClock& clock_;
};

// --- the clients -----------------------------------------------------------------
void run_client(const programs::Objective& objective, double speed, double time_scale, bool prefetch,
                measure::RankClock& clock) {
  programs::FarmClient protocol(prefetch);
  while (!protocol.stopped()) {
    const Incoming message = receive(clock, server_rank);
    const bool has_task = message.signal == programs::Signal::YesWork && !message.body.empty();
    for (const auto action : protocol.on_signal(message.signal, has_task)) {
      if (action == programs::ClientAction::request_work) send(clock, server_rank, programs::Signal::WorkRequest);
      if (action != programs::ClientAction::evaluate) continue;
      const ga::Genome genome(message.body.begin() + 3, message.body.end());
      clock.switch_to(measure::Activity::computation);
      const auto evaluation = measure::evaluate_on_emulated_node(objective, genome, speed, time_scale);
      send(clock, server_rank, programs::Signal::WorkEnd,
           {message.body[0], message.body[1], evaluation.fitness, evaluation.nominal_seconds,
            evaluation.compute_seconds});
      for (const auto next : protocol.finished_evaluation())
        if (next == programs::ClientAction::request_work) send(clock, server_rank, programs::Signal::WorkRequest);
    }
  }
}

// --- the record --------------------------------------------------------------------
constexpr std::size_t breakdown_size = 9;  // the last: reads of the run-queue delay

std::vector<double> pack(const measure::TimeBreakdown& times) {
  return {times[measure::Activity::computation],
          times[measure::Activity::communication],
          times[measure::Activity::idle],
          times[measure::Activity::setup],
          times.other_load,
          times.elapsed,
          static_cast<double>(times.switches),
          times.other_load_measured ? 1.0 : 0.0,
          static_cast<double>(times.delay_reads)};
}

// A rank's times as a node of the run record, fitted inside t_par (a client
// stops its clock a moment after the server stops the run's).
NodeRecord node_from(const std::string& name, const double* times, const ClientTally& tally, double t_par) {
  NodeRecord node;
  node.name = name;
  node.work = tally.work;
  // Computation that went into lost duplicates is overhead, not work.
  const double lost = std::min(tally.t_lost, times[0]);
  node.t_comp = times[0] - lost;
  node.t_comm = times[1];
  node.t_idle = times[2];
  node.t_setup = times[3] + lost;
  node.t_other = times[4];
  // What a client spent past the server's end (or before its start) was no
  // computation: it comes off idle first, then communication (waiting for
  // Shutdown), then other load (descheduled meanwhile).
  double excess = times[5] - t_par;
  for (double* part : {&node.t_idle, &node.t_comm, &node.t_other}) {
    if (excess <= 0.0) break;
    const double cut = std::min(*part, excess);
    *part -= cut;
    excess -= cut;
  }
  return node;
}

}  // namespace

std::optional<FarmOutcome> run_farm(const FarmOptions& options, const FarmProgress& progress) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::size_t clients = static_cast<std::size_t>(ranks - 1);
  measure::tighten_timer_slack();
  const auto objective = make_objective(options);
  const auto policy = distribute::make_farm_policy(
      options.policy, std::max<std::size_t>(clients, 1),
      options.speeds.empty() ? std::vector<double>(std::max<std::size_t>(clients, 1), 1.0) : options.speeds);
  const measure::ClockCosts clock_costs =
      rank == server_rank ? measure::measure_clock_costs(20000) : measure::ClockCosts{};

  measure::RankClock clock;
  MPI_Barrier(MPI_COMM_WORLD);
  std::optional<FarmOutcome> outcome;
  std::vector<ClientTally> tallies;
  std::vector<double> generation_seconds;
  if (rank == server_rank) {
    clock.start(measure::Activity::setup);
    const ga::GeneticAlgorithm algorithm(objective->domains(), options.ga);
    const std::size_t batches = options.ga.generations + 1;
    auto report = [&](const ga::GenerationLog& log) {
      if (progress) progress(log.generation, options.ga.generations, clock.elapsed(), log.best_fitness);
    };
    outcome.emplace();
    if (clients == 0) {
      LocalEvaluator evaluator(*objective, options.speeds.empty() ? 1.0 : options.speeds.front(), options.time_scale,
                               clock);
      outcome->ga = algorithm.run(evaluator, report);
      tallies = {evaluator.tally};
      generation_seconds = evaluator.generation_seconds;
    } else {
      programs::FarmServer server(*policy, clients);
      FarmEvaluator evaluator(server, clock, batches);
      outcome->ga = algorithm.run(evaluator, report);
      evaluator.shut_down();
      tallies = evaluator.tally();
      generation_seconds = evaluator.generation_seconds();
    }
  } else {
    clock.start(measure::Activity::idle);
    const double speed = options.speeds.empty() ? 1.0 : options.speeds[static_cast<std::size_t>(rank - 1)];
    run_client(*objective, speed, options.time_scale, policy->clients_prefetch(), clock);
  }
  const measure::TimeBreakdown own = clock.stop();

  // Every rank's times to the server.
  const auto packed = pack(own);
  std::vector<double> all(rank == server_rank ? breakdown_size * static_cast<std::size_t>(ranks) : 0);
  MPI_Gather(packed.data(), static_cast<int>(breakdown_size), MPI_DOUBLE, all.data(), static_cast<int>(breakdown_size),
             MPI_DOUBLE, server_rank, MPI_COMM_WORLD);
  if (rank != server_rank) return std::nullopt;

  RunRecord& record = outcome->record;
  record.label = options.label;
  record.t_par = own.elapsed;
  double total_work = 0.0;
  for (const auto& tally : tallies) total_work += tally.work;
  record.t_seq_ref = total_work;
  if (clients == 0) {
    record.nodes.push_back(node_from("server", all.data(), tallies.front(), record.t_par));
  } else {
    for (std::size_t client = 0; client < clients; ++client)
      record.nodes.push_back(node_from(fmt::format("client-{}", client + 1), all.data() + breakdown_size * (client + 1),
                                       tallies[client], record.t_par));
    record.server = node_from("server", all.data(), ClientTally{}, record.t_par);
  }

  // The context block: what ran, where, and how it was measured.
  FarmContext context;
  context.tool = "hetscale farm";
  context.host = io::host_name();
  context.date = io::utc_now();
  context.mpi_library = MpiSession::library_version();
  context.ranks = static_cast<std::size_t>(ranks);
  context.clients = clients;
  context.policy = to_string(options.policy);
  context.objective = objective->name();
  if (options.objective == "synthetic") {
    context.eval_time_s = options.evaluation_seconds;
    context.time_scale = options.time_scale;
  } else {
    context.atoms = options.atoms;
  }
  context.speeds = options.speeds;
  context.ga = FarmGaSettings{ga::to_string(options.ga.scheme),
                              ga::to_string(options.ga.crossover),
                              options.ga.population,
                              options.ga.generations,
                              options.ga.crossover_rate,
                              options.ga.mutation_rate,
                              options.ga.selection_pressure,
                              options.ga.seed};
  context.best_fitness = outcome->ga.best.fitness;
  context.best_genome = outcome->ga.best.genes;
  context.evaluations = outcome->ga.evaluations;
  for (std::size_t i = 0; i < tallies.size(); ++i)
    context.tasks.push_back({record.nodes[i].name, tallies[i].tasks, tallies[i].lost_tasks, tallies[i].t_lost});
  context.generation_seconds = generation_seconds;
  FarmMeasurement measurement;
  measurement.switch_cost_s = clock_costs.switch_seconds;
  measurement.delay_read_cost_s = clock_costs.delay_read_seconds;
  bool other_load_measured = true;
  for (int r = 0; r < ranks; ++r) {
    const double* times = all.data() + breakdown_size * static_cast<std::size_t>(r);
    measure::TimeBreakdown rank_times;
    rank_times.switches = static_cast<std::size_t>(times[6]);
    rank_times.delay_reads = static_cast<std::size_t>(times[8]);
    measurement.clock_switches += rank_times.switches;
    measurement.delay_reads += rank_times.delay_reads;
    if (times[5] > 0.0)
      measurement.worst_rank_overhead_fraction =
          std::max(measurement.worst_rank_overhead_fraction, clock_costs.of(rank_times) / times[5]);
    other_load_measured = other_load_measured && times[7] > 0.0;
  }
  measurement.other_load_from = other_load_measured ? "/proc/self/schedstat" : "unavailable (0)";
  context.measurement = measurement;
  record.context_json = farm_context_json(context);
  return outcome;
}

}  // namespace hetscale::mpi
