#include "hetscale/optimizer/alignment.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "hetscale/optimizer/program.hpp"

namespace hetscale::optimizer {

std::string_view to_string(Pattern pattern) {
  switch (pattern) {
    case Pattern::row_block:
      return "row";
    case Pattern::column_block:
      return "column";
    case Pattern::block_2d:
      return "2d-block";
    case Pattern::block:
      return "block";
    case Pattern::replicated:
      return "replicated";
  }
  return "unknown";
}

std::string_view paper_name(Pattern pattern) {
  switch (pattern) {
    case Pattern::row_block:
      return "Horizontal";
    case Pattern::column_block:
      return "Vertical";
    case Pattern::block_2d:
      return "Rectangular";
    case Pattern::block:
      return "Block";
    case Pattern::replicated:
      return "Replicated";
  }
  return "Unknown";
}

bool pattern_fits_rank(Pattern pattern, int rank) {
  switch (pattern) {
    case Pattern::row_block:
    case Pattern::column_block:
    case Pattern::block_2d:
      return rank == 2;
    case Pattern::block:
      return rank == 1;
    case Pattern::replicated:
      return rank >= 1;
  }
  return false;
}

std::string Alignment::description() const {
  std::string text = serial_only ? "serial: " : "";
  for (std::size_t a = 0; a < patterns.size(); ++a) {
    if (a > 0) text += ", ";
    text += patterns[a].array + ": " + std::string(to_string(patterns[a].pattern));
  }
  return text;
}

Pattern Alignment::pattern_of(std::string_view array) const {
  for (const ArrayPattern& entry : patterns)
    if (entry.array == array) return entry.pattern;
  throw std::invalid_argument("alignment " + std::to_string(id) + " has no array '" + std::string(array) + "'");
}

namespace {

using Split = std::vector<std::string>;  // the distributed loop variables: one, or (grid rows, grid columns)

bool uses(const Subscript& subscript, const std::string& variable) {
  const auto& used = subscript.loop_variables;
  return std::find(used.begin(), used.end(), variable) != used.end();
}

// The pattern that makes this reference local when the loops of `split` are
// divided over the processors, or nothing if none does (the whole array is
// needed, or a split variable appears in a subscript other than alone).
std::optional<Pattern> local_pattern(const ArrayReference& reference, const Split& split) {
  const auto& subscripts = reference.subscripts;
  const auto exactly = [&](std::size_t dim, std::size_t s) { return subscripts[dim].loop_variable == split[s]; };
  const auto free_of = [&](std::size_t dim, std::size_t s) { return !uses(subscripts[dim], split[s]); };
  if (split.size() == 1 && subscripts.size() == 1 && exactly(0, 0)) return Pattern::block;
  if (split.size() == 1 && subscripts.size() == 2) {
    if (exactly(0, 0) && free_of(1, 0)) return Pattern::row_block;
    if (exactly(1, 0) && free_of(0, 0)) return Pattern::column_block;
  }
  if (split.size() == 2 && subscripts.size() == 2 && exactly(0, 0) && exactly(1, 1)) return Pattern::block_2d;
  return std::nullopt;
}

// The patterns an array may take under the split; empty if none works.
std::vector<Pattern> array_patterns(const Level& level, const LevelArray& array, const Split& split,
                                    const AlignmentRules& rules) {
  std::optional<Pattern> shared;
  bool local = true;
  for (const ArrayReference& reference : level.references) {
    if (reference.array != array.name) continue;
    const std::optional<Pattern> pattern = local_pattern(reference, split);
    if (!pattern || (shared && *shared != *pattern)) {
      local = false;
      break;
    }
    shared = pattern;
  }
  if (array.written) return local && shared ? std::vector<Pattern>{*shared} : std::vector<Pattern>{};
  if (!local || !shared) return {Pattern::replicated};
  if (rules.replicate_distributable_reads) return {*shared, Pattern::replicated};
  return {*shared};
}

std::vector<Split> candidate_splits(const Level& level) {
  std::vector<std::string> variables;
  for (const Loop& loop : level.loops)
    if (std::find(variables.begin(), variables.end(), loop.variable) == variables.end())
      variables.push_back(loop.variable);
  std::vector<Split> splits;
  for (const std::string& variable : variables) splits.push_back({variable});
  for (const std::string& rows : variables)
    for (const std::string& columns : variables)
      if (rows != columns) splits.push_back({rows, columns});
  return splits;
}

}  // namespace

std::vector<Alignment> feasible_alignments(const Level& level, const AlignmentRules& rules) {
  std::vector<Alignment> alignments;
  // A written scalar is a reduction or a carried value: not communication-free.
  if (level.scalars_written.empty()) {
    for (const Split& split : candidate_splits(level)) {
      std::vector<std::vector<Pattern>> choices;
      for (const LevelArray& array : level.arrays) choices.push_back(array_patterns(level, array, split, rules));
      if (choices.empty() || std::any_of(choices.begin(), choices.end(), [](const auto& c) { return c.empty(); }))
        continue;
      // Every combination of the arrays' choices (odometer order, first array slowest).
      std::vector<std::size_t> pick(choices.size(), 0);
      while (true) {
        Alignment alignment;
        alignment.distributed_loops = split;
        for (std::size_t a = 0; a < choices.size(); ++a)
          alignment.patterns.push_back({level.arrays[a].name, choices[a][pick[a]]});
        const bool distributes = std::any_of(alignment.patterns.begin(), alignment.patterns.end(),
                                             [](const ArrayPattern& p) { return p.pattern != Pattern::replicated; });
        const bool seen = std::any_of(alignments.begin(), alignments.end(),
                                      [&](const Alignment& other) { return other.patterns == alignment.patterns; });
        if (distributes && !seen) alignments.push_back(std::move(alignment));
        std::size_t a = choices.size();
        while (a > 0 && ++pick[a - 1] == choices[a - 1].size()) pick[--a] = 0;
        if (a == 0) break;
      }
    }
  }
  if (alignments.empty()) {
    Alignment serial;
    serial.serial_only = true;
    for (const LevelArray& array : level.arrays) serial.patterns.push_back({array.name, Pattern::replicated});
    alignments.push_back(std::move(serial));
  }
  for (std::size_t i = 0; i < alignments.size(); ++i) alignments[i].id = static_cast<int>(i + 1);
  return alignments;
}

}  // namespace hetscale::optimizer
