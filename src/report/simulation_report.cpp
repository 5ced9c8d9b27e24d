#include "hetscale/report/simulation_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "hetscale/sim/farm_simulation.hpp"

namespace hetscale::report {
namespace {
std::string written_to(const std::string& out) { return out.empty() ? "" : fmt::format("; run record in {}", out); }
}  // namespace

std::string simulated_farm_summary(const Platform& platform, const std::string& platform_path,
                                   const sim::SimulatedFarmOptions& options, const sim::SimulatedFarmRun& run,
                                   const std::string& out) {
  const auto speeds = sim::simulated_client_speeds(platform, options);
  const double speedup = *run.record.t_seq_ref / run.record.t_par;
  const double ceiling =
      sim::earliest_finish_efficiency(speeds, options.tasks_per_generation, options.evaluation_seconds);
  return fmt::format(
      "simulated farm on {}: policy {}, {} clients, {} generations of {} tasks of {:g} s (speed 1)\n"
      "  t_par {:.6g} s, speed-up {:.4g} (t_seq_ref / t_par), efficiency {:.4f} (of sum v = {:.4g}); "
      "ceiling for indivisible tasks {:.4f}\n"
      "  {} messages, {} evaluations{}\n",
      platform.name.empty() ? platform_path : platform.name, to_string(options.policy), speeds.size(),
      options.generations, options.tasks_per_generation, options.evaluation_seconds, run.record.t_par, speedup,
      run.efficiency(), run.speed_sum, ceiling, run.messages, run.evaluations, written_to(out));
}

std::string replayed_tasks_summary(const Platform& platform, const std::string& platform_path,
                                   const sim::SimulatedFarmOptions& options, const TaskLogReplay& replay,
                                   const std::string& log_path, const sim::SimulatedFarmRun& run,
                                   const std::string& out) {
  const auto speeds = sim::simulated_client_speeds(platform, options);
  const double ceiling = sim::earliest_finish_makespan(speeds, replay.task_seconds);
  const double bound = sim::makespan_lower_bound(speeds, replay.task_seconds);
  const double t_par = run.record.t_par;
  return fmt::format(
      "replayed {} tasks of {} ({} in its list; each its time on its client x the client's speed{}) on {}: policy "
      "{}, {} clients\n"
      "  t_par {:.6g} s; the measured run's makespan {:.6g} s (first start to last end): simulated / measured "
      "{:.4f}\n"
      "  earliest-finish ceiling (the costs known, list order) {:.6g} s: t_par / ceiling {:.4f} (a policy may beat "
      "it)\n"
      "  lower bound (the work over every client's speed, or the longest task on the fastest) {:.6g} s: t_par / "
      "bound {:.4f}{}\n",
      replay.tasks.size(), log_path, replay.tasks_in_list,
      replay.speeds.empty() ? "; the log names no speeds: all 1" : "",
      platform.name.empty() ? platform_path : platform.name, to_string(options.policy), speeds.size(), t_par,
      replay.makespan, t_par / replay.makespan, ceiling, t_par / ceiling, bound, t_par / bound, written_to(out));
}

std::string replayed_trace_summary(const RunRecord& record, const sim::TraceFolder& trace,
                                   const std::string& platform_path, const std::string& out) {
  std::string text = fmt::format("replayed {} ranks of {} on {}: t_par {:.6g} s (SimGrid){}\n", record.nodes.size(),
                                 trace.folder, platform_path, record.t_par, written_to(out));
  if (trace.measured_seconds && *trace.measured_seconds > 0.0)
    text += fmt::format(
        "  the traced run took {:.6g} s from MPI_Init's return to MPI_Finalize: the replay is {:+.1f} % "
        "of it\n",
        *trace.measured_seconds, 100.0 * (record.t_par / *trace.measured_seconds - 1.0));
  text +=
      fmt::format("  {:<6} {:<20} {:>12} {:>12} {:>12}\n", "rank", "host", "computing s", "transfer s", "waiting s");
  for (std::size_t rank = 0; rank < record.nodes.size(); ++rank) {
    const auto& node = record.nodes[rank];
    text += fmt::format("  {:<6} {:<20} {:>12.6g} {:>12.6g} {:>12.6g}\n", rank, node.name, node.t_comp, node.t_comm,
                        node.t_idle);
  }
  if (!trace.not_replayed.empty()) {
    std::string calls;
    for (const auto& [function, count] : trace.not_replayed)
      calls += fmt::format("{}{} {:.0f}", calls.empty() ? "" : ", ", function, count);
    text += fmt::format("  not in the trace, so not replayed (their time is missing): {}\n", calls);
  }
  return text;
}

std::string replayed_scenarios_table(const std::vector<sim::ReplayScenario>& scenarios) {
  std::string text =
      "what if: the trace replayed on each (APGA 2004: speed-up s = the work on the fastest processor alone "
      "/ t_par, Eq 4; e = s / s_max, Eq 7)\n";
  std::size_t width = 8;
  for (const auto& scenario : scenarios) width = std::max(width, scenario.label.size());
  text += fmt::format("  {:<{}} {:>12} {:>9} {:>7} {:>7}\n", "platform", width, "t_par s", "speed-up", "s_max", "e");
  for (const auto& scenario : scenarios)
    text += fmt::format("  {:<{}} {:>12.6g} {:>9.3f} {:>7.3f} {:>7.4f}\n", scenario.label, width, scenario.t_par,
                        scenario.efficiency.speedup, scenario.efficiency.max_speedup, scenario.efficiency.efficiency);
  return text;
}

namespace {

std::vector<double> normalised(const std::vector<double>& weights) {
  double sum = 0.0;
  for (const double w : weights) sum += w;
  std::vector<double> shares;
  for (const double w : weights) shares.push_back(sum > 0.0 ? w / sum : 0.0);
  return shares;
}

std::string shares_text(const std::vector<double>& shares) {
  std::string text;
  for (const double share : shares) text += fmt::format("{}{:.4f}", text.empty() ? "" : ", ", share);
  return text;
}

}  // namespace

std::string rescaled_shares_note(const sim::TraceReplay& replay, const std::vector<double>& asked,
                                 const std::vector<double>& traced_split) {
  std::vector<double> traced_work;
  for (const auto& rank : replay.ranks) traced_work.push_back(rank.traced);
  const auto traced = normalised(traced_work);
  const std::string assumption =
      "this assumes a rank's work is proportional to its share (a stencil's cells, LAMMPS's atoms); its messages are "
      "as traced\n";
  if (traced_split.empty())
    return fmt::format(
        "each rank's computation rescaled from its traced share of the work ({}) to the share asked "
        "({}): {}",
        shares_text(traced), shares_text(normalised(asked)), assumption);
  const auto split = normalised(traced_split);
  std::string text = fmt::format(
      "each rank's computation rescaled from the split the trace ran with ({}) to the share "
      "asked ({}): {}",
      shares_text(split), shares_text(normalised(asked)), assumption);
  // A rank whose traced work is not its share of the split computed at
  // another rate than its stated speed while traced.
  const bool any_work = std::any_of(traced_work.begin(), traced_work.end(), [](double w) { return w > 0.0; });
  bool differs = false;
  for (std::size_t r = 0; any_work && r < traced.size() && r < split.size(); ++r)
    differs = differs || std::abs(traced[r] / split[r] - 1.0) > kSplitTolerance;
  if (differs)
    text += fmt::format(
        "the trace's work shares ({}) are not that split: its ranks computed at other rates than their "
        "stated speeds while traced (CPUs of different speeds, or other load), and the replay keeps "
        "each rank's rate\n",
        shares_text(traced));
  return text;
}

std::string replay_outcome_summary(const sim::ReplayOutcome& outcome, const std::string& out) {
  const bool rescaled = !outcome.shares.empty();
  // The traced run's own time compares only with the trace replayed as it is.
  sim::TraceFolder trace = outcome.trace;
  if (rescaled || outcome.record.nodes.size() != trace.files.size()) trace.measured_seconds.reset();
  return replayed_trace_summary(outcome.record, trace, outcome.platform, out) +
         (rescaled ? rescaled_shares_note(outcome.replay, outcome.shares, outcome.traced_shares) : "") +
         (outcome.scenarios.empty() ? "" : replayed_scenarios_table(outcome.scenarios));
}

}  // namespace hetscale::report
