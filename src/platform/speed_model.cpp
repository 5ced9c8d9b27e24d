#include "hetscale/platform/speed_model.hpp"

#include <map>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "io/provenance_json.hpp"
#include "io/strict_json.hpp"

namespace hetscale {

std::vector<model::SpeedFunction> SpeedModel::functions() const {
  std::vector<model::SpeedFunction> result;
  for (const auto& node : nodes) result.emplace_back(node.points, interpolation);
  return result;
}

SpeedModel parse_speed_model_json(std::string_view text, const std::string& source) {
  const auto document = io::parse_json(text, source);
  const io::JsonObject top(document, source, "");
  top.require_schema(SpeedModel::schema);
  top.allow_only({"schema", "unit", "interpolation", "nodes", "context"});
  SpeedModel model;
  model.source = source;
  model.unit = top.optional_string("unit").value_or("units");
  if (const auto interpolation = top.optional_string("interpolation")) {
    if (*interpolation != "linear" && *interpolation != "akima")
      top.fail("interpolation", fmt::format("must be linear or akima, got '{}'", *interpolation));
    model.interpolation = model::interpolation_from_string(*interpolation);
  }
  if (top.has("context")) {
    if (!top.raw("context").is_object()) top.fail("context", "must be an object");
    model.context = io::provenance_from(top.raw("context"));
  }
  std::map<std::string, bool> names;
  for (const auto& node : top.objects("nodes")) {
    node.allow_only({"name", "device", "points"});
    NodeSpeedModel entry;
    entry.name = node.string("name");
    if (names[entry.name]) node.fail("name", fmt::format("'{}' names two nodes", entry.name));
    names[entry.name] = true;
    if (node.has("device")) {
      entry.device = node.string("device");
      if (model.nodes.empty())
        node.fail("device", "the first node is a device: a device node follows the node of its rank's cores");
    }
    const auto points = node.objects("points");
    bool any_load = false;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& point = points[i];
      point.allow_only({"size", "speed", "interval", "repetitions", "other_load"});
      model::SpeedPoint value;
      value.size = point.positive_number("size");
      value.speed = point.positive_number("speed");
      value.interval = point.non_negative_number("interval", 0.0);
      if (point.has("repetitions")) {
        const double repetitions = point.number("repetitions");
        if (repetitions < 1 || repetitions != static_cast<double>(static_cast<long long>(repetitions)))
          point.fail("repetitions", fmt::format("must be a whole number >= 1, got {}", repetitions));
      }
      if (i > 0 && value.size <= entry.points.back().size)
        point.fail("size", fmt::format("sizes must increase, got {} after {}", value.size, entry.points.back().size));
      const double load = point.non_negative_number("other_load", 0.0);
      if (load > 1.0) point.fail("other_load", fmt::format("must be in [0, 1], got {}", load));
      any_load = any_load || point.has("other_load");
      entry.other_load.push_back(load);
      entry.points.push_back(value);
    }
    if (!any_load) entry.other_load.clear();
    model.nodes.push_back(std::move(entry));
  }
  return model;
}

SpeedModel read_speed_model(const std::string& path) { return parse_speed_model_json(io::read_text_file(path), path); }

std::string speed_model_json(const SpeedModel& model) {
  nlohmann::ordered_json document{
      {"schema", SpeedModel::schema}, {"unit", model.unit}, {"interpolation", model::to_string(model.interpolation)}};
  auto& nodes = document["nodes"] = nlohmann::ordered_json::array();
  for (const auto& node : model.nodes) {
    nlohmann::ordered_json entry{{"name", node.name}};
    if (!node.device.empty()) entry["device"] = node.device;
    auto& points = entry["points"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < node.points.size(); ++i) {
      const auto& point = node.points[i];
      nlohmann::ordered_json value{{"size", point.size}, {"speed", point.speed}, {"interval", point.interval}};
      if (i < node.other_load.size()) value["other_load"] = node.other_load[i];
      points.push_back(std::move(value));
    }
    nodes.push_back(std::move(entry));
  }
  document["context"] = io::provenance_document(model.context);
  return document.dump(2) + "\n";
}

}  // namespace hetscale
