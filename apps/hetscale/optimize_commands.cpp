// hetscale optimize: Stage-GA's processors and alignment per level of a
// program, by the GA, exhaustive search or the exact dynamic program
// (docs/optimizer.md). No MPI.
#include <cmath>
#include <memory>
#include <utility>
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

Output run_optimize(const Arguments& arguments) {
  const auto& program_path = arguments.text("PROGRAM");
  const auto& machine_path = arguments.text("--machine");
  optimizer::AlignmentRules rules;
  rules.replicate_distributable_reads = arguments.flag("--replicated-reads");
  optimizer::Program program = optimizer::parse_program(io::read_text_file(program_path), program_path,
                                                        with_options_named({OptionName("define", "-D")}, [&] {
                                                          return optimizer::parse_defines(arguments.texts("--define"));
                                                        }));
  if (rules.replicate_distributable_reads)
    for (auto& level : program.levels) level.alignments = optimizer::feasible_alignments(level, rules);
  const optimizer::Machine machine = optimizer::read_machine(machine_path);
  auto processors =
      with_options_named({"procs"}, [&] { return optimizer::parse_processor_counts(arguments.text("--procs")); });
  std::unique_ptr<optimizer::CostModel> model;
  try {
    model = std::make_unique<optimizer::CostModel>(std::move(program), machine, std::move(processors));
  } catch (const std::invalid_argument& error) {
    throw InputError("--procs", "", error.what());
  }

  optimizer::SolveRequest request;
  const auto& solver = arguments.text("--solver");
  request.solver = named_choice(optimizer::solver_choice_from_string, solver, "--solver");
  if (!arguments.given("--solver")) request.solver = optimizer::SolverChoice::exact_else_ga;
  if (arguments.given("--threads")) {
    if (solver != "exhaustive")
      throw InputError("--threads", "", fmt::format("is for --solver exhaustive only, got --solver {}", solver));
    const std::size_t count = io::parse_count(arguments.text("--threads"), "--threads");
    if (count > 1024)
      throw InputError("--threads", "", fmt::format("must be a whole number from 1 to 1024, got {}", count));
    request.threads = static_cast<unsigned>(count);
  }
  if (const auto ga_option =
          arguments.first_given({"--runs", "--scheme", "--crossover", "--seed", "--population-per-level",
                                 "--mutation-rate", "--max-evaluations", "--restart-after"});
      solver != "ga" && !ga_option.empty())
    throw InputError(ga_option, "", fmt::format("is for --solver ga only, got --solver {}", solver));

  // The GA: the memetic scheme unless --scheme asks for the paper's SSGA or
  // TGGA (it found the optimum most often with the fewest evaluations, docs/optimizer.md).
  auto& ga = request.ga;
  named_choice([&ga](const std::string& name) { optimizer::set_ga_scheme(ga, name); }, arguments.text("--scheme"),
               "--scheme");
  ga.crossover = named_choice(ga::crossover_from_string, arguments.text("--crossover"), "--crossover");
  const double seed = io::parse_one_number(arguments.text("--seed"), "--seed");
  if (!(seed >= 0.0 && seed <= 9007199254740992.0 && seed == std::floor(seed)))
    throw InputError("--seed", "", fmt::format("must be a whole number from 0 to 2^53, got {:g}", seed));
  ga.seed = static_cast<std::uint64_t>(seed);
  for (const auto& [option, value] : {std::pair{"--population-per-level", &ga.population_per_level},
                                      {"--restart-after", &ga.restart_after},
                                      {"--max-evaluations", &ga.max_evaluations}})
    if (arguments.given(option)) *value = io::parse_count(arguments.text(option), option);
  if (arguments.given("--mutation-rate")) {
    ga.mutation_rate = io::parse_one_number(arguments.text("--mutation-rate"), "--mutation-rate");
    if (!(ga.mutation_rate > 0.0 && ga.mutation_rate <= 1.0))
      throw InputError("--mutation-rate", "", fmt::format("must be in (0, 1], got {:g}", ga.mutation_rate));
  }
  std::optional<io::Progress> progress;
  if (arguments.given("--runs")) {
    request.runs = io::parse_count(arguments.text("--runs"), "--runs");
    progress.emplace("optimize", request.runs);
    request.on_run = [&](std::size_t done) { progress->step(fmt::format("seed {}", ga.seed + done - 1)); };
  }
  report::OptimizerOutcome outcome;
  outcome.model = model.get();
  outcome.inputs = {{"program", program_path}, {"machine", machine_path}};
  try {
    auto solved = optimizer::solve(*model, request);
    outcome.result = std::move(solved.result);
    outcome.optimum = solved.optimum;
    outcome.runs = std::move(solved.runs);
    outcome.ga = solved.ga;
  } catch (const optimizer::SolverLimitError& error) {
    throw InputError("--solver", "", error.what());
  }
  if (progress) progress->finish();
  return written_and_shown(report::optimizer_json(outcome), arguments.text("--out"), arguments.flag("--json"),
                           [&] { return report::optimizer_table(outcome); });
}

}  // namespace hetscale::cli
