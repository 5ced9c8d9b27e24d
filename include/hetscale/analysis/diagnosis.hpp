#pragma once
// What a run's analysis says first: the headline (what was measured, and the
// one efficiency to read first) and the diagnosis (the largest losses, ranked,
// each with what the models say removing it would gain). Pure: every number
// comes from metrics run_analysis has already computed.
//
// The losses share one base, the nodes' capacity sum_i s_i t_par (relative to
// the reference), so the efficiency to read first and the losses add up to 1:
//   eta_eff + (1 - eta_u) + eta_u (rho + delta + gamma) = 1
// (Clematis-Corana 1999, Eqs 22, 24, 25: eta + rho + delta + gamma = 1 and
// eta_eff = eta eta_u).
#include <optional>
#include <string>
#include <vector>

#include "hetscale/analysis/run_analysis.hpp"

namespace hetscale {

struct Headline {
  double t_par = 0.0;                      // the longest rank's elapsed time
  std::optional<double> measured_speedup;  // t_seq_ref / t_par, when the run has t_seq_ref
  double speedup_from_node_times = 0.0;    // SU, Clematis-Corana 1999 Eq 18: sum s_i t_comp_i / t_par
  double efficiency = 0.0;                 // eta_eff, Clematis-Corana 1999 Eq 25: the one to read first
  double capacity = 0.0;                   // sum s_i: the speed-up the nodes could give with no loss
};

Headline headline(const RunAnalysis& analysis);

enum class LossKind {
  idle_from_distribution,  // idle on some nodes because the shares of work do not follow the speeds
  idle,                    // idle at synchronisation, the shares already following the speeds
  communication,           // time in communication
  setup,                   // set-up time
  other_load,              // other work on the nodes
};

// Where a loss's gain figure comes from.
enum class WhatIf {
  speed_proportional_split,  // APGA 2004 Proposition 1 (T_n = e T_n) with Eq 14's time beyond computation kept
  loss_made_useful,          // Clematis-Corana 1999 Eq 22: that fraction turned into useful time (an upper bound)
  dedicated_nodes,           // Clematis-Corana 1999 Eq 25 with eta_u = 1
};

struct Loss {
  LossKind kind = LossKind::idle;
  double fraction = 0.0;           // of the nodes' capacity, sum_i s_i t_par
  std::vector<std::string> nodes;  // the nodes that lose most to it, largest first
  WhatIf what_if = WhatIf::loss_made_useful;
  double efficiency_after = 0.0;      // the efficiency to read first once it is removed
  std::optional<double> t_par_after;  // for speed_proportional_split: e t_n + (t_par - t_n)
};

// A distribution whose efficiency e (APGA 2004 Eq 7) is at least this is taken
// to follow the speeds already; its idle is then synchronisation, not the split.
inline constexpr double kDistributionFollowsSpeeds = 0.98;
// The same for a measured run (`hetscale measure`): its shares come from
// computation times, and on one machine equal cores run the same work at
// rates up to about 15 % apart (docs/measure.md, "The verdict on the split"),
// so an even split on equal speeds shows e of 0.92 to 0.99.
inline constexpr double kMeasuredDistributionFollowsSpeeds = 0.90;
// The same for a measured run whose ranks shared cores or waited for a CPU
// (t_other over 5 % of t_par): there, ranks doing the same work computed at
// rates up to 25 % apart for a whole run (an even split at e = 0.82 to 0.90
// on equal speeds), while a split of 1:1 on speeds 1 and 0.5 measured e of
// 0.60 to 0.79 (docs/measure.md, "The verdict on the split").
inline constexpr double kCrowdedDistributionFollowsSpeeds = 0.80;
// The e under which a run's split is said not to follow its speeds: one of the three above.
double distribution_follows_speeds(const RunConditions& conditions);
// Losses under this fraction of the capacity are left out.
inline constexpr double kSmallestLoss = 0.01;

// The losses of at least kSmallestLoss, largest first.
std::vector<Loss> diagnose(const RunAnalysis& analysis);

// Every loss, small ones included, in LossKind order (for checking that they add up).
std::vector<Loss> all_losses(const RunAnalysis& analysis);

}  // namespace hetscale
