#include "hetscale/report/table.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "hetscale/record/mpi_profile.hpp"
#include "hetscale/report/diagnosis_text.hpp"
#include "hetscale/report/inside_node.hpp"
#include "hetscale/report/metric_table.hpp"

namespace hetscale::report {
namespace {

bool looks_numeric(const std::string& cell) {
  if (cell.empty()) return false;
  char* end = nullptr;
  std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size();
}

std::string num(double value, int decimals = 4) { return fmt::format("{:.{}f}", value, decimals); }
std::string seconds(double value) { return fmt::format("{:.6g}", value); }
std::string speed(const std::optional<double>& value) { return value ? fmt::format("{:.6g}", *value) : "-"; }

// Metric name, value, and where it comes from, one per line.
std::string metric_list(const std::vector<Metric>& metrics) {
  TextTable table({"metric", "value", "from"});
  for (const auto& metric : metrics) table.add_row({metric_heading(metric), metric_text(metric), metric.source});
  return table.render();
}

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

namespace {

std::string mpi_functions_text(const std::vector<MpiFunctionProfile>& profile) {
  if (profile.empty()) return "";
  std::string out = heading(fmt::format(
      "MPI functions, most time first (the {} that took most; seconds summed over ranks)", listed_mpi_functions));
  TextTable functions({"function", "calls", "seconds", "max over ranks", "mean over ranks", "bytes"});
  for (const auto& f : profile)
    functions.add_row({f.function, fmt::format("{:g}", f.calls), seconds(f.seconds), seconds(f.seconds_max),
                       seconds(f.seconds_mean), fmt::format("{:g}", f.bytes)});
  return out + functions.render();
}

}  // namespace

std::string times_table(const RunRecord& run) {
  std::string out = fmt::format("run {}{}: {} nodes, t_par = {} s\n", run.source,
                                run.label.empty() ? "" : " (" + run.label + ")", run.nodes.size(), seconds(run.t_par));
  for (const auto& line : caution_lines(run_conditions(run))) out += line + "\n";
  out += "no computation measured: every node's t_comp is 0, so the run has no speeds, shares or efficiencies; "
         "its times and MPI functions are what was measured\n";
  out += heading("time breakdown per node (s)");
  TextTable times({"node", "t_comm", "t_setup", "t_idle", "t_other", "t_blocked"});
  for (const auto& n : run.nodes)
    times.add_row({n.name, seconds(n.t_comm), seconds(n.t_setup), seconds(n.t_idle), seconds(n.t_other),
                   seconds(n.t_blocked)});
  out += times.render();
  auto profile = run.context.mpi_functions();
  if (profile.size() > listed_mpi_functions) profile.resize(listed_mpi_functions);
  return out + mpi_functions_text(profile);
}

std::string analysis_table(const RunAnalysis& a) {
  std::string out =
      fmt::format("run {}{}{}: {} nodes, t_par = {} s{}\n", a.run_source, a.label.empty() ? "" : " (" + a.label + ")",
                  a.platform_source.empty() ? "" : ", platform " + a.platform_source, a.nodes.size(), seconds(a.t_par),
                  a.t_seq_ref ? fmt::format(", t_seq_ref = {} s", seconds(*a.t_seq_ref)) : "");
  for (const auto& line : caution_lines(a.conditions)) out += line + "\n";
  out +=
      fmt::format("speeds: v_i {}; s_i {}; reference: {}\n", a.speeds.v_source, a.speeds.s_source, a.speeds.reference);
  if (a.distribution) out += "work shared by " + a.distribution->describe() + "\n";

  out += heading("what was measured");
  for (const auto& line : headline_lines(a, headline(a))) out += "  " + line + "\n";
  out += heading("the other efficiencies, each answering one question");
  TextTable guide({"efficiency", "value", "answers"});
  for (const auto& entry : efficiency_guide(a)) guide.add_row({entry.name, num(entry.value), entry.answers});
  out += guide.render();

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

  out += heading("APGA 2004: heterogeneous speed-up and efficiency");
  out += metric_list(heterogeneous_metrics(a.heterogeneous));

  out += heading("Clematis-Corana 1999: node efficiencies (fractions of available time)");
  std::vector<std::string> header{"node"};
  for (const auto& metric : energetic_node_metrics(EnergeticNode{})) header.push_back(metric_heading(metric));
  TextTable nodes(std::move(header));
  for (const auto& n : a.energetic_nodes) {
    std::vector<std::string> row{n.name};
    for (const auto& metric : energetic_node_metrics(n)) row.push_back(metric_text(metric));
    nodes.add_row(std::move(row));
  }
  out += nodes.render();

  out += heading("Clematis-Corana 1999: system");
  out += metric_list(energetic_system_metrics(a.energetic));

  out += heading("POP factors (useful time = t_comp)");
  out += metric_list(pop_metrics(a.pop));
  // Inside the ranks: their OpenMP teams and threads, their devices.
  for (const auto& [table, lines] : inside_node_tables(a)) {
    out += heading(table.caption);
    TextTable text(table.header);
    for (const auto& row : table.rows) text.add_row(row);
    out += text.render();
    for (const auto& line : lines) out += line + "\n";
  }

  out += mpi_functions_text(a.mpi_functions);
  if (!a.regions.empty())
    out += fmt::format("\nregions: {} (analyse one with --region NAME)\n", fmt::join(a.regions, ", "));

  out += heading("diagnosis: the largest losses, ranked");
  for (const auto& line : diagnosis_lines(a)) out += line + "\n";
  return out;
}

std::string distribution_table(const DistributionMetrics& m) {
  std::string out = fmt::format("APGA 2004: K = {:g} operations on {} processors\n", m.work, m.speeds.size());
  TextTable nodes({"i", "v_i", "p_i", "T_i", "optimal p_i"});
  for (std::size_t i = 0; i < m.speeds.size(); ++i)
    nodes.add_row({fmt::format("{}", i + 1), fmt::format("{:g}", m.speeds[i]), num(m.shares[i]),
                   fmt::format("{:.6g}", m.node_times[i]), num(m.optimal_shares[i])});
  out += nodes.render() + "\n";
  return out + metric_list(distribution_metrics(m));
}

std::string worsening_table(const WorseningMetrics& m) {
  std::string out = fmt::format("Clematis-Corana 1999, Section 3: {} dedicated nodes, R = {:g} (R_i = s_i R)\n",
                                m.speeds.size(), m.reference_ratio);
  TextTable nodes({"i", "s_i", "eta_i", "W_i/W_i^id"});
  for (std::size_t i = 0; i < m.speeds.size(); ++i)
    nodes.add_row({fmt::format("{}", i + 1), fmt::format("{:g}", m.speeds[i]), num(m.node_efficiency[i]),
                   num(m.work_vs_ideal[i])});
  out += nodes.render() + "\n";
  return out + metric_list(worsening_metrics(m));
}

std::string farm_what_if_table(const sim::FarmWhatIf& m) {
  std::string out = fmt::format(
      "APGA 2004, Sections 5-6: {} clients, {} tasks per generation of {:g} s on speed 1, {} generations, "
      "one-way latency {:g} s (simulated)\n",
      m.speeds.size(), m.tasks_per_generation, m.evaluation_seconds, m.generations, m.latency_seconds);
  out += metric_list(farm_bound_metrics(m)) + "\n";
  TextTable policies({"policy", "t_par (s)", "s_tot", "e = s_tot / s_max", "e / ceiling", "lost tasks"});
  for (const auto& p : m.policies)
    policies.add_row({p.policy, seconds(p.t_par), num(p.speedup_total), num(p.efficiency_total),
                      num(p.efficiency_total / m.ceiling_efficiency), fmt::format("{}", p.lost_tasks)});
  return out + policies.render();
}

std::string serial_fit_table(const SerialFit& fit) {
  const auto& line = fit.single_processor;
  std::string out;
  switch (fit.how) {
    case SerialTime::line:
      out = fmt::format(
          "Majumdar 1999: tau_1 = a + b N fitted to {} single-processor runs of {}\n  a = {:.6g} s, b = {:.6g} s per "
          "unit, R^2 = {:.6f}\n\n",
          line.points, fit.source, line.intercept, line.slope, line.r_squared);
      break;
    case SerialTime::through_origin:
      out = fmt::format(
          "Majumdar 1999: tau_1 = b N fitted through the origin (a = 0: no serial part, so f = 0 and S_N^th = N) to "
          "{} single-processor runs of {}\n  b = {:.6g} s per unit, R^2 = {:.6f}\n\n",
          line.points, fit.source, line.slope, line.r_squared);
      break;
    case SerialTime::measured:
      out = fmt::format(
          "Majumdar 1999: tau_1 measured at each size (the single-processor runs of {}); f, S_N^th and eps_N need a "
          "fitted serial time a and are not computed; Karp-Flatt e is the serial fraction these speed-ups imply\n\n",
          fit.source);
      break;
  }
  if (fit.rows.empty()) return out + "no multi-processor rows to evaluate\n";
  const auto maybe = [](const std::optional<double>& value) { return value ? num(*value) : std::string("-"); };
  TextTable rows({"procs", "size", "tau_N (s)",
                  fit.how == SerialTime::measured ? "tau_1 measured (s)" : "tau_1 fit (s)", "f", "S_N", "S_N^th",
                  "eps_N", "Karp-Flatt e"});
  for (const auto& r : fit.rows)
    rows.add_row({fmt::format("{}", r.procs), fmt::format("{:g}", r.size), seconds(r.seconds),
                  seconds(r.single_processor_time), maybe(r.serial_fraction), num(r.speedup),
                  maybe(r.theoretical_speedup), maybe(r.parallelization_efficiency), num(r.karp_flatt)});
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
