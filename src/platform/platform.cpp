#include "hetscale/platform/platform.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "io/strict_json.hpp"

namespace hetscale {
namespace {

// Names must be unique: run records are matched to platform nodes by name.
void require_unique_names(const Platform& platform) {
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < platform.nodes.size(); ++i) {
    auto [where, inserted] = seen.emplace(platform.nodes[i].name, i);
    if (!inserted)
      throw InputError(platform.source, fmt::format("node '{}'", platform.nodes[i].name),
                       fmt::format("name given twice (processors {} and {}); "
                                   "names must be unique",
                                   where->second + 1, i + 1));
  }
}

void read_reference(const io::JsonObject& top, Platform& platform) {
  if (!top.has("reference")) return;
  const auto& value = top.raw("reference");
  if (value.is_string()) {
    platform.reference_name = top.string("reference");
    return;
  }
  const auto reference = top.object("reference");
  reference.allow_only({"name", "marked_speed"});
  platform.reference_name = reference.string("name");
  platform.reference_marked_speed = reference.optional_positive_number("marked_speed");
}

}  // namespace

std::vector<double> Platform::declared_speeds() const {
  std::vector<double> speeds;
  speeds.reserve(nodes.size());
  for (const auto& node : nodes) speeds.push_back(node.speed);
  return speeds;
}

std::optional<std::vector<double>> Platform::relative_speeds() const {
  auto speeds = declared_speeds();
  if (speed_kind == SpeedKind::relative) return speeds;
  std::optional<double> reference = reference_marked_speed;
  if (!reference)
    if (const auto* node = find(reference_name)) reference = node->speed;
  if (!reference) return std::nullopt;
  for (double& speed : speeds) speed /= *reference;
  return speeds;
}

const PlatformNode* Platform::find(std::string_view node_name) const {
  for (const auto& node : nodes)
    if (node.name == node_name) return &node;
  return nullptr;
}

Platform parse_platform_json(std::string_view text, const std::string& source) {
  const auto document = io::parse_json(text, source);
  const io::JsonObject top(document, source, "");
  top.allow_only({"schema", "name", "description", "reference", "nodes", "network"});
  top.require_schema(Platform::schema);

  Platform platform;
  platform.source = source;
  platform.name = top.optional_string("name").value_or("");
  if (top.has("description") && !top.raw("description").is_string())
    top.fail("description", "must be a string");
  read_reference(top, platform);

  std::optional<SpeedKind> kind;
  for (const auto& node : top.objects("nodes")) {
    node.allow_only({"name", "speed", "marked_speed", "count"});
    const std::string name = node.string("name");
    const bool relative = node.has("speed"), marked = node.has("marked_speed");
    if (relative == marked)
      node.fail("", "give exactly one of `speed` (relative to the reference) or `marked_speed` (Mflop/s)");
    const SpeedKind node_kind = relative ? SpeedKind::relative : SpeedKind::marked;
    if (kind && *kind != node_kind)
      node.fail(relative ? "speed" : "marked_speed",
                "all nodes must declare the same kind of speed (`speed` or `marked_speed`)");
    kind = node_kind;
    const double speed = node.positive_number(relative ? "speed" : "marked_speed");

    double count = 1;
    if (node.has("count")) {
      count = node.number("count");
      if (count < 1 || count != std::floor(count) || count > 1e6)
        node.fail("count", fmt::format("must be a whole number from 1 to 1000000, got {}", count));
    }
    const auto copies = static_cast<std::size_t>(count);
    for (std::size_t copy = 1; copy <= copies; ++copy)
      platform.nodes.push_back({copies == 1 ? name : fmt::format("{}-{}", name, copy), speed});
  }
  platform.speed_kind = *kind;

  if (top.has("network")) {
    const auto network = top.object("network");
    network.allow_only({"latency_s", "bandwidth_Bps"});
    platform.network = Network{network.non_negative_number("latency_s", 0.0),
                               network.positive_number("bandwidth_Bps")};
  }
  require_unique_names(platform);
  return platform;
}

Platform parse_platform_text(std::string_view text, const std::string& source) {
  Platform platform;
  platform.source = source;
  platform.speed_kind = SpeedKind::marked;
  std::istringstream lines{std::string(text)};
  std::string line;
  for (std::size_t number = 1; std::getline(lines, line); ++number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string host, speed_text, extra;
    if (!(words >> host)) continue;
    const std::string field = fmt::format("line {}", number);
    if (!(words >> speed_text))
      throw InputError(source, field, fmt::format("'{}' has no marked speed; expected 'hostname marked-speed'", host));
    if (words >> extra)
      throw InputError(source, field, fmt::format("unexpected '{}'; expected 'hostname marked-speed'", extra));
    char* end = nullptr;
    errno = 0;
    const double speed = std::strtod(speed_text.c_str(), &end);
    if (end != speed_text.c_str() + speed_text.size() || !std::isfinite(speed) || speed <= 0.0)
      throw InputError(source, field,
                       fmt::format("marked speed '{}' must be a finite number > 0 (Mflop/s)", speed_text));
    platform.nodes.push_back({host, speed});
  }
  if (platform.nodes.empty())
    throw InputError(source, "", "no nodes; expected lines of 'hostname marked-speed'");
  require_unique_names(platform);
  return platform;
}

Platform parse_platform(std::string_view text, const std::string& source) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return parse_platform_json(text, source);
  return parse_platform_text(text, source);
}

Platform read_platform(const std::string& path) { return parse_platform(io::read_text_file(path), path); }

std::string platform_json(const Platform& platform, const std::string& description) {
  nlohmann::ordered_json document{{"schema", Platform::schema}};
  if (!platform.name.empty()) document["name"] = platform.name;
  if (!description.empty()) document["description"] = description;
  const char* key = platform.speed_kind == SpeedKind::marked ? "marked_speed" : "speed";
  document["nodes"] = nlohmann::ordered_json::array();
  for (const auto& node : platform.nodes) document["nodes"].push_back({{"name", node.name}, {key, node.speed}});
  if (platform.network)
    document["network"] = {{"latency_s", platform.network->latency_s},
                           {"bandwidth_Bps", platform.network->bandwidth_Bps}};
  return document.dump(2) + "\n";
}

std::string platform_text(const Platform& platform, const std::string& comment) {
  if (platform.speed_kind != SpeedKind::marked)
    throw std::invalid_argument("the plain platform form holds marked speeds only");
  std::string text;
  std::size_t start = 0;
  while (start < comment.size()) {
    const auto end = comment.find('\n', start);
    text += "# " + comment.substr(start, end == std::string::npos ? std::string::npos : end - start) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  for (const auto& node : platform.nodes) text += fmt::format("{} {:.6g}\n", node.name, node.speed);
  return text;
}

}  // namespace hetscale
