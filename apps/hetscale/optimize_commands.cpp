// hetscale optimize: Stage-GA's processors and alignment per level of a
// program, by the GA, exhaustive search or the exact dynamic program
// (docs/optimizer.md). No MPI.
#include <cmath>
#include <utility>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/io/progress.hpp"
#include "hetscale/optimizer/parser.hpp"
#include "hetscale/optimizer/solvers.hpp"
#include "hetscale/report/optimizer_report.hpp"

namespace hetscale::cli {
namespace {

struct OptimizeCommand {
  std::string program, machine, procs = "1,4,16", solver = "exact", scheme = "memetic", crossover = "one-point";
  std::vector<std::string> defines;
  std::string runs, seed = "1", population_per_level, mutation_rate, max_evaluations, restart_after, threads, out;
  bool json = false, replicated_reads = false;
  bool solver_given = false, scheme_given = false, crossover_given = false, seed_given = false;
};

// -D NAME=VALUE, VALUE a whole number.
std::map<std::string, long> parse_defines(const std::vector<std::string>& defines) {
  std::map<std::string, long> values;
  for (const std::string& define : defines) {
    const auto equals = define.find('=');
    const std::string name = define.substr(0, equals);
    const bool named =
        !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
    if (equals == std::string::npos || !named)
      throw InputError("-D", "", fmt::format("expects NAME=VALUE with a C name, got '{}'", define));
    const std::string text = define.substr(equals + 1);
    std::size_t used = 0;
    long value = 0;
    try {
      value = std::stol(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size())
      throw InputError("-D", name, fmt::format("expects a whole number, got '{}'", text));
    values[name] = value;
  }
  return values;
}

std::vector<int> processor_list(const std::string& text) {
  std::vector<int> processors;
  for (const double value : io::parse_positive_list(text, "--procs")) {
    if (value != std::floor(value) || value > 1e6)
      throw InputError("--procs", "", fmt::format("processor counts are whole numbers from 1 to 1e6, got {:g}", value));
    processors.push_back(static_cast<int>(value));
  }
  return processors;
}

Output optimize(const OptimizeCommand& command) {
  optimizer::AlignmentRules rules;
  rules.replicate_distributable_reads = command.replicated_reads;
  optimizer::Program program =
      optimizer::parse_program(io::read_text_file(command.program), command.program, parse_defines(command.defines));
  if (rules.replicate_distributable_reads)
    for (auto& level : program.levels) level.alignments = optimizer::feasible_alignments(level, rules);
  const optimizer::Machine machine = optimizer::read_machine(command.machine);
  std::vector<int> processors = processor_list(command.procs);
  std::unique_ptr<optimizer::CostModel> model;
  try {
    model = std::make_unique<optimizer::CostModel>(std::move(program), machine, std::move(processors));
  } catch (const std::invalid_argument& error) {
    throw InputError("--procs", "", error.what());
  }

  const std::string solver = named_choice(
      [](const std::string& name) {
        if (name != "ga" && name != "exhaustive" && name != "exact")
          throw std::invalid_argument(fmt::format("unknown solver '{}'; allowed: ga, exhaustive, exact", name));
        return name;
      },
      command.solver, "--solver");
  unsigned threads = 0;
  if (!command.threads.empty()) {
    if (solver != "exhaustive")
      throw InputError("--threads", "", fmt::format("is for --solver exhaustive only, got --solver {}", solver));
    const std::size_t count = count_option(command.threads, "--threads");
    if (count > 1024)
      throw InputError("--threads", "", fmt::format("must be a whole number from 1 to 1024, got {}", count));
    threads = static_cast<unsigned>(count);
  }
  if (solver != "ga") {
    const std::pair<const char*, const std::string*> ga_only[] = {
        {"--runs", &command.runs},
        {"--scheme", command.scheme_given ? &command.scheme : nullptr},
        {"--crossover", command.crossover_given ? &command.crossover : nullptr},
        {"--seed", command.seed_given ? &command.seed : nullptr},
        {"--population-per-level", &command.population_per_level},
        {"--mutation-rate", &command.mutation_rate},
        {"--max-evaluations", &command.max_evaluations},
        {"--restart-after", &command.restart_after}};
    for (const auto& [option, value] : ga_only)
      if (value && !value->empty())
        throw InputError(option, "", fmt::format("is for --solver ga only, got --solver {}", solver));
  }

  report::OptimizerOutcome outcome;
  outcome.model = model.get();
  outcome.inputs = {{"program", command.program}, {"machine", command.machine}};
  // The GA: the memetic scheme unless --scheme asks for the paper's SSGA or
  // TGGA (it found the optimum most often with the fewest evaluations, docs/optimizer.md).
  const auto solve_with_ga = [&] {
    optimizer::GaSolverOptions ga;
    named_choice([&ga](const std::string& name) { optimizer::set_ga_scheme(ga, name); }, command.scheme, "--scheme");
    ga.crossover = named_choice(ga::crossover_from_string, command.crossover, "--crossover");
    const double seed = single_number(command.seed, "--seed");
    if (!(seed >= 0.0 && seed <= 9007199254740992.0 && seed == std::floor(seed)))
      throw InputError("--seed", "", fmt::format("must be a whole number from 0 to 2^53, got {:g}", seed));
    ga.seed = static_cast<std::uint64_t>(seed);
    if (!command.population_per_level.empty())
      ga.population_per_level = count_option(command.population_per_level, "--population-per-level");
    if (!command.mutation_rate.empty()) {
      ga.mutation_rate = single_number(command.mutation_rate, "--mutation-rate");
      if (!(ga.mutation_rate > 0.0 && ga.mutation_rate <= 1.0))
        throw InputError("--mutation-rate", "", fmt::format("must be in (0, 1], got {:g}", ga.mutation_rate));
    }
    if (!command.restart_after.empty()) ga.restart_after = count_option(command.restart_after, "--restart-after");
    if (!command.max_evaluations.empty())
      ga.max_evaluations = count_option(command.max_evaluations, "--max-evaluations");
    // Table IV: a run stops at the expected fitness (the exact optimum) or the evaluation limit.
    // Without a known optimum (too many states for the exact solver), a single run uses the whole budget.
    try {
      outcome.optimum = optimizer::ExactSolver().solve(*model).cost.seconds;
      ga.target_seconds = optimizer::expected_fitness(*outcome.optimum);
    } catch (const optimizer::SolverLimitError&) {
      if (!command.runs.empty()) throw;
    }
    outcome.ga = ga;
    if (command.runs.empty()) {
      outcome.result = optimizer::GaSolver(ga).solve(*model);
    } else {
      const std::size_t runs = count_option(command.runs, "--runs");
      io::Progress progress("optimize", runs);
      outcome.runs = optimizer::repeat_ga(*model, ga, runs, *outcome.optimum, [&](std::size_t done) {
        progress.step(fmt::format("seed {}", ga.seed + done - 1));
      });
      progress.finish();
      outcome.result = outcome.runs->best;
    }
  };

  try {
    if (solver == "exhaustive") {
      outcome.result = optimizer::ExhaustiveSolver(threads).solve(*model);
    } else if (solver == "exact") {
      try {
        outcome.result = optimizer::ExactSolver().solve(*model);
        outcome.optimum = outcome.result.cost.seconds;
      } catch (const optimizer::SolverLimitError& error) {
        // The default: exact where its dynamic program applies, else the GA, saying so.
        if (command.solver_given) throw;
        solve_with_ga();
        std::string why = error.what();  // "exact: <why>; use --solver ga"
        if (why.rfind("exact: ", 0) == 0) why.erase(0, 7);
        if (const auto advice = why.find("; use the solver"); advice != std::string::npos) why.erase(advice);
        outcome.result.solver += fmt::format(", as the exact solver does not apply here ({})", why);
      }
    } else {
      solve_with_ga();
    }
  } catch (const optimizer::SolverLimitError& error) {
    throw InputError("--solver", "", error.what());
  }
  return written_and_shown(report::optimizer_json(outcome), command.out, command.json,
                           [&] { return report::optimizer_table(outcome); });
}

}  // namespace

void add_optimize_command(CLI::App& optimize_app, Actions& actions) {
  auto command = std::make_shared<OptimizeCommand>();
  auto* optimize_command = &optimize_app;
  optimize_command->add_option("PROGRAM", command->program, "program in Stage-GA's C-like language")->required();
  optimize_command
      ->add_option("--machine", command->machine, "machine profile (hetscale.comm-profile/1 with the five structures)")
      ->required();
  optimize_command->add_option("--procs", command->procs, "processor counts to choose from (default 1,4,16)");
  optimize_command
      ->add_option("--solver", command->solver,
                   "ga | exhaustive | exact (default exact, or ga where the exact solver does not apply)")
      ->each([command](const std::string&) { command->solver_given = true; });
  optimize_command->add_option("--scheme", command->scheme, "ga: memetic | ssga | tgga (default memetic)")
      ->each([command](const std::string&) { command->scheme_given = true; });
  optimize_command->add_option("--crossover", command->crossover, "ga: one-point | two-point | uniform")
      ->each([command](const std::string&) { command->crossover_given = true; });
  optimize_command->add_option("--runs", command->runs,
                               "ga: repeat with seeds S, S+1, ... and print Table IV's statistics");
  optimize_command->add_option("--seed", command->seed, "ga: random seed (default 1)")
      ->each([command](const std::string&) { command->seed_given = true; });
  optimize_command->add_option("--population-per-level", command->population_per_level,
                               "ga: population = this x levels (default 2)");
  optimize_command->add_option("--mutation-rate", command->mutation_rate, "ga: per level (default 1 / levels)");
  optimize_command->add_option("--max-evaluations", command->max_evaluations,
                               "ga: evaluation limit of a run (default 40000)");
  optimize_command->add_option("--restart-after", command->restart_after,
                               "ga memetic: generations without a better best before a restart (default 2 x levels)");
  optimize_command->add_option("--threads", command->threads, "exhaustive: threads (default: all cores)");
  optimize_command->add_option("-D,--define", command->defines, "NAME=VALUE: overrides the program's #define");
  optimize_command->add_flag("--replicated-reads", command->replicated_reads,
                             "also list alignments that replicate distributable read-only arrays");
  optimize_command->add_option("--out", command->out, "also write the JSON result here");
  optimize_command->add_flag("--json", command->json, "print JSON instead of tables");
  optimize_command->callback([command, &actions] { actions.action = [command] { return optimize(*command); }; });
}

}  // namespace hetscale::cli
