#pragma once
// The optimizer's results for people (tables) and programs (JSON): a plan
// level by level, and Table IV's statistics over repeated GA runs.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hetscale/optimizer/solvers.hpp"
#include "hetscale/record/optimize_record.hpp"

namespace hetscale::report {

// What one `hetscale optimize` produced.
struct OptimizerOutcome {
  const optimizer::CostModel* model = nullptr;
  optimizer::SolverResult result;                           // the solver's plan (with --runs: the best run's)
  std::optional<double> optimum;                            // the exact optimum, when known
  std::optional<optimizer::RepeatedRuns> runs;              // with --runs
  std::optional<optimizer::GaSolverOptions> ga;             // the GA's settings, for a GA solver
  std::vector<std::pair<std::string, std::string>> inputs;  // the context's inputs: {"program", path}, ...
};

// Header lines, the plan (level, procs, alignment, t_comp, t_comm, structure)
// and, with runs, Table IV's columns.
std::string optimizer_table(const OptimizerOutcome& outcome);
// The outcome as a typed record, and as its JSON (schema "hetscale.optimize/1", docs/formats.md).
OptimizeRecord optimize_record(const OptimizerOutcome& outcome);
std::string optimizer_json(const OptimizerOutcome& outcome);

}  // namespace hetscale::report
