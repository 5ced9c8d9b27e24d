#include "hetscale/report/json_report.hpp"

#include <nlohmann/json.hpp>

#include "hetscale/report/diagnosis_text.hpp"
#include "hetscale/report/metric_table.hpp"

namespace hetscale::report {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json context(ordered_json inputs) {
  return {{"tool", "hetscale"}, {"version", HETSCALE_VERSION}, {"inputs", std::move(inputs)}};
}

ordered_json document(std::string_view schema, ordered_json inputs) {
  ordered_json out;
  out["schema"] = schema;
  out["context"] = context(std::move(inputs));
  return out;
}

template <typename T>
ordered_json optional_value(const std::optional<T>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

std::string dump(const ordered_json& out) { return out.dump(2) + "\n"; }

// Each metric under its key, after what `out` holds already.
ordered_json with_metrics(ordered_json out, const std::vector<Metric>& metrics) {
  for (const auto& metric : metrics) out[metric.key] = optional_value(metric.value);
  return out;
}

// What was measured, and the efficiency to read first (analysis/diagnosis.hpp).
ordered_json headline_json(const RunAnalysis& analysis) {
  const auto top = headline(analysis);
  return {{"t_par", top.t_par},
          {"measured_speedup", optional_value(top.measured_speedup)},
          {"SU", top.speedup_from_node_times},
          {"capacity", top.capacity},
          {"efficiency", top.efficiency},
          {"efficiency_is", "eta_eff"}};
}

// The largest losses, ranked, each with the what-if behind its gain figure.
ordered_json diagnosis_json(const RunAnalysis& analysis) {
  const auto top = headline(analysis);
  ordered_json losses = ordered_json::array();
  for (const auto& loss : diagnose(analysis))
    losses.push_back({{"loss", loss_name(loss.kind)},
                      {"fraction", loss.fraction},
                      {"nodes", loss.nodes},
                      {"efficiency_after", loss.efficiency_after},
                      {"t_par_after", optional_value(loss.t_par_after)},
                      {"what_if", what_if_name(loss.what_if)},
                      {"text", loss_sentence(analysis, top, loss)}});
  return losses;
}

}  // namespace

std::string times_json(const RunRecord& run) {
  auto out = document("hetscale.analysis/1", ordered_json{{"run", run.source}});
  out["label"] = run.label;
  out["t_par"] = run.t_par;
  out["no_computation"] = true;
  out["said"] = "no computation measured: every node's t_comp is 0, so the run has no speeds, shares or efficiencies";
  if (const auto cautions = caution_lines(run_conditions(run)); !cautions.empty()) out["cautions"] = cautions;
  ordered_json nodes = ordered_json::array();
  for (const auto& node : run.nodes)
    nodes.push_back({{"name", node.name},
                     {"t_comm", node.t_comm},
                     {"t_setup", node.t_setup},
                     {"t_idle", node.t_idle},
                     {"t_other", node.t_other},
                     {"t_blocked", node.t_blocked}});
  out["nodes"] = nodes;
  auto profile = run.context.mpi_functions();
  if (profile.size() > listed_mpi_functions) profile.resize(listed_mpi_functions);
  if (!profile.empty()) out["mpi_functions"] = ordered_json::parse(mpi_profile_json(profile));
  return dump(out);
}

std::string analysis_json(const RunAnalysis& analysis) {
  ordered_json inputs{{"run", analysis.run_source}};
  if (!analysis.platform_source.empty()) inputs["platform"] = analysis.platform_source;
  auto out = document("hetscale.analysis/1", std::move(inputs));
  out["label"] = analysis.label;
  out["t_par"] = analysis.t_par;
  out["t_seq_ref"] = optional_value(analysis.t_seq_ref);
  out["headline"] = headline_json(analysis);

  const auto& speeds = analysis.speeds;
  ordered_json speed_nodes = ordered_json::array();
  for (const auto& node : speeds.nodes)
    speed_nodes.push_back({{"name", node.name},
                           {"declared", optional_value(node.declared)},
                           {"measured", optional_value(node.measured)},
                           {"v", node.v},
                           {"s", node.s}});
  out["speeds"] = {{"v_source", speeds.v_source},
                   {"s_source", speeds.s_source},
                   {"reference", speeds.reference},
                   {"v_reference", optional_value(speeds.v_reference)},
                   {"nodes", speed_nodes}};
  if (analysis.distribution)
    out["distribution"] = {{"name", analysis.distribution->name},
                           {"model", analysis.distribution->model_path()},
                           {"shares", analysis.distribution->shares}};

  out["heterogeneous"] = with_metrics(
      {{"shares", analysis.heterogeneous.shares}, {"normalized_speeds", analysis.heterogeneous.normalized_speeds}},
      heterogeneous_metrics(analysis.heterogeneous));

  ordered_json nodes = ordered_json::array();
  for (std::size_t i = 0; i < analysis.energetic_nodes.size(); ++i) {
    const auto& node = analysis.energetic_nodes[i];
    const auto& times = analysis.nodes[i];
    nodes.push_back(with_metrics({{"name", node.name},
                                  {"t_comp", times.t_comp},
                                  {"t_comm", times.t_comm},
                                  {"t_setup", times.t_setup},
                                  {"t_idle", times.t_idle},
                                  {"t_other", times.t_other},
                                  {"t_blocked", times.t_blocked},
                                  {"t_unaccounted", times.t_unaccounted}},
                                 energetic_node_metrics(node)));
  }
  out["energetic"] = with_metrics(ordered_json::object(), energetic_system_metrics(analysis.energetic));
  out["energetic"]["nodes"] = nodes;
  out["pop"] = with_metrics(ordered_json::object(), pop_metrics(analysis.pop));
  if (!analysis.openmp.empty()) {
    auto& openmp = out["openmp"] = ordered_json::array();
    for (const auto& rank : analysis.openmp)
      openmp.push_back({{"name", rank.node},
                        {"team", rank.team},
                        {"useful", rank.times.useful},
                        {"mpi", rank.times.mpi},
                        {"serialization", rank.times.serialization},
                        {"imbalance", rank.times.imbalance},
                        {"scheduling", rank.times.scheduling},
                        {"other", rank.other},
                        {"serialization_efficiency", rank.factors.serialization_efficiency},
                        {"load_balance", rank.factors.load_balance},
                        {"scheduling_efficiency", rank.factors.scheduling_efficiency},
                        {"parallel_efficiency", rank.factors.parallel_efficiency}});
  }
  if (!analysis.openmp_threads.empty()) {
    auto& ranks = out["openmp_threads"] = ordered_json::array();
    for (const auto& rank : analysis.openmp_threads) {
      ordered_json threads = ordered_json::array();
      for (std::size_t k = 0; k < rank.numbers.size(); ++k)
        threads.push_back({{"thread", rank.numbers[k]},
                           {"speed", rank.speeds[k]},
                           {"work", rank.work[k]},
                           {"held", rank.held[k]},
                           {"share", rank.shares[k]},
                           {"proposed_share", rank.proposed_shares[k]}});
      ranks.push_back({{"name", rank.node},
                       {"threads", threads},
                       {"efficiency", rank.efficiency},
                       {"busiest", rank.busiest},
                       {"balanced", rank.balanced},
                       {"in_regions", rank.in_regions},
                       {"predicted_in_regions", rank.predicted_in_regions}});
    }
  }
  if (!analysis.offload.empty()) {
    auto& ranks = out["offload"] = ordered_json::array();
    for (const auto& rank : analysis.offload) {
      ordered_json devices = ordered_json::array();
      for (std::size_t d = 0; d < rank.devices.size(); ++d) {
        const auto& device = rank.devices[d];
        devices.push_back({{"device", device.number},
                           {"kernels", device.kernels},
                           {"kernel_s", device.kernel_seconds},
                           {"copies_to", device.copies_to},
                           {"bytes_to", device.bytes_to},
                           {"copies_from", device.copies_from},
                           {"bytes_from", device.bytes_from},
                           {"copy_s", device.copy_seconds},
                           {"idle_s", rank.idle[d]}});
      }
      ordered_json written = {{"name", rank.node},
                              {"runtime_s", rank.runtime},
                              {"runtime_calls", rank.runtime_calls},
                              {"devices", devices}};
      if (rank.factors)
        written["device_factors"] = {{"load_balance", rank.factors->load_balance},
                                     {"communication_efficiency", rank.factors->communication_efficiency},
                                     {"orchestration_efficiency", rank.factors->orchestration_efficiency},
                                     {"parallel_efficiency", rank.factors->parallel_efficiency}};
      if (rank.offload_efficiency) written["device_offload_efficiency"] = *rank.offload_efficiency;
      ranks.push_back(written);
    }
  }
  if (!analysis.host_device.empty()) {
    auto& splits = out["host_and_device"] = ordered_json::array();
    for (const auto& split : analysis.host_device)
      splits.push_back({{"name", split.node},
                        {"host_busy_s", split.host_busy},
                        {"device_busy_s", split.device_busy},
                        {"host_units", split.host_units},
                        {"device_units", split.device_units},
                        {"host_idle_s", split.host_idle},
                        {"device_idle_s", split.device_idle},
                        {"split_host_units", split.split_host},
                        {"split_device_units", split.split_device},
                        {"split_makespan_s", split.split_makespan},
                        {"gain", split.gain()}});
  }
  if (!analysis.mpi_functions.empty())
    out["mpi_functions"] = ordered_json::parse(mpi_profile_json(analysis.mpi_functions));
  if (!analysis.regions.empty()) out["regions"] = analysis.regions;
  if (const auto cautions = caution_lines(analysis.conditions); !cautions.empty()) out["cautions"] = cautions;
  out["diagnosis"] = diagnosis_json(analysis);
  return dump(out);
}

std::string distribution_json(const DistributionMetrics& m) {
  auto out = document("hetscale.model-hetero/1", ordered_json::object());
  out["speeds"] = m.speeds;
  out["shares"] = m.shares;
  out["work"] = m.work;
  out = with_metrics(std::move(out), distribution_metrics(m));
  out["node_times"] = m.node_times;
  out["optimal_shares"] = m.optimal_shares;
  return dump(out);
}

std::string farm_what_if_json(const sim::FarmWhatIf& m) {
  auto out = document("hetscale.model-farm/1", ordered_json::object());
  out["speeds"] = m.speeds;
  out["tasks_per_generation"] = m.tasks_per_generation;
  out["generations"] = m.generations;
  out["eval_time_s"] = m.evaluation_seconds;
  out["latency_s"] = m.latency_seconds;
  out = with_metrics(std::move(out), farm_bound_metrics(m));
  out["policies"] = ordered_json::array();
  for (const auto& p : m.policies)
    out["policies"].push_back({{"policy", p.policy},
                               {"t_par", p.t_par},
                               {"speedup_total", p.speedup_total},
                               {"efficiency_total", p.efficiency_total},
                               {"lost_tasks", p.lost_tasks}});
  return dump(out);
}

std::string worsening_json(const WorseningMetrics& m) {
  auto out = document("hetscale.model-ewf/1", ordered_json::object());
  out["speeds"] = m.speeds;
  out["R"] = m.reference_ratio;
  out = with_metrics(std::move(out), worsening_metrics(m));
  ordered_json nodes = ordered_json::array();
  for (std::size_t i = 0; i < m.speeds.size(); ++i)
    nodes.push_back({{"s", m.speeds[i]}, {"eta", m.node_efficiency[i]}, {"work_vs_ideal", m.work_vs_ideal[i]}});
  out["nodes"] = nodes;
  return dump(out);
}

std::string serial_fit_json(const SerialFit& fit) {
  auto out = document("hetscale.fit-serial/1", {{"timings", fit.source}});
  out["serial_time"] = serial_time_name(fit.how);
  out["fit"] = {{"a", fit.single_processor.intercept},
                {"b", fit.single_processor.slope},
                {"r_squared", fit.single_processor.r_squared},
                {"points", fit.single_processor.points}};
  ordered_json rows = ordered_json::array();
  for (const auto& row : fit.rows)
    rows.push_back({{"procs", row.procs},
                    {"size", row.size},
                    {"seconds", row.seconds},
                    {"tau_1", row.single_processor_time},
                    {"f", optional_value(row.serial_fraction)},
                    {"S_N", row.speedup},
                    {"S_N_th", optional_value(row.theoretical_speedup)},
                    {"eps_N", optional_value(row.parallelization_efficiency)},
                    {"karp_flatt", row.karp_flatt}});
  out["rows"] = rows;
  return dump(out);
}

std::string paper_checks_json(const std::vector<PaperSection>& sections) {
  auto out = document("hetscale.paper-checks/1", ordered_json::object());
  ordered_json list = ordered_json::array();
  std::size_t total = 0, agreeing = 0;
  for (const auto& section : sections) {
    ordered_json checks = ordered_json::array();
    for (const auto& check : section.checks) {
      checks.push_back({{"where", check.where},
                        {"quantity", check.quantity},
                        {"paper", check.paper},
                        {"hetscale", check.computed},
                        {"tolerance", check.tolerance},
                        {"agrees", check.agrees()}});
      ++total;
      agreeing += check.agrees() ? 1 : 0;
    }
    list.push_back({{"title", section.title}, {"method", section.method}, {"checks", checks}});
  }
  out["sections"] = list;
  out["checks"] = total;
  out["agreeing"] = agreeing;
  return dump(out);
}

}  // namespace hetscale::report

namespace hetscale::report {

std::string combined_json(const std::vector<std::pair<std::string, std::string>>& named_documents) {
  nlohmann::ordered_json out;
  for (const auto& [name, text] : named_documents) out[name] = nlohmann::ordered_json::parse(text);
  return dump(out);
}

}  // namespace hetscale::report

namespace hetscale::report {

std::string report_contents_json(const Report& report, const std::vector<std::string>& inputs, const std::string& out,
                                 const std::string& figures_dir) {
  nlohmann::ordered_json document;
  document["schema"] = "hetscale.report/1";
  document["context"] = {{"tool", "hetscale"}, {"version", HETSCALE_VERSION}, {"inputs", inputs}};
  document["out"] = out;
  document["figures_dir"] = figures_dir.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(figures_dir);
  document["title"] = report.title;
  document["sections"] = nlohmann::ordered_json::array();
  for (const auto& section : report.sections) {
    nlohmann::ordered_json tables = nlohmann::ordered_json::array(), figures = nlohmann::ordered_json::array();
    for (const auto& table : section.tables)
      tables.push_back({{"caption", table.caption}, {"header", table.header}, {"rows", table.rows}});
    for (const auto& drawn : section.figures)
      figures.push_back({{"id", drawn.figure.id}, {"title", drawn.figure.title}, {"caption", drawn.figure.caption}});
    document["sections"].push_back({{"title", section.title},
                                    {"source", section.source},
                                    {"first_lines", section.first_lines},
                                    {"first_tables", section.first_tables},
                                    {"first_figures", section.first_figures},
                                    {"folded", section.folded},
                                    {"paragraphs", section.paragraphs},
                                    {"tables", tables},
                                    {"figures", figures}});
  }
  return dump(document);
}

std::string simulate_platform_json(const std::string& platform_path, const Platform& platform, const std::string& xml,
                                   const std::string& xml_file, const std::string& hostfile) {
  auto out = document("hetscale.simulate-platform/1", {{"platform", platform_path}});
  out["hosts"] = ordered_json::array();
  for (const auto& node : platform.nodes) out["hosts"].push_back(node.name);
  out["xml_file"] = xml_file.empty() ? ordered_json(nullptr) : ordered_json(xml_file);
  out["hostfile"] = hostfile.empty() ? ordered_json(nullptr) : ordered_json(hostfile);
  out["xml"] = xml;
  return dump(out);
}

}  // namespace hetscale::report
