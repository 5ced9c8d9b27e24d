#include "hetscale/record/measured_regions.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "hetscale/io/input_error.hpp"

namespace hetscale {
namespace {

// The context's "regions" entries that name their region; the context is
// free-form, so anything else there is passed over.
std::vector<std::pair<std::string, const nlohmann::json*>> named_regions(const nlohmann::json& context) {
  std::vector<std::pair<std::string, const nlohmann::json*>> found;
  if (!context.is_object() || !context.contains("regions") || !context["regions"].is_array()) return found;
  for (const auto& region : context["regions"]) {
    if (!region.is_object() || !region.contains("context") || !region["context"].is_object()) continue;
    const auto& inner = region["context"];
    if (inner.contains("region") && inner["region"].is_string())
      found.emplace_back(inner["region"].get<std::string>(), &region);
  }
  return found;
}

nlohmann::json context_of(const RunRecord& run) {
  return nlohmann::json::parse(run.context_json.empty() ? "{}" : run.context_json, nullptr, false);
}

}  // namespace

std::vector<std::string> region_names(const RunRecord& run) {
  std::vector<std::string> names;
  for (const auto& [name, region] : named_regions(context_of(run))) names.push_back(name);
  return names;
}

RunRecord region_record(const RunRecord& run, const std::string& name) {
  const auto context = context_of(run);
  const auto regions = named_regions(context);
  for (const auto& [region_name, region] : regions)
    if (region_name == name) return parse_run_record(region->dump(), fmt::format("{}, region {}", run.source, name));
  std::vector<std::string> names;
  for (const auto& [region_name, region] : regions) names.push_back("'" + region_name + "'");
  throw InputError("region", "",
                   regions.empty() ? fmt::format("'{}': the run {} has no regions (hetscale_region_begin / _end, "
                                                 "docs/measure.md)",
                                                 name, run.source)
                                   : fmt::format("'{}': no such region; the run {} has {}", name, run.source,
                                                 fmt::join(names, ", ")));
}

}  // namespace hetscale
