// Speed model files (hetscale.fpm/1): a node may be a rank's device
// ("device"), following the node of its rank's cores; written and read back.
#include "hetscale/platform/speed_model.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/assertions.hpp"

namespace hetscale {
namespace {

using testing_support::ThrowsInvalidArgumentNaming;

std::string model_of(const std::string& nodes) {
  return R"({"schema": "hetscale.fpm/1", "unit": "rows", "nodes": [)" + nodes + "]}";
}

const std::string cores = R"({"name": "n:0", "points": [{"size": 10, "speed": 100}]})";
const std::string device = R"({"name": "n:0:device-0", "device": "openmp:0", "points": [{"size": 10, "speed": 40}]})";

TEST(SpeedModel, DeviceNodeFollowsItsRanksCoresAndIsWrittenBack) {
  const auto model = parse_speed_model_json(model_of(cores + "," + device), "m.json");
  ASSERT_EQ(model.nodes.size(), 2u);
  EXPECT_EQ(model.nodes[0].device, "");
  EXPECT_EQ(model.nodes[1].device, "openmp:0");
  const auto again = parse_speed_model_json(speed_model_json(model), "again.json");
  EXPECT_EQ(again.nodes[1].device, "openmp:0");
  EXPECT_EQ(again.nodes[0].device, "");
  EXPECT_EQ(speed_model_json(again), speed_model_json(model));
}

TEST(SpeedModel, DeviceNodeFirstOrUnnamedIsBadInput) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { parse_speed_model_json(model_of(device + "," + cores), "m.json"); },
                                          {"m.json", "device", "follows the node of its rank's cores"}));
  const std::string unnamed = R"({"name": "d", "device": "", "points": [{"size": 10, "speed": 40}]})";
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { parse_speed_model_json(model_of(cores + "," + unnamed), "m.json"); },
                                          {"m.json", "nodes[1].device", "must not be empty"}));
}

}  // namespace
}  // namespace hetscale
