#include "hetscale/report/diagnosis_text.hpp"

#include <fmt/core.h>

namespace hetscale::report {
namespace {

std::string seconds(double value) { return fmt::format("{:.6g} s", value); }
std::string ratio(double value) { return fmt::format("{:.4f}", value); }
std::string percent(double fraction) { return fmt::format("{:.1f} %", 100.0 * fraction); }

std::string on_nodes(const Loss& loss) {
  if (loss.nodes.empty()) return "";
  std::string names;
  for (const auto& name : loss.nodes) names += (names.empty() ? "" : ", ") + name;
  return " on " + names;
}

}  // namespace

std::vector<std::string> caution_lines(const RunConditions& c) {
  std::vector<std::string> lines;
  if (c.cores_shared)
    lines.push_back(fmt::format(
        "caution: cores were shared ({} ranks on {}, or a rank's threads on fewer CPUs than they are): each rank's "
        "wait for a CPU is t_other, not computation, and the ranks ran slower than on cores of their own",
        c.crowded_ranks, c.crowded_host));
  if (c.loaded())
    lines.push_back(fmt::format(
        "caution: other load: up to {} of t_par on {} waited for a CPU (t_other); the machine was not dedicated",
        percent(c.other_load), c.other_load_node));
  if (c.unsplit > kUnsplitCaution)
    lines.push_back(fmt::format(
        "caution: on {}, {} of t_par came after runs of short MPI calls, of which one in 32 was timed: how much of "
        "it the counted calls waited is not known; it is booked as computation (context.short_calls)",
        c.unsplit_node, percent(c.unsplit)));
  for (const auto& missed : c.emulation_missed)
    lines.push_back(fmt::format("caution: {}'s emulated speed was {:.3g}, not the {:.3g} asked", missed.node,
                                missed.achieved, missed.asked));
  return lines;
}

std::vector<std::string> headline_lines(const RunAnalysis& analysis, const Headline& headline) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("t_par = {} (the longest node's elapsed time)", seconds(headline.t_par)));
  if (headline.measured_speedup)
    lines.push_back(fmt::format("measured speed-up = {}: t_seq_ref / t_par = {} / {}", ratio(*headline.measured_speedup),
                                seconds(*analysis.t_seq_ref), seconds(headline.t_par)));
  else
    lines.push_back(fmt::format(
        "measured speed-up: the run has no t_seq_ref; from the node times and speeds, SU = {} against {} "
        "(Clematis-Corana 1999, Eq 18)",
        ratio(headline.speedup_from_node_times), analysis.speeds.reference));
  lines.push_back(fmt::format(
      "efficiency = {} (read this first): the speed-up SU = {} over what these nodes could give with no loss, "
      "sum s_i = {} (Clematis-Corana 1999, Eq 25: eta_eff)",
      ratio(headline.efficiency), ratio(headline.speedup_from_node_times), ratio(headline.capacity)));
  return lines;
}

std::vector<EfficiencyGuide> efficiency_guide(const RunAnalysis& analysis) {
  const auto& h = analysis.heterogeneous;
  return {
      {"e", h.efficiency,
       "given these speeds, how good is the split of work? what the distribution allows, from shares and speeds "
       "alone (APGA 2004, Eq 7)"},
      {"efficiency_total", h.efficiency_total,
       "the same with the time beyond the longest computation counted (APGA 2004, Eq 15 over Eq 6)"},
      {"eta", analysis.energetic.efficiency,
       "of the time the nodes had for this program (other load left out), how much was useful? node by node as "
       "eta_i (Clematis-Corana 1999, Eq 22)"},
      {"parallel_efficiency", analysis.pop.parallel_efficiency,
       "POP's: load balance x communication efficiency, from the useful times alone, speeds ignored"},
  };
}

std::string loss_name(LossKind kind) {
  switch (kind) {
    case LossKind::idle_from_distribution:
    case LossKind::idle: return "idle";
    case LossKind::communication: return "communication";
    case LossKind::setup: return "set-up";
    case LossKind::other_load: return "other load";
  }
  return "?";
}

std::string what_if_name(WhatIf what_if) {
  switch (what_if) {
    case WhatIf::speed_proportional_split: return "APGA 2004, Proposition 1 with Eq 14's time kept";
    case WhatIf::loss_made_useful: return "Clematis-Corana 1999, Eq 22";
    case WhatIf::dedicated_nodes: return "Clematis-Corana 1999, Eq 25 with eta_u = 1";
  }
  return "?";
}

std::string loss_sentence(const RunAnalysis& analysis, const Headline& headline, const Loss& loss) {
  std::string out = fmt::format("{}{}: {} of the nodes' capacity, ", loss_name(loss.kind), on_nodes(loss),
                                percent(loss.fraction));
  const std::string from_to = fmt::format("from {} to", ratio(headline.efficiency));
  switch (loss.kind) {
    case LossKind::idle_from_distribution:
      out += fmt::format(
          "waiting for other nodes, and the split of work does not follow the node speeds (e = {}, 1 if it did); a "
          "speed-proportional split would take the efficiency {} about {} (t_par {} -> {:.4g} s)",
          ratio(analysis.heterogeneous.efficiency), from_to, ratio(loss.efficiency_after), seconds(analysis.t_par),
          loss.t_par_after.value_or(0.0));
      break;
    case LossKind::idle:
      if (analysis.conditions.cores_shared || analysis.conditions.loaded())
        out += fmt::format(
            "waiting for ranks that {} (t_other), the split following the speeds as far as a measured run tells (e = "
            "{}); were it all useful time, the efficiency would go {} at most {}",
            analysis.conditions.cores_shared ? "shared cores" : "other work held back",
            ratio(analysis.heterogeneous.efficiency), from_to, ratio(loss.efficiency_after));
      else
        out += fmt::format(
            "waiting at synchronisation, the split already following the speeds (e = {}); were it all useful time, "
            "the efficiency would go {} at most {}",
            ratio(analysis.heterogeneous.efficiency), from_to, ratio(loss.efficiency_after));
      break;
    case LossKind::communication:
      out += fmt::format(
          "time in communication (t_comm); sending less or overlapping it with computation would take the efficiency "
          "{} at most {}",
          from_to, ratio(loss.efficiency_after));
      break;
    case LossKind::setup:
      out += fmt::format("time setting the parallel run up (t_setup); removing it would take the efficiency {} at most {}",
                         from_to, ratio(loss.efficiency_after));
      break;
    case LossKind::other_load:
      out += fmt::format("taken by other work on the nodes (t_other); dedicated nodes would take the efficiency {} {}",
                         from_to, ratio(loss.efficiency_after));
      break;
  }
  return out + " (" + what_if_name(loss.what_if) + ")";
}

std::vector<std::string> diagnosis_lines(const RunAnalysis& analysis) {
  const auto losses = diagnose(analysis);
  if (losses.empty())
    return {fmt::format("no loss reaches {} of the nodes' capacity", percent(kSmallestLoss))};
  const auto top = headline(analysis);
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < losses.size(); ++i)
    lines.push_back(fmt::format("{}. {}", i + 1, loss_sentence(analysis, top, losses[i])));
  return lines;
}

}  // namespace hetscale::report
