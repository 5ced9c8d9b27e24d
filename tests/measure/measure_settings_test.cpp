// What `hetscale measure` hands the interposition library: the settings
// through the environment and back unchanged, and the request checked and
// turned into them (errors naming the request's field, never an option).
#include "hetscale/measure/measure_settings.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

#include "hetscale/io/files.hpp"
#include "hetscale/measure/measure_launch.hpp"
#include "support/assertions.hpp"

namespace hetscale::measure {
namespace {

// The variables as an environment to look them up in.
std::map<std::string, std::string> as_environment(const MeasureSettings& settings) {
  std::map<std::string, std::string> environment;
  for (const auto& [name, value] : settings.to_environment()) environment[name] = value;
  return environment;
}

MeasureSettings read_back(const std::map<std::string, std::string>& environment) {
  return MeasureSettings::from_environment([&environment](const char* name) -> const char* {
    const auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
  });
}

TEST(MeasureSettings, ThroughTheEnvironmentAndBack) {
  MeasureSettings settings;
  settings.program = "./app";
  settings.out = "/tmp/run.json";
  settings.talp_json = "/tmp/talp.json";
  settings.speeds = {1.0, 0.5, 0.3333333333333333};
  settings.speeds_source = "given per rank (speeds)";
  settings.emulated_speeds = {1.0, 0.25};
  settings.emulated_thread_speeds = {1.0, 0.5, 0.75};
  settings.latency = 1.5e-6;
  settings.bandwidth = 2.5e9;
  settings.transfer_model_source = "platform p.json's network";
  settings.trace = "/tmp/trace";
  settings.time_every_call = true;
  const auto environment = as_environment(settings);
  for (const auto& [name, value] : environment) EXPECT_EQ(name.rfind("HETSCALE_MEASURE_", 0), 0u) << name;
  const auto read = read_back(environment);
  EXPECT_EQ(read.program, settings.program);
  EXPECT_EQ(read.out, settings.out);
  EXPECT_EQ(read.talp_json, settings.talp_json);
  EXPECT_EQ(read.speeds, settings.speeds);  // every digit: a speed goes through as its shortest exact form
  EXPECT_EQ(read.speeds_source, settings.speeds_source);
  EXPECT_EQ(read.emulated_speeds, settings.emulated_speeds);
  EXPECT_EQ(read.emulated_thread_speeds, settings.emulated_thread_speeds);
  EXPECT_EQ(read.latency, settings.latency);
  EXPECT_EQ(read.bandwidth, settings.bandwidth);
  EXPECT_EQ(read.transfer_model_source, settings.transfer_model_source);
  EXPECT_EQ(read.trace, settings.trace);
  EXPECT_TRUE(read.time_every_call);
}

TEST(MeasureSettings, UnsetSettingsAreNotInTheEnvironment) {
  MeasureSettings settings;
  settings.program = "./app";
  const auto environment = as_environment(settings);
  EXPECT_EQ(environment.size(), 1u);
  const auto read = read_back(environment);
  EXPECT_TRUE(read.out.empty());
  EXPECT_TRUE(read.speeds.empty());
  EXPECT_FALSE(read.latency.has_value());
  EXPECT_FALSE(read.time_every_call);
}

// The library runs inside the user's program: what does not read is a default, not a stop.
TEST(MeasureSettings, ValuesThatDoNotReadAreDefaults) {
  const auto read = read_back({{"HETSCALE_MEASURE_SPEEDS", "1,x,-2,0.5"}, {"HETSCALE_MEASURE_LATENCY", "soon"}});
  EXPECT_EQ(read.speeds, (std::vector<double>{1.0, 1.0, 1.0, 0.5}));
  EXPECT_FALSE(read.latency.has_value());
}

TEST(MeasureRequest, SettingsFromTheOptions) {
  MeasureRequest request;
  request.program = {"./app", "--steps", "10"};
  request.emulate_speeds = "1,0.5";
  request.latency = "2e-6";
  const auto settings = measure_settings(request, 2, "host");
  EXPECT_EQ(settings.program, "./app");
  EXPECT_EQ(settings.emulated_speeds, (std::vector<double>{1.0, 0.5}));
  EXPECT_EQ(settings.speeds, settings.emulated_speeds) << "the emulated speeds are the ranks' speeds";
  EXPECT_EQ(settings.latency, 2e-6);
  EXPECT_FALSE(settings.bandwidth.has_value());
}

TEST(MeasureRequest, ErrorsNameTheRequestsField) {
  MeasureRequest request;
  request.program = {"./app"};
  request.speeds = "1,1,1";
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { measure_settings(request, 2, "host"); },
                                                           {"speeds: gives 3 speeds for 2 ranks"}));
  request.speeds.clear();
  request.emulate_speeds = "1,1.5";
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { measure_settings(request, 2, "host"); },
                                                           {"emulate-speeds: item 2: must be in (0, 1]"}));
  request.emulate_speeds.clear();
  request.emulate_thread_speeds = "0.5,1.25";
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { measure_settings(request, 2, "host"); },
                                                           {"emulate-thread-speeds: item 2: must be in (0, 1]"}));
  request.emulate_thread_speeds = "1,0.5";
  request.emulate_speeds = "1,1";
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming(
      [&] { measure_settings(request, 2, "host"); },
      {"emulate-thread-speeds", "cannot be combined with emulate-speeds"}));
  request.emulate_speeds.clear();
  EXPECT_EQ(measure_settings(request, 2, "host").emulated_thread_speeds, (std::vector<double>{1.0, 0.5}))
      << "any number of threads: not one per rank";
  request.emulate_thread_speeds.clear();
  request.bandwidth = "0";
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { measure_settings(request, 2, "host"); },
                                                           {"bandwidth: 0: must be a number > 0"}));
}

TEST(MeasureRequest, ThisHostsSpeedFromThePlatform) {
  const io::TemporaryFolder folder("hetscale-measure-settings-test");
  const std::string platform = folder.path() + "/platform.txt";
  io::write_file_atomically(platform, "fast 200\nslow 50\n");
  MeasureRequest request;
  request.program = {"./app"};
  request.platform = platform;
  const auto settings = measure_settings(request, 2, "slow");
  EXPECT_EQ(settings.speeds, (std::vector<double>{0.25})) << "relative to the fastest node";
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { measure_settings(request, 2, "elsewhere"); },
                                                           {platform, "node 'elsewhere'", "not in the platform"}));
}

TEST(MeasureRequest, ProgramToRun) {
  EXPECT_EQ(program_to_run("sh").back(), 'h');
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { program_to_run("no-such-program-here"); },
                                                           {"PROGRAM", "is not found in PATH"}));
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { program_to_run("/no/such/program"); },
                                                           {"PROGRAM", "does not exist"}));
}

}  // namespace
}  // namespace hetscale::measure
