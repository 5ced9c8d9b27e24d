#include "hetscale/record/measured_conditions.hpp"

#include <nlohmann/json.hpp>

namespace hetscale {
namespace {

template <class T>
std::vector<T> numbers(const nlohmann::json& object, const char* key) {
  std::vector<T> values;
  if (!object.contains(key) || !object[key].is_array()) return values;
  for (const auto& value : object[key])
    if (value.is_number()) values.push_back(value.get<T>());
  return values;
}

}  // namespace

MeasuredConditions read_measured_conditions(const std::string& context_json) {
  MeasuredConditions conditions;
  const auto context = nlohmann::json::parse(context_json.empty() ? "{}" : context_json, nullptr, false);
  if (!context.is_object()) return conditions;
  if (context.contains("sharing") && context["sharing"].is_object()) {
    const auto& sharing = context["sharing"];
    conditions.has_sharing = true;
    conditions.cores_shared = sharing.value("cores_shared", false);
    if (sharing.contains("ranks_per_host") && sharing["ranks_per_host"].is_object())
      for (const auto& [host, ranks] : sharing["ranks_per_host"].items())
        if (ranks.is_number_integer()) conditions.ranks_per_host[host] = ranks.get<int>();
  }
  if (context.contains("emulation") && context["emulation"].is_object()) {
    const auto& emulation = context["emulation"];
    conditions.emulated_asked = numbers<double>(emulation, "asked");
    conditions.emulated_achieved = numbers<double>(emulation, "achieved");
  }
  return conditions;
}

}  // namespace hetscale
