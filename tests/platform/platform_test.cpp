// Platform files: the JSON form (schema "hetscale.platform/1": nodes with
// `speed` relative to a reference or `marked_speed` in Mflop/s, optional
// `count` and `availability` over time, a network (latency and bandwidth as
// numbers or strings with units, a star or a cluster with a backbone) and a
// reference) and Chen et al. 2008's plain text form
// ("hostname marked-speed" per line, # comments). Bad input is an InputError
// whose what() is one line "SOURCE: FIELD: problem".
#include "hetscale/platform/platform.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/io/input_error.hpp"
#include "support/assertions.hpp"
#include "support/temp_folder.hpp"

namespace hetscale {
namespace {

// The what() of the InputError that parsing `text` as JSON throws ("" if none).
std::string JsonError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_platform_json(text, "p.json"); });
}

std::string TextError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_platform_text(text, "p.txt"); });
}

// Parsing `text` as JSON throws an InputError naming p.json and `field`, whose
// problem contains every fragment (what is wrong and what is allowed).
::testing::AssertionResult RefusedAt(const std::string& text, const std::string& field,
                                     std::initializer_list<std::string_view> fragments) {
  try {
    parse_platform_json(text, "p.json");
  } catch (const InputError& error) {
    const std::string what = error.what();
    if (error.source() != "p.json" || error.field() != field || what.rfind("p.json: " + field + ": ", 0) != 0)
      return ::testing::AssertionFailure() << "\"" << what << "\" does not name p.json and field " << field;
    for (std::string_view fragment : fragments)
      if (error.problem().find(fragment) == std::string::npos)
        return ::testing::AssertionFailure() << "\"" << what << "\" does not say \"" << fragment << "\"";
    return ::testing::AssertionSuccess() << what;
  }
  return ::testing::AssertionFailure() << "no InputError";
}

std::vector<std::string> Names(const Platform& platform) {
  std::vector<std::string> names;
  for (const auto& node : platform.nodes) names.push_back(node.name);
  return names;
}

// ---------------------------------------------------------------- JSON form

// format: `speed` is relative to the reference machine (APGA 2004 v_i, Clematis-Corana 1999 s_i)
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

// format: `marked_speed` is the benchmarked sustained speed in Mflop/s (Chen et al. 2008 C_i)
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

// Clematis-Corana 1999 s_i: relative speeds are already relative to the reference
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

// Clematis-Corana 1999 s_i from marked speeds: C_i / C_ref with the reference's marked speed given
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

// Clematis-Corana 1999 s_i from marked speeds: the reference may name one of the nodes
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

// Chen et al. 2008: a static file of "hostname marked-speed" pairs; # starts a comment
TEST(PlatformText, HostnameMarkedSpeedLinesWithCommentsAndBlankLines) {
  const auto platform = parse_platform_text(
      "# Chen et al. 2008, Table 2\n"
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

// read_marked_speeds: a platform's marked speeds, one per node; relative
// speeds are refused, naming the file
TEST(PlatformRead, MarkedSpeedsOfAPlatformFile) {
  const testing_support::TempFolder folder;
  const auto marked = folder.write("hosts.txt", "alpha 12.5\nbeta 25\n");
  EXPECT_EQ(read_marked_speeds(marked), (std::vector<double>{12.5, 25}));
  const auto relative = folder.write(
      "relative.json",
      R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}, {"name": "b", "speed": 0.5}]})");
  EXPECT_EQ(testing_support::ErrorMessage([&] { read_marked_speeds(relative); }),
            relative + ": nodes: declares relative speeds; marked speeds (Mflop/s) are needed");
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
            "p.json: nodes[0].speeed: unknown field; allowed here: name, speed, marked_speed, count, cores, availability, "
            "availability_period_s");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}], "latency": 1})"),
            "p.json: latency: unknown field; allowed here: schema, name, description, reference, nodes, network");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                         "network": {"bandwidth_Bps": 1, "latency": 0.1}})"),
            "p.json: network.latency: unknown field; allowed here: latency_s, bandwidth_Bps, topology, backbone");
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
            "p.json: schema: this is a run record (hetscale.run/1), not a platform: read it with `hetscale analyze` "
            "or `hetscale report`, or give several to `hetscale predict`");
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.other/1", "nodes": [{"name": "a", "speed": 1}]})"),
            "p.json: schema: is \"hetscale.other/1\", expected \"hetscale.platform/1\"");
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

// Chen et al. 2008 text form: every line is "hostname marked-speed"
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

// ------------------------------------------------ availability over time

// format: nodes[i].availability [[time_s, fraction], ...] in increasing time
TEST(PlatformAvailability, PointsAreReadInOrder) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "shared", "speed": 1, "availability": [[0, 1], [10, 0.5], [25.5, 0.25]]},
              {"name": "dedicated", "speed": 2}]
  })",
                                            "p.json");
  ASSERT_EQ(platform.nodes.size(), 2u);
  const auto& points = platform.nodes[0].availability;
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].time_s, 0.0);
  EXPECT_EQ(points[0].fraction, 1.0);
  EXPECT_EQ(points[1].time_s, 10.0);
  EXPECT_EQ(points[1].fraction, 0.5);
  EXPECT_EQ(points[2].time_s, 25.5);
  EXPECT_EQ(points[2].fraction, 0.25);
  EXPECT_EQ(platform.nodes[0].availability_period_s, 0.0);  // not periodic
  // a node without availability delivers all its speed, always
  EXPECT_TRUE(platform.nodes[1].availability.empty());
  EXPECT_EQ(platform.nodes[1].availability_period_s, 0.0);
  // the declared speed stays the node's full speed
  EXPECT_EQ(platform.declared_speeds(), (std::vector<double>{1, 2}));
}

// format: the first point may come after 0 (all the speed before it); fraction 1 is allowed
TEST(PlatformAvailability, FirstPointMayComeLaterAndFractionOneIsAllowed) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "marked_speed": 20, "availability": [[5, 0.1], [7, 1]]}]
  })",
                                            "p.json");
  const auto& points = platform.nodes[0].availability;
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].time_s, 5.0);
  EXPECT_EQ(points[0].fraction, 0.1);
  EXPECT_EQ(points[1].time_s, 7.0);
  EXPECT_EQ(points[1].fraction, 1.0);
}

// format: availability_period_s repeats the availability; it is later than the last time
TEST(PlatformAvailability, PeriodIsRead) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1, "availability": [[0, 1], [10, 0.5]], "availability_period_s": 10.5}]
  })",
                                            "p.json");
  EXPECT_EQ(platform.nodes[0].availability.size(), 2u);
  EXPECT_EQ(platform.nodes[0].availability_period_s, 10.5);
}

// format: `count` copies the availability to every processor it makes
TEST(PlatformAvailability, CountCopiesTheAvailability) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "w", "speed": 1, "count": 2, "availability": [[1, 0.75]], "availability_period_s": 4}]
  })",
                                            "p.json");
  ASSERT_EQ(Names(platform), (std::vector<std::string>{"w-1", "w-2"}));
  for (const auto& node : platform.nodes) {
    ASSERT_EQ(node.availability.size(), 1u) << node.name;
    EXPECT_EQ(node.availability[0].time_s, 1.0) << node.name;
    EXPECT_EQ(node.availability[0].fraction, 0.75) << node.name;
    EXPECT_EQ(node.availability_period_s, 4.0) << node.name;
  }
}

// ------------------------------------------------------ network units

// format: a latency is a number of seconds or a string with a unit s, ms, us, ns
TEST(PlatformUnits, LatencyWithUnits) {
  EXPECT_DOUBLE_EQ(parse_latency("5ms"), 0.005);
  EXPECT_DOUBLE_EQ(parse_latency("100us"), 1e-4);
  EXPECT_DOUBLE_EQ(parse_latency("0.005s"), 0.005);
  EXPECT_DOUBLE_EQ(parse_latency("20ns"), 2e-8);
  EXPECT_DOUBLE_EQ(parse_latency("1.5e-3s"), 0.0015);
  EXPECT_EQ(parse_latency("0s"), 0.0);  // no latency is allowed
  EXPECT_EQ(parse_latency("0ms"), 0.0);
}

// format: a bandwidth is bytes per second, or bytes (B) or bits (b) per second with a prefix
TEST(PlatformUnits, BandwidthWithUnits) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("100Mbps"), 12.5e6);  // 100e6 bits / 8
  EXPECT_DOUBLE_EQ(parse_bandwidth("12.5MBps"), 12.5e6);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1Gbps"), 125e6);
  EXPECT_DOUBLE_EQ(parse_bandwidth("2GBps"), 2e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("3kBps"), 3e3);
  EXPECT_DOUBLE_EQ(parse_bandwidth("3KBps"), 3e3);
  EXPECT_DOUBLE_EQ(parse_bandwidth("8kbps"), 1e3);
  EXPECT_DOUBLE_EQ(parse_bandwidth("8Kbps"), 1e3);
  EXPECT_DOUBLE_EQ(parse_bandwidth("64bps"), 8.0);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1000Bps"), 1000.0);
}

// A unit string that is not understood says which units are allowed
TEST(PlatformUnits, BadLatencyStringsSayWhatIsAllowed) {
  for (const char* bad : {"5 parsecs", "fast", "-1ms", "5", "5 ms", "ms", "", "5MS", "infs"})
    EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming(
        [&] { parse_latency(bad); },
        {"latency", "'" + std::string(bad) + "'", "a number >= 0 with a unit (s, ms, us, ns)"}))
        << "latency '" << bad << "'";
}

TEST(PlatformUnits, BadBandwidthStringsSayWhatIsAllowed) {
  for (const char* bad : {"100", "fast", "-1Mbps", "kBps", "bps", "100 Mbps", "100mbps", "1Tbps", ""})
    EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming(
        [&] { parse_bandwidth(bad); },
        {"bandwidth", "'" + std::string(bad) + "'", "Bps, kBps, MBps, GBps, bps, kbps, Mbps, Gbps"}))
        << "bandwidth '" << bad << "'";
  // a bandwidth of 0 parses but is refused: nothing would ever arrive
  EXPECT_TRUE(
      testing_support::ThrowsInvalidArgumentNaming([] { parse_bandwidth("0Mbps"); }, {"'0Mbps'", "must be > 0"}));
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([] { parse_bandwidth("0Bps"); }, {"'0Bps'", "must be > 0"}));
}

// format: network.latency_s and network.bandwidth_Bps may be strings with units
TEST(PlatformNetwork, LatencyAndBandwidthStringsAreRead) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}],
    "network": {"latency_s": "80us", "bandwidth_Bps": "100Mbps"}
  })",
                                            "p.json");
  ASSERT_TRUE(platform.network.has_value());
  EXPECT_DOUBLE_EQ(platform.network->latency_s, 8e-5);
  EXPECT_DOUBLE_EQ(platform.network->bandwidth_Bps, 12.5e6);
  EXPECT_EQ(platform.network->topology, Topology::star);
  EXPECT_FALSE(platform.network->backbone.has_value());
}

// format: network.topology is "star" by default; "star" may be given
TEST(PlatformNetwork, TopologyIsStarByDefault) {
  const auto implicit = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}],
    "network": {"latency_s": 0.001, "bandwidth_Bps": 1e8}
  })",
                                            "p.json");
  ASSERT_TRUE(implicit.network.has_value());
  EXPECT_EQ(implicit.network->topology, Topology::star);
  EXPECT_FALSE(implicit.network->backbone.has_value());

  const auto explicit_star = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}],
    "network": {"latency_s": 0.001, "bandwidth_Bps": 1e8, "topology": "star"}
  })",
                                                 "p.json");
  ASSERT_TRUE(explicit_star.network.has_value());
  EXPECT_EQ(explicit_star.network->topology, Topology::star);
  EXPECT_FALSE(explicit_star.network->backbone.has_value());
  EXPECT_EQ(to_string(Topology::star), "star");
  EXPECT_EQ(to_string(Topology::cluster), "cluster");
}

// format: topology "cluster" with a backbone {latency_s, bandwidth_Bps} (numbers or unit strings)
TEST(PlatformNetwork, ClusterWithBackbone) {
  const auto platform = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}, {"name": "b", "speed": 1}],
    "network": {"latency_s": "50us", "bandwidth_Bps": "1Gbps", "topology": "cluster",
                "backbone": {"latency_s": "1ms", "bandwidth_Bps": "10Gbps"}}
  })",
                                            "p.json");
  ASSERT_TRUE(platform.network.has_value());
  EXPECT_EQ(platform.network->topology, Topology::cluster);
  EXPECT_DOUBLE_EQ(platform.network->latency_s, 5e-5);
  EXPECT_DOUBLE_EQ(platform.network->bandwidth_Bps, 125e6);
  ASSERT_TRUE(platform.network->backbone.has_value());
  EXPECT_DOUBLE_EQ(platform.network->backbone->latency_s, 1e-3);
  EXPECT_DOUBLE_EQ(platform.network->backbone->bandwidth_Bps, 1.25e9);

  // numbers, and a backbone without latency (0)
  const auto numbers = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "speed": 1}],
    "network": {"latency_s": 0.001, "bandwidth_Bps": 1e8, "topology": "cluster",
                "backbone": {"bandwidth_Bps": 5e8}}
  })",
                                           "p.json");
  ASSERT_TRUE(numbers.network && numbers.network->backbone);
  EXPECT_EQ(numbers.network->backbone->latency_s, 0.0);
  EXPECT_EQ(numbers.network->backbone->bandwidth_Bps, 5e8);
}

// ------------------------------------------------------------ round trip

// platform_json writes availability, period, topology and backbone; they read back the same
TEST(PlatformRoundTrip, AvailabilityAndClusterReadBack) {
  const auto original = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "name": "shared cluster",
    "nodes": [{"name": "a", "speed": 1.5, "availability": [[0, 1], [10, 0.5]], "availability_period_s": 30},
              {"name": "b", "speed": 0.5, "availability": [[2.25, 0.125]]},
              {"name": "c", "speed": 0.75}],
    "network": {"latency_s": "5ms", "bandwidth_Bps": "100Mbps", "topology": "cluster",
                "backbone": {"latency_s": "20us", "bandwidth_Bps": "1Gbps"}}
  })",
                                            "p.json");
  const std::string json = platform_json(original);
  const auto copy = parse_platform_json(json, "copy.json");
  EXPECT_EQ(copy.name, original.name);
  EXPECT_EQ(Names(copy), Names(original));
  EXPECT_EQ(copy.declared_speeds(), original.declared_speeds());
  ASSERT_EQ(copy.nodes.size(), 3u);
  for (std::size_t i = 0; i < copy.nodes.size(); ++i) {
    const auto &read = copy.nodes[i], &written = original.nodes[i];
    ASSERT_EQ(read.availability.size(), written.availability.size()) << read.name;
    for (std::size_t k = 0; k < read.availability.size(); ++k) {
      EXPECT_EQ(read.availability[k].time_s, written.availability[k].time_s) << read.name << " point " << k;
      EXPECT_EQ(read.availability[k].fraction, written.availability[k].fraction) << read.name << " point " << k;
    }
    EXPECT_EQ(read.availability_period_s, written.availability_period_s) << read.name;
  }
  EXPECT_EQ(copy.nodes[0].availability_period_s, 30.0);
  EXPECT_EQ(copy.nodes[1].availability.size(), 1u);
  EXPECT_TRUE(copy.nodes[2].availability.empty());
  ASSERT_TRUE(copy.network.has_value());
  EXPECT_EQ(copy.network->topology, Topology::cluster);
  EXPECT_EQ(copy.network->latency_s, original.network->latency_s);
  EXPECT_EQ(copy.network->bandwidth_Bps, original.network->bandwidth_Bps);
  ASSERT_TRUE(copy.network->backbone.has_value());
  EXPECT_EQ(copy.network->backbone->latency_s, original.network->backbone->latency_s);
  EXPECT_EQ(copy.network->backbone->bandwidth_Bps, original.network->backbone->bandwidth_Bps);
  // and writing the copy gives the same text
  EXPECT_EQ(platform_json(copy), json);
  // the period is written only for the node that has one; nothing for a node without availability
  EXPECT_EQ(json.find("availability_period_s"), json.rfind("availability_period_s")) << json;
}

// A star network is written without topology and backbone, and reads back a star
TEST(PlatformRoundTrip, StarNetworkReadsBack) {
  const auto original = parse_platform_json(R"({
    "schema": "hetscale.platform/1",
    "nodes": [{"name": "a", "marked_speed": 20}],
    "network": {"latency_s": "80us", "bandwidth_Bps": "100Mbps", "topology": "star"}
  })",
                                            "p.json");
  const std::string json = platform_json(original);
  EXPECT_EQ(json.find("topology"), std::string::npos) << json;
  EXPECT_EQ(json.find("backbone"), std::string::npos) << json;
  EXPECT_EQ(json.find("availability"), std::string::npos) << json;
  const auto copy = parse_platform_json(json, "copy.json");
  ASSERT_TRUE(copy.network.has_value());
  EXPECT_EQ(copy.network->topology, Topology::star);
  EXPECT_FALSE(copy.network->backbone.has_value());
  EXPECT_EQ(copy.network->latency_s, original.network->latency_s);
  EXPECT_EQ(copy.network->bandwidth_Bps, original.network->bandwidth_Bps);
}

// ------------------------------------- bad availability, topology, units

// format: fractions are in (0, 1]: a node at speed 0 would never finish (a zero-speed host)
TEST(PlatformAvailabilityErrors, ZeroOrNegativeFraction) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "a", "speed": 1, "availability": [[0, 1], [10, 0]]}]})"),
            "p.json: nodes[0].availability[1]: fraction 0 must be in (0, 1]: a node cannot stop (speed 0) or exceed "
            "its speed");
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1",
                           "nodes": [{"name": "a", "speed": 1},
                                     {"name": "b", "speed": 1, "availability": [[0, -0.5]]}]})",
                        "nodes[1].availability[0]", {"fraction -0.5", "must be in (0, 1]", "speed 0"}));
}

TEST(PlatformAvailabilityErrors, FractionAboveOne) {
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1",
                           "nodes": [{"name": "a", "speed": 1, "availability": [[0, 0.5], [3, 1.5]]}]})",
                        "nodes[0].availability[1]", {"fraction 1.5", "must be in (0, 1]", "exceed its speed"}));
}

// format: times are >= 0 and increasing (a time given twice is not increasing)
TEST(PlatformAvailabilityErrors, TimesNotIncreasingOrNegative) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "a", "speed": 1, "availability": [[0, 1], [10, 0.5], [5, 1]]}]})"),
            "p.json: nodes[0].availability[2]: time 5 must be >= 0 and later than the point before");
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1",
                           "nodes": [{"name": "a", "speed": 1, "availability": [[4, 1], [4, 0.5]]}]})",
                        "nodes[0].availability[1]", {"time 4", "later than the point before"}));
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1",
                           "nodes": [{"name": "a", "speed": 1, "availability": [[-1, 0.5]]}]})",
                        "nodes[0].availability[0]", {"time -1", "must be >= 0"}));
}

// format: availability is a non-empty array of [time_s, fraction] pairs of numbers
TEST(PlatformAvailabilityErrors, NotPairsOfNumbers) {
  const auto with_availability = [](const std::string& availability) {
    return R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1, "availability": )" +
           availability + "}]}";
  };
  for (const char* bad : {"[]", R"({"0": 1})", R"("0 1")", "0.5"})
    EXPECT_TRUE(RefusedAt(with_availability(bad), "nodes[0].availability",
                          {"must be a non-empty array of [time_s, fraction] pairs"}))
        << bad;
  for (const char* bad : {"[[0]]", "[[0, 1, 2]]", R"([[0, "half"]])", R"([["0s", 1]])", "[0.5]"})
    EXPECT_TRUE(RefusedAt(with_availability(bad), "nodes[0].availability[0]",
                          {"must be a [time_s, fraction] pair of numbers"}))
        << bad;
  EXPECT_TRUE(RefusedAt(with_availability("[[0, 1], 0.5]"), "nodes[0].availability[1]",
                        {"must be a [time_s, fraction] pair of numbers"}));
}

// format: availability_period_s is > 0 and later than the last availability time
TEST(PlatformAvailabilityErrors, PeriodNotAfterTheLastTime) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "a", "speed": 1, "availability": [[0, 1], [10, 0.5]],
                                    "availability_period_s": 10}]})"),
            "p.json: nodes[0].availability_period_s: must be later than the last availability time (10)");
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1",
                           "nodes": [{"name": "a", "speed": 1, "availability": [[0, 1], [10, 0.5]],
                                      "availability_period_s": 4}]})",
                        "nodes[0].availability_period_s", {"later than the last availability time (10)"}));
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1",
                           "nodes": [{"name": "a", "speed": 1, "availability": [[0, 0.5]],
                                      "availability_period_s": 0}]})",
                        "nodes[0].availability_period_s", {"must be > 0, got 0"}));
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1",
                           "nodes": [{"name": "a", "speed": 1, "availability": [[0, 0.5]],
                                      "availability_period_s": "1h"}]})",
                        "nodes[0].availability_period_s", {"must be a number"}));
}

// format: availability_period_s requires availability
TEST(PlatformAvailabilityErrors, PeriodWithoutAvailability) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1",
                         "nodes": [{"name": "a", "speed": 1, "availability_period_s": 20}]})"),
            "p.json: nodes[0].availability_period_s: is given without `availability`");
}

// format: topology is "star" or "cluster"
TEST(PlatformNetworkErrors, UnknownTopology) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                         "network": {"bandwidth_Bps": 1e8, "topology": "ring"}})"),
            "p.json: network.topology: unknown topology 'ring'; allowed: star, cluster");
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                           "network": {"bandwidth_Bps": 1e8, "topology": "Cluster"}})",
                        "network.topology", {"'Cluster'", "allowed: star, cluster"}));
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                           "network": {"bandwidth_Bps": 1e8, "topology": 2}})",
                        "network.topology", {"must be a string"}));
}

// format: a cluster needs a backbone; a star has none
TEST(PlatformNetworkErrors, ClusterWithoutBackbone) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                         "network": {"bandwidth_Bps": 1e8, "topology": "cluster"}})"),
            "p.json: network.backbone: is required with topology 'cluster'");
}

TEST(PlatformNetworkErrors, BackboneWithStar) {
  EXPECT_EQ(JsonError(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                         "network": {"bandwidth_Bps": 1e8, "topology": "star",
                                     "backbone": {"latency_s": 0, "bandwidth_Bps": 1e9}}})"),
            "p.json: network.backbone: is only allowed with topology 'cluster'");
  // star by default
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                           "network": {"bandwidth_Bps": 1e8, "backbone": {"bandwidth_Bps": 1e9}}})",
                        "network.backbone", {"only allowed with topology 'cluster'"}));
}

// format: the backbone is {latency_s, bandwidth_Bps} like the network's own
TEST(PlatformNetworkErrors, BadBackbone) {
  const auto cluster = [](const std::string& backbone) {
    return R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
               "network": {"bandwidth_Bps": 1e8, "topology": "cluster", "backbone": )" +
           backbone + "}}";
  };
  EXPECT_EQ(JsonError(cluster(R"({"latency_s": 0.001, "bandwidth": 1e9})")),
            "p.json: network.backbone.bandwidth: unknown field; allowed here: latency_s, bandwidth_Bps");
  EXPECT_EQ(JsonError(cluster(R"({"latency_s": 0.001})")),
            "p.json: network.backbone.bandwidth_Bps: missing (required)");
  EXPECT_TRUE(RefusedAt(cluster(R"({"bandwidth_Bps": "0Gbps"})"), "network.backbone.bandwidth_Bps", {"must be > 0"}));
  EXPECT_TRUE(RefusedAt(cluster(R"({"latency_s": "1 fortnight", "bandwidth_Bps": 1e9})"), "network.backbone.latency_s",
                        {"'1 fortnight'", "(s, ms, us, ns)"}));
  EXPECT_TRUE(RefusedAt(cluster(R"({"latency_s": -0.5, "bandwidth_Bps": 1e9})"), "network.backbone.latency_s",
                        {"must be >= 0, got -0.5"}));
  EXPECT_TRUE(RefusedAt(cluster(R"("fast")"), "network.backbone", {"object"}));
}

// format: latency strings carry a unit s, ms, us or ns; the number is >= 0
TEST(PlatformNetworkErrors, BadLatencyStrings) {
  const auto network = [](const std::string& latency) {
    return R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
               "network": {"latency_s": ")" +
           latency + R"(", "bandwidth_Bps": 1e8}})";
  };
  EXPECT_EQ(JsonError(network("5 parsecs")),
            "p.json: network.latency_s: latency '5 parsecs' does not parse; allowed: a number >= 0 with a unit (s, "
            "ms, us, ns)");
  for (const char* bad : {"fast", "-1ms", "5", ""})
    EXPECT_TRUE(RefusedAt(network(bad), "network.latency_s",
                          {"'" + std::string(bad) + "'", "a number >= 0 with a unit (s, ms, us, ns)"}))
        << bad;
}

// format: bandwidth strings carry a unit (B or b per second, prefixes k/K, M, G); the bandwidth is > 0
TEST(PlatformNetworkErrors, BadBandwidthStrings) {
  const auto network = [](const std::string& bandwidth) {
    return R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
               "network": {"latency_s": 0, "bandwidth_Bps": ")" +
           bandwidth + R"("}})";
  };
  EXPECT_EQ(JsonError(network("0Mbps")), "p.json: network.bandwidth_Bps: bandwidth '0Mbps' must be > 0");
  EXPECT_EQ(JsonError(network("100")),
            "p.json: network.bandwidth_Bps: bandwidth '100' does not parse; allowed: a number > 0 with a unit "
            "(Bps, kBps, MBps, GBps, bps, kbps, Mbps, Gbps)");
  for (const char* bad : {"fast", "-5Mbps", "kBps", "bps", "10 Mbps"})
    EXPECT_TRUE(RefusedAt(network(bad), "network.bandwidth_Bps",
                          {"'" + std::string(bad) + "'", "Bps, kBps, MBps, GBps, bps, kbps, Mbps, Gbps"}))
        << bad;
}

// format: latency and bandwidth are numbers or strings, nothing else
TEST(PlatformNetworkErrors, LatencyOrBandwidthOfAnotherType) {
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                           "network": {"latency_s": true, "bandwidth_Bps": 1e8}})",
                        "network.latency_s", {"must be a number"}));
  EXPECT_TRUE(RefusedAt(R"({"schema": "hetscale.platform/1", "nodes": [{"name": "a", "speed": 1}],
                           "network": {"latency_s": 0, "bandwidth_Bps": [100]}})",
                        "network.bandwidth_Bps", {"must be a number"}));
}

}  // namespace
}  // namespace hetscale
