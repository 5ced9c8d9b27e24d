#include "hetscale/report/report_builder.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/io/file_kinds.hpp"
#include "hetscale/io/input_error.hpp"
#include "io/strict_json.hpp"
#include "hetscale/model/heterogeneous.hpp"
#include "hetscale/record/comm_profile.hpp"
#include "hetscale/record/farm_context.hpp"
#include "hetscale/record/measured_regions.hpp"
#include "hetscale/record/optimize_record.hpp"
#include "hetscale/record/step_costs.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/report/inside_node.hpp"
#include "hetscale/report/diagnosis_text.hpp"
#include "hetscale/report/report_figures.hpp"
#include "hetscale/platform/speed_model.hpp"

namespace hetscale::report {
namespace {

using nlohmann::json;

std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

// A figure id from free text (figure.hpp's slug), never empty.
std::string id_from(std::string_view text) {
  const std::string id = slug(text);
  return id.empty() ? "figure" : id;
}

DrawnFigure undrawn(Figure figure) { return DrawnFigure{std::move(figure), {}}; }

template <class T>
std::optional<T> field(const json& object, const char* name) {
  const auto found = object.find(name);
  if (found == object.end() || found->is_null()) return std::nullopt;
  try {
    return found->get<T>();
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

// --- runs -------------------------------------------------------------------------
struct ReadRun {
  std::string path;
  RunRecord record;
  const std::optional<FarmContext>& farm() const { return record.context.farm; }
};

// What a run's context says ran and where, for its first screen.
std::vector<std::string> what_ran(const RunContext& context) {
  std::vector<std::string> said;
  const FarmContext* farm = context.farm ? &*context.farm : nullptr;
  const KernelContext* kernel = context.kernel ? &*context.kernel : nullptr;
  const auto say = [&said](const char* key, const std::optional<std::string>& value) {
    if (value) said.push_back(fmt::format("{} {}", key, *value));
  };
  const auto either = [&](std::optional<std::string> FarmContext::*in_farm,
                          std::optional<std::string> KernelContext::*in_kernel) {
    return farm ? farm->*in_farm : kernel ? kernel->*in_kernel : std::nullopt;
  };
  say("objective", farm ? farm->objective : std::nullopt);
  say("kernel", kernel ? std::optional(kernel->kernel) : std::nullopt);
  say("host", either(&FarmContext::host, &KernelContext::host));
  say("mpi_library", either(&FarmContext::mpi_library, &KernelContext::mpi_library));
  say("simulator", either(&FarmContext::simulator, &KernelContext::simulator));
  say("platform", farm ? farm->platform : std::nullopt);
  if (farm) said.push_back(fmt::format("clients {}", farm->clients));
  return said;
}

std::string run_name(const ReadRun& run) { return run.record.label.empty() ? stem(run.path) : run.record.label; }

// What a measured run's first screen says it ran on: the emulated speeds and
// shared cores, in its heading too, so that two runs of one program differ.
std::string emulated_speeds_of(const RunAnalysis& analysis) {
  std::string speeds;
  for (const double v : analysis.conditions.emulated) speeds += (speeds.empty() ? "" : ", ") + fmt::format("{:g}", v);
  return speeds.empty() ? "" : "emulated speeds " + speeds;
}
std::string conditions_of(const RunAnalysis& analysis) {
  std::string text = emulated_speeds_of(analysis);
  if (analysis.conditions.cores_shared) text += (text.empty() ? "" : ", ") + std::string("cores shared");
  return text;
}

constexpr std::size_t mpi_functions_first = 5;  // on a run's first screen

// A run: its first screen says what was measured, the efficiency to read,
// the largest loss and what removing it gains, with the MPI functions that
// took most and where each node's time went; every metric follows, folded.
ReportSection run_section(const ReadRun& run, std::size_t index) {
  const auto analysis = analyze_run(run.record);
  const auto top = headline(analysis);
  ReportSection section;
  const std::string name = run_name(run);
  const auto tool = run.record.context.tool();
  const auto policy = run.farm() && !run.farm()->policy.empty() ? std::optional(run.farm()->policy) : std::nullopt;
  const std::string conditions = conditions_of(analysis);
  section.title = "Run: " + name + (tool ? " (" + *tool + (policy ? ", " + *policy : "") + ")" : "") +
                  (conditions.empty() ? "" : ", " + conditions);
  section.source = run.path;

  auto said = what_ran(run.record.context);
  const std::size_t nodes = run.record.nodes.size();
  said.push_back(fmt::format("{} node{}, t_par = {:.6g} s", nodes, nodes == 1 ? "" : "s", run.record.t_par));
  if (run.record.t_seq_ref) said.push_back(fmt::format("t_seq_ref = {:.6g} s", *run.record.t_seq_ref));
  std::string measured;
  for (const auto& part : said) measured += (measured.empty() ? "" : "; ") + part;
  section.first_lines.push_back("Measured: " + measured + (conditions.empty() ? "" : "; " + conditions) +
                                ". Speeds: " + analysis.speeds.v_source + ".");
  for (const auto& caution : caution_lines(analysis.conditions)) section.first_lines.push_back(caution + ".");
  section.first_lines.push_back(fmt::format(
      "Read first: efficiency {:.4f}, the speed-up {:.4g} over the {:.4g} these nodes could give with no loss "
      "(eta_eff; the other efficiencies are below).",
      top.efficiency, top.speedup_from_node_times, top.capacity));
  const auto losses = diagnose(analysis);
  section.first_lines.push_back(losses.empty() ? "No loss over 1 % of the nodes' capacity."
                                               : "Largest loss: " + loss_sentence(analysis, top, losses.front()) + ".");
  if (!analysis.mpi_functions.empty()) {
    section.tables.push_back(mpi_functions_table(analysis, mpi_functions_first));
    section.first_tables = 1;
  }
  const std::string id = fmt::format("run{}-{}", index + 1, id_from(name));
  section.figures.push_back(undrawn(time_breakdown_figure(analysis, run.record, id + "-time")));
  section.first_figures = 1;

  section.folded = "Every metric: the other efficiencies, per node, " +
                   std::string(analysis.mpi_functions.size() > mpi_functions_first ? "every MPI function, " : "") +
                   (analysis.regions.empty() ? "" : "regions, ") + "the losses ranked, work shares";
  if (analysis.distribution) section.paragraphs.push_back("Work shared by " + analysis.distribution->describe() + ".");
  for (const auto& headline_line : headline_lines(analysis, top)) section.paragraphs.push_back(headline_line + ".");
  section.tables.push_back(efficiency_guide_table(analysis));
  section.tables.push_back(metrics_table(analysis));
  section.tables.push_back(node_table(analysis));
  if (analysis.mpi_functions.size() > mpi_functions_first) section.tables.push_back(mpi_functions_table(analysis));
  if (!analysis.regions.empty()) {
    std::vector<NamedRegion> regions;
    for (const auto& region : analysis.regions) regions.push_back({region, region_record(run.record, region)});
    section.tables.push_back(regions_table(regions, run.record.t_par));
  }
  section.paragraphs.push_back("Diagnosis, the largest losses ranked:");
  for (const auto& loss_line : diagnosis_lines(analysis)) section.paragraphs.push_back(loss_line + ".");
  section.figures.push_back(undrawn(work_share_figure(analysis, id + "-shares")));
  // Inside the ranks: OpenMP teams and threads, devices.
  for (auto& [table, lines] : inside_node_tables(analysis)) {
    section.tables.push_back(table);
    for (auto& line : lines) section.paragraphs.push_back(line + ".");
  }
  for (auto& figure : inside_node_figures(analysis, id)) section.figures.push_back(undrawn(std::move(figure)));
  return section;
}

// What makes farm runs one series over client counts: the tool, policy,
// objective, evaluation time, the GA's size, and the distinct client speeds
// (all 1 for a homogeneous series).
struct FarmSetting {
  std::string tool, policy, objective, workload, speeds;
  double eval_time = 0.0, time_scale = 1.0;
  auto key() const { return std::tie(tool, policy, objective, workload, speeds, eval_time, time_scale); }
  bool operator<(const FarmSetting& other) const { return key() < other.key(); }
};

std::optional<FarmSetting> farm_setting(const ReadRun& run) {
  if (!run.farm()) return std::nullopt;
  const FarmContext& farm = *run.farm();
  FarmSetting setting;
  setting.tool = farm.tool;
  setting.policy = farm.policy;
  setting.objective = farm.objective.value_or("");
  setting.eval_time = farm.eval_time_s.value_or(0.0);
  setting.time_scale = farm.time_scale.value_or(1.0);
  setting.workload = fmt::format("{}x{}", static_cast<double>(farm.tasks_each_generation().value_or(0)),
                                 static_cast<double>(farm.generation_count().value_or(0)));
  auto speeds = farm.speeds;
  if (speeds.empty()) speeds = {1.0};  // the farm's default: every client of speed 1
  std::sort(speeds.begin(), speeds.end());
  speeds.erase(std::unique(speeds.begin(), speeds.end()), speeds.end());
  for (const double speed : speeds) setting.speeds += fmt::format("{} ", speed);
  return setting;
}

// Farm runs of one setting over several client counts: APGA 2004 Fig 3. The
// runs that make a series are added to `in_series`.
std::vector<ReportSection> client_count_sections(const std::vector<ReadRun>& runs,
                                                 std::set<const ReadRun*>& in_series) {
  std::map<FarmSetting, std::vector<const ReadRun*>> groups;
  for (const auto& run : runs)
    if (const auto setting = farm_setting(run)) groups[*setting].push_back(&run);
  std::vector<ReportSection> sections;
  for (auto& [setting, group] : groups) {
    std::sort(group.begin(), group.end(),
              [](const ReadRun* a, const ReadRun* b) { return a->farm()->clients < b->farm()->clients; });
    // The serial reference: a run with no clients (the server evaluates), else each run's nominal t_seq_ref.
    std::optional<double> serial;
    std::vector<ClientCountPoint> points;
    for (const auto* run : group) {
      const double clients = static_cast<double>(run->farm()->clients);
      if (clients == 0) {
        if (!serial) serial = run->record.t_par;  // one run per count: the first
        continue;
      }
      if (!points.empty() && points.back().clients == clients) continue;  // one run per count: the first
      auto speeds = run->farm()->speeds;
      if (speeds.empty()) speeds.assign(static_cast<std::size_t>(clients), 1.0);  // the farm's default
      const double reference = serial ? *serial : run->record.t_seq_ref.value_or(0.0);
      if (reference <= 0.0 || speeds.empty()) continue;
      points.push_back(
          {clients, reference / run->record.t_par, model::max_speedup(speeds), run->record.t_par, std::nullopt});
    }
    if (points.size() < 2) continue;
    const auto& [tool, policy, objective, workload, speeds, eval_time, time_scale] = setting.key();
    for (const auto* run : group) in_series.insert(run);
    ReportSection section;
    section.title = fmt::format("Speed-up over clients: {}, policy {}", tool, policy);
    for (const auto* run : group) section.source += (section.source.empty() ? "" : " ") + run->path;
    section.paragraphs.push_back(fmt::format(
        "{} runs{}{}; speed-up = {} / t_par.", group.size(), objective.empty() ? "" : ", objective " + objective,
        eval_time > 0 ? fmt::format(", {} s evaluations x {}", eval_time, time_scale) : "",
        serial ? "the run with no clients (the server alone)" : "t_seq_ref (the nominal work)"));
    HtmlTable table{"Speed-up against clients", {"clients", "t_par (s)", "speed-up", "s_max", "s / s_max"}, {}};
    if (serial) table.rows.push_back({"0 (the server alone)", fmt::format("{:.4g}", *serial), "1", "-", "-"});
    for (const auto& point : points)
      table.rows.push_back({fmt::format("{}", point.clients), fmt::format("{:.4g}", point.t_par),
                            fmt::format("{:.3f}", point.speedup), fmt::format("{:.3f}", point.max_speedup),
                            fmt::format("{:.3f}", point.speedup / point.max_speedup)});
    section.tables.push_back(std::move(table));
    const std::string id = fmt::format("clients{}-{}", sections.size() + 1, id_from(tool + "-" + policy));
    const std::string title = fmt::format("Speed-up against clients (policy {})", policy);
    section.figures.push_back(undrawn(speedup_figure(points, title, id + "-speedup")));
    section.figures.push_back(undrawn(client_efficiency_figure(
        points, fmt::format("Efficiency against clients (policy {})", policy), id + "-efficiency")));
    sections.push_back(std::move(section));
  }
  return sections;
}

// The program a run record is of, for series over rank counts: its context's
// "program" (a user's records), else its "kernel" with its size N.
std::optional<std::string> program_of(const ReadRun& run) {
  const auto& context = run.record.context;
  if (context.measured && context.measured->program) return *context.measured->program;
  if (const auto& kernel = context.kernel)
    return kernel->N ? fmt::format("{} N = {}", kernel->kernel, *kernel->N) : kernel->kernel;
  return std::nullopt;
}

// Runs of one program (not farms: those are series over clients) at two or
// more rank counts, each with t_seq_ref, on nodes of one kind (runs emulated
// at other speeds are a series of their own): the strong-scaling speed-up
// T(p0) / T(p) against the run with the fewest ranks, beside the
// heterogeneous speed-up and efficiency over ranks.
std::vector<ReportSection> rank_count_sections(const std::vector<ReadRun>& runs) {
  std::map<std::string, std::vector<const ReadRun*>> groups;
  for (const auto& run : runs)
    if (!run.farm() && run.record.t_seq_ref)
      if (const auto program = program_of(run)) {
        const auto analysis = analyze_run(run.record);
        const std::string emulated = emulated_speeds_of(analysis);
        groups[*program + (emulated.empty() ? "" : ", " + emulated)].push_back(&run);
      }
  std::vector<ReportSection> sections;
  for (auto& [program, group] : groups) {
    std::stable_sort(group.begin(), group.end(), [](const ReadRun* a, const ReadRun* b) {
      return a->record.nodes.size() < b->record.nodes.size();
    });
    std::vector<ClientCountPoint> points;
    std::vector<const ReadRun*> used;
    for (const auto* run : group) {
      const double ranks = static_cast<double>(run->record.nodes.size());
      if (!points.empty() && points.back().clients == ranks) continue;  // one run per count: the first
      const auto top = headline(analyze_run(run->record));
      const double strong = points.empty() ? 1.0 : points.front().t_par / run->record.t_par;
      points.push_back({ranks, *top.measured_speedup, top.capacity, run->record.t_par, strong});
      used.push_back(run);
    }
    if (points.size() < 2) continue;
    ReportSection section;
    section.title = "Speed-up over ranks: " + program;
    for (const auto* run : used) section.source += (section.source.empty() ? "" : " ") + run->path;
    const double fewest = points.front().clients;
    section.first_lines.push_back(fmt::format(
        "{} runs of {}, one per rank count. Two speed-ups, not to be mistaken for each other: the strong-scaling "
        "speed-up T(p0) / T(p), against the run with the fewest ranks (p0 = {:g}), the conventional one; and the "
        "heterogeneous speed-up t_seq_ref / t_par, where t_seq_ref is each run's own computation summed over its "
        "ranks, so that time a rank loses to a slow or shared core counts as lost (its efficiency, eta_eff = "
        "speed-up / sum s_i, is the one to read first; Clematis-Corana 1999, Eq 25).",
        used.size(), program, fewest));
    HtmlTable table{"Speed-up against ranks",
                    {"ranks", "t_par (s)", "strong-scaling speed-up T(p0)/T(p)", "strong-scaling efficiency",
                     "heterogeneous speed-up t_seq_ref/t_par", "sum s_i", "efficiency eta_eff"},
                    {}};
    for (const auto& point : points)
      table.rows.push_back({fmt::format("{}", point.clients), fmt::format("{:.4g}", point.t_par),
                            fmt::format("{:.3f}", *point.strong_speedup),
                            fmt::format("{:.3f}", *point.strong_speedup * fewest / point.clients),
                            fmt::format("{:.3f}", point.speedup), fmt::format("{:.3f}", point.max_speedup),
                            fmt::format("{:.3f}", point.speedup / point.max_speedup)});
    section.tables.push_back(std::move(table));
    section.first_tables = 1;
    const std::string id = fmt::format("ranks{}-{}", sections.size() + 1, id_from(program));
    section.figures.push_back(
        undrawn(speedup_figure(points, "Speed-up against ranks: " + program, id + "-speedup", CountOf::ranks)));
    section.first_figures = 1;
    section.figures.push_back(undrawn(
        client_efficiency_figure(points, "Efficiency against ranks: " + program, id + "-efficiency", CountOf::ranks)));
    sections.push_back(std::move(section));
  }
  return sections;
}

// --- the summary ----------------------------------------------------------------------
// One row per run record, first in the page: what was measured, the efficiency
// to read first and the largest loss (analysis/diagnosis.hpp).
ReportSection summary_section(const std::vector<ReadRun>& runs) {
  ReportSection section;
  section.title = "Summary";
  section.source = fmt::format("{} run record{}", runs.size(), runs.size() == 1 ? "" : "s");
  section.paragraphs.push_back(
      "One row per run: t_par, the measured speed-up t_seq_ref / t_par, the efficiency to read first (eta_eff, "
      "Clematis-Corana 1999, Eq 25) and the largest loss, with the efficiency removing it would give "
      "(docs/analysis.md).");
  HtmlTable table{
      "The runs at a glance", {"run", "nodes", "t_par (s)", "measured speed-up", "efficiency", "largest loss"}, {}};
  for (const auto& run : runs) {
    const auto analysis = analyze_run(run.record);
    const auto top = headline(analysis);
    const auto losses = diagnose(analysis);
    std::string largest = "none over 1 % of the capacity";
    if (!losses.empty()) {
      const auto& loss = losses.front();
      std::string nodes;
      for (const auto& node : loss.nodes) nodes += (nodes.empty() ? " on " : ", ") + node;
      largest = fmt::format("{}{}: {:.1f} %; removed, efficiency {:.3f}", loss_name(loss.kind), nodes,
                            100.0 * loss.fraction, loss.efficiency_after);
    }
    const std::string conditions = conditions_of(analysis);
    table.rows.push_back({run_name(run) + (conditions.empty() ? "" : " (" + conditions + ")"),
                          fmt::format("{}", run.record.nodes.size()), fmt::format("{:.4g}", top.t_par),
                          top.measured_speedup ? fmt::format("{:.3f}", *top.measured_speedup) : "-",
                          fmt::format("{:.3f}", top.efficiency), largest});
  }
  section.tables.push_back(std::move(table));
  return section;
}

// --- sweeps -------------------------------------------------------------------------
// The step costs measured on each sweep's configuration (bench steps), matched
// by process count; nullopt when some sweep of the group has none (the
// paragraph then says which). Step costs of one kernel serve its sweeps only.
std::optional<std::vector<StepCosts>> step_costs_of(const std::vector<Sweep>& group,
                                                    const std::vector<StepCosts>& step_costs,
                                                    std::vector<std::string>& paragraphs) {
  std::vector<StepCosts> ordered;
  for (const auto& sweep : group) {
    const auto found = std::find_if(step_costs.begin(), step_costs.end(), [&](const StepCosts& costs) {
      return costs.kernel == sweep.kernel && static_cast<std::size_t>(costs.ranks) == sweep.processes();
    });
    if (found == step_costs.end()) {
      paragraphs.push_back(fmt::format("psi is not predicted from the steps: none were measured on {} processes ({}).",
                                       sweep.processes(), sweep.source));
      return std::nullopt;
    }
    ordered.push_back(*found);
  }
  return ordered;
}

std::vector<ReportSection> sweep_sections(const std::vector<Sweep>& sweeps, const std::optional<CommProfile>& profile,
                                          const std::vector<StepCosts>& step_costs) {
  std::map<std::string, std::vector<Sweep>> by_kernel;
  for (const auto& sweep : sweeps) by_kernel[sweep.kernel].push_back(sweep);
  for (auto costs = step_costs.begin(); costs != step_costs.end(); ++costs)
    if (std::any_of(step_costs.begin(), costs, [&](const StepCosts& earlier) {
          return earlier.kernel == costs->kernel && earlier.ranks == costs->ranks;
        }))
      throw InputError(costs->source, "ranks",
                       fmt::format("a second file of {}'s steps on {} processes; give one per configuration",
                                   costs->kernel, costs->ranks));
  for (const auto& costs : step_costs)
    if (!by_kernel.count(costs.kernel))
      throw InputError(costs.source, "kernel",
                       fmt::format("the steps of {} serve its sweeps (psi predicted); no sweep of {} given",
                                   costs.kernel, costs.kernel));
  // Scaling order: psi is taken between consecutive configurations of growing C.
  for (auto& [kernel, group] : by_kernel)
    std::stable_sort(group.begin(), group.end(),
                     [](const Sweep& a, const Sweep& b) { return a.marked_speed() < b.marked_speed(); });
  std::vector<ReportSection> sections;
  for (const auto& [kernel, group] : by_kernel) {
    ReportSection section;
    section.title = "Scalability: " + kernel;
    for (const auto& sweep : group) section.source += (section.source.empty() ? "" : " ") + sweep.source;
    section.tables.push_back(sweeps_table(group));
    section.figures.push_back(undrawn(isospeed_figure(group, "isospeed-" + kernel)));
    const bool all_have_sizes = std::all_of(group.begin(), group.end(),
                                            [](const Sweep& sweep) { return sweep_target_size(sweep).has_value(); });
    const bool has_steps = std::any_of(step_costs.begin(), step_costs.end(),
                                       [&](const StepCosts& costs) { return costs.kernel == kernel; });
    if (group.size() >= 2 && all_have_sizes) {
      const auto psi = psi_from_sweeps(group);
      std::optional<IsospeedPrediction> predicted;
      // hetscale has overhead models for ge and mm; a program of the user's
      // needs one from `scale predict --overhead`. The steps measured on each
      // configuration (scale predict --step-costs) come before the profile's
      // modelled costs.
      const bool has_overhead_model = !group.front().users_program && (kernel == "ge" || kernel == "mm");
      const auto base_problem = base_target_problem(group.front());
      if (base_problem && (has_steps || (profile && has_overhead_model))) {
        // An outcome of the measurement, not bad input: the page says it.
        section.paragraphs.push_back(
            fmt::format("psi is not predicted from {}: {}.", group.front().source, *base_problem));
      } else if (has_steps) {
        if (const auto ordered = step_costs_of(group, step_costs, section.paragraphs))
          predicted = predict_from_step_costs(group, *ordered);
      } else if (profile && has_overhead_model) {
        predicted = predict_from_sweeps(*profile, group);
      }
      if (profile && !has_overhead_model)
        section.paragraphs.push_back("psi is not predicted: hetscale has no overhead model of " + kernel +
                                     " (for a program of yours: hetscale scale predict --overhead EXPR).");
      const IsospeedPrediction* model = predicted ? &*predicted : nullptr;
      section.tables.push_back(psi_html_table(psi, model));
      section.figures.push_back(undrawn(psi_figure(psi, model, "psi-" + kernel)));
      if (predicted && !predicted->step_cost_sources.empty())
        section.paragraphs.push_back(
            fmt::format("psi predicted from the steps measured on each configuration ({}): "
                        "{}; {}.",
                        fmt::join(predicted->step_cost_sources, ", "), predicted->overhead, predicted->computation));
      else if (predicted)
        section.paragraphs.push_back("psi predicted from " + predicted->profile_source + ": " + predicted->computation +
                                     ".");
    } else if (group.size() >= 2) {
      section.paragraphs.push_back("psi needs every sweep's N at the target E_s; a sweep here has none.");
    }
    sections.push_back(std::move(section));
  }
  return sections;
}

// --- optimizer -----------------------------------------------------------------------
ReportSection optimizer_section(const std::string& path, const OptimizeRecord& record, std::size_t index) {
  ReportSection section;
  const std::string program = record.program.empty() ? stem(path) : record.program;
  const std::string solver = record.solver.empty() ? "?" : record.solver;
  section.title =
      fmt::format("Optimizer: {} ({}, {})", stem(path), std::filesystem::path(program).filename().string(), solver);
  section.source = path;
  std::string summary = fmt::format("Predicted time of the plan {:.6g} s", record.time);
  if (record.optimum) summary += fmt::format(", optimum {:.6g} s", *record.optimum);
  if (const auto& runs = record.runs)
    summary += fmt::format("; {} runs, success rate {:.2f}, generations {:.1f} +- {:.1f}", runs->runs,
                           runs->success_rate, runs->generations_mean, runs->generations_sd);
  if (!record.machine.empty()) summary += ". Machine: " + record.machine;
  section.paragraphs.push_back(summary + ".");

  HtmlTable plan{"The plan, level by level",
                 {"level", "processors", "alignment", "patterns", "t_comp (s)", "t_comm (s)", "structure"},
                 {}};
  for (const auto& level : record.plan)
    plan.rows.push_back({fmt::format("{}", level.level), fmt::format("{}", level.procs),
                         fmt::format("{}", level.alignment), level.alignment_patterns,
                         fmt::format("{:.6g}", level.t_comp), fmt::format("{:.6g}", level.t_comm), level.structure});
  section.tables.push_back(std::move(plan));

  const bool many = record.runs.has_value();
  const auto& best = many ? record.runs->mean_best_fitness : record.best_fitness;
  const auto& mean = many ? record.runs->mean_mean_fitness : record.mean_fitness;
  if (!best.empty() && !mean.empty())
    section.figures.push_back(undrawn(fitness_figure(
        best, mean,
        fmt::format("{} ({}): fitness per generation{}", stem(path), solver, many ? " (mean over the runs)" : ""),
        fmt::format("optimizer{}-{}", index + 1, id_from(stem(path))))));
  return section;
}

// --- functional performance models ---------------------------------------------------
ReportSection speed_model_section(const SpeedModel& model, std::size_t index) {
  ReportSection section;
  section.title = "Speed model: " + stem(model.source);
  section.source = model.source;
  const auto& context = model.context;
  std::vector<std::string> said;
  for (const auto& [key, value] :
       {std::pair{"tool", context.tool},
        {"kernel", context.kernel},
        {"order", context.order ? fmt::format("{:g}", *context.order) : ""},
        {"measured", context.measured},
        {"emulated_speeds", context.emulated_speeds.empty() ? "" : json(context.emulated_speeds).dump()},
        {"host", context.host}})
    if (!value.empty()) said.push_back(fmt::format("{} {}", key, value));
  section.paragraphs.push_back(
      fmt::format("{} node{}{}. Split N {} by it with hetscale partition --model {} --units N (docs/partitioning.md).",
                  model.nodes.size(), model.nodes.size() == 1 ? "" : "s",
                  said.empty() ? "" : "; " + fmt::format("{}", fmt::join(said, "; ")), model.unit, model.source));
  section.tables.push_back(speed_model_table(model));
  section.figures.push_back(
      undrawn(speed_model_figure(model, fmt::format("fpm{}-{}", index + 1, id_from(stem(model.source))))));
  return section;
}

// --- predictions ----------------------------------------------------------------
ReportSection prediction_section(const PredictionDocument& document, std::size_t index) {
  ReportSection section;
  section.title = fmt::format("Prediction at {} = {:g}: {}", document.variable, document.at, stem(document.path));
  section.source = document.path;
  section.paragraphs.push_back(fmt::format("From {}; models: {}.", document.source, document.search));
  section.tables.push_back(prediction_html_table(document));
  for (const auto& part : document.parts) {
    const bool all_zero = std::all_of(part.points.begin(), part.points.end(), [](const auto& point) {
      return std::all_of(point.values.begin(), point.values.end(), [](double value) { return value == 0.0; });
    });
    if (all_zero) continue;  // t_other of an unloaded machine, say: nothing to draw
    section.figures.push_back(
        undrawn(prediction_figure(part, document, fmt::format("prediction{}-{}", index + 1, id_from(part.name)))));
  }
  return section;
}

}  // namespace

const std::vector<std::string>& model_figure_names() {
  static const std::vector<std::string> names{"two-processors", "ewf-heterogeneity"};
  return names;
}

std::optional<std::string> model_figure_renamed(const std::string& old_name) {
  if (old_name == "seed000-fig1") return "two-processors";
  if (old_name == "seed003-fig2") return "ewf-heterogeneity";
  return std::nullopt;
}

Report build_report(const std::vector<ReportInput>& inputs, const ReportOptions& options) {
  for (const auto& name : options.model_figures)
    if (std::find(model_figure_names().begin(), model_figure_names().end(), name) == model_figure_names().end())
      throw InputError(
          "model", "",
          fmt::format("unknown model figure '{}'; allowed: {}", name, fmt::join(model_figure_names(), ", ")));

  std::vector<ReadRun> runs;
  std::vector<Sweep> sweeps;
  std::optional<CommProfile> profile;
  std::vector<std::pair<std::string, OptimizeRecord>> optimizer_runs;
  std::vector<PredictionDocument> predictions;
  std::vector<SpeedModel> speed_models;
  std::vector<StepCosts> step_costs;
  for (const auto& input : inputs) {
    const auto document = io::parse_json(input.text, input.path);
    if (!document.is_object())
      throw InputError(input.path, "", "is not a JSON object; the report reads hetscale's JSON outputs");
    const auto schema = field<std::string>(document, "schema").value_or("");
    if (schema == "hetscale.run/1") {
      runs.push_back({input.path, parse_run_record(input.text, input.path)});
    } else if (schema == Sweep::schema) {
      sweeps.push_back(parse_sweep(input.text, input.path));
    } else if (schema == "hetscale.comm-profile/1") {
      if (profile) throw InputError(input.path, "schema", "a second communication profile; give one");
      profile = parse_comm_profile(input.text, input.path);
    } else if (schema == OptimizeRecord::schema) {
      optimizer_runs.emplace_back(input.path, parse_optimize_record(input.text, input.path));
    } else if (schema == "hetscale.predict/1") {
      predictions.push_back(read_prediction_json(input.text, input.path));
    } else if (schema == SpeedModel::schema) {
      speed_models.push_back(parse_speed_model_json(input.text, input.path));
    } else if (schema == StepCosts::schema) {
      step_costs.push_back(parse_step_costs_json(input.text, input.path));
    } else {
      const auto* kind = io::file_kind(schema);
      throw InputError(
          input.path, "schema",
          fmt::format("{}is not one the report reads (hetscale.run/1, hetscale.sweep/1, "
                      "hetscale.comm-profile/1, hetscale.step-costs/1, hetscale.optimize/1, hetscale.predict/1, "
                      "hetscale.fpm/1){}",
                      kind ? fmt::format("this is {} ({}), which ", kind->what, schema) : fmt::format("'{}' ", schema),
                      kind ? fmt::format(": {}", kind->read_by) : ""));
    }
  }
  if (profile && sweeps.empty())
    throw InputError(profile->source, "schema",
                     "a communication profile serves sweeps (psi predicted); no sweep given");

  Report report;
  report.title = options.title;
  report.about = options.about;
  if (!runs.empty()) report.sections.push_back(summary_section(runs));
  // A series of one program over rank counts answers first how it scales.
  for (auto& section : rank_count_sections(runs)) report.sections.push_back(std::move(section));
  std::set<const ReadRun*> in_series;
  auto series = client_count_sections(runs, in_series);
  std::size_t shown = 0;  // runs in a series over clients have no section of their own
  for (const auto& run : runs)
    if (!in_series.count(&run)) report.sections.push_back(run_section(run, shown++));
  for (auto& section : series) report.sections.push_back(std::move(section));
  for (auto& section : sweep_sections(sweeps, profile, step_costs)) report.sections.push_back(std::move(section));
  for (std::size_t i = 0; i < optimizer_runs.size(); ++i)
    report.sections.push_back(optimizer_section(optimizer_runs[i].first, optimizer_runs[i].second, i));
  for (std::size_t i = 0; i < predictions.size(); ++i) report.sections.push_back(prediction_section(predictions[i], i));
  for (std::size_t i = 0; i < speed_models.size(); ++i)
    report.sections.push_back(speed_model_section(speed_models[i], i));

  for (const auto& name : options.model_figures) {
    ReportSection section;
    section.source = "model (no run)";
    if (name == "two-processors") {
      section.title = "Model: APGA 2004 Fig 1, two processors of speeds v and h v";
      for (auto& figure : seed000_figure1()) section.figures.push_back(undrawn(std::move(figure)));
    } else {
      if (options.seed003_configurations.empty())
        throw InputError("model", "", "ewf-heterogeneity needs Clematis-Corana 1999 Table 1's configurations");
      section.title = "Model: Clematis-Corana 1999 Fig 2, the efficiency worsening factor";
      section.figures.push_back(undrawn(seed003_figure2(options.seed003_configurations)));
    }
    report.sections.push_back(std::move(section));
  }
  if (report.sections.empty())
    throw InputError(
        "INPUTS", "",
        "nothing to report: give run records, sweeps, optimizer runs, predictions, speed models or --model");
  return report;
}

}  // namespace hetscale::report
