#include "hetscale/analysis/diagnosis.hpp"

#include <algorithm>
#include <numeric>

namespace hetscale {
namespace {

// The nodes whose weight is largest (at most three, each > 0), largest first.
std::vector<std::string> heaviest_nodes(const RunAnalysis& analysis, double (*weight)(const EnergeticNode&)) {
  std::vector<std::size_t> order(analysis.energetic_nodes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return weight(analysis.energetic_nodes[a]) > weight(analysis.energetic_nodes[b]);
  });
  std::vector<std::string> names;
  for (std::size_t i : order) {
    if (names.size() == 3 || weight(analysis.energetic_nodes[i]) <= 0.0) break;
    names.push_back(analysis.energetic_nodes[i].name);
  }
  return names;
}

// A node's loss to a cause, in capacity: s_i times its fraction of the node's time.
double idle_weight(const EnergeticNode& n) { return n.s * (1.0 - n.sigma) * n.gamma; }
double communication_weight(const EnergeticNode& n) { return n.s * (1.0 - n.sigma) * n.rho; }
double setup_weight(const EnergeticNode& n) { return n.s * (1.0 - n.sigma) * n.delta; }
double other_load_weight(const EnergeticNode& n) { return n.s * n.sigma; }

// Clematis-Corana 1999 Eq 22 and 25: a fraction `lost` of the time available
// to the program (other load removed) made useful.
Loss made_useful(const RunAnalysis& analysis, LossKind kind, double lost,
                 double (*weight)(const EnergeticNode&)) {
  const auto& system = analysis.energetic;
  Loss loss;
  loss.kind = kind;
  loss.fraction = lost * system.utilization;
  loss.nodes = heaviest_nodes(analysis, weight);
  loss.what_if = WhatIf::loss_made_useful;
  loss.efficiency_after = (system.efficiency + lost) * system.utilization;
  return loss;
}

}  // namespace

double distribution_follows_speeds(const RunConditions& conditions) {
  if (!conditions.measured) return kDistributionFollowsSpeeds;
  return conditions.cores_shared || conditions.loaded() ? kCrowdedDistributionFollowsSpeeds
                                                        : kMeasuredDistributionFollowsSpeeds;
}

Headline headline(const RunAnalysis& analysis) {
  Headline result;
  result.t_par = analysis.t_par;
  if (analysis.t_seq_ref && analysis.t_par > 0.0) result.measured_speedup = *analysis.t_seq_ref / analysis.t_par;
  result.speedup_from_node_times = analysis.energetic.speedup;
  result.efficiency = analysis.energetic.effective_efficiency;
  for (const auto& node : analysis.energetic_nodes) result.capacity += node.s;
  return result;
}

std::vector<Loss> all_losses(const RunAnalysis& analysis) {
  const auto& system = analysis.energetic;
  const auto& h = analysis.heterogeneous;
  std::vector<Loss> losses;

  if (h.efficiency < distribution_follows_speeds(analysis.conditions)) {
    // APGA 2004 Proposition 1: shares p_i = v_i / sum v give T_n = K / sum v,
    // which is e T_n (Eq 7); the time beyond computation (Eq 14) is kept.
    Loss idle = made_useful(analysis, LossKind::idle_from_distribution, system.gamma, idle_weight);
    idle.what_if = WhatIf::speed_proportional_split;
    const double t_par_after = h.efficiency * h.t_n + h.t_beyond_computation;
    idle.t_par_after = t_par_after;
    idle.efficiency_after = t_par_after > 0.0 ? system.effective_efficiency * analysis.t_par / t_par_after : 0.0;
    losses.push_back(std::move(idle));
  } else {
    losses.push_back(made_useful(analysis, LossKind::idle, system.gamma, idle_weight));
  }
  losses.push_back(made_useful(analysis, LossKind::communication, system.rho, communication_weight));
  losses.push_back(made_useful(analysis, LossKind::setup, system.delta, setup_weight));

  Loss other;
  other.kind = LossKind::other_load;
  other.fraction = 1.0 - system.utilization;
  other.nodes = heaviest_nodes(analysis, other_load_weight);
  other.what_if = WhatIf::dedicated_nodes;
  other.efficiency_after = system.efficiency;
  losses.push_back(std::move(other));
  return losses;
}

std::vector<Loss> diagnose(const RunAnalysis& analysis) {
  auto losses = all_losses(analysis);
  std::erase_if(losses, [](const Loss& loss) { return loss.fraction < kSmallestLoss; });
  std::stable_sort(losses.begin(), losses.end(),
                   [](const Loss& a, const Loss& b) { return a.fraction > b.fraction; });
  return losses;
}

}  // namespace hetscale
