#include "hetscale/report/partition_report.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/report/table.hpp"

namespace hetscale::report {

namespace {

double speed_of_share(const model::SpeedFunction& function, std::size_t units) {
  return function.speed(static_cast<double>(units));
}

// The makespan of the units split among the nodes that are devices (or are not).
std::optional<double> alone(const SpeedModel& model, bool devices, std::size_t units,
                            distribute::PartitionAlgorithm algorithm, bool extrapolate) {
  const auto functions = model.functions();
  std::vector<model::SpeedFunction> kind;
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (model.nodes[i].device.empty() != devices) kind.push_back(functions[i]);
  try {
    return distribute::partition_by_speed(kind, units, algorithm, extrapolate).makespan;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

std::string alone_text(const std::optional<double>& makespan, double split) {
  return makespan ? fmt::format("{:.6g} s ({:.4f} times as long)", *makespan, *makespan / split)
                  : std::string("more than their models' sizes cover");
}

}  // namespace

PartitionReport make_partition_report(const SpeedModel& model, const std::string& model_path, std::size_t units,
                                      distribute::PartitionAlgorithm algorithm, bool extrapolate) {
  PartitionReport report;
  report.model_path = model_path;
  report.model = &model;
  report.units = units;
  report.algorithm = algorithm;
  report.extrapolate = extrapolate;
  const auto functions = model.functions();
  report.partition = distribute::partition_by_speed(functions, units, algorithm, extrapolate);
  report.constant = distribute::partition_by_speed(functions, units, distribute::PartitionAlgorithm::constant, true);
  for (const auto& node : model.nodes) report.has_devices = report.has_devices || !node.device.empty();
  if (report.has_devices) {
    report.cores_alone = alone(model, false, units, algorithm, extrapolate);
    report.devices_alone = alone(model, true, units, algorithm, extrapolate);
  }
  return report;
}

std::string partition_text(const PartitionReport& report) {
  const auto functions = report.model->functions();
  std::string text = fmt::format("{} {} on {} nodes of {} ({} split{}):\n", report.units, report.model->unit,
                                 functions.size(), report.model_path, to_string(report.algorithm),
                                 report.extrapolate ? ", past the models' sizes at their last speeds" : "");
  TextTable table({"node", report.model->unit, "speed (/s)", "predicted s", "constant split", "its s"});
  for (std::size_t i = 0; i < functions.size(); ++i) {
    const auto& partition = report.partition;
    table.add_row({report.model->nodes[i].name + (partition.extrapolated[i] ? " *" : ""),
                   std::to_string(partition.units[i]),
                   fmt::format("{:.6g}", speed_of_share(functions[i], partition.units[i])),
                   fmt::format("{:.6g}", partition.seconds[i]), std::to_string(report.constant.units[i]),
                   fmt::format("{:.6g}", report.constant.seconds[i])});
  }
  text += table.render();
  bool any_extrapolated = false;
  for (const bool past : report.partition.extrapolated) any_extrapolated = any_extrapolated || past;
  if (any_extrapolated) text += "* past the node's last measured size: its last speed assumed\n";
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (const auto size = functions[i].size_where_time_decreases())
      text += fmt::format(
          "{}: its time d / s(d) falls at {:.6g} {} (a line through the origin meets its speed twice); the "
          "partitioners assume it does not, so this split may not be the best\n",
          report.model->nodes[i].name, *size, report.model->unit);
  text += fmt::format(
      "predicted makespan {:.6g} s; the constant-speed split (each node's speed at the even share, {:.6g} {}) "
      "{:.6g} s: {:.4f} times as long\n",
      report.partition.makespan, static_cast<double>(report.units) / static_cast<double>(functions.size()),
      report.model->unit, report.constant.makespan, report.constant.makespan / report.partition.makespan);
  if (report.has_devices)
    text += fmt::format("the ranks' cores alone, devices idle: {}; the devices alone: {}\n",
                        alone_text(report.cores_alone, report.partition.makespan),
                        alone_text(report.devices_alone, report.partition.makespan));
  return text;
}

std::string partition_json(const PartitionReport& report) {
  const auto functions = report.model->functions();
  nlohmann::ordered_json document{{"schema", "hetscale.partition/1"},
                                  {"model", report.model_path},
                                  {"unit", report.model->unit},
                                  {"units", report.units},
                                  {"algorithm", to_string(report.algorithm)},
                                  {"extrapolate", report.extrapolate}};
  auto split = [&](const distribute::FunctionalPartition& partition) {
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < functions.size(); ++i)
      nodes.push_back({{"name", report.model->nodes[i].name},
                       {"units", partition.units[i]},
                       {"speed", speed_of_share(functions[i], partition.units[i])},
                       {"seconds", partition.seconds[i]},
                       {"extrapolated", static_cast<bool>(partition.extrapolated[i])}});
    return nlohmann::ordered_json{{"nodes", nodes}, {"makespan", partition.makespan}};
  };
  auto& falls = document["time_falls_at"] = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (const auto size = functions[i].size_where_time_decreases()) falls[report.model->nodes[i].name] = *size;
  document["partition"] = split(report.partition);
  document["constant"] = split(report.constant);
  document["constant_over_partition"] = report.constant.makespan / report.partition.makespan;
  if (report.has_devices) {
    const auto makespan = [](const std::optional<double>& value) {
      return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
    };
    document["cores_alone_makespan"] = makespan(report.cores_alone);
    document["devices_alone_makespan"] = makespan(report.devices_alone);
  }
  return document.dump(2) + "\n";
}

std::string speed_model_text(const SpeedModel& model, const std::vector<double>& sizes) {
  const auto functions = model.functions();
  std::string text;
  for (std::size_t i = 0; i < functions.size(); ++i) {
    const auto& node = model.nodes[i];
    text += fmt::format("{}: {} point{}, {} interpolation{}\n", node.name, node.points.size(),
                        node.points.size() == 1 ? "" : "s", to_string(functions[i].interpolation_used()),
                        functions[i].is_constant() ? " (a constant speed: a marked speed)" : "");
    TextTable points({"size (" + model.unit + ")", "speed (/s)", "interval", "time (s)", "other load"});
    for (std::size_t k = 0; k < node.points.size(); ++k) {
      const auto& point = node.points[k];
      points.add_row({fmt::format("{:.6g}", point.size), fmt::format("{:.6g}", point.speed),
                      fmt::format("{:.3g}", point.interval), fmt::format("{:.6g}", point.size / point.speed),
                      k < node.other_load.size() ? fmt::format("{:.3f}", node.other_load[k]) : "-"});
    }
    text += points.render();
    if (!sizes.empty()) {
      TextTable at({"size (" + model.unit + ")", "speed (/s)", "time (s)", "past the points"});
      for (const double size : sizes)
        at.add_row({fmt::format("{:.6g}", size), fmt::format("{:.6g}", functions[i].speed(size)),
                    fmt::format("{:.6g}", functions[i].time(size)), functions[i].extrapolates(size) ? "yes" : ""});
      text += at.render();
    }
  }
  return text;
}

std::string speed_model_view_json(const SpeedModel& model, const std::vector<double>& sizes) {
  const auto functions = model.functions();
  nlohmann::ordered_json document{
      {"schema", "hetscale.fpm-view/1"}, {"unit", model.unit}, {"interpolation", to_string(model.interpolation)}};
  auto& nodes = document["nodes"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < functions.size(); ++i) {
    nlohmann::ordered_json node{{"name", model.nodes[i].name},
                                {"interpolation_used", to_string(functions[i].interpolation_used())}};
    auto& at = node["speeds"] = nlohmann::ordered_json::array();
    for (const double size : sizes)
      at.push_back({{"size", size},
                    {"speed", functions[i].speed(size)},
                    {"seconds", functions[i].time(size)},
                    {"extrapolated", functions[i].extrapolates(size)}});
    nodes.push_back(std::move(node));
  }
  return document.dump(2) + "\n";
}

}  // namespace hetscale::report
