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

// A field that may be a string with a unit: its value by `parse`, or none
// when the field holds something else (read then as a plain number).
std::optional<double> read_unit_string(const io::JsonObject& object, std::string_view key,
                                       double (*parse)(const std::string&)) {
  if (!object.has(key) || !object.raw(key).is_string()) return std::nullopt;
  try {
    return parse(object.raw(key).get<std::string>());
  } catch (const std::invalid_argument& error) {
    object.fail(key, error.what());
  }
}

// A number of seconds, or a string with a unit ("5ms").
double read_latency(const io::JsonObject& object, std::string_view key) {
  if (const auto latency = read_unit_string(object, key, parse_latency)) return *latency;
  return object.non_negative_number(key, 0.0);
}

// A number of bytes per second, or a string with a unit ("100Mbps").
double read_bandwidth(const io::JsonObject& object, std::string_view key) {
  if (const auto bandwidth = read_unit_string(object, key, parse_bandwidth)) return *bandwidth;
  return object.positive_number(key);
}

Link read_link(const io::JsonObject& object) {
  object.allow_only({"latency_s", "bandwidth_Bps"});
  return {read_latency(object, "latency_s"), read_bandwidth(object, "bandwidth_Bps")};
}

// "availability": [[time_s, fraction], ...] in increasing time, fractions in (0, 1].
void read_availability(const io::JsonObject& node, PlatformNode& into) {
  if (!node.has("availability")) {
    if (node.has("availability_period_s")) node.fail("availability_period_s", "is given without `availability`");
    return;
  }
  const auto& points = node.raw("availability");
  if (!points.is_array() || points.empty())
    node.fail("availability", "must be a non-empty array of [time_s, fraction] pairs");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& point = points[i];
    const std::string field = fmt::format("availability[{}]", i);
    if (!point.is_array() || point.size() != 2 || !point[0].is_number() || !point[1].is_number())
      node.fail(field, "must be a [time_s, fraction] pair of numbers");
    const double time = point[0].get<double>(), fraction = point[1].get<double>();
    if (!std::isfinite(time) || time < 0.0 || (!into.availability.empty() && time <= into.availability.back().time_s))
      node.fail(field, fmt::format("time {} must be >= 0 and later than the point before", time));
    if (!std::isfinite(fraction) || fraction <= 0.0 || fraction > 1.0)
      node.fail(field, fmt::format("fraction {} must be in (0, 1]: a node cannot stop (speed 0) or exceed its speed",
                                   fraction));
    into.availability.push_back({time, fraction});
  }
  if (node.has("availability_period_s")) {
    into.availability_period_s = node.positive_number("availability_period_s");
    if (into.availability_period_s <= into.availability.back().time_s)
      node.fail("availability_period_s",
                fmt::format("must be later than the last availability time ({})", into.availability.back().time_s));
  }
}

// A number followed by one of `units` (name, factor).
double parse_with_unit(const std::string& text, const std::vector<std::pair<std::string, double>>& units,
                       const char* what, const char* allowed_values, const char* allowed) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end != begin) {
    const std::string unit(end);
    for (const auto& [name, factor] : units)
      if (unit == name && std::isfinite(value) && value >= 0.0) return value * factor;
  }
  throw std::invalid_argument(
      fmt::format("{} '{}' does not parse; allowed: {} ({})", what, text, allowed_values, allowed));
}

}  // namespace

std::string to_string(Topology topology) { return topology == Topology::star ? "star" : "cluster"; }

double parse_latency(const std::string& text) {
  return parse_with_unit(text, {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}}, "latency",
                         "a number >= 0 with a unit", "s, ms, us, ns");
}

double parse_bandwidth(const std::string& text) {
  const double bandwidth =
      parse_with_unit(text,
                      {{"Bps", 1.0},
                       {"kBps", 1e3},
                       {"KBps", 1e3},
                       {"MBps", 1e6},
                       {"GBps", 1e9},
                       {"bps", 0.125},
                       {"kbps", 125.0},
                       {"Kbps", 125.0},
                       {"Mbps", 1.25e5},
                       {"Gbps", 1.25e8}},
                      "bandwidth", "a number > 0 with a unit", "Bps, kBps, MBps, GBps, bps, kbps, Mbps, Gbps");
  if (bandwidth <= 0.0) throw std::invalid_argument(fmt::format("bandwidth '{}' must be > 0", text));
  return bandwidth;
}

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
  top.require_schema(Platform::schema);
  top.allow_only({"schema", "name", "description", "reference", "nodes", "network"});

  Platform platform;
  platform.source = source;
  platform.name = top.optional_string("name").value_or("");
  if (top.has("description") && !top.raw("description").is_string()) top.fail("description", "must be a string");
  read_reference(top, platform);

  std::optional<SpeedKind> kind;
  for (const auto& node : top.objects("nodes")) {
    node.allow_only({"name", "speed", "marked_speed", "count", "cores", "availability", "availability_period_s"});
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
    PlatformNode read;
    read.speed = speed;
    if (node.has("cores")) {
      const double cores = node.number("cores");
      if (cores < 1 || cores != std::floor(cores) || cores > 4096)
        node.fail("cores", fmt::format("must be a whole number from 1 to 4096, got {}", cores));
      read.cores = static_cast<int>(cores);
    }
    read_availability(node, read);
    const auto copies = static_cast<std::size_t>(count);
    for (std::size_t copy = 1; copy <= copies; ++copy) {
      read.name = copies == 1 ? name : fmt::format("{}-{}", name, copy);
      platform.nodes.push_back(read);
    }
  }
  platform.speed_kind = *kind;

  if (top.has("network")) {
    const auto network = top.object("network");
    network.allow_only({"latency_s", "bandwidth_Bps", "topology", "backbone"});
    Network read;
    read.latency_s = read_latency(network, "latency_s");
    read.bandwidth_Bps = read_bandwidth(network, "bandwidth_Bps");
    const std::string topology = network.optional_string("topology").value_or("star");
    if (topology == "cluster")
      read.topology = Topology::cluster;
    else if (topology != "star")
      network.fail("topology", fmt::format("unknown topology '{}'; allowed: star, cluster", topology));
    if (read.topology == Topology::cluster) {
      if (!network.has("backbone")) network.fail("backbone", "is required with topology 'cluster'");
      read.backbone = read_link(network.object("backbone"));
    } else if (network.has("backbone")) {
      network.fail("backbone", "is only allowed with topology 'cluster'");
    }
    platform.network = read;
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
    platform.nodes.push_back({host, speed, {}, 0.0});
  }
  if (platform.nodes.empty()) throw InputError(source, "", "no nodes; expected lines of 'hostname marked-speed'");
  require_unique_names(platform);
  return platform;
}

Platform parse_platform(std::string_view text, const std::string& source) {
  if (io::looks_like_json(text)) return parse_platform_json(text, source);
  return parse_platform_text(text, source);
}

Platform read_platform(const std::string& path) { return parse_platform(io::read_text_file(path), path); }

std::vector<double> read_marked_speeds(const std::string& path) {
  const auto platform = read_platform(path);
  if (platform.speed_kind != SpeedKind::marked)
    throw InputError(path, "nodes", "declares relative speeds; marked speeds (Mflop/s) are needed");
  return platform.declared_speeds();
}

std::string platform_json(const Platform& platform, const std::string& description) {
  nlohmann::ordered_json document{{"schema", Platform::schema}};
  if (!platform.name.empty()) document["name"] = platform.name;
  if (!description.empty()) document["description"] = description;
  const char* key = platform.speed_kind == SpeedKind::marked ? "marked_speed" : "speed";
  document["nodes"] = nlohmann::ordered_json::array();
  for (const auto& node : platform.nodes) {
    nlohmann::ordered_json entry{{"name", node.name}, {key, node.speed}};
    if (node.cores != 1) entry["cores"] = node.cores;
    if (!node.availability.empty()) {
      auto& points = entry["availability"] = nlohmann::ordered_json::array();
      for (const auto& point : node.availability) points.push_back({point.time_s, point.fraction});
      if (node.availability_period_s > 0.0) entry["availability_period_s"] = node.availability_period_s;
    }
    document["nodes"].push_back(entry);
  }
  if (platform.network) {
    const auto& network = *platform.network;
    auto& entry = document["network"] = {{"latency_s", network.latency_s}, {"bandwidth_Bps", network.bandwidth_Bps}};
    if (network.topology == Topology::cluster) {
      entry["topology"] = "cluster";
      entry["backbone"] = {{"latency_s", network.backbone->latency_s},
                           {"bandwidth_Bps", network.backbone->bandwidth_Bps}};
    }
  }
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
