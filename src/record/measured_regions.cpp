#include "hetscale/record/measured_regions.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "hetscale/io/input_error.hpp"

namespace hetscale {
namespace {

const std::vector<RunRecord>& regions_of(const RunRecord& run) {
  static const std::vector<RunRecord> none;
  return run.context.measured ? run.context.measured->regions : none;
}

std::string region_name(const RunRecord& region) {
  return region.context.measured ? region.context.measured->region.value_or("") : "";
}

}  // namespace

std::vector<std::string> region_names(const RunRecord& run) {
  std::vector<std::string> names;
  for (const auto& region : regions_of(run)) names.push_back(region_name(region));
  return names;
}

RunRecord region_record(const RunRecord& run, const std::string& name) {
  for (const auto& region : regions_of(run))
    if (region_name(region) == name) return region;
  std::vector<std::string> names;
  for (const auto& region : regions_of(run)) names.push_back("'" + region_name(region) + "'");
  throw InputError("region", "",
                   names.empty() ? fmt::format("'{}': the run {} has no regions (hetscale_region_begin / _end, "
                                               "docs/measure.md)",
                                               name, run.source)
                                 : fmt::format("'{}': no such region; the run {} has {}", name, run.source,
                                               fmt::join(names, ", ")));
}

}  // namespace hetscale
