#include "hetscale/report/report_figures.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/core.h>

#include "hetscale/analysis/what_if.hpp"
#include "hetscale/model/energetic.hpp"
#include "hetscale/model/heterogeneous.hpp"
#include "hetscale/record/mpi_profile.hpp"
#include "hetscale/report/diagnosis_text.hpp"
#include "hetscale/report/metric_table.hpp"

namespace hetscale::report {
namespace {

std::string cell(double value, int decimals = 4) {
  return std::isfinite(value) ? fmt::format("{:.{}f}", value, decimals) : "-";
}

std::vector<double> ascending(std::size_t count, double first = 1.0) {
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = first + static_cast<double>(i);
  return values;
}

Series line(std::string title, std::vector<double> x, std::vector<double> y, PlotStyle style) {
  return Series{std::move(title), std::move(x), std::move(y), style, std::nullopt};
}

// The smallest and the largest N of a sweep's points (0, 0 without any).
std::pair<double, double> size_range(const Sweep& sweep) {
  if (sweep.points.empty()) return {0.0, 0.0};
  const auto [smallest, largest] =
      std::minmax_element(sweep.points.begin(), sweep.points.end(),
                          [](const SweepPoint& a, const SweepPoint& b) { return a.size < b.size; });
  return {smallest->size, largest->size};
}

Figure titled(std::string id, std::string title, std::string caption, std::string x_label, std::string y_label) {
  Figure figure;
  figure.id = std::move(id);
  figure.title = std::move(title);
  figure.caption = std::move(caption);
  figure.x_label = std::move(x_label);
  figure.y_label = std::move(y_label);
  return figure;
}

}  // namespace

// --- one run ---------------------------------------------------------------------

Figure time_breakdown_figure(const RunAnalysis& analysis, const RunRecord& run, const std::string& id) {
  StackedBars bars;
  bars.segments = {"computation", "communication", "set-up", "idle", "other load"};
  bars.values.assign(bars.segments.size(), {});
  auto add = [&](const NodeRecord& node) {
    bars.categories.push_back(node.name);
    const double parts[] = {node.t_comp, node.t_comm, node.t_setup, node.t_idle, node.t_other};
    for (std::size_t s = 0; s < bars.segments.size(); ++s) bars.values[s].push_back(parts[s]);
  };
  for (const auto& node : analysis.nodes) add(node);
  if (run.server) {
    NodeRecord server = *run.server;
    server.t_idle = std::max(0.0, run.t_par - server.accounted_time()) + server.t_idle;
    add(server);
  }
  Figure figure = titled(id, "Where each node's time went",
                         fmt::format("Clematis-Corana 1999 Fig 1's parts of T_i per node (computation, communication, "
                                     "set-up, idle, other load), in seconds; "
                                     "t_par = {:.4g} s{}",
                                     run.t_par, run.server ? "; the last bar is the server" : ""),
                         "node", "seconds");
  figure.bars = std::move(bars);
  figure.legend = "outside right top";
  return figure;
}

Figure work_share_figure(const RunAnalysis& analysis, const std::string& id) {
  const auto& h = analysis.heterogeneous;
  const auto index = ascending(h.shares.size());
  Figure figure = titled(
      id, "Work share p_i against v_i / sum v",
      "APGA 2004 Fig 4: the fraction of the work each node did (p_i, measured) beside its fraction of the total speed "
      "(v_i / sum v, " +
          analysis.speeds.v_source + "); the optimal distribution (Proposition 1) has them equal",
      "node (in the run record's order)", "fraction of the work");
  figure.series = {line("p_i measured", index, h.shares, PlotStyle::points),
                   line("v_i / sum v", index, h.normalized_speeds, PlotStyle::lines_points)};
  figure.x_min = 0.5;
  figure.x_max = static_cast<double>(index.size()) + 0.5;
  figure.y_min = 0.0;
  figure.legend = "top right";
  return figure;
}

HtmlTable node_table(const RunAnalysis& analysis) {
  bool blocked = false;
  for (const auto& node : analysis.nodes) blocked = blocked || node.t_blocked > 0.0;
  HtmlTable table{"Per node (times in seconds)", {"node", "work", "t_comp", "t_comm", "t_setup", "t_idle", "t_other"}, {}};
  if (blocked) table.header.push_back("t_blocked");
  for (const char* column : {"v_i", "p_i", "v_i / sum v"}) table.header.push_back(column);
  for (std::size_t i = 0; i < analysis.nodes.size(); ++i) {
    const auto& node = analysis.nodes[i];
    std::vector<std::string> row{node.name,        fmt::format("{:.6g}", node.work), cell(node.t_comp),
                                 cell(node.t_comm), cell(node.t_setup),              cell(node.t_idle),
                                 cell(node.t_other)};
    if (blocked) row.push_back(cell(node.t_blocked));
    for (const double value : {analysis.speeds.nodes[i].v, analysis.heterogeneous.shares[i],
                               analysis.heterogeneous.normalized_speeds[i]})
      row.push_back(cell(value));
    table.rows.push_back(std::move(row));
  }
  return table;
}

HtmlTable mpi_functions_table(const RunAnalysis& analysis, std::size_t most) {
  const std::size_t shown = std::min(most, analysis.mpi_functions.size());
  HtmlTable table{shown < analysis.mpi_functions.size()
                      ? fmt::format("The {} MPI functions that took most, of {} (time summed over the ranks, its "
                                    "largest and mean per rank)",
                                    shown, analysis.mpi_functions.size())
                      : "MPI functions that took most (time summed over the ranks, its largest and mean per rank)",
                  {"function", "calls", "seconds", "max over ranks (s)", "mean over ranks (s)", "bytes"},
                  {}};
  for (const auto& entry : std::vector(analysis.mpi_functions.begin(),
                                       analysis.mpi_functions.begin() + static_cast<std::ptrdiff_t>(shown)))
    table.rows.push_back({entry.function, fmt::format("{:.0f}", entry.calls), cell(entry.seconds),
                          cell(entry.seconds_max), cell(entry.seconds_mean), fmt::format("{:.6g}", entry.bytes)});
  return table;
}

HtmlTable regions_table(const std::vector<NamedRegion>& regions, double run_t_par) {
  HtmlTable table{"Regions (each analysed as a run of its own: hetscale analyze RUN --region NAME)",
                  {"region", "t_par (s)", "of the run's t_par", "efficiency", "e", "parallel efficiency (POP)",
                   "MPI time, longest rank (s)", "MPI function that took most"},
                  {}};
  for (const auto& [name, record] : regions) {
    double mpi = 0.0;
    for (const auto& node : record.nodes) mpi = std::max(mpi, node.t_comm + node.t_setup + node.t_idle);
    std::vector<std::string> row{name, cell(record.t_par),
                                 run_t_par > 0.0 ? fmt::format("{:.1f} %", 100.0 * record.t_par / run_t_par) : "-"};
    std::string busiest = "-";
    if (record.has_computation()) {
      const auto analysis = analyze_run(record);
      for (const double value : {analysis.energetic.effective_efficiency, analysis.heterogeneous.efficiency,
                                 analysis.pop.parallel_efficiency})
        row.push_back(fmt::format("{:.4f}", value));
      if (!analysis.mpi_functions.empty()) busiest = analysis.mpi_functions.front().function;
    } else {
      row.insert(row.end(), {"no computation", "-", "-"});
      if (const auto& profile = record.context.mpi_functions(); !profile.empty())
        busiest = profile.front().function;
    }
    row.insert(row.end(), {cell(mpi), busiest});
    table.rows.push_back(std::move(row));
  }
  return table;
}

HtmlTable metrics_table(const RunAnalysis& analysis) {
  HtmlTable table{"Metrics of the run", {"metric", "value", "where"}, {}};
  const auto add = [&](const std::vector<Metric>& metrics, const std::string& paper) {
    for (const auto& metric : metrics)
      table.rows.push_back({metric_heading(metric), metric_text(metric), paper + metric.source});
  };
  add(heterogeneous_metrics(analysis.heterogeneous), "APGA 2004, ");
  add(energetic_system_metrics(analysis.energetic), "Clematis-Corana 1999, ");
  add(pop_metrics(analysis.pop), "POP: ");
  return table;
}

HtmlTable efficiency_guide_table(const RunAnalysis& analysis) {
  HtmlTable table{"The other efficiencies, each answering one question", {"efficiency", "value", "answers"}, {}};
  for (const auto& entry : efficiency_guide(analysis))
    table.rows.push_back({entry.name, cell(entry.value), entry.answers});
  return table;
}

// --- runs over client or rank counts --------------------------------------------------

namespace {
// Tics at the counts measured, whole numbers: a count of 1.5 ranks means nothing.
std::vector<std::pair<double, std::string>> count_ticks(const std::vector<ClientCountPoint>& points) {
  std::vector<std::pair<double, std::string>> ticks;
  for (const auto& point : points) ticks.emplace_back(point.clients, fmt::format("{:g}", point.clients));
  return ticks;
}
}  // namespace

Figure speedup_figure(const std::vector<ClientCountPoint>& points, const std::string& title, const std::string& id,
                      CountOf count) {
  const bool clients = count == CountOf::clients;
  Series measured{clients ? "measured" : "heterogeneous t_seq_ref / t_par", {}, {}, PlotStyle::lines_points,
                  std::nullopt},
      bound{clients ? "s_max" : "sum s_i", {}, {}, PlotStyle::lines, std::nullopt},
      strong{"strong-scaling T(p0) / T(p)", {}, {}, PlotStyle::lines_points, std::nullopt};
  double most = 0.0;
  for (const auto& point : points) {
    measured.x.push_back(point.clients);
    measured.y.push_back(point.speedup);
    bound.x.push_back(point.clients);
    bound.y.push_back(point.max_speedup);
    if (point.strong_speedup) {
      strong.x.push_back(point.clients);
      strong.y.push_back(*point.strong_speedup);
    }
    most = std::max(most, point.clients);
  }
  Figure figure =
      clients ? titled(id, title,
                       "APGA 2004 Fig 3: speed-up against the number of clients, beside linear speed-up and s_max = "
                       "sum v / max v (Eq 6) of the clients",
                       "clients", "speed-up")
              : titled(id, title,
                       "two speed-ups against the number of ranks: the strong-scaling one, T(p0) / T(p) against the "
                       "run with the fewest ranks p0, and the heterogeneous one, t_seq_ref / t_par with t_seq_ref "
                       "the run's own computation summed over its ranks (it counts a rank's lost speed as lost), "
                       "beside sum s_i, what the ranks could give with no loss (Clematis-Corana 1999, Eq 25), and "
                       "linear speed-up",
                       "ranks", "speed-up");
  figure.series = {measured, bound};
  if (!strong.x.empty()) figure.series.push_back(strong);
  figure.series.push_back(line("linear", {0.0, most}, {0.0, most}, PlotStyle::reference));
  figure.x_min = 0.0;
  figure.y_min = 0.0;
  figure.x_tick_labels = count_ticks(points);
  return figure;
}

Figure client_efficiency_figure(const std::vector<ClientCountPoint>& points, const std::string& title,
                                const std::string& id, CountOf count) {
  const bool clients = count == CountOf::clients;
  Series measured{clients ? "s / s_max" : "eta_eff (heterogeneous)", {}, {}, PlotStyle::lines_points, std::nullopt},
      strong{"strong-scaling T(p0) p0 / (T(p) p)", {}, {}, PlotStyle::lines_points, std::nullopt};
  const double fewest = points.empty() ? 1.0 : points.front().clients;
  for (const auto& point : points) {
    measured.x.push_back(point.clients);
    measured.y.push_back(point.speedup / point.max_speedup);
    if (point.strong_speedup) {
      strong.x.push_back(point.clients);
      strong.y.push_back(*point.strong_speedup * fewest / point.clients);
    }
  }
  Figure figure =
      clients ? titled(id, title, "APGA 2004 Eq 7 with the idle time (s_tot / s_max) against the number of clients",
                       "clients", "efficiency")
              : titled(id, title,
                       "the efficiency to read first, eta_eff = speed-up / sum s_i (Clematis-Corana 1999, Eq 25), "
                       "beside the strong-scaling efficiency T(p0) p0 / (T(p) p), against the number of ranks",
                       "ranks", "efficiency");
  figure.series = {measured};
  if (!strong.x.empty()) figure.series.push_back(strong);
  figure.x_tick_labels = count_ticks(points);
  figure.x_min = 0.0;
  figure.y_min = 0.0;
  figure.y_max = 1.05;
  figure.legend = "bottom left";
  return figure;
}

// --- scalability ------------------------------------------------------------------------

Figure isospeed_figure(const std::vector<Sweep>& sweeps, const std::string& id) {
  const std::string kernel = sweeps.empty() ? "" : sweeps.front().kernel;
  Figure figure =
      titled(id, fmt::format("Speed-efficiency against problem size ({})", kernel),
             "Chen et al. 2008 Figs 2-4: E_s = W / (T C) (Definition 2) of each run (points), the trend line "
             "fitted through them (line of the same colour; degree and r^2 in the table), and the "
             "target E_s the isospeed-e condition holds",
             "problem size N", "speed-efficiency E_s");
  double low = 0.0, high = 0.0;
  std::optional<double> target;
  int colour = 0;
  for (const auto& sweep : sweeps) {
    ++colour;  // a configuration's runs and trend line in one colour
    Series points{sweep.configuration, {}, {}, PlotStyle::points, colour};
    for (const auto& point : sweep.points) {
      if (!point.check_passed) continue;
      points.x.push_back(point.size);
      points.y.push_back(point.speed_efficiency(sweep.marked_speed()));
      high = std::max(high, point.size);
      low = low == 0.0 ? point.size : std::min(low, point.size);
    }
    figure.series.push_back(std::move(points));
    if (sweep.trend) {
      auto [first, last] = size_range(sweep);
      if (sweep.target && sweep.target->size) last = std::max(last, *sweep.target->size);
      Series trend{"", {}, {}, PlotStyle::lines, colour};
      for (int k = 0; k <= 100; ++k) {
        const double n = first + (last - first) * k / 100.0;
        trend.x.push_back(n);
        trend.y.push_back(trend_speed_efficiency(*sweep.trend, n));
      }
      high = std::max(high, last);
      figure.series.push_back(std::move(trend));
    }
    if (sweep.target) target = sweep.target->speed_efficiency;
  }
  if (target)
    figure.series.push_back(
        line(fmt::format("target E_s = {}", *target), {low, high}, {*target, *target}, PlotStyle::reference));
  figure.y_min = 0.0;
  figure.legend = "bottom right";
  return figure;
}

HtmlTable sweeps_table(const std::vector<Sweep>& sweeps) {
  HtmlTable table{"Configurations",
                  {"configuration", "kernel", "processes", "C (Mflop/s)", "sizes", "trend degree", "r^2", "target E_s",
                   "N at the target"},
                  {}};
  for (const auto& sweep : sweeps) {
    const auto [low, high] = size_range(sweep);
    std::string target_size = "-";
    if (sweep.target && sweep.target->size)
      target_size = fmt::format("{:.0f}{}", *sweep.target->size, sweep.target->extrapolated ? " (extrapolated)" : "");
    table.rows.push_back(
        {sweep.configuration, sweep.kernel, std::to_string(sweep.processes()), cell(sweep.marked_speed(), 2),
         fmt::format("{:.0f}..{:.0f} ({})", low, high, sweep.points.size()),
         sweep.trend ? std::to_string(sweep.trend->degree) : "-", sweep.trend ? cell(sweep.trend->r_squared, 5) : "-",
         sweep.target ? cell(sweep.target->speed_efficiency, 3) : "-", target_size});
  }
  return table;
}

Figure psi_figure(const PsiTable& measured, const IsospeedPrediction* predicted, const std::string& id) {
  Figure figure;
  figure.id = id;
  figure.title = fmt::format("Isospeed-efficiency scalability psi ({})", measured.kernel);
  std::string steps;
  std::vector<std::pair<double, std::string>> tick_labels;
  Series from_runs{"psi measured", {}, {}, PlotStyle::lines_points, std::nullopt};
  for (std::size_t i = 0; i < measured.steps.size(); ++i) {
    from_runs.x.push_back(static_cast<double>(i + 1));
    from_runs.y.push_back(measured.steps[i].psi);
    steps += fmt::format("{}{}: {} to {}", i ? "; " : "", i + 1, measured.steps[i].from, measured.steps[i].to);
    tick_labels.emplace_back(static_cast<double>(i + 1),
                             fmt::format("{} to {}", measured.steps[i].from, measured.steps[i].to));
  }
  figure.series.push_back(std::move(from_runs));
  if (predicted) {
    Series model{"psi predicted", {}, {}, PlotStyle::lines_points, std::nullopt};
    for (std::size_t i = 0; i < predicted->steps.size(); ++i) {
      model.x.push_back(static_cast<double>(i + 1));
      model.y.push_back(predicted->steps[i].psi_definition);
    }
    figure.series.push_back(std::move(model));
  }
  figure.caption = "Chen et al. 2008 Definition 3: psi(C, C') = C' W / (C W') between consecutive configurations (" +
                   steps + ")" + (predicted ? ", measured and predicted (Section 4.5)" : "");
  figure.x_label = "from one configuration to the next";
  figure.y_label = "psi";
  figure.x_tick_labels = std::move(tick_labels);
  figure.x_min = 0.5;
  figure.x_max = static_cast<double>(measured.steps.size()) + 0.5;
  figure.y_min = 0.0;
  figure.legend = "top right";
  return figure;
}

HtmlTable psi_html_table(const PsiTable& measured, const IsospeedPrediction* predicted) {
  HtmlTable table{"psi between consecutive configurations", {"from", "to", "C", "C'", "N", "N'", "psi measured"}, {}};
  if (predicted) table.header.insert(table.header.end(), {"N' predicted", "psi predicted", "error"});
  for (std::size_t i = 0; i < measured.steps.size(); ++i) {
    const auto& step = measured.steps[i];
    std::vector<std::string> row{step.from,
                                 step.to,
                                 cell(step.marked_speed, 2),
                                 cell(step.scaled_marked_speed, 2),
                                 fmt::format("{:.0f}", step.size),
                                 fmt::format("{:.0f}", step.scaled_size),
                                 cell(step.psi)};
    if (predicted && i < predicted->steps.size()) {
      const double model = predicted->steps[i].psi_definition;
      const auto to = std::find_if(predicted->configurations.begin(), predicted->configurations.end(),
                                   [&](const PredictedConfiguration& each) { return each.name == step.to; });
      row.push_back(to == predicted->configurations.end() ? "" : fmt::format("{:.0f}", to->size));
      row.push_back(cell(model));
      row.push_back(fmt::format("{:+.1f} %", (model - step.psi) / step.psi * 100.0));
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

// --- optimizer ------------------------------------------------------------------------------

Figure fitness_figure(const std::vector<double>& best, const std::vector<double>& mean, const std::string& title,
                      const std::string& id) {
  Figure figure =
      titled(id, title,
             "Stage-GA Fig 9: the best and the mean fitness (the plan's predicted time, lower is better) of "
             "the population at each generation",
             "generation", "fitness: predicted time (s)");
  figure.series = {line("best", ascending(best.size(), 0.0), best, PlotStyle::lines),
                   line("mean", ascending(mean.size(), 0.0), mean, PlotStyle::lines)};
  figure.x_min = 0.0;
  figure.legend = "top right";
  return figure;
}

// --- predictions -----------------------------------------------------------------------------

Figure prediction_figure(const PredictedPart& part, const PredictionDocument& document, const std::string& id) {
  const std::string& v = document.variable;
  Figure figure =
      titled(id, fmt::format("{}: measured, fitted and predicted at {} = {:g}", part.name, v, document.at),
             fmt::format("hetscale predict: every repetition measured, the model chosen by leave-one-out "
                         "cross-validation ({}) and its value at {} = {:g} with the interval of the models fitted "
                         "without each scale ({})",
                         part.model, v, document.at, document.search),
             v, part.metric == "seconds" ? part.name + " (s)" : part.name);
  Series measured = line("measured", {}, {}, PlotStyle::points);
  double lowest = document.at, highest = document.at;
  for (const auto& point : part.points) {
    for (double value : point.values) measured.x.push_back(point.x), measured.y.push_back(value);
    lowest = std::min(lowest, point.x);
    highest = std::max(highest, point.x);
  }
  // The model on 80 points, spaced evenly on a log axis when the scales span more than 4x.
  Series model = line("model", {}, {}, PlotStyle::lines);
  figure.log_x = highest > 4.0 * lowest;
  for (int i = 0; i <= 80; ++i) {
    const double t = i / 80.0;
    const double x = figure.log_x ? lowest * std::pow(highest / lowest, t) : lowest + (highest - lowest) * t;
    model.x.push_back(x);
    model.y.push_back(part.function.at(x));
  }
  figure.series = {measured, model, line("prediction", {document.at}, {part.value}, PlotStyle::points),
                   line("interval", {document.at, document.at}, {part.low, part.high}, PlotStyle::lines)};
  figure.legend = "top right";
  return figure;
}

HtmlTable prediction_html_table(const PredictionDocument& document) {
  HtmlTable table;
  table.caption = fmt::format("each part at {} = {:g} ({}); SMAPE: the leave-one-out error of the model",
                              document.variable, document.at, document.extrapolation ? "extrapolated" : "interpolated");
  table.header = {"part", fmt::format("at {} = {:g}", document.variable, document.at), "interval", "SMAPE %", "model"};
  for (const auto& part : document.parts)
    table.rows.push_back({part.name, fmt::format("{:.4g}", part.value),
                          fmt::format("{:.4g} .. {:.4g}", part.low, part.high), fmt::format("{:.2f}", part.smape),
                          part.model});
  return table;
}

// --- functional performance models -------------------------------------------------------

Figure speed_model_figure(const SpeedModel& model, const std::string& id) {
  Figure figure = titled(id, "Speed against the size of the share, per node",
                         fmt::format("hetscale.fpm/1 ({}): each node's measured points, the ends of each point's "
                                     "confidence interval, and the {} interpolation between them; a node's share "
                                     "of d {} takes d / s(d) seconds",
                                     model.source, to_string(model.interpolation), model.unit),
                         "share size (" + model.unit + ")", "speed (" + model.unit + " / s)");
  const auto functions = model.functions();
  double smallest = 0.0, largest = 0.0;
  for (const auto& node : model.nodes) {
    smallest = smallest == 0.0 ? node.points.front().size : std::min(smallest, node.points.front().size);
    largest = std::max(largest, node.points.back().size);
  }
  figure.log_x = largest > 4.0 * smallest;
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const auto& node = model.nodes[i];
    const int colour = static_cast<int>(i) + 1;
    Series points = line(node.name, {}, {}, PlotStyle::points), ends = line("", {}, {}, PlotStyle::points);
    for (const auto& point : node.points) {
      points.x.push_back(point.size), points.y.push_back(point.speed);
      if (point.interval > 0.0)
        for (const double end : {point.speed - point.interval, point.speed + point.interval})
          if (end > 0.0) ends.x.push_back(point.size), ends.y.push_back(end);
    }
    // The interpolation on 80 sizes between the node's first and last points
    // (a marked speed, one point: a flat line across the figure).
    const double first = node.points.size() == 1 ? smallest : node.points.front().size;
    const double last = node.points.size() == 1 ? largest : node.points.back().size;
    Series curve = line("", {}, {}, PlotStyle::lines);
    for (int k = 0; k <= 80; ++k) {
      const double t = k / 80.0;
      const double size = figure.log_x ? first * std::pow(last / first, t) : first + (last - first) * t;
      curve.x.push_back(size), curve.y.push_back(functions[i].speed(size));
    }
    for (Series* series : {&points, &ends, &curve}) series->colour = colour;
    figure.series.push_back(std::move(points));
    if (!ends.x.empty()) figure.series.push_back(std::move(ends));
    figure.series.push_back(std::move(curve));
  }
  figure.y_min = 0.0;
  figure.legend = "top right";
  return figure;
}

HtmlTable speed_model_table(const SpeedModel& model) {
  HtmlTable table;
  table.caption = fmt::format("{}: {} interpolation, sizes in {}, speeds in {} per second", model.source,
                              to_string(model.interpolation), model.unit, model.unit);
  table.header = {"node", "points", "sizes", "speeds", "widest interval", "other load (max)", "shape"};
  const auto functions = model.functions();
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const auto& node = model.nodes[i];
    double slowest = node.points.front().speed, fastest = slowest, widest = 0.0;
    for (const auto& point : node.points) {
      slowest = std::min(slowest, point.speed), fastest = std::max(fastest, point.speed);
      widest = std::max(widest, point.interval / point.speed);
    }
    const auto decreasing = functions[i].size_where_time_decreases();
    table.rows.push_back(
        {node.name, fmt::format("{}", node.points.size()),
         fmt::format("{:.6g} .. {:.6g}", node.points.front().size, node.points.back().size),
         fmt::format("{:.4g} .. {:.4g}", slowest, fastest), fmt::format("{:.1f} %", 100.0 * widest),
         node.other_load.empty()
             ? "-"
             : fmt::format("{:.3f}", *std::max_element(node.other_load.begin(), node.other_load.end())),
         decreasing ? fmt::format("time falls at {:.6g} (a line through the origin meets the speed twice)", *decreasing)
                    : "time grows with the size"});
  }
  return table;
}

// --- model figures -----------------------------------------------------------------------------

std::vector<Figure> seed000_figure1() {
  Figure speedup, effective;
  speedup.id = "two-processors-speedup";
  speedup.title = "Two processors {v, h v}: speed-up against the slower one's share p";
  speedup.caption =
      "APGA 2004 Fig 1 and Eqs 11-12: s(p) for h = 1 to 2; the peak is at p = 1 / (1 + h), the "
      "speed-proportional share (Proposition 1)";
  speedup.y_label = "speed-up s";
  effective.id = "two-processors-effective-processors";
  effective.title = "Two processors {v, h v}: effective processors against p";
  effective.caption = "APGA 2004 Fig 1 and Eq 13: n_eff(p) for h = 1 to 2";
  effective.y_label = "effective processors n_eff";
  for (const double h : {1.0, 1.25, 1.5, 1.75, 2.0}) {
    Series s{fmt::format("h = {}", h), {}, {}, PlotStyle::lines, std::nullopt},
        n{fmt::format("h = {}", h), {}, {}, PlotStyle::lines, std::nullopt};
    for (int k = 0; k <= 200; ++k) {
      const double p = k / 200.0;
      s.x.push_back(p);
      s.y.push_back(model::two_processor_speedup(h, p));
      n.x.push_back(p);
      n.y.push_back(model::two_processor_effective_processors(h, p));
    }
    speedup.series.push_back(std::move(s));
    effective.series.push_back(std::move(n));
  }
  for (Figure* figure : {&speedup, &effective}) {
    figure->x_label = "share p of the slower processor";
    figure->x_min = 0.0;
    figure->x_max = 1.0;
    figure->y_min = 0.0;
    figure->legend = "top right";
  }
  return {speedup, effective};
}

Figure seed003_figure2(const std::vector<std::vector<double>>& configurations) {
  std::vector<std::pair<double, std::size_t>> by_heterogeneity;
  for (std::size_t c = 0; c < configurations.size(); ++c)
    by_heterogeneity.emplace_back(model::heterogeneity_degree(configurations[c]), c);
  std::sort(by_heterogeneity.begin(), by_heterogeneity.end());
  Figure figure = titled(
      "ewf-heterogeneity", "Efficiency worsening factor against heterogeneity",
      fmt::format("Clematis-Corana 1999 Fig 2: ewf = eta / eta_hom (Eq 41) with eta_i = 1 / (1 + s_i R) (Eq 38), "
                  "against H (the standard deviation of the speeds) of {} configurations, for R = 0.1 to "
                  "1.0 (top to bottom)",
                  configurations.size()),
      "degree of heterogeneity H", "ewf");
  for (int r = 1; r <= 10; ++r) {
    const double ratio = r / 10.0;
    Series series{fmt::format("R = {:.1f}", ratio), {}, {}, PlotStyle::lines_points, std::nullopt};
    for (const auto& [heterogeneity, c] : by_heterogeneity) {
      series.x.push_back(heterogeneity);
      series.y.push_back(evaluate_worsening(configurations[c], ratio).worsening_factor);
    }
    figure.series.push_back(std::move(series));
  }
  figure.legend = "outside right top";
  return figure;
}

}  // namespace hetscale::report
