// A platform as SimGrid sees it, as text (no SimGrid here): the simulated
// host speeds (marked speeds in Mflop/s x 1e6, relative speeds x the
// reference's marked speed or x 1e9), the private links (half the
// node-to-node latency each way), the backbone of a cluster, the speed
// profiles of nodes whose availability varies, XML escaping of names, and
// smpirun's hostfile. That SimGrid reads the XML as the same platform the
// C++ builder makes is checked in tests/run/simgrid_engine_test.cpp.
#include "hetscale/sim/simgrid_platform.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/assertions.hpp"

namespace hetscale::sim {
namespace {

using testing_support::RelNear;

Platform Parse(const std::string& json) { return parse_platform_json(json, "p.json"); }

// The attribute `attribute` of the element `<element id="id" ...>` in `xml`
// (id as written, escaped), or nullopt when there is no such element or attribute.
std::optional<std::string> Attribute(const std::string& xml, const std::string& element, const std::string& id,
                                     const std::string& attribute) {
  const auto start = xml.find("<" + element + " id=\"" + id + "\"");
  if (start == std::string::npos) return std::nullopt;
  const auto end = xml.find('>', start);
  const std::string tag = xml.substr(start, end - start);
  const auto at = tag.find(" " + attribute + "=\"");
  if (at == std::string::npos) return std::nullopt;
  const auto value_start = at + attribute.size() + 3;
  return tag.substr(value_start, tag.find('"', value_start) - value_start);
}

// The number in `value` before the unit `unit` ("1e9f" with unit "f" is 1e9);
// NaN (failing any comparison) when the value does not end with the unit.
double Number(const std::optional<std::string>& value, const std::string& unit) {
  if (!value || value->size() <= unit.size() || value->compare(value->size() - unit.size(), unit.size(), unit) != 0)
    return std::nan("");
  std::size_t used = 0;
  const std::string number = value->substr(0, value->size() - unit.size());
  const double parsed = std::stod(number, &used);
  return used == number.size() ? parsed : std::nan("");
}

double HostSpeed(const std::string& xml, const std::string& host) {
  return Number(Attribute(xml, "host", host, "speed"), "f");
}

std::size_t Count(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

// ------------------------------------------------------------ host speeds

// Marked speeds are Mflop/s: the simulated host computes marked x 1e6 flop/s
TEST(SimgridPlatform, MarkedSpeedsTimesOneMillion) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "fast", "marked_speed": 40}, {"name": "mid", "marked_speed": 20.29},
              {"name": "slow", "marked_speed": 10, "count": 2}]})");
  EXPECT_TRUE(RelNear(simulated_flops(platform, 0), 40e6));
  EXPECT_TRUE(RelNear(simulated_flops(platform, 1), 20.29e6));
  EXPECT_TRUE(RelNear(simulated_flops(platform, 2), 10e6));
  EXPECT_TRUE(RelNear(simulated_flops(platform, 3), 10e6));
  const auto xml = simgrid_platform_xml(platform);
  EXPECT_TRUE(RelNear(HostSpeed(xml, "fast"), 40e6)) << xml;
  EXPECT_TRUE(RelNear(HostSpeed(xml, "mid"), 20.29e6)) << xml;
  EXPECT_TRUE(RelNear(HostSpeed(xml, "slow-1"), 10e6)) << xml;
  EXPECT_TRUE(RelNear(HostSpeed(xml, "slow-2"), 10e6)) << xml;
  EXPECT_EQ(Count(xml, "<host "), 4u) << xml;
}

// A reference marked speed does not rescale marked speeds: they are already flop rates
TEST(SimgridPlatform, MarkedSpeedsIgnoreTheReference) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "reference": {"name": "r", "marked_speed": 80},
    "nodes": [{"name": "a", "marked_speed": 40}]})");
  EXPECT_TRUE(RelNear(simulated_flops(platform, 0), 40e6));
}

// Relative speeds with the reference's marked speed: speed x marked x 1e6
TEST(SimgridPlatform, RelativeSpeedsTimesTheReferenceMarkedSpeed) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "reference": {"name": "r", "marked_speed": 20},
    "nodes": [{"name": "a", "speed": 1.5}, {"name": "b", "speed": 0.25}]})");
  EXPECT_TRUE(RelNear(simulated_flops(platform, 0), 30e6));  // 1.5 x 20 Mflop/s
  EXPECT_TRUE(RelNear(simulated_flops(platform, 1), 5e6));   // 0.25 x 20 Mflop/s
  const auto xml = simgrid_platform_xml(platform);
  EXPECT_TRUE(RelNear(HostSpeed(xml, "a"), 30e6)) << xml;
  EXPECT_TRUE(RelNear(HostSpeed(xml, "b"), 5e6)) << xml;
}

// Relative speeds without a reference marked speed: speed x 1e9 (default_reference_flops)
TEST(SimgridPlatform, RelativeSpeedsWithoutReferenceSpeedUseTheDefault) {
  EXPECT_EQ(default_reference_flops, 1e9);
  const auto unnamed = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}, {"name": "b", "speed": 0.5}, {"name": "c", "speed": 0.25}]})");
  EXPECT_TRUE(RelNear(simulated_flops(unnamed, 0), 1e9));
  EXPECT_TRUE(RelNear(simulated_flops(unnamed, 1), 0.5e9));
  EXPECT_TRUE(RelNear(simulated_flops(unnamed, 2), 0.25e9));
  const auto xml = simgrid_platform_xml(unnamed);
  EXPECT_TRUE(RelNear(HostSpeed(xml, "a"), 1e9)) << xml;
  EXPECT_TRUE(RelNear(HostSpeed(xml, "b"), 0.5e9)) << xml;
  EXPECT_TRUE(RelNear(HostSpeed(xml, "c"), 0.25e9)) << xml;

  // a reference that only has a name gives no speed either
  const auto named = Parse(R"({"schema": "hetscale.platform/1", "reference": "1 GHz node",
    "nodes": [{"name": "a", "speed": 2}]})");
  EXPECT_TRUE(RelNear(simulated_flops(named, 0), 2e9));
}

// A node that is not there is refused
TEST(SimgridPlatform, NodeOutOfRangeIsRefused) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}]})");
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { simulated_flops(platform, 1); }, {"node 1"}));
}

// ------------------------------------------------------------------ links

// Every node's private link has half the node-to-node latency and the node bandwidth
TEST(SimgridPlatform, PrivateLinkHasHalfTheLatency) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
    "network": {"latency_s": "100us", "bandwidth_Bps": "100Mbps"}})");
  const SimulatedLink link = private_link(platform);
  EXPECT_TRUE(RelNear(link.latency_s, 50e-6));
  EXPECT_TRUE(RelNear(link.bandwidth_Bps, 12.5e6));
}

// No network: no latency, 1 Gbit/s
TEST(SimgridPlatform, PrivateLinkDefaultsWithoutNetwork) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}]})");
  const SimulatedLink link = private_link(platform);
  EXPECT_EQ(link.latency_s, 0.0);
  EXPECT_EQ(link.bandwidth_Bps, 125e6);
  EXPECT_EQ(default_bandwidth_Bps, 125e6);
  const auto xml = simgrid_platform_xml(platform);
  EXPECT_EQ(Number(Attribute(xml, "link", "a-link", "latency"), "s"), 0.0) << xml;
  EXPECT_TRUE(RelNear(Number(Attribute(xml, "link", "a-link", "bandwidth"), "Bps"), 125e6)) << xml;
}

// A star: one zone of routing Cluster, one split-duplex link per host, the
// host's link up and down, no backbone
TEST(SimgridPlatform, StarHasOneSplitDuplexLinkPerHostAndNoBackbone) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "name": "tiny",
    "nodes": [{"name": "fast", "marked_speed": 40}, {"name": "slow", "marked_speed": 10}],
    "network": {"latency_s": 0.0001, "bandwidth_Bps": 12500000}})");
  const auto xml = simgrid_platform_xml(platform);
  EXPECT_NE(xml.find("<platform version=\"4.1\">"), std::string::npos) << xml;
  EXPECT_EQ(Attribute(xml, "zone", "tiny", "routing"), "Cluster") << xml;
  EXPECT_EQ(Count(xml, "<zone "), 1u) << xml;
  EXPECT_EQ(Count(xml, "<link "), 2u) << xml;
  EXPECT_EQ(Count(xml, "<host_link "), 2u) << xml;
  for (const std::string host : {"fast", "slow"}) {
    EXPECT_TRUE(RelNear(Number(Attribute(xml, "link", host + "-link", "latency"), "s"), 0.00005)) << host;
    EXPECT_TRUE(RelNear(Number(Attribute(xml, "link", host + "-link", "bandwidth"), "Bps"), 12.5e6)) << host;
    EXPECT_EQ(Attribute(xml, "link", host + "-link", "sharing_policy"), "SPLITDUPLEX") << host;
    EXPECT_EQ(Attribute(xml, "host_link", host, "up"), host + "-link_UP") << host;
    EXPECT_EQ(Attribute(xml, "host_link", host, "down"), host + "-link_DOWN") << host;
  }
  EXPECT_EQ(xml.find("backbone"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("trace"), std::string::npos) << xml;  // no availability, no profile
  // a platform without a name gets the zone "hetscale"
  const auto unnamed = simgrid_platform_xml(Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}]})"));
  EXPECT_EQ(Attribute(unnamed, "zone", "hetscale", "routing"), "Cluster") << unnamed;
}

// A cluster: the same private links, and one backbone with its own latency and bandwidth
TEST(SimgridPlatform, ClusterHasTheBackbone) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}, {"name": "b", "speed": 1}],
    "network": {"latency_s": "100us", "bandwidth_Bps": "1Gbps", "topology": "cluster",
                "backbone": {"latency_s": "1ms", "bandwidth_Bps": "10Gbps"}}})");
  const auto xml = simgrid_platform_xml(platform);
  EXPECT_EQ(Count(xml, "<backbone "), 1u) << xml;
  EXPECT_TRUE(RelNear(Number(Attribute(xml, "backbone", "backbone", "latency"), "s"), 1e-3)) << xml;
  EXPECT_TRUE(RelNear(Number(Attribute(xml, "backbone", "backbone", "bandwidth"), "Bps"), 1.25e9)) << xml;
  EXPECT_TRUE(RelNear(Number(Attribute(xml, "link", "a-link", "latency"), "s"), 50e-6)) << xml;
  EXPECT_TRUE(RelNear(Number(Attribute(xml, "link", "b-link", "bandwidth"), "Bps"), 125e6)) << xml;
  // the backbone is inside the zone
  EXPECT_LT(xml.find("<zone "), xml.find("<backbone ")) << xml;
  EXPECT_LT(xml.find("<backbone "), xml.find("</zone>")) << xml;
}

// -------------------------------------------------------- availability

// A node whose availability varies gets a speed profile (a trace, connected
// to its host's speed); the points are "time fraction" lines; the period, if any
TEST(SimgridPlatform, AvailabilityBecomesSpeedTraces) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "once", "speed": 1, "availability": [[0, 1], [10, 0.5]]},
              {"name": "steady", "speed": 1},
              {"name": "daily", "speed": 1, "availability": [[0.5, 0.25], [2, 1]], "availability_period_s": 4}]})");
  const auto xml = simgrid_platform_xml(platform);
  EXPECT_EQ(Count(xml, "<trace "), 2u) << xml;
  EXPECT_EQ(Count(xml, "<trace_connect "), 2u) << xml;
  EXPECT_EQ(xml.find("steady-availability"), std::string::npos) << xml;

  // "once": not periodic. SimGrid's DTD (4.1) requires `periodicity` on
  // every <trace>; a value <= 0 (SimGrid's own default is -1) does not repeat
  const auto once = Attribute(xml, "trace", "once-availability", "periodicity");
  EXPECT_TRUE(once.has_value()) << "<trace> without the required periodicity: SimGrid refuses the file\n" << xml;
  if (once) {
    EXPECT_LE(std::stod(*once), 0.0) << xml;
  }
  EXPECT_NE(xml.find("\">\n0 1\n10 0.5\n  </trace>"), std::string::npos) << xml;
  // "daily": repeats every 4 s
  EXPECT_TRUE(RelNear(std::stod(Attribute(xml, "trace", "daily-availability", "periodicity").value_or("nan")), 4.0))
      << xml;
  EXPECT_NE(xml.find("\n0.5 0.25\n2 1\n  </trace>"), std::string::npos) << xml;

  for (const std::string host : {"once", "daily"}) {
    const std::string connect =
        "<trace_connect kind=\"SPEED\" trace=\"" + host + "-availability\" element=\"" + host + "\"/>";
    EXPECT_NE(xml.find(connect), std::string::npos) << host << "\n" << xml;
    // the trace is declared before it is used, and connected after the host exists
    EXPECT_LT(xml.find("<trace id=\"" + host + "-availability\""), xml.find("<host id=\"" + host + "\"")) << xml;
    EXPECT_LT(xml.find("<host id=\"" + host + "\""), xml.find(connect)) << xml;
  }
  // the host's speed is its full speed; the profile scales it
  EXPECT_TRUE(RelNear(HostSpeed(xml, "once"), 1e9)) << xml;
}

// --------------------------------------------------------------- names

// Names become XML attribute values: & < > " ' are escaped (not in the hostfile)
TEST(SimgridPlatform, NamesAreEscapedInTheXml) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1", "name": "R&D <lab>",
    "nodes": [{"name": "a&b", "speed": 1, "availability": [[1, 0.5]]}, {"name": "say \"hi\" 'x' <y>", "speed": 1}]})");
  const auto xml = simgrid_platform_xml(platform);
  const std::string a = "a&amp;b", quoted = "say &quot;hi&quot; &apos;x&apos; &lt;y&gt;";
  EXPECT_EQ(Attribute(xml, "zone", "R&amp;D &lt;lab&gt;", "routing"), "Cluster") << xml;
  EXPECT_TRUE(RelNear(HostSpeed(xml, a), 1e9)) << xml;
  EXPECT_TRUE(RelNear(HostSpeed(xml, quoted), 1e9)) << xml;
  EXPECT_EQ(Attribute(xml, "host_link", a, "up"), a + "-link_UP") << xml;
  EXPECT_EQ(Attribute(xml, "host_link", quoted, "down"), quoted + "-link_DOWN") << xml;
  EXPECT_TRUE(Attribute(xml, "link", quoted + "-link", "bandwidth").has_value()) << xml;
  EXPECT_TRUE(Attribute(xml, "trace", a + "-availability", "id").has_value()) << xml;
  EXPECT_NE(xml.find("trace=\"" + a + "-availability\" element=\"" + a + "\""), std::string::npos) << xml;
  // nothing unescaped is left
  EXPECT_EQ(xml.find("a&b"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("\"hi\""), std::string::npos) << xml;
  EXPECT_EQ(xml.find("'x'"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("<y>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("<lab>"), std::string::npos) << xml;
  // the hostfile is plain text: names as they are
  EXPECT_EQ(simgrid_hostfile(platform), "a&b\nsay \"hi\" 'x' <y>\n");
}

// smpirun's hostfile: one host per line, in node order (rank i on line i+1), count expanded
TEST(SimgridPlatform, HostfileHasOneLinePerNodeInOrder) {
  const auto platform = Parse(R"({"schema": "hetscale.platform/1",
    "nodes": [{"name": "head", "marked_speed": 40}, {"name": "blade", "marked_speed": 20, "count": 3},
              {"name": "v210", "marked_speed": 36}]})");
  EXPECT_EQ(simgrid_hostfile(platform), "head\nblade-1\nblade-2\nblade-3\nv210\n");
  // the XML has the same hosts in the same order
  const auto xml = simgrid_platform_xml(platform);
  std::size_t at = 0;
  for (const std::string host : {"head", "blade-1", "blade-2", "blade-3", "v210"}) {
    const auto found = xml.find("<host id=\"" + host + "\"", at);
    ASSERT_NE(found, std::string::npos) << host << " after offset " << at << "\n" << xml;
    at = found;
  }
}

// A platform without nodes cannot be simulated
TEST(SimgridPlatform, EmptyPlatformIsRefused) {
  Platform empty;
  EXPECT_TRUE(
      testing_support::ThrowsInvalidArgumentNaming([&] { simgrid_platform_xml(empty); }, {"at least one node"}));
  EXPECT_EQ(simgrid_hostfile(empty), "");
}

}  // namespace
}  // namespace hetscale::sim
