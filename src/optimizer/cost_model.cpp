#include "hetscale/optimizer/cost_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "hetscale/model/parallel_code.hpp"

namespace hetscale::optimizer {
namespace {

CommunicationStep step(const Machine& machine, Structure structure, double elements, int processors, int times = 1) {
  return {structure, elements, processors, times,
          times * machine.communication_seconds(structure, elements, processors)};
}

Redistribution with_steps(std::vector<CommunicationStep> steps) {
  Redistribution r;
  for (const auto& s : steps) r.seconds += s.seconds;
  r.steps = std::move(steps);
  return r;
}

}  // namespace

Layout Layout::of(Pattern pattern, int processors) {
  if (processors < 1) throw std::invalid_argument(fmt::format("a layout needs processors >= 1, got {}", processors));
  return {processors == 1 ? Pattern::replicated : pattern, processors};
}

std::string Layout::description() const {
  if (!defined()) return "undefined";
  if (processors == 1) return "whole/1";
  return fmt::format("{}/{}", to_string(pattern), processors);
}

std::string Redistribution::method() const {
  if (steps.empty()) return "-";
  std::string text;
  for (const auto& s : steps) {
    if (!text.empty()) text += "+";
    text += s.times > 1 ? fmt::format("{} {}s", s.times, to_string(s.structure)) : std::string(to_string(s.structure));
  }
  return text;
}

// docs/optimizer.md, "Redistribution rules"
Redistribution cheapest_redistribution(const Machine& machine, double elements, Layout from, Layout to) {
  if (!to.defined()) throw std::invalid_argument("cheapest_redistribution: the target layout is undefined");
  if (!(elements >= 0.0) || !std::isfinite(elements))
    throw std::invalid_argument(fmt::format("cheapest_redistribution: elements must be >= 0, got {}", elements));
  if (from.defined()) from = Layout::of(from.pattern, from.processors);
  to = Layout::of(to.pattern, to.processors);
  Redistribution best;
  auto consider = [&best](Redistribution candidate) {
    if (best.steps.empty() || candidate.seconds < best.seconds) best = std::move(candidate);
  };
  const double size = elements;
  const int pa = from.processors, pb = to.processors;
  if (!from.defined() || from == to) {
    // Nothing to move.
  } else if (from.whole_everywhere()) {
    // Rule 1: every processor of `from` holds the whole array.
    if (pb > pa)
      consider(with_steps({to.whole_everywhere() ? step(machine, Structure::broadcast, size, pb)
                                                 : step(machine, Structure::scatter, size / pb, pb)}));
  } else if (pb == 1) {
    // Rule 2: a distributed array collected on processor 0.
    consider(with_steps({step(machine, Structure::gather, size / pa, pa)}));
  } else if (to.whole_everywhere()) {
    // Rule 3: a distributed array replicated.
    consider(with_steps({step(machine, Structure::multiphase, size, std::max(pa, pb))}));
    consider(
        with_steps({step(machine, Structure::gather, size / pa, pa), step(machine, Structure::broadcast, size, pb)}));
    if (pa == pb) consider(with_steps({step(machine, Structure::shift, size / pa, pa, pa - 1)}));
  } else {
    // Rule 4: a distributed array distributed anew (another pattern or processor count).
    consider(with_steps({step(machine, Structure::multiphase, std::max(size / pa, size / pb), std::max(pa, pb))}));
    consider(with_steps(
        {step(machine, Structure::gather, size / pa, pa), step(machine, Structure::scatter, size / pb, pb)}));
  }
  best.from = from;
  best.to = to;
  return best;
}

std::string LevelCost::structure() const {
  std::string text;
  for (const auto& r : redistributions) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{} {}", r.method(), r.array);
  }
  return text.empty() ? "-" : text;
}

CostModel::CostModel(Program program, Machine machine, std::vector<int> processor_choices)
    : program_(std::move(program)), machine_(std::move(machine)), processor_choices_(std::move(processor_choices)) {
  if (program_.levels.empty()) throw std::invalid_argument("the program has no levels");
  if (processor_choices_.empty()) throw std::invalid_argument("the processor choices must not be empty");
  for (std::size_t i = 0; i < processor_choices_.size(); ++i) {
    const int p = processor_choices_[i];
    if (p < 1) throw std::invalid_argument(fmt::format("processor counts must be >= 1, got {}", p));
    if (std::find(processor_choices_.begin(), processor_choices_.begin() + static_cast<std::ptrdiff_t>(i), p) !=
        processor_choices_.begin() + static_cast<std::ptrdiff_t>(i))
      throw std::invalid_argument(fmt::format("processor count {} is listed twice", p));
  }
  if (!(machine_.seconds_per_operation >= 0.0) || !std::isfinite(machine_.seconds_per_operation))
    throw std::invalid_argument(
        fmt::format("seconds per operation must be >= 0, got {}", machine_.seconds_per_operation));

  for (const auto& declaration : program_.arrays) elements_.push_back(static_cast<double>(declaration.element_count()));
  auto array_index = [this](const std::string& name) {
    for (std::size_t a = 0; a < program_.arrays.size(); ++a)
      if (program_.arrays[a].name == name) return a;
    throw std::invalid_argument(fmt::format("array '{}' has no program-wide declaration", name));
  };

  for (const Level& level : program_.levels) {
    if (level.alignments.empty()) throw std::invalid_argument(fmt::format("level {} has no alignments", level.index));
    std::vector<LevelOption> options;
    const bool serial = level.alignments.size() == 1 && level.alignments.front().serial_only;
    if (serial) {
      options.push_back({1, level.alignments.front().id});
    } else {
      for (const int p : processor_choices_)
        for (const Alignment& alignment : level.alignments) options.push_back({p, alignment.id});
    }
    LevelData data;
    for (const LevelArray& array : level.arrays) {
      data.arrays.push_back(array_index(array.name));
      data.live_in.push_back(array.live_in);
    }
    for (const LevelOption& option : options) {
      const Alignment& alignment = level.alignments.at(static_cast<std::size_t>(option.alignment - 1));
      std::vector<Layout> required;
      for (const LevelArray& array : level.arrays)
        required.push_back(Layout::of(alignment.pattern_of(array.name), option.processors));
      data.required.push_back(std::move(required));
    }
    options_.push_back(std::move(options));
    levels_.push_back(std::move(data));
  }
}

std::uint64_t CostModel::plan_count() const {
  std::uint64_t count = 1;
  for (const auto& options : options_) {
    if (count > std::numeric_limits<std::uint64_t>::max() / options.size())
      return std::numeric_limits<std::uint64_t>::max();
    count *= options.size();
  }
  return count;
}

double CostModel::computation_seconds(std::size_t level, int processors) const {
  const double sequential_seconds =
      static_cast<double>(program_.levels.at(level).operation_count) * machine_.seconds_per_operation;
  return model::stage_computation_time(sequential_seconds, static_cast<double>(processors));
}

CostModel::State CostModel::initial_state() const {
  State state(program_.arrays.size(), Layout::undefined());
  std::vector<bool> seen(program_.arrays.size(), false);
  for (const LevelData& level : levels_)
    for (std::size_t k = 0; k < level.arrays.size(); ++k) {
      const std::size_t a = level.arrays[k];
      if (!seen[a] && level.live_in[k]) state[a] = Layout::of(Pattern::replicated, 1);
      seen[a] = true;
    }
  return state;
}

void CostModel::check_plan(std::span<const int> plan) const {
  if (plan.size() != options_.size())
    throw std::invalid_argument(
        fmt::format("a plan needs one option per level ({}), got {}", options_.size(), plan.size()));
  for (std::size_t l = 0; l < plan.size(); ++l)
    if (plan[l] < 0 || static_cast<std::size_t>(plan[l]) >= options_[l].size())
      throw std::invalid_argument(
          fmt::format("level {}: option must be in [0, {}), got {}", l + 1, options_[l].size(), plan[l]));
}

double CostModel::move_arrays(State& state, std::size_t level, int option, double seconds,
                              std::vector<Redistribution>* moves) const {
  const LevelData& data = levels_[level];
  const auto& required = data.required[static_cast<std::size_t>(option)];
  for (std::size_t k = 0; k < data.arrays.size(); ++k) {
    const std::size_t a = data.arrays[k];
    if (data.live_in[k] && state[a] != required[k]) {
      Redistribution moved = cheapest_redistribution(machine_, elements_[a], state[a], required[k]);
      seconds += moved.seconds;
      if (moves && !moved.steps.empty()) {
        moved.array = program_.arrays[a].name;
        moves->push_back(std::move(moved));
      }
    }
    state[a] = required[k];
  }
  return seconds;
}

double CostModel::advance(State& state, std::size_t level, int option) const {
  const double computation = computation_seconds(level, options_[level][static_cast<std::size_t>(option)].processors);
  return move_arrays(state, level, option, computation, nullptr);
}

LevelCost CostModel::advance_detailed(State& state, std::size_t level, int option) const {
  LevelCost cost;
  cost.level = program_.levels[level].index;
  cost.option = options_[level][static_cast<std::size_t>(option)];
  cost.computation_seconds = computation_seconds(level, cost.option.processors);
  cost.communication_seconds = move_arrays(state, level, option, 0.0, &cost.redistributions);
  return cost;
}

double CostModel::pass(State& state, std::span<const int> plan, std::vector<LevelCost>* detail) const {
  if (detail) {
    std::vector<double> stage_seconds;
    for (std::size_t l = 0; l < plan.size(); ++l) {
      detail->push_back(advance_detailed(state, l, plan[l]));
      stage_seconds.push_back(detail->back().seconds());
    }
    return model::program_execution_time(stage_seconds);
  }
  // Stage-GA, Eq 4 as above, summed as it goes: no allocation in the GA's inner loop.
  double seconds = 0.0;
  for (std::size_t l = 0; l < plan.size(); ++l) seconds += advance(state, l, plan[l]);
  return seconds;
}

double CostModel::seconds(std::span<const int> plan) const {
  check_plan(plan);
  State state = initial_state();
  double total = pass(state, plan, nullptr);
  const std::int64_t iterations = program_.iterations.value_or(1);
  if (iterations > 1) total += static_cast<double>(iterations - 1) * pass(state, plan, nullptr);
  return total;
}

PlanCost CostModel::evaluate(std::span<const int> plan) const {
  check_plan(plan);
  PlanCost cost;
  cost.iterations = program_.iterations.value_or(1);
  State state = initial_state();
  cost.seconds = pass(state, plan, &cost.levels);
  // Every array is used in every pass, so each later pass starts from the
  // layouts the one before it ended with: the same for passes 2, 3, ...
  if (cost.iterations > 1)
    cost.seconds += static_cast<double>(cost.iterations - 1) * pass(state, plan, &cost.later_levels);
  return cost;
}

}  // namespace hetscale::optimizer
