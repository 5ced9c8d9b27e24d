#pragma once
// Stage-GA's cost model (Section II.B, Eqs 1-4): the predicted time of a
// program run level by level, each level on its own processor count with its
// own alignment, arrays redistributed between levels with the cheapest
// communication structure. The rules are in docs/optimizer.md ("The cost
// model"); pure code, no I/O.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hetscale/model/parallel_code.hpp"
#include "hetscale/optimizer/alignment.hpp"
#include "hetscale/optimizer/machine.hpp"
#include "hetscale/optimizer/program.hpp"

namespace hetscale::optimizer {

// Where an array's data are: one pattern over the first `processors`
// processors (a level on p processors uses processors 0 .. p-1). On one
// processor every pattern is the whole array on processor 0, normalised to
// {replicated, 1}. processors = 0 means undefined (not yet computed).
struct Layout {
  Pattern pattern = Pattern::replicated;
  int processors = 0;

  static Layout undefined() { return {}; }
  // The layout of `pattern` on `processors` (>= 1), normalised.
  static Layout of(Pattern pattern, int processors);
  bool defined() const { return processors > 0; }
  // Every processor of the layout holds the whole array (replicated, or one processor).
  bool whole_everywhere() const { return defined() && pattern == Pattern::replicated; }
  std::string description() const;  // "row/16", "replicated/4", "whole/1", "undefined"
  friend bool operator==(const Layout&, const Layout&) = default;
};

// One use of a communication structure: `elements` doubles per processor among `processors`.
struct CommunicationStep {
  Structure structure = Structure::broadcast;
  double elements = 0.0;
  int processors = 0;
  int times = 1;  // a ring of shifts repeats one shift
  double seconds = 0.0;
};

// Moving one array from one layout to another.
struct Redistribution {
  std::string array;
  Layout from, to;
  std::vector<CommunicationStep> steps;  // in order; empty when nothing moves
  double seconds = 0.0;
  // "broadcast", "gather+scatter", "3 shifts", "-" when nothing moves.
  std::string method() const;
};

// The cheapest way to move an array of `elements` doubles from `from` to `to`
// (docs/optimizer.md, "Redistribution rules"). Nothing moves when `from` is
// undefined or equal to `to`, or when every processor of `to` already holds
// the whole array. Throws std::invalid_argument for an undefined `to` or
// negative `elements`.
Redistribution cheapest_redistribution(const Machine& machine, double elements, Layout from, Layout to);

// A level's choice: its processor count and the id of one of its alignments.
struct LevelOption {
  int processors = 1;
  int alignment = 1;  // Alignment::id
  friend bool operator==(const LevelOption&, const LevelOption&) = default;
};

struct LevelCost {
  int level = 0;  // Level::index
  LevelOption option;
  double computation_seconds = 0.0;             // Stage-GA, Eq 2
  double communication_seconds = 0.0;           // the redistributions before the level
  std::vector<Redistribution> redistributions;  // only those that move data
  double seconds() const { return model::stage_execution_time(computation_seconds, communication_seconds); }
  // "scatter V, broadcast Z", or "-" when nothing moves.
  std::string structure() const;
};

struct PlanCost {
  std::vector<LevelCost> levels;        // the first pass over the levels
  std::vector<LevelCost> later_levels;  // one later pass of the iterative loop; empty without one
  std::int64_t iterations = 1;
  double seconds = 0.0;  // Stage-GA, Eq 4: first pass + (iterations - 1) x later pass
};

// A plan gives one option per level, as an index into CostModel::options(level).
using Plan = std::vector<int>;

class CostModel {
 public:
  // The array layouts before a level: one per Program::arrays entry.
  using State = std::vector<Layout>;

  // Options per level: every processor count of `processor_choices` with every
  // alignment of the level (processor-major); a level with only a serial_only
  // alignment has one option, (1, that alignment). Throws std::invalid_argument
  // for an empty or duplicated list, a count below 1, or a program without levels.
  CostModel(Program program, Machine machine, std::vector<int> processor_choices);

  const Program& program() const { return program_; }
  const Machine& machine() const { return machine_; }
  const std::vector<int>& processor_choices() const { return processor_choices_; }
  std::size_t level_count() const { return program_.levels.size(); }
  const std::vector<LevelOption>& options(std::size_t level) const { return options_.at(level); }
  // The number of plans (product of the option counts), saturating at UINT64_MAX.
  std::uint64_t plan_count() const;

  // Predicted seconds of `plan` (the fitness the solvers minimise).
  double seconds(std::span<const int> plan) const;
  // The same, with every level's breakdown.
  PlanCost evaluate(std::span<const int> plan) const;
  // Throws std::invalid_argument unless `plan` has one valid option index per level.
  void check_plan(std::span<const int> plan) const;

  // Building blocks of the exact solver.
  // Inputs (arrays whose first level reads them) whole on processor 0, others undefined.
  State initial_state() const;
  // The seconds of level `level` with option `option` after `state`; `state`
  // becomes the layouts after the level.
  double advance(State& state, std::size_t level, int option) const;
  // Indices (into Program::arrays) of the arrays level `level` references.
  const std::vector<std::size_t>& arrays_of(std::size_t level) const { return levels_.at(level).arrays; }
  double computation_seconds(std::size_t level, int processors) const;

 private:
  struct LevelData {
    std::vector<std::size_t> arrays;            // program array indices
    std::vector<bool> live_in;                  // per entry of `arrays`
    std::vector<std::vector<Layout>> required;  // per option, per entry of `arrays`
  };
  // `seconds` plus the redistributions before level `level` with option
  // `option`, added one after the other; each kept in `moves` when given.
  // `state` becomes the level's layouts.
  double move_arrays(State& state, std::size_t level, int option, double seconds,
                     std::vector<Redistribution>* moves) const;
  LevelCost advance_detailed(State& state, std::size_t level, int option) const;
  double pass(State& state, std::span<const int> plan, std::vector<LevelCost>* detail) const;

  Program program_;
  Machine machine_;
  std::vector<int> processor_choices_;
  std::vector<std::vector<LevelOption>> options_;
  std::vector<LevelData> levels_;
  std::vector<double> elements_;  // per program array
};

}  // namespace hetscale::optimizer
