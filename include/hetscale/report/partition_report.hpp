#pragma once
// `hetscale partition`'s output (a split of N units by functional
// performance models, beside the constant-speed split), and `hetscale model
// fpm`'s (a model's points and its interpolated speeds): terminal tables, or
// JSON (schemas hetscale.partition/1 and hetscale.fpm-view/1, docs/partitioning.md).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/distribute/functional_partition.hpp"
#include "hetscale/platform/speed_model.hpp"

namespace hetscale::report {

struct PartitionReport {
  std::string model_path;
  const SpeedModel* model = nullptr;
  std::size_t units = 0;
  distribute::PartitionAlgorithm algorithm = distribute::PartitionAlgorithm::geometric;
  bool extrapolate = false;
  distribute::FunctionalPartition partition, constant;  // the algorithm's split, the constant one
  // With device nodes in the model: the makespan of the units split among
  // the ranks' cores alone and among the devices alone (nullopt: they cannot
  // take the units within their models' sizes).
  bool has_devices = false;
  std::optional<double> cores_alone, devices_alone;
};

// The report of `units` split over `model` by `algorithm`. std::invalid_argument
// as distribute::partition_by_speed for the algorithm's split.
PartitionReport make_partition_report(const SpeedModel& model, const std::string& model_path, std::size_t units,
                                      distribute::PartitionAlgorithm algorithm, bool extrapolate);

std::string partition_text(const PartitionReport& report);
std::string partition_json(const PartitionReport& report);

// The model's speeds at `sizes` (none: only the points), per node.
std::string speed_model_text(const SpeedModel& model, const std::vector<double>& sizes);
std::string speed_model_view_json(const SpeedModel& model, const std::vector<double>& sizes);

}  // namespace hetscale::report
