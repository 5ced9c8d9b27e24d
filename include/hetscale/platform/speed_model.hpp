#pragma once
// Functional performance models as a file (hetscale.fpm/1): per node, its
// speed measured at several sizes of its share, with each point's confidence
// interval, and the interpolation between them (docs/formats.md). Written by
// `hetscale bench fpm`, read by `hetscale partition` and `hetscale model fpm`;
// a node of one point is a marked speed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/io/provenance.hpp"
#include "hetscale/model/speed_function.hpp"

namespace hetscale {

struct NodeSpeedModel {
  std::string name;
  // Empty for a rank's cores; for an accelerator, the device it is (e.g.
  // "openmp:0"), the device of the rank of the node before it.
  std::string device;
  std::vector<model::SpeedPoint> points;  // sizes increasing
  // Per point (empty, or one per point): the share of the node's CPU that
  // other work took while the point was measured (from schedstat), 0 .. 1.
  std::vector<double> other_load;
};

struct SpeedModel {
  inline static constexpr std::string_view schema = "hetscale.fpm/1";
  std::string source;          // where it was read from, for messages
  std::string unit = "units";  // what a size counts (rows, tasks, ...); speeds are units per second
  model::Interpolation interpolation = model::Interpolation::linear;
  std::vector<NodeSpeedModel> nodes;
  io::Provenance context;  // how it was measured

  // One speed function per node, in order.
  std::vector<model::SpeedFunction> functions() const;
};

// Throws io::InputError naming the source and field: a node with no points,
// sizes that do not increase, a speed that is not > 0, duplicate names.
SpeedModel parse_speed_model_json(std::string_view text, const std::string& source);
SpeedModel read_speed_model(const std::string& path);
std::string speed_model_json(const SpeedModel& model);

}  // namespace hetscale
