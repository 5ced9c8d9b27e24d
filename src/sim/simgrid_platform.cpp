#include "hetscale/sim/simgrid_platform.hpp"

#include <stdexcept>

#include <fmt/core.h>

namespace hetscale::sim {
namespace {

// Names become XML attribute values and SimGrid identifiers.
std::string xml_escaped(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&apos;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

// Shortest form that reads back to the same double: the XML describes the
// same platform as the C++ build.
std::string exact(double value) { return fmt::format("{}", value); }

}  // namespace

double simulated_flops(const Platform& platform, std::size_t node) {
  if (node >= platform.nodes.size())
    throw std::invalid_argument(fmt::format("node {} is not one of the platform's {}", node, platform.nodes.size()));
  const double speed = platform.nodes[node].speed;
  if (platform.speed_kind == SpeedKind::marked) return speed * 1e6;
  if (platform.reference_marked_speed) return speed * *platform.reference_marked_speed * 1e6;
  return speed * default_reference_flops;
}

std::vector<AvailabilityPoint> simulated_availability(const PlatformNode& node) {
  std::vector<AvailabilityPoint> points;
  if (!node.availability.empty() && node.availability.front().time_s > 0.0) points.push_back({0.0, 1.0});
  points.insert(points.end(), node.availability.begin(), node.availability.end());
  return points;
}

SimulatedLink private_link(const Platform& platform) {
  if (!platform.network) return {};
  return {platform.network->latency_s / 2.0, platform.network->bandwidth_Bps};
}

std::string simgrid_platform_xml(const Platform& platform) {
  if (platform.nodes.empty()) throw std::invalid_argument("a platform for the simulator needs at least one node");
  const SimulatedLink link = private_link(platform);
  std::string xml =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<!-- written by hetscale from a hetscale.platform/1 file; see docs/simulation.md -->\n"
      "<platform version=\"4.1\">\n";
  // Speed profiles first: the hosts refer to them.
  for (std::size_t i = 0; i < platform.nodes.size(); ++i) {
    const auto& node = platform.nodes[i];
    if (node.availability.empty()) continue;
    // SimGrid requires the periodicity; -1 is its "does not repeat".
    xml += fmt::format("  <trace id=\"{}-availability\" periodicity=\"{}\">\n", xml_escaped(node.name),
                       node.availability_period_s > 0.0 ? exact(node.availability_period_s) : "-1");
    for (const auto& point : simulated_availability(node))
      xml += fmt::format("{} {}\n", exact(point.time_s), exact(point.fraction));
    xml += "  </trace>\n";
  }
  const std::string zone = platform.name.empty() ? "hetscale" : platform.name;
  xml += fmt::format("  <zone id=\"{}\" routing=\"Cluster\">\n", xml_escaped(zone));
  if (platform.network && platform.network->backbone)
    xml += fmt::format("    <backbone id=\"backbone\" bandwidth=\"{}Bps\" latency=\"{}s\"/>\n",
                       exact(platform.network->backbone->bandwidth_Bps), exact(platform.network->backbone->latency_s));
  for (std::size_t i = 0; i < platform.nodes.size(); ++i) {
    const auto name = xml_escaped(platform.nodes[i].name);
    const int cores = platform.nodes[i].cores;
    xml += fmt::format("    <host id=\"{}\" speed=\"{}f\"{}/>\n", name, exact(simulated_flops(platform, i)),
                       cores > 1 ? fmt::format(" core=\"{}\"", cores) : "");
    xml +=
        fmt::format("    <link id=\"{}-link\" bandwidth=\"{}Bps\" latency=\"{}s\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                    name, exact(link.bandwidth_Bps), exact(link.latency_s));
    xml += fmt::format("    <host_link id=\"{0}\" up=\"{0}-link_UP\" down=\"{0}-link_DOWN\"/>\n", name);
  }
  xml += "  </zone>\n";
  for (const auto& node : platform.nodes)
    if (!node.availability.empty())
      xml += fmt::format("  <trace_connect kind=\"SPEED\" trace=\"{0}-availability\" element=\"{0}\"/>\n",
                         xml_escaped(node.name));
  xml += "</platform>\n";
  return xml;
}

std::string simgrid_hostfile(const Platform& platform) {
  std::string hosts;
  for (const auto& node : platform.nodes) hosts += node.name + "\n";
  return hosts;
}

}  // namespace hetscale::sim
