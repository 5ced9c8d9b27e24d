#include "hetscale/report/table.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/core.h>

namespace hetscale::report {
namespace {

bool looks_numeric(const std::string& cell) {
  if (cell.empty()) return false;
  char* end = nullptr;
  std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size();
}

std::string num(double value, int decimals = 4) { return fmt::format("{:.{}f}", value, decimals); }
std::string num(const std::optional<double>& value, int decimals = 4) {
  return value ? num(*value, decimals) : std::string("-");
}
std::string seconds(double value) { return fmt::format("{:.6g}", value); }
std::string speed(const std::optional<double>& value) { return value ? fmt::format("{:.6g}", *value) : "-"; }

// Metric name, value, and where it comes from, one per line.
class MetricList {
 public:
  void add(std::string name, std::string value, std::string source) {
    table_.add_row({std::move(name), std::move(value), std::move(source)});
  }
  std::string render() const { return table_.render(); }

 private:
  TextTable table_{{"metric", "value", "from"}};
};

std::string heading(const std::string& title) { return "\n" + title + "\n"; }

}  // namespace

TextTable::TextTable(std::vector<std::string> header) : header_(std::move(header)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<std::size_t> width(header_.size());
  for (std::size_t c = 0; c < header_.size(); ++c) {
    width[c] = header_[c].size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  std::vector<bool> numeric(header_.size(), true);
  for (std::size_t c = 0; c < header_.size(); ++c)
    for (const auto& row : rows_) numeric[c] = numeric[c] && (looks_numeric(row[c]) || row[c] == "-");
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c) out += "  ";
      out += numeric[c] ? fmt::format("{:>{}}", cells[c], width[c]) : fmt::format("{:<{}}", cells[c], width[c]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header_);
  std::size_t total = 0;
  for (auto w : width) total += w;
  out += std::string(total + 2 * (width.size() - 1), '-') + "\n";
  for (const auto& row : rows_) out += line(row);
  return out;
}

std::string analysis_table(const RunAnalysis& a) {
  std::string out =
      fmt::format("run {}{}{}: {} nodes, t_par = {} s{}\n", a.run_source, a.label.empty() ? "" : " (" + a.label + ")",
                  a.platform_source.empty() ? "" : ", platform " + a.platform_source, a.nodes.size(), seconds(a.t_par),
                  a.t_seq_ref ? fmt::format(", t_seq_ref = {} s", seconds(*a.t_seq_ref)) : "");
  out +=
      fmt::format("speeds: v_i {}; s_i {}; reference: {}\n", a.speeds.v_source, a.speeds.s_source, a.speeds.reference);

  out += heading("time breakdown per node (s)");
  TextTable times({"node", "work", "t_comp", "t_comm", "t_setup", "t_idle", "t_other", "v declared", "v measured",
                   "s_i", "p_i", "v_i/sum v"});
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const auto& n = a.nodes[i];
    const auto& s = a.speeds.nodes[i];
    times.add_row({n.name, fmt::format("{:g}", n.work), seconds(n.t_comp), seconds(n.t_comm), seconds(n.t_setup),
                   seconds(n.t_idle), seconds(n.t_other), speed(s.declared), speed(s.measured), speed(s.s),
                   num(a.heterogeneous.shares[i]), num(a.heterogeneous.normalized_speeds[i])});
  }
  out += times.render();

  const auto& h = a.heterogeneous;
  out += heading("seed 000: heterogeneous speed-up and efficiency");
  MetricList hetero;
  hetero.add("speedup s", num(h.speedup), "Eq 5");
  hetero.add("max_speedup s_max", num(h.max_speedup), "Eq 6");
  hetero.add("efficiency e", num(h.efficiency), "Eq 7");
  hetero.add("n_eff", num(h.effective_processors), "Eq 8");
  hetero.add("d_conf", num(h.diversity), "Eq 10");
  hetero.add("t_n (s)", seconds(h.t_n), "max t_comp");
  hetero.add("t_idle (s)", seconds(h.t_idle), "Eq 14: t_par - t_n");
  hetero.add("speedup_total s_tot", num(h.speedup_total), "Eq 15");
  hetero.add("efficiency_total", num(h.efficiency_total), "s_tot / s_max");
  hetero.add("d_idle", num(h.idle_diversity), "Eq 16");
  hetero.add("even split bound", num(h.even_split_bound), "Eq 17: n min v / max v");
  out += hetero.render();

  out += heading("seed 003: node efficiencies (fractions of available time)");
  TextTable nodes(
      {"node", "s_i", "R_i", "eta_i", "sigma_i", "eta_eff_i", "rho_i", "delta_i", "gamma_i", "W_i/W", "W_i/W_i^id"});
  for (const auto& n : a.energetic_nodes)
    nodes.add_row({n.name, num(n.s), num(n.overhead_ratio), num(n.eta), num(n.sigma), num(n.eta_eff), num(n.rho),
                   num(n.delta), num(n.gamma), num(n.work_share), num(n.work_vs_ideal)});
  out += nodes.render();

  const auto& e = a.energetic;
  out += heading("seed 003: system");
  MetricList system;
  system.add("SU", num(e.speedup), "Eq 18");
  system.add("SU_id", num(e.ideal_speedup), "Eq 21");
  system.add("eta", num(e.efficiency), "Eq 22");
  system.add("eta_u", num(e.utilization), "Eq 24");
  system.add("eta_eff", num(e.effective_efficiency), "Eq 25");
  system.add("rho (communication)", num(e.rho), "Eq 22 with rho_i");
  system.add("delta (set-up)", num(e.delta), "Eq 22 with delta_i");
  system.add("gamma (idle)", num(e.gamma), "Eq 22 with gamma_i");
  system.add("P_deg", num(e.parallelism_degree), "Eq 27");
  out += system.render();

  out += heading("POP factors (useful time = t_comp)");
  MetricList pop;
  pop.add("load_balance", num(a.pop.load_balance), "mean / max useful time");
  pop.add("communication_efficiency", num(a.pop.communication_efficiency), "max useful time / t_par");
  pop.add("parallel_efficiency", num(a.pop.parallel_efficiency), "product");
  out += pop.render();
  return out;
}

std::string distribution_table(const DistributionMetrics& m) {
  std::string out = fmt::format("seed 000: K = {:g} operations on {} processors\n", m.work, m.speeds.size());
  TextTable nodes({"i", "v_i", "p_i", "T_i", "optimal p_i"});
  for (std::size_t i = 0; i < m.speeds.size(); ++i)
    nodes.add_row({fmt::format("{}", i + 1), fmt::format("{:g}", m.speeds[i]), num(m.shares[i]),
                   fmt::format("{:.6g}", m.node_times[i]), num(m.optimal_shares[i])});
  out += nodes.render() + "\n";
  MetricList metrics;
  metrics.add("speedup s", num(m.speedup), "Eq 5");
  metrics.add("max_speedup s_max", num(m.max_speedup), "Eq 6");
  metrics.add("efficiency e", num(m.efficiency), "Eq 7");
  metrics.add("n_eff", num(m.effective_processors), "Eq 8");
  metrics.add("d_conf", num(m.diversity), "Eq 10");
  metrics.add("T_n", fmt::format("{:.6g}", m.parallel_elapsed), "Eq 2");
  metrics.add("T", fmt::format("{:.6g}", m.total_computer_time), "Eq 3");
  return out + metrics.render();
}

std::string worsening_table(const WorseningMetrics& m) {
  std::string out = fmt::format("seed 003, Section 3: {} dedicated nodes, R = {:g} (R_i = s_i R)\n", m.speeds.size(),
                                m.reference_ratio);
  TextTable nodes({"i", "s_i", "eta_i", "W_i/W_i^id"});
  for (std::size_t i = 0; i < m.speeds.size(); ++i)
    nodes.add_row({fmt::format("{}", i + 1), fmt::format("{:g}", m.speeds[i]), num(m.node_efficiency[i]),
                   num(m.work_vs_ideal[i])});
  out += nodes.render() + "\n";
  MetricList metrics;
  metrics.add("S", num(m.total_speed), "Eq 3");
  metrics.add("H", num(m.heterogeneity), "std dev of s_i");
  metrics.add("eta_hom", num(m.homogeneous_efficiency), "Eq 40");
  metrics.add("eta", num(m.efficiency), "Eq 22 with Eq 38");
  metrics.add("ewf", num(m.worsening_factor), "Eq 41");
  return out + metrics.render();
}

std::string farm_what_if_table(const sim::FarmWhatIf& m) {
  std::string out = fmt::format(
      "seed 000, Sections 5-6: {} clients, {} tasks per generation of {:g} s on speed 1, {} generations, "
      "one-way latency {:g} s (simulated)\n",
      m.speeds.size(), m.tasks_per_generation, m.evaluation_seconds, m.generations, m.latency_seconds);
  MetricList bounds;
  bounds.add("max_speedup s_max", num(m.max_speedup), "Eq 6");
  bounds.add("d_conf", num(m.diversity), "Eq 10");
  bounds.add("even split e bound", num(m.even_split_efficiency), "Eq 17 / s_max");
  bounds.add("ceiling e", num(m.ceiling_efficiency), "earliest-finish schedule, true speeds");
  out += bounds.render() + "\n";
  TextTable policies({"policy", "t_par (s)", "s_tot", "e = s_tot / s_max", "e / ceiling", "lost tasks"});
  for (const auto& p : m.policies)
    policies.add_row({p.policy, seconds(p.t_par), num(p.speedup_total), num(p.efficiency_total),
                      num(p.efficiency_total / m.ceiling_efficiency), fmt::format("{}", p.lost_tasks)});
  return out + policies.render();
}

std::string serial_fit_table(const SerialFit& fit) {
  const auto& line = fit.single_processor;
  std::string out = fmt::format(
      "seed 002: tau_1 = a + b N fitted to {} single-processor runs of {}\n  a = {:.6g} s, b = {:.6g} s per unit, "
      "R^2 = {:.6f}\n\n",
      line.points, fit.source, line.intercept, line.slope, line.r_squared);
  if (fit.rows.empty()) return out + "no multi-processor rows to evaluate\n";
  TextTable rows({"procs", "size", "tau_N (s)", "tau_1 fit (s)", "f", "S_N", "S_N^th", "eps_N", "Karp-Flatt e"});
  for (const auto& r : fit.rows)
    rows.add_row({fmt::format("{}", r.procs), fmt::format("{:g}", r.size), seconds(r.seconds),
                  seconds(r.single_processor_time), num(r.serial_fraction), num(r.speedup), num(r.theoretical_speedup),
                  num(r.parallelization_efficiency), num(r.karp_flatt)});
  return out + rows.render();
}

std::string paper_checks_table(const std::vector<PaperSection>& sections) {
  std::string out;
  std::size_t total = 0, agreeing = 0;
  for (const auto& section : sections) {
    out += heading(section.title);
    out += "  computed with: " + section.method + "\n";
    TextTable table({"where", "quantity", "paper", "hetscale", "agrees"});
    for (const auto& check : section.checks) {
      const bool large = check.paper >= 1e5;
      table.add_row({check.where, check.quantity,
                     large ? fmt::format("{:.{}g}", check.paper, check.decimals) : num(check.paper, check.decimals),
                     large ? fmt::format("{:.0f}", check.computed) : num(check.computed, check.decimals + 2),
                     check.agrees() ? "yes" : "NO"});
      ++total;
      agreeing += check.agrees() ? 1 : 0;
    }
    out += table.render();
  }
  out += fmt::format("\n{} of {} values printed in the papers reproduced\n", agreeing, total);
  return out;
}

}  // namespace hetscale::report
