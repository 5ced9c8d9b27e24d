#pragma once
// The headline and the diagnosis of a run (analysis/diagnosis.hpp) in words,
// for the terminal table, the JSON document and the HTML report alike.
#include <string>
#include <vector>

#include "hetscale/analysis/diagnosis.hpp"

namespace hetscale::report {

// What the reader must know before the numbers of a measured run, one line
// each ("caution: ..."): cores shared, other load over 5 % of t_par, an
// emulated speed not achieved. Empty when none holds.
std::vector<std::string> caution_lines(const RunConditions& conditions);

// What was measured, one line each: t_par, the measured speed-up and the
// efficiency to read first.
std::vector<std::string> headline_lines(const RunAnalysis& analysis, const Headline& headline);

// The other efficiencies, each with the one question it answers.
struct EfficiencyGuide {
  std::string name;  // as the tables below name it
  double value = 0.0;
  std::string answers;
};
std::vector<EfficiencyGuide> efficiency_guide(const RunAnalysis& analysis);

// A loss in one sentence: where, how much, why, and what removing it gains.
std::string loss_sentence(const RunAnalysis& analysis, const Headline& headline, const Loss& loss);
// The loss's short name ("idle", "communication", ...), also its JSON key.
std::string loss_name(LossKind kind);
// The what-if behind a loss's gain figure, with its paper key.
std::string what_if_name(WhatIf what_if);

// "diagnosis" and its numbered sentences, or the one line saying nothing is large.
std::vector<std::string> diagnosis_lines(const RunAnalysis& analysis);

}  // namespace hetscale::report
