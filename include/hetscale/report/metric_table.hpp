#pragma once
// One description per metric: its name in the terminal table, its key in the
// JSON documents, how it is printed, and where it comes from. The terminal
// tables (table.hpp) and the JSON documents (json_report.hpp) are both written
// from these lists, so a metric added here appears in both, in the same order.
#include <optional>
#include <string>
#include <vector>

#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/analysis/what_if.hpp"
#include "hetscale/sim/farm_what_if.hpp"

namespace hetscale::report {

enum class MetricFormat {
  ratio,    // 4 decimals
  seconds,  // 6 significant digits; the table's name gains " (s)"
  time,     // 6 significant digits, in the model's time units (K operations at speed v)
};

struct Metric {
  std::string name;             // in the terminal table: "speedup s"
  std::string key;              // in JSON: "speedup"
  std::optional<double> value;  // none: not defined here (printed "-" and null)
  MetricFormat format = MetricFormat::ratio;
  std::string source;  // paper and equation, or how it is computed: "Eq 5", "s_tot / s_max"
};

// APGA 2004 of a run: speed-up, efficiency, effective processors, diversity, idle time.
std::vector<Metric> heterogeneous_metrics(const HeterogeneousMetrics& metrics);
// Clematis-Corana 1999 of a run, for the system and for one node.
std::vector<Metric> energetic_system_metrics(const EnergeticSystem& system);
std::vector<Metric> energetic_node_metrics(const EnergeticNode& node);
// POP's factors of a run.
std::vector<Metric> pop_metrics(const PopMetrics& pop);
// APGA 2004 of a distribution of K operations (`hetscale model hetero`).
std::vector<Metric> distribution_metrics(const DistributionMetrics& metrics);
// Clematis-Corana 1999, Section 3 (`hetscale model ewf`).
std::vector<Metric> worsening_metrics(const WorseningMetrics& metrics);
// APGA 2004's bounds on a farm (`hetscale model farm`).
std::vector<Metric> farm_bound_metrics(const sim::FarmWhatIf& what_if);

// A metric's value as the terminal table prints it ("-" when it has none).
std::string metric_text(const Metric& metric);
// A metric's name as the terminal table prints it (seconds gain " (s)").
std::string metric_heading(const Metric& metric);

}  // namespace hetscale::report
