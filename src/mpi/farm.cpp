#include "hetscale/mpi/farm.hpp"

#include "hetscale/record/farm_context.hpp"

#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <thread>

#include <fmt/core.h>

#include "hetscale/io/host_and_time.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/launcher.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/programs/objectives.hpp"
#include "hetscale/run/stop_signals.hpp"
#include "hetscale/run/task_farm.hpp"

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

std::string MpiSession::broadcast_text(const std::string& text, int root) {
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
  std::string received = text;
  received.resize(static_cast<std::size_t>(length));
  MPI_Bcast(received.data(), static_cast<int>(length), MPI_CHAR, root, MPI_COMM_WORLD);
  return received;
}

void MpiSession::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

void on_rank_zero_for_all(int rank, const std::function<void()>& work) {
  std::string problem;
  if (rank == 0) {
    try {
      work();
    } catch (const std::invalid_argument& error) {
      problem = error.what();
    }
  }
  problem = MpiSession::broadcast_text(problem);
  if (!problem.empty()) throw std::invalid_argument(problem);
}

void on_every_rank_for_all(const std::function<void()>& work) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::string problem;
  try {
    work();
  } catch (const std::invalid_argument& error) {
    problem = error.what();
  }
  int failing = problem.empty() ? ranks : rank, first = ranks;
  MPI_Allreduce(&failing, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first < ranks) throw std::invalid_argument(MpiSession::broadcast_text(problem, first));
}

int run_on_every_rank(int& argc, char**& argv, const std::function<void(int rank, int ranks)>& prepare,
                      const std::function<int(int rank, int ranks)>& body) {
  MpiSession mpi(argc, argv);
  try {
    prepare(mpi.rank(), mpi.size());
  } catch (const std::invalid_argument& error) {
    if (mpi.rank() == 0) io::say_on_stderr(fmt::format("hetscale: {}\n", error.what()));
    return io::exit_bad_input;
  }
  try {
    return body(mpi.rank(), mpi.size());
  } catch (const run::Stopped& stopped) {
    // Every rank is stopping and the launcher is ending the job: this rank
    // ends as a process ended by the signal says (128 + signal). The others
    // leave rank 0 the time to say what stopped: a rank that exits first
    // makes Open MPI's mpiexec kill the rest at once (SIGKILL).
    std::fflush(stdout);
    if (mpi.rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(2));  // resumed after a signal
    std::_Exit(128 + stopped.signal());
  } catch (const std::exception& error) {
    io::say_on_stderr(fmt::format("hetscale: internal error on rank {}: {}\n", mpi.rank(), error.what()));
    MpiSession::abort(io::exit_internal_error);
  }
}

// --- options -----------------------------------------------------------------
namespace {
constexpr std::string_view command_kind = "command:", library_kind = "library:";

bool is_users_objective(const std::string& objective) {
  return objective.starts_with(command_kind) || objective.starts_with(library_kind);
}

std::unique_ptr<programs::Objective> make_objective(const FarmOptions& options) {
  if (options.objective == "synthetic")
    return programs::make_synthetic_objective(options.evaluation_seconds, options.dimensions);
  if (options.objective.starts_with(command_kind)) {
    const auto [lower, upper] = options.bounds.value_or(std::pair{0.0, 0.0});
    return programs::make_command_objective(options.objective.substr(command_kind.size()), options.dimensions, lower,
                                            upper);
  }
  if (options.objective.starts_with(library_kind))
    return programs::make_library_objective(options.objective.substr(library_kind.size()));
  return programs::make_lennard_jones_objective(options.atoms);
}

// The setting a bad objective is about.
std::string objective_option(const FarmOptions& options) {
  if (options.objective == "synthetic") return "dimensions";
  if (options.objective.starts_with(command_kind))
    return options.objective.size() > command_kind.size() ? "bounds" : "objective";
  if (options.objective.starts_with(library_kind)) return "objective";
  return "atoms";
}
}  // namespace

void validate_farm_options(const FarmOptions& options, int ranks) {
  const std::size_t clients = static_cast<std::size_t>(ranks > 0 ? ranks - 1 : 0);
  if (options.objective != "synthetic" && options.objective != "lennard-jones" &&
      !is_users_objective(options.objective))
    throw InputError("objective", "",
                     fmt::format("unknown objective '{}'; allowed: synthetic, lennard-jones, command:PROGRAM, "
                                 "library:PATH",
                                 options.objective));
  if (options.objective.starts_with(command_kind) && !options.bounds)
    throw InputError("bounds", "",
                     "is required with the objective command:PROGRAM: every gene's LOWER:UPPER (one gene per "
                     "dimension)");
  if (options.bounds && !options.objective.starts_with(command_kind))
    throw InputError("bounds", "", "is for the objective command:PROGRAM (the others know their domain)");
  if (clients == 0 ? options.speeds.size() > 1 : (!options.speeds.empty() && options.speeds.size() != clients))
    throw InputError("speeds", "",
                     fmt::format("has {} values for {} clients ({} MPI ranks, rank 0 is the server); give one speed "
                                 "per client{}",
                                 options.speeds.size(), clients, ranks,
                                 clients == 0 ? ", or one for the server when it runs alone" : ""));
  for (std::size_t i = 0; i < options.speeds.size(); ++i) {
    if (!std::isfinite(options.speeds[i]) || options.speeds[i] <= 0.0)
      throw InputError("speeds", fmt::format("item {}", i + 1),
                       fmt::format("must be > 0, got {:g}", options.speeds[i]));
    if (options.objective != "synthetic" && options.speeds[i] > 1.0)
      throw InputError("speeds", fmt::format("item {}", i + 1),
                       fmt::format("must be <= 1 with a real objective (a node cannot be emulated faster than "
                                   "this machine), got {:g}",
                                   options.speeds[i]));
  }
  if (!std::isfinite(options.evaluation_seconds) || options.evaluation_seconds < 0.0)
    throw InputError("eval-time", "", fmt::format("must be >= 0, got {:g}", options.evaluation_seconds));
  if (!std::isfinite(options.time_scale) || options.time_scale <= 0.0)
    throw InputError("time-scale", "", fmt::format("must be > 0, got {:g}", options.time_scale));
  if (options.ga.population == 0) throw InputError("population", "", "must be >= 1, got 0");
  if (options.policy == distribute::PolicyKind::proportional && options.speeds.empty() && clients > 0)
    throw InputError("policy", "", "'proportional' needs the clients' declared speeds: give one speed per client");
  std::unique_ptr<programs::Objective> objective;
  try {
    objective = make_objective(options);
  } catch (const std::invalid_argument& error) {
    throw InputError(objective_option(options), "", error.what());
  }
  try {
    ga::GeneticAlgorithm(objective->domains(), options.ga);
  } catch (const std::invalid_argument& error) {
    throw InputError("GA parameters", "", error.what());
  }
}

namespace {

// A genome as a task's payload, and a fitness as its result's data.
std::string bytes_of(const double* values, std::size_t count) {
  return std::string(reinterpret_cast<const char*>(values), count * sizeof(double));
}
std::vector<double> doubles_of(std::string_view bytes) {
  std::vector<double> values(bytes.size() / sizeof(double));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(double));
  return values;
}

// The GA's batch evaluator on rank 0: each batch is one generation of the
// farm (one map of the task farm), handed out by its policy.
class FarmEvaluator final : public ga::BatchEvaluator {
 public:
  FarmEvaluator(run::TaskFarm& farm, std::size_t batches) : farm_(farm), batches_(batches) {}

  std::vector<double> evaluate(const std::vector<ga::Genome>& batch) override {
    ++batch_index_;
    std::vector<run::Task> tasks;
    tasks.reserve(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) tasks.push_back({i, bytes_of(batch[i].data(), batch[i].size())});
    const auto reports = farm_.map(tasks, {}, batch_index_ >= batches_);
    std::vector<double> fitness;
    fitness.reserve(reports.size());
    for (const auto& report : reports) {
      fitness.push_back(doubles_of(std::string_view(report.result.data).substr(0, sizeof(double))).at(0));
      if (report.result.succeeded()) continue;
      // A failed evaluation: said (the first few), counted; the GA ranks it last.
      if (++failed_ <= reported_failures)
        std::fprintf(stderr, "hetscale: farm: evaluation failed: %s\n", report.result.data.c_str() + sizeof(double));
      else if (failed_ == reported_failures + 1)
        std::fprintf(stderr, "hetscale: farm: more evaluations failed; their count is in the run record\n");
    }
    return fitness;
  }

  std::size_t failed() const { return failed_; }

 private:
  static constexpr std::size_t reported_failures = 5;
  run::TaskFarm& farm_;
  std::size_t batches_, batch_index_ = 0, failed_ = 0;
};

}  // namespace

std::optional<FarmOutcome> run_farm(const FarmOptions& options, const FarmProgress& progress) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto objective = make_objective(options);
  // The rank's speed: its client's, or the server's when it evaluates alone.
  const double speed =
      options.speeds.empty() ? 1.0 : options.speeds[static_cast<std::size_t>(rank == 0 ? 0 : rank - 1)];

  // An evaluation emulates its node's speed itself (the synthetic objective
  // sleeps its nominal time / speed; a real one sleeps after computing), so
  // the speeds go to the farm as declared ones only.
  run::FarmSettings settings;
  settings.policy = options.policy;
  settings.speeds = options.speeds;
  run::TaskFarm farm(
      [&](const run::TaskAttempt& attempt) {
        const auto genome = doubles_of(attempt.payload);
        const auto evaluation = measure::evaluate_on_emulated_node(*objective, genome, speed, options.time_scale);
        run::TaskResult result;
        result.work_seconds = evaluation.nominal_seconds;
        result.data = bytes_of(&evaluation.fitness, 1) + evaluation.failure;
        if (!evaluation.failure.empty()) result.exit_code = 1;
        return result;
      },
      settings);

  std::optional<FarmOutcome> outcome;
  std::size_t failed_evaluations = 0;
  if (farm.is_server()) {
    const ga::GeneticAlgorithm algorithm(objective->domains(), options.ga);
    const double start = measure::monotonic_seconds();
    auto report = [&](const ga::GenerationLog& log) {
      if (progress)
        progress(log.generation, options.ga.generations, measure::monotonic_seconds() - start, log.best_fitness);
    };
    FarmEvaluator evaluator(farm, options.ga.generations + 1);
    outcome.emplace();
    outcome->ga = algorithm.run(evaluator, report);
    failed_evaluations = evaluator.failed();
  }
  auto run = farm.finish();
  if (!farm.is_server()) return std::nullopt;

  // The context block: what ran, where, and how it was measured.
  FarmContext context = run::farm_context(*run, settings, ranks, MpiSession::library_version());
  RunRecord& record = outcome->record;
  record = std::move(run->record);
  record.label = options.label;

  context.objective = objective->name();
  if (options.objective == "synthetic") {
    context.eval_time_s = options.evaluation_seconds;
    context.time_scale = options.time_scale;
  } else {
    context.atoms = options.atoms;
  }
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
  if (is_users_objective(options.objective)) context.failed_tasks = failed_evaluations;
  record.context.farm = context;
  return outcome;
}

std::string farm_summary(const FarmOptions& options, const FarmOutcome& outcome, int ranks, const std::string& out) {
  const std::string objective =
      options.objective == "synthetic"
          ? fmt::format("synthetic (each evaluation sleeps {:g} s x {:g} / speed: no computation)",
                        options.evaluation_seconds, options.time_scale)
          : options.objective;
  return fmt::format(
      "farm: policy {}, {} clients, objective {}: t_par {:.3f} s, {} evaluations, best fitness {:.6f}{}\n",
      to_string(options.policy), ranks - 1, objective, outcome.record.t_par, outcome.ga.evaluations,
      outcome.ga.best.fitness, out.empty() ? "" : fmt::format("; run record in {}", out));
}

}  // namespace hetscale::mpi
