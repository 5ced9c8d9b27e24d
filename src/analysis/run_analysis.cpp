#include "hetscale/analysis/run_analysis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"
#include "hetscale/model/energetic.hpp"
#include "hetscale/model/heterogeneous.hpp"
#include "hetscale/model/pop.hpp"
#include "hetscale/record/measured_conditions.hpp"
#include "hetscale/record/measured_regions.hpp"

namespace hetscale {
namespace {

std::string node_field(const RunRecord& run, std::size_t i) {
  return fmt::format("nodes[{}] ({})", i, run.nodes[i].name);
}

std::vector<double> column(const std::vector<NodeRecord>& nodes, double NodeRecord::*member) {
  std::vector<double> values;
  values.reserve(nodes.size());
  for (const auto& node : nodes) values.push_back(node.*member);
  return values;
}

// The measured speed of every node, or an error naming the first node that has none.
std::vector<double> all_measured(const RunRecord& run, const SpeedSummary& speeds, const std::string& why) {
  std::vector<double> measured;
  for (std::size_t i = 0; i < speeds.nodes.size(); ++i) {
    if (!speeds.nodes[i].measured)
      throw InputError(
          run.source, node_field(run, i),
          fmt::format("work and t_comp must both be > 0 (with a finite ratio) to measure the node's speed ({})", why));
    measured.push_back(*speeds.nodes[i].measured);
  }
  return measured;
}

SpeedSummary resolve_speeds(const RunRecord& run, const Platform* platform) {
  SpeedSummary speeds;
  std::vector<double> platform_relative;
  if (platform) {
    if (auto relative = platform->relative_speeds()) platform_relative = std::move(*relative);
  }
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    const auto& node = run.nodes[i];
    NodeSpeeds entry;
    entry.name = node.name;
    if (node.work > 0.0 && node.t_comp > 0.0) {
      const double measured = node.work / node.t_comp;
      if (std::isfinite(measured)) entry.measured = measured;
    }
    if (platform) {
      const PlatformNode* declared = platform->find(node.name);
      if (!declared)
        throw InputError(
            platform->source, fmt::format("node '{}'", node.name),
            fmt::format("is in run {} but not in the platform; every run node must be listed", run.source));
      entry.declared = declared->speed;
      if (!platform_relative.empty())
        entry.s = platform_relative[static_cast<std::size_t>(declared - platform->nodes.data())];
    }
    speeds.nodes.push_back(entry);
  }

  // APGA 2004 v_i: declared if a platform is given, else measured.
  if (platform) {
    speeds.v_source = "platform";
    for (auto& node : speeds.nodes) node.v = *node.declared;
  } else {
    speeds.v_source = "measured (work / t_comp)";
    const auto measured = all_measured(run, speeds, "no platform gives it");
    for (std::size_t i = 0; i < measured.size(); ++i) speeds.nodes[i].v = measured[i];
  }

  // Clematis-Corana 1999 s_i: relative to a fixed reference machine.
  if (!platform_relative.empty()) {
    speeds.reference = platform->reference_name.empty() ? "the platform's reference" : platform->reference_name;
    speeds.s_source = platform->speed_kind == SpeedKind::relative
                          ? "platform speeds (relative to the reference)"
                          : "platform marked speeds / the reference's marked speed";
  } else if (run.t_seq_ref) {
    const double v_reference = run.total_work() / *run.t_seq_ref;
    speeds.v_reference = v_reference;
    speeds.reference = "the machine of t_seq_ref";
    speeds.s_source = "measured: (work / t_comp) / (total work / t_seq_ref)";
    const auto measured = all_measured(run, speeds, "s_i = v_i / v_ref");
    for (std::size_t i = 0; i < measured.size(); ++i) speeds.nodes[i].s = measured[i] / v_reference;
  } else {
    double fastest = 0.0;
    for (const auto& node : speeds.nodes) fastest = std::max(fastest, node.v);
    speeds.reference = "the fastest node";
    speeds.s_source = "v_i / max v (no t_seq_ref in the run and no reference in the platform)";
    for (auto& node : speeds.nodes) node.s = node.v / fastest;
  }
  return speeds;
}

HeterogeneousMetrics heterogeneous_metrics(const RunRecord& run, const std::vector<double>& v) {
  HeterogeneousMetrics metrics;
  metrics.shares = model::normalized_shares(column(run.nodes, &NodeRecord::work));
  metrics.normalized_speeds = model::normalized_shares(v);
  metrics.speedup = model::heterogeneous_speedup(v, metrics.shares);
  metrics.max_speedup = model::max_speedup(v);
  metrics.efficiency = model::heterogeneous_efficiency(v, metrics.shares);
  metrics.effective_processors = model::effective_processors(v, metrics.shares);
  metrics.diversity = model::diversity_of_configuration(v);
  for (const auto& node : run.nodes) metrics.t_n = std::max(metrics.t_n, node.t_comp);
  metrics.t_beyond_computation = model::idle_time(run.t_par, metrics.t_n);
  metrics.speedup_total = model::total_speedup(metrics.speedup, metrics.t_beyond_computation, metrics.t_n);
  metrics.efficiency_total = metrics.speedup_total / metrics.max_speedup;
  metrics.idle_diversity = model::idle_diversity(metrics.t_beyond_computation, metrics.t_n);
  metrics.even_split_bound = model::even_split_speedup_bound(v);
  return metrics;
}

EnergeticNode energetic_node(const NodeRecord& node, double s) {
  EnergeticNode result;
  result.name = node.name;
  result.s = s;
  // Time blocked outside communication (sleeping, file I/O: measured runs) is
  // lost as idle time is: no work is done in it.
  const double idle = node.t_idle + node.t_blocked;
  const double overhead = model::overhead_time(node.t_comm, node.t_setup, idle);
  const double elapsed = model::node_elapsed_time(node.t_comp, overhead, node.t_other);
  if (node.t_comp > 0.0) {
    result.overhead_ratio = model::overhead_ratio(overhead, node.t_comp);
    result.eta = model::local_efficiency(*result.overhead_ratio);
  }
  result.sigma = model::load_factor(node.t_other, elapsed);
  result.eta_eff = model::effective_node_efficiency(result.eta, result.sigma);
  if (elapsed > node.t_other) {
    result.rho = model::lost_work_fraction(node.t_comm, elapsed, node.t_other);
    result.delta = model::lost_work_fraction(node.t_setup, elapsed, node.t_other);
    result.gamma = model::lost_work_fraction(idle, elapsed, node.t_other);
  }
  return result;
}

std::vector<double> field_of(const std::vector<EnergeticNode>& nodes, double EnergeticNode::*member) {
  std::vector<double> values;
  for (const auto& node : nodes) values.push_back(node.*member);
  return values;
}

EnergeticSystem energetic_system(const RunRecord& run, std::vector<EnergeticNode>& nodes) {
  const auto s = field_of(nodes, &EnergeticNode::s);
  const auto sigma = field_of(nodes, &EnergeticNode::sigma);
  const auto eta = field_of(nodes, &EnergeticNode::eta);
  EnergeticSystem system;
  system.speedup = model::speedup_from_node_times(s, column(run.nodes, &NodeRecord::t_comp), run.t_par);
  system.ideal_speedup = model::ideal_speedup(s, sigma);
  system.efficiency = model::global_efficiency(s, sigma, eta);
  system.utilization = model::utilization(s, sigma);
  system.effective_efficiency = model::effective_global_efficiency(system.efficiency, system.utilization);
  system.rho = model::global_efficiency(s, sigma, field_of(nodes, &EnergeticNode::rho));
  system.delta = model::global_efficiency(s, sigma, field_of(nodes, &EnergeticNode::delta));
  system.gamma = model::global_efficiency(s, sigma, field_of(nodes, &EnergeticNode::gamma));
  system.parallelism_degree = model::parallelism_degree(nodes.size(), system.effective_efficiency);

  const auto shares = model::work_shares(s, sigma, eta);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    nodes[i].work_share = shares[i];
    nodes[i].work_vs_ideal = model::work_vs_ideal(sigma[i], eta[i], system.effective_efficiency);
  }
  return system;
}

void require_computation(const RunRecord& run) {
  if (run.has_computation()) return;
  throw InputError(run.source, "nodes", "every t_comp is 0; the analysis needs the computation times");
}

// Rank i's node name in a measured run's per-rank parts.
std::string rank_name(const RunRecord& run, std::size_t i) {
  return i < run.nodes.size() ? run.nodes[i].name : fmt::format("rank-{}", i);
}

// Rank i's item of a per-rank list of times (0 past its end; a sum rounded below 0 is 0).
double at(const std::vector<double>& list, std::size_t i) { return i < list.size() ? std::max(0.0, list[i]) : 0.0; }

// Each rank's OpenMP team and its factors, then all ranks summed (TALP's
// process and overall rows); ranks whose team computed nothing are left out.
std::vector<OpenMpRank> openmp_ranks(const RunRecord& run) {
  std::vector<OpenMpRank> ranks;
  if (!run.context.measured || !run.context.measured->openmp) return ranks;
  const auto& measured = *run.context.measured->openmp;
  OpenMpRank all;
  all.node = "all ranks";
  for (std::size_t i = 0; i < measured.team.size(); ++i) {
    OpenMpRank rank;
    rank.node = rank_name(run, i);
    rank.team = at(measured.team, i);
    rank.other = at(measured.other, i);
    rank.times = {at(measured.useful, i), at(measured.mpi, i), at(measured.imbalance, i), at(measured.scheduling, i),
                  at(measured.serialization, i)};
    if (rank.team < 1.0 || !(rank.times.useful + rank.times.mpi > 0.0)) continue;
    rank.factors = model::openmp_factors(rank.times);
    all.team += rank.team;
    all.other += rank.other;
    all.times = {all.times.useful + rank.times.useful, all.times.mpi + rank.times.mpi,
                 all.times.imbalance + rank.times.imbalance, all.times.scheduling + rank.times.scheduling,
                 all.times.serialization + rank.times.serialization};
    ranks.push_back(rank);
  }
  if (ranks.empty()) return ranks;
  all.factors = model::openmp_factors(all.times);
  ranks.push_back(all);
  return ranks;
}

std::vector<OpenMpThreads> openmp_threads(const RunRecord& run) {
  std::vector<OpenMpThreads> ranks;
  if (!run.context.measured || !run.context.measured->openmp) return ranks;
  const auto& measured = *run.context.measured->openmp;
  for (std::size_t i = 0; i < measured.threads.size(); ++i) {
    OpenMpThreads rank;
    rank.node = rank_name(run, i);
    double total = 0.0;
    for (const auto& thread : measured.threads[i]) {
      const double work = std::max(0.0, thread.work), held = std::max(0.0, thread.held);
      if (!(work > 0.0)) continue;
      rank.numbers.push_back(thread.number);
      rank.work.push_back(work);
      rank.held.push_back(held);
      rank.speeds.push_back(work / (work + held));
      total += work;
    }
    if (rank.numbers.size() < 2) continue;
    for (const double work : rank.work) rank.shares.push_back(work / total);
    rank.proposed_shares = model::speed_proportional_shares(rank.speeds);
    rank.efficiency = model::heterogeneous_efficiency(rank.speeds, rank.shares);
    rank.busiest = model::parallel_elapsed_time(total, rank.speeds, rank.shares);
    rank.balanced = model::parallel_elapsed_time(total, rank.speeds, rank.proposed_shares);
    rank.in_regions = at(measured.in_regions, i);
    rank.predicted_in_regions = std::max(0.0, rank.in_regions - (rank.busiest - rank.balanced));
    ranks.push_back(std::move(rank));
  }
  return ranks;
}

std::vector<OffloadRank> offload_ranks(const RunRecord& run) {
  std::vector<OffloadRank> ranks;
  if (!run.context.measured || !run.context.measured->offload) return ranks;
  const auto& measured = *run.context.measured->offload;
  for (std::size_t i = 0; i < measured.devices.size(); ++i) {
    OffloadRank rank;
    rank.node = rank_name(run, i);
    rank.rank = i;
    rank.runtime = at(measured.runtime_seconds, i);
    rank.runtime_calls = at(measured.runtime_calls, i);
    rank.devices = measured.devices[i];
    if (rank.devices.empty() && rank.runtime_calls == 0.0) continue;
    model::DeviceTimes times;
    times.elapsed = run.t_par;
    for (const auto& device : rank.devices) {
      const double useful = std::max(0.0, device.kernel_seconds);
      const double active = std::min(times.elapsed, useful + std::max(0.0, device.copy_seconds));
      times.useful.push_back(std::min(useful, active));
      times.active.push_back(active);
      rank.idle.push_back(times.elapsed - active);
    }
    if (!times.useful.empty() && times.elapsed > 0.0 &&
        *std::max_element(times.active.begin(), times.active.end()) > 0.0)
      rank.factors = model::device_factors(times);
    // The host's time: its computation (t_comp, of the threads that call MPI) outside the runtime, and
    // its time in it. Only the runtime's time on those threads is inside t_comp (a record without the
    // split: all of it).
    const double waited = at(measured.runtime_waited, i);
    const double in_runtime = std::max(0.0, rank.runtime - waited);
    const double in_computation = measured.runtime_on_mpi_threads.empty()
                                      ? in_runtime
                                      : std::max(0.0, at(measured.runtime_on_mpi_threads, i) - waited);
    rank.host_busy = i < run.nodes.size() ? std::max(0.0, run.nodes[i].t_comp - in_computation) : 0.0;
    const double host = rank.host_busy;
    if (host + in_runtime > 0.0) rank.offload_efficiency = model::device_offload_efficiency(host, 0.0, in_runtime);
    ranks.push_back(std::move(rank));
  }
  return ranks;
}

}  // namespace

bool RunConditions::loaded() const { return other_load > kOtherLoadCaution; }

RunConditions run_conditions(const RunRecord& run) {
  RunConditions conditions;
  const auto measured = read_measured_conditions(run.context);
  conditions.measured = measured.has_sharing;
  conditions.cores_shared = measured.cores_shared;
  for (const auto& [host, ranks] : measured.ranks_per_host) {
    if (ranks <= conditions.crowded_ranks) continue;
    conditions.crowded_host = host;
    conditions.crowded_ranks = ranks;
  }
  for (const auto& node : run.nodes) {
    const double share = run.t_par > 0.0 ? node.t_other / run.t_par : 0.0;
    if (share <= conditions.other_load) continue;
    conditions.other_load = share;
    conditions.other_load_node = node.name;
  }
  conditions.emulated = measured.emulated_asked;
  const auto& asked = measured.emulated_asked;
  const auto& achieved = measured.emulated_achieved;
  for (std::size_t i = 0; i < std::min({asked.size(), achieved.size(), run.nodes.size()}); ++i)
    if (asked[i] > 0.0 && std::abs(achieved[i] / asked[i] - 1.0) > kEmulationTolerance)
      conditions.emulation_missed.push_back({run.nodes[i].name, asked[i], achieved[i]});
  for (std::size_t i = 0; i < std::min(measured.unsplit_seconds.size(), run.nodes.size()); ++i) {
    const double share = run.t_par > 0.0 ? measured.unsplit_seconds[i] / run.t_par : 0.0;
    if (share <= conditions.unsplit) continue;
    conditions.unsplit = share;
    conditions.unsplit_node = run.nodes[i].name;
  }
  return conditions;
}

RunAnalysis analyze_run(const RunRecord& run, const Platform* platform) {
  require_computation(run);
  RunAnalysis analysis;
  analysis.run_source = run.source;
  analysis.platform_source = platform ? platform->source : "";
  analysis.label = run.label;
  analysis.t_par = run.t_par;
  analysis.t_seq_ref = run.t_seq_ref;
  analysis.nodes = run.nodes;
  analysis.speeds = resolve_speeds(run, platform);

  analysis.heterogeneous = heterogeneous_metrics(run, [&] {
    std::vector<double> v;
    for (const auto& node : analysis.speeds.nodes) v.push_back(node.v);
    return v;
  }());

  for (std::size_t i = 0; i < run.nodes.size(); ++i)
    analysis.energetic_nodes.push_back(energetic_node(run.nodes[i], analysis.speeds.nodes[i].s));
  analysis.energetic = energetic_system(run, analysis.energetic_nodes);

  const auto useful = column(run.nodes, &NodeRecord::t_comp);
  analysis.pop.load_balance = model::load_balance(useful);
  analysis.pop.communication_efficiency = model::communication_efficiency(useful, run.t_par);
  analysis.pop.parallel_efficiency =
      model::parallel_efficiency(analysis.pop.load_balance, analysis.pop.communication_efficiency);
  analysis.openmp = openmp_ranks(run);
  analysis.openmp_threads = openmp_threads(run);
  analysis.offload = offload_ranks(run);
  analysis.mpi_functions = run.context.mpi_functions();
  if (analysis.mpi_functions.size() > listed_mpi_functions) analysis.mpi_functions.resize(listed_mpi_functions);
  analysis.regions = region_names(run);
  analysis.distribution = run.context.distribution();
  analysis.conditions = run_conditions(run);
  return analysis;
}

}  // namespace hetscale
