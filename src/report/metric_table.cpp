#include "hetscale/report/metric_table.hpp"

#include <fmt/core.h>

namespace hetscale::report {
namespace {

constexpr auto ratio = MetricFormat::ratio;
constexpr auto seconds = MetricFormat::seconds;
constexpr auto time = MetricFormat::time;

}  // namespace

std::vector<Metric> heterogeneous_metrics(const HeterogeneousMetrics& h) {
  return {
      {"speedup s the split allows", "speedup", h.speedup, ratio, "Eq 5"},
      {"max_speedup s_max", "max_speedup", h.max_speedup, ratio, "Eq 6"},
      {"efficiency e the split allows", "efficiency", h.efficiency, ratio, "Eq 7"},
      {"n_eff", "n_eff", h.effective_processors, ratio, "Eq 8"},
      {"d_conf", "d_conf", h.diversity, ratio, "Eq 10"},
      {"t_n", "t_n", h.t_n, seconds, "max t_comp"},
      {"t_beyond_comp", "t_beyond_comp", h.t_beyond_computation, seconds, "Eq 14 T_id: t_par - t_n"},
      {"speedup_total s_tot", "speedup_total", h.speedup_total, ratio, "Eq 15"},
      {"efficiency_total", "efficiency_total", h.efficiency_total, ratio, "s_tot / s_max"},
      {"d_idle", "d_idle", h.idle_diversity, ratio, "Eq 16"},
      {"even split bound", "even_split_bound", h.even_split_bound, ratio, "Eq 17: n min v / max v"},
  };
}

std::vector<Metric> energetic_system_metrics(const EnergeticSystem& e) {
  return {
      {"SU", "SU", e.speedup, ratio, "Eq 18"},
      {"SU_id", "SU_id", e.ideal_speedup, ratio, "Eq 21"},
      {"eta", "eta", e.efficiency, ratio, "Eq 22"},
      {"eta_u", "eta_u", e.utilization, ratio, "Eq 24"},
      {"eta_eff", "eta_eff", e.effective_efficiency, ratio, "Eq 25"},
      {"rho (communication)", "rho", e.rho, ratio, "Eq 22 with rho_i"},
      {"delta (set-up)", "delta", e.delta, ratio, "Eq 22 with delta_i"},
      {"gamma (idle)", "gamma", e.gamma, ratio, "Eq 22 with gamma_i"},
      {"P_deg", "P_deg", e.parallelism_degree, ratio, "Eq 27"},
  };
}

std::vector<Metric> energetic_node_metrics(const EnergeticNode& n) {
  return {
      {"s_i", "s", n.s, ratio, "Eq 2"},
      {"R_i", "R", n.overhead_ratio, ratio, "Eq 10"},
      {"eta_i", "eta", n.eta, ratio, "Eq 11"},
      {"sigma_i", "sigma", n.sigma, ratio, "Eq 12"},
      {"eta_eff_i", "eta_eff", n.eta_eff, ratio, "Eq 14"},
      {"rho_i", "rho", n.rho, ratio, "Eq 15"},
      {"delta_i", "delta", n.delta, ratio, "Eq 15"},
      {"gamma_i", "gamma", n.gamma, ratio, "Eq 15"},
      {"W_i/W", "work_share", n.work_share, ratio, "Eq 29"},
      {"W_i/W_i^id", "work_vs_ideal", n.work_vs_ideal, ratio, "Eq 31"},
  };
}

std::vector<Metric> pop_metrics(const PopMetrics& pop) {
  return {
      {"load_balance", "load_balance", pop.load_balance, ratio, "mean / max useful time"},
      {"communication_efficiency", "communication_efficiency", pop.communication_efficiency, ratio,
       "max useful time / t_par"},
      {"parallel_efficiency", "parallel_efficiency", pop.parallel_efficiency, ratio, "product"},
  };
}

std::vector<Metric> distribution_metrics(const DistributionMetrics& m) {
  return {
      {"speedup s", "speedup", m.speedup, ratio, "Eq 5"},
      {"max_speedup s_max", "max_speedup", m.max_speedup, ratio, "Eq 6"},
      {"efficiency e", "efficiency", m.efficiency, ratio, "Eq 7"},
      {"n_eff", "n_eff", m.effective_processors, ratio, "Eq 8"},
      {"d_conf", "d_conf", m.diversity, ratio, "Eq 10"},
      {"T_n", "T_n", m.parallel_elapsed, time, "Eq 2"},
      {"T", "T", m.total_computer_time, time, "Eq 3"},
  };
}

std::vector<Metric> worsening_metrics(const WorseningMetrics& m) {
  return {
      {"S", "S", m.total_speed, ratio, "Eq 3"},
      {"H", "H", m.heterogeneity, ratio, "std dev of s_i"},
      {"eta_hom", "eta_hom", m.homogeneous_efficiency, ratio, "Eq 40"},
      {"eta", "eta", m.efficiency, ratio, "Eq 22 with Eq 38"},
      {"ewf", "ewf", m.worsening_factor, ratio, "Eq 41"},
  };
}

std::vector<Metric> farm_bound_metrics(const sim::FarmWhatIf& m) {
  return {
      {"max_speedup s_max", "max_speedup", m.max_speedup, ratio, "Eq 6"},
      {"d_conf", "d_conf", m.diversity, ratio, "Eq 10"},
      {"even split e bound", "even_split_efficiency_bound", m.even_split_efficiency, ratio, "Eq 17 / s_max"},
      {"ceiling e", "ceiling_efficiency", m.ceiling_efficiency, ratio, "earliest-finish schedule, true speeds"},
  };
}

std::string metric_text(const Metric& metric) {
  if (!metric.value) return "-";
  return metric.format == MetricFormat::ratio ? fmt::format("{:.4f}", *metric.value)
                                              : fmt::format("{:.6g}", *metric.value);
}

std::string metric_heading(const Metric& metric) {
  return metric.format == MetricFormat::seconds ? metric.name + " (s)" : metric.name;
}

}  // namespace hetscale::report
