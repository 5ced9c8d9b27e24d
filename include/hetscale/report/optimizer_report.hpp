#pragma once
// The optimizer's results for people (tables) and programs (JSON): a plan
// level by level, and Table IV's statistics over repeated GA runs.
#include <optional>
#include <string>

#include "hetscale/optimizer/solvers.hpp"

namespace hetscale::report {

// What one `hetscale optimize` produced.
struct OptimizerOutcome {
  const optimizer::CostModel* model = nullptr;
  optimizer::SolverResult result;                // the solver's plan (with --runs: the best run's)
  std::optional<double> optimum;                 // the exact optimum, when known
  std::optional<optimizer::RepeatedRuns> runs;   // with --runs
  std::optional<optimizer::GaSolverOptions> ga;  // the GA's settings, for a GA solver
};

// Header lines, the plan (level, procs, alignment, t_comp, t_comm, structure)
// and, with runs, Table IV's columns.
std::string optimizer_table(const OptimizerOutcome& outcome);
// {"program", "machine", "solver", "plan": [...], "time", "optimum",
//  "evaluations", "generations", "log", and with runs: "runs", "success_rate",
//  "generations_mean", ... } (docs/formats.md).
std::string optimizer_json(const OptimizerOutcome& outcome);

}  // namespace hetscale::report
