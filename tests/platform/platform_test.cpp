// Platform files: the JSON form (schema "hetscale.platform/1": nodes with
// `speed` relative to a reference or `marked_speed` in Mflop/s, optional
// `count`, network and reference) and seed 001's plain text form
// ("hostname marked-speed" per line, # comments). Bad input is an InputError
// whose what() is one line "SOURCE: FIELD: problem".
#include "hetscale/platform/platform.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetscale/io/input_error.hpp"
#include "support/assertions.hpp"

namespace hetscale {
namespace {

// The what() of the InputError that parsing `text` as JSON throws ("" if none).
std::string JsonError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_platform_json(text, "p.json"); });
}

std::string TextError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_platform_text(text, "p.txt"); });
}

std::vector<std::string> Names(const Platform& platform) {
  std::vector<std::string> names;
  for (const auto& node : platform.nodes) names.push_back(node.name);
  return names;
}

// ---------------------------------------------------------------- JSON form

// format: `speed` is relative to the reference machine (seed 000 v_i, seed 003 s_i)
TEST(PlatformJson, RelativeSpeedsAreReadInOrder) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "name": "two workers",
    "description": "a test",
    "nodes": [{"name": "fast", "speed": 2.5}, {"name": "slow", "speed": 0.5}]
  })",
                                            "p.json");
  EXPECT_EQ(platform.source, "p.json");
  EXPECT_EQ(platform.name, "two workers");
  EXPECT_EQ(platform.speed_kind, SpeedKind::relative);
  EXPECT_EQ(Names(platform), (std::vector<std::string>{"fast", "slow"}));
  EXPECT_EQ(platform.declared_speeds(), (std::vector<double>{2.5, 0.5}));
  EXPECT_TRUE(platform.reference_name.empty());
  EXPECT_FALSE(platform.reference_marked_speed.has_value());
  EXPECT_FALSE(platform.network.has_value());
}

// format: `marked_speed` is the benchmarked sustained speed in Mflop/s (seed 001 C_i)
TEST(PlatformJson, MarkedSpeedsAreReadInOrder) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "server", "marked_speed": 36.45}, {"name": "blade", "marked_speed": 20.29}]
  })",
                                            "p.json");
  EXPECT_EQ(platform.speed_kind, SpeedKind::marked);
  EXPECT_EQ(Names(platform), (std::vector<std::string>{"server", "blade"}));
  EXPECT_EQ(platform.declared_speeds(), (std::vector<double>{36.45, 20.29}));
  EXPECT_EQ(platform.name, "");
}

// format: `count` k expands a node into k processors named name-1 .. name-k
TEST(PlatformJson, CountExpandsToNumberedNodes) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "head", "speed": 2},
              {"name": "blade", "speed": 0.75, "count": 3},
              {"name": "solo", "speed": 1, "count": 1}]
  })",
                                            "p.json");
  EXPECT_EQ(Names(platform), (std::vector<std::string>{"head", "blade-1", "blade-2", "blade-3", "solo"}));
  EXPECT_EQ(platform.declared_speeds(), (std::vector<double>{2, 0.75, 0.75, 0.75, 1}));
}

// format: optional network {latency_s, bandwidth_Bps}
TEST(PlatformJson, NetworkIsRead) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}],
    "network": {"latency_s": 0.005, "bandwidth_Bps": 12500000}
  })",
                                            "p.json");
  ASSERT_TRUE(platform.network.has_value());
  EXPECT_DOUBLE_EQ(platform.network->latency_s, 0.005);
  EXPECT_DOUBLE_EQ(platform.network->bandwidth_Bps, 12500000.0);
}

// format: latency_s may be left out (0); bandwidth_Bps is required
TEST(PlatformJson, NetworkLatencyDefaultsToZero) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}],
    "network": {"bandwidth_Bps": 1e9}
  })",
                                            "p.json");
  ASSERT_TRUE(platform.network.has_value());
  EXPECT_EQ(platform.network->latency_s, 0.0);
  EXPECT_EQ(platform.network->bandwidth_Bps, 1e9);
}

// format: `reference` may be a string, the name of the reference machine
TEST(PlatformJson, ReferenceAsString) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "reference": "1 GHz node",
    "nodes": [{"name": "a", "speed": 1.5}]
  })",
                                            "p.json");
  EXPECT_EQ(platform.reference_name, "1 GHz node");
  EXPECT_FALSE(platform.reference_marked_speed.has_value());
}

// format: `reference` may be an object {name, marked_speed}
TEST(PlatformJson, ReferenceAsObject) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "reference": {"name": "ref", "marked_speed": 40},
    "nodes": [{"name": "a", "marked_speed": 60}]
  })",
                                            "p.json");
  EXPECT_EQ(platform.reference_name, "ref");
  ASSERT_TRUE(platform.reference_marked_speed.has_value());
  EXPECT_EQ(*platform.reference_marked_speed, 40.0);
}

// seed 003 s_i: relative speeds are already relative to the reference
TEST(PlatformRelativeSpeeds, RelativeSpeedsAreReturnedAsGiven) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1.25}, {"name": "b", "speed": 0.5, "count": 2}]
  })",
                                            "p.json");
  const auto relative = platform.relative_speeds();
  ASSERT_TRUE(relative.has_value());
  EXPECT_EQ(*relative, (std::vector<double>{1.25, 0.5, 0.5}));
}

// seed 003 s_i from marked speeds: C_i / C_ref with the reference's marked speed given
TEST(PlatformRelativeSpeeds, MarkedSpeedsDividedByReferenceMarkedSpeed) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "reference": {"name": "ref", "marked_speed": 200},
    "nodes": [{"name": "a", "marked_speed": 300}, {"name": "b", "marked_speed": 100}]
  })",
                                            "p.json");
  const auto relative = platform.relative_speeds();
  ASSERT_TRUE(relative.has_value());
  // 300 / 200 = 1.5, 100 / 200 = 0.5
  EXPECT_EQ(*relative, (std::vector<double>{1.5, 0.5}));
  // the declared speeds stay as declared
  EXPECT_EQ(platform.declared_speeds(), (std::vector<double>{300, 100}));
}

// seed 003 s_i from marked speeds: the reference may name one of the nodes
TEST(PlatformRelativeSpeeds, MarkedSpeedsDividedByTheNamedReferenceNode) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "reference": "b",
    "nodes": [{"name": "a", "marked_speed": 30}, {"name": "b", "marked_speed": 20},
              {"name": "c", "marked_speed": 10}]
  })",
                                            "p.json");
  const auto relative = platform.relative_speeds();
  ASSERT_TRUE(relative.has_value());
  // 30 / 20 = 1.5, 20 / 20 = 1, 10 / 20 = 0.5
  EXPECT_EQ(*relative, (std::vector<double>{1.5, 1.0, 0.5}));
}

// Marked speeds with no reference (or one that names no node and gives no speed) have no s_i
TEST(PlatformRelativeSpeeds, MarkedSpeedsWithoutKnownReferenceGiveNone) {
  const auto no_reference = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "marked_speed": 30}]
  })",
                                                "p.json");
  EXPECT_FALSE(no_reference.relative_speeds().has_value());

  const auto unknown_reference = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "reference": "elsewhere",
    "nodes": [{"name": "a", "marked_speed": 30}]
  })",
                                                     "p.json");
  EXPECT_FALSE(unknown_reference.relative_speeds().has_value());
}

// Platform::find matches by exact name, after count expansion
TEST(PlatformFind, FindsNodesByExpandedName) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}, {"name": "b", "speed": 3, "count": 2}]
  })",
                                            "p.json");
  ASSERT_NE(platform.find("b-2"), nullptr);
  EXPECT_EQ(platform.find("b-2"), &platform.nodes[2]);
  EXPECT_EQ(platform.find("a"), &platform.nodes[0]);
  EXPECT_EQ(platform.find("b"), nullptr);
  EXPECT_EQ(platform.find("c"), nullptr);
}

// ---------------------------------------------------------- plain text form

// seed 001: a static file of "hostname marked-speed" pairs; # starts a comment
TEST(PlatformText, HostnameMarkedSpeedLinesWithCommentsAndBlankLines) {
  const auto platform = parse_platform_text(
      "# seed 001, Table 2\n"
      "\n"
      "sunwulf-cpu0 20.88   # the server\n"
      "   \t\n"
      "hpc-1\t20.29\n"
      "  # indented comment\n"
      "v210-0 36.45",
      "p.txt");
  EXPECT_EQ(platform.source, "p.txt");
  EXPECT_EQ(platform.speed_kind, SpeedKind::marked);
  EXPECT_EQ(Names(platform), (std::vector<std::string>{"sunwulf-cpu0", "hpc-1", "v210-0"}));
  EXPECT_EQ(platform.declared_speeds(), (std::vector<double>{20.88, 20.29, 36.45}));
  EXPECT_TRUE(platform.reference_name.empty());
  EXPECT_FALSE(platform.relative_speeds().has_value());
  EXPECT_FALSE(platform.network.has_value());
}

// format: parse_platform reads JSON when the text starts with '{' (after white space), else text
TEST(PlatformAutoDetect, JsonWhenTextStartsWithBraceElsePlainText) {
  const auto json = parse_platform("  \n {\"schema\": \"hetscale.platform/1\", \"nodes\": [{\"name\": \"a\", "
                                   "\"speed\": 2}]}",
                                   "p.json");
  EXPECT_EQ(json.speed_kind, SpeedKind::relative);
  EXPECT_EQ(Names(json), std::vector<std::string>{"a"});
  EXPECT_EQ(json.declared_speeds(), std::vector<double>{2});

  const auto text = parse_platform("# hosts\nh1 10\nh2 20\n", "p.txt");
  EXPECT_EQ(text.speed_kind, SpeedKind::marked);
  EXPECT_EQ(Names(text), (std::vector<std::string>{"h1", "h2"}));
  EXPECT_EQ(text.declared_speeds(), (std::vector<double>{10, 20}));
}

// format: a file not starting with '{' is read as text, and its errors are text errors
TEST(PlatformAutoDetect, NonJsonTextGetsTextErrors) {
  try {
    parse_platform("[1,2]\n", "p.txt");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "p.txt: line 1: '[1,2]' has no marked speed; expected 'hostname marked-speed'");
  }
}

// read_platform reads the file and names it as the source
TEST(PlatformRead, ReadsAFileAndNamesItAsSource) {
  // a fresh folder of this test's own, removed at the end
  std::string pattern = (std::filesystem::temp_directory_path() / "hetscale-platform-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  const std::filesystem::path dir(pattern);
  const auto path = (dir / "hosts.txt").string();
  {
    std::ofstream out(path);
    out << "# hosts\nalpha 12.5\nbeta 25\n";
  }
  const auto platform = read_platform(path);
  std::filesystem::remove(path);
  std::filesystem::remove(dir);
  EXPECT_EQ(platform.source, path);
  EXPECT_EQ(Names(platform), (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(platform.declared_speeds(), (std::vector<double>{12.5, 25}));
}

// A file that cannot be opened is an InputError naming the path
TEST(PlatformRead, MissingFileIsNamed) {
  try {
    read_platform("/nonexistent-hetscale-dir/platform.json");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "/nonexistent-hetscale-dir/platform.json: cannot be opened: No such file or directory");
    EXPECT_EQ(error.source(), "/nonexistent-hetscale-dir/platform.json");
  }
}

// --------------------------------------------------------------- bad input

// InputError is a std::invalid_argument and keeps source, field and problem apart
TEST(PlatformErrors, InputErrorIsInvalidArgumentWithParts) {
  try {
    parse_platform_json(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 0}]})", "p.json");
    FAIL() << "expected an InputError";
  } catch (const std::invalid_argument& error) {
    const auto* input = dynamic_cast<const InputError*>(&error);
    ASSERT_NE(input, nullptr);
    EXPECT_EQ(input->source(), "p.json");
    EXPECT_EQ(input->field(), "nodes[0].speed");
    EXPECT_EQ(input->problem(), "must be > 0, got 0");
  }
}

// format: a node gives exactly one of `speed` and `marked_speed`
TEST(PlatformErrors, BothSpeedAndMarkedSpeed) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "a", "speed": 1}, {"name": "b", "speed": 1, "marked_speed": 20}]})"),
            "p.json: nodes[1]: give exactly one of `speed` (relative to the reference) or `marked_speed` (Mflop/s)");
}

TEST(PlatformErrors, NeitherSpeedNorMarkedSpeed) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a"}]})"),
            "p.json: nodes[0]: give exactly one of `speed` (relative to the reference) or `marked_speed` (Mflop/s)");
}

// format: all nodes declare the same kind of speed
TEST(PlatformErrors, MixedSpeedKindsAcrossNodes) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "a", "speed": 1}, {"name": "b", "marked_speed": 20}]})"),
            "p.json: nodes[1].marked_speed: all nodes must declare the same kind of speed (`speed` or "
            "`marked_speed`)");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "a", "marked_speed": 20}, {"name": "b", "speed": 1}]})"),
            "p.json: nodes[1].speed: all nodes must declare the same kind of speed (`speed` or `marked_speed`)");
}

// format: speeds are > 0
TEST(PlatformErrors, ZeroOrNegativeSpeed) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 0}]})"),
            "p.json: nodes[0].speed: must be > 0, got 0");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": -1.5}]})"),
            "p.json: nodes[0].speed: must be > 0, got -1.5");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "marked_speed": -20}]})"),
            "p.json: nodes[0].marked_speed: must be > 0, got -20");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": "fast"}]})"),
            "p.json: nodes[0].speed: must be a number, got string");
}

// format: count is a whole number from 1
TEST(PlatformErrors, CountZeroOrFractional) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1, "count": 0}]})"),
            "p.json: nodes[0].count: must be a whole number from 1 to 1000000, got 0");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1, "count": 1.5}]})"),
            "p.json: nodes[0].count: must be a whole number from 1 to 1000000, got 1.5");
}

// format: node names are unique (runs are matched to platform nodes by name)
TEST(PlatformErrors, DuplicateNames) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "a", "speed": 1}, {"name": "b", "speed": 1}, {"name": "a", "speed": 2}]})"),
            "p.json: node 'a': name given twice (processors 1 and 3); names must be unique");
}

// format: names made by `count` must not clash with other names either
TEST(PlatformErrors, DuplicateNamesAfterCountExpansion) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "w", "speed": 1, "count": 2}, {"name": "w-2", "speed": 2}]})"),
            "p.json: node 'w-2': name given twice (processors 2 and 3); names must be unique");
}

// format: unknown fields are refused, listing the allowed ones
TEST(PlatformErrors, UnknownField) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speeed": 1}]})"),
            "p.json: nodes[0].speeed: unknown field; allowed here: name, speed, marked_speed, count");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}], "latency": 1})"),
            "p.json: latency: unknown field; allowed here: schema, name, description, reference, nodes, network");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                         "network": {"bandwidth_Bps": 1, "latency": 0.1}})"),
            "p.json: network.latency: unknown field; allowed here: latency_s, bandwidth_Bps");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                         "reference": {"name": "r", "speed": 1}})"),
            "p.json: reference.speed: unknown field; allowed here: name, marked_speed");
}

// format: at least one node
TEST(PlatformErrors, EmptyOrMissingNodes) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": []})"), "p.json: nodes: must not be empty");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1"})"), "p.json: nodes: missing (required)");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": {}})"),
            "p.json: nodes: must be an array, got object");
}

// format: the schema is "hetscale.platform/1"
TEST(PlatformErrors, MissingSchema) {
  EXPECT_EQ(JsonError(R"({"nodes": [{"name": "a", "speed": 1}]})"),
            "p.json: schema: missing; expected \"hetscale.platform/1\"");
}

TEST(PlatformErrors, WrongSchema) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.run/1", "nodes": [{"name": "a", "speed": 1}]})"),
            "p.json: schema: is \"hetscale.run/1\", expected \"hetscale.platform/1\"");
  EXPECT_EQ(JsonError(R"({"schema": 1, "nodes": [{"name": "a", "speed": 1}]})"),
            "p.json: schema: is 1, expected \"hetscale.platform/1\"");
}

// format: a node has a non-empty name
TEST(PlatformErrors, MissingOrEmptyName) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"speed": 1}]})"),
            "p.json: nodes[0].name: missing (required)");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "", "speed": 1}]})"),
            "p.json: nodes[0].name: must not be empty");
}

// format: the network bandwidth is > 0 and the latency >= 0
TEST(PlatformErrors, BadNetwork) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                         "network": {"latency_s": 0.001, "bandwidth_Bps": 0}})"),
            "p.json: network.bandwidth_Bps: must be > 0, got 0");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                         "network": {"latency_s": -0.5, "bandwidth_Bps": 100}})"),
            "p.json: network.latency_s: must be >= 0, got -0.5");
}

// Text that is not JSON at all names the file
TEST(PlatformErrors, InvalidJsonSyntaxNamesTheFile) {
  const std::string what = JsonError("{\"schema\": ");
  EXPECT_EQ(what.rfind("p.json: not valid JSON: ", 0), 0u) << what;
}

// seed 001 text form: every line is "hostname marked-speed"
TEST(PlatformTextErrors, LineWithoutSpeed) {
  EXPECT_EQ(TextError("# hosts\nhostA 10\nhostB\n"),
            "p.txt: line 3: 'hostB' has no marked speed; expected 'hostname marked-speed'");
  EXPECT_EQ(TextError("hostA 10   # comment\nhostB # 20\n"),
            "p.txt: line 2: 'hostB' has no marked speed; expected 'hostname marked-speed'");
}

TEST(PlatformTextErrors, SpeedNotANumber) {
  EXPECT_EQ(TextError("hostA abc\n"), "p.txt: line 1: marked speed 'abc' must be a finite number > 0 (Mflop/s)");
  EXPECT_EQ(TextError("hostA 12x\n"), "p.txt: line 1: marked speed '12x' must be a finite number > 0 (Mflop/s)");
}

TEST(PlatformTextErrors, SpeedZeroOrNegative) {
  EXPECT_EQ(TextError("hostA 10\nhostB 0\n"), "p.txt: line 2: marked speed '0' must be a finite number > 0 (Mflop/s)");
  EXPECT_EQ(TextError("hostA -3\n"), "p.txt: line 1: marked speed '-3' must be a finite number > 0 (Mflop/s)");
}

TEST(PlatformTextErrors, ExtraWordOnALine) {
  EXPECT_EQ(TextError("hostA 10 Mflops\n"), "p.txt: line 1: unexpected 'Mflops'; expected 'hostname marked-speed'");
}

TEST(PlatformTextErrors, NoNodes) {
  EXPECT_EQ(TextError("# only a comment\n\n"), "p.txt: no nodes; expected lines of 'hostname marked-speed'");
  EXPECT_EQ(TextError(""), "p.txt: no nodes; expected lines of 'hostname marked-speed'");
}

TEST(PlatformTextErrors, DuplicateHostnames) {
  EXPECT_EQ(TextError("h 10\ng 20\nh 30\n"),
            "p.txt: node 'h': name given twice (processors 1 and 3); names must be unique");
}

}  // namespace
}  // namespace hetscale
