#include "hetscale/record/mpi_profile.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "record/context_json.hpp"

namespace hetscale {

namespace record_json {

nlohmann::ordered_json mpi_profile_document(const std::vector<MpiFunctionProfile>& profile) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& entry : profile) {
    nlohmann::ordered_json json{{"function", entry.function},         {"calls", entry.calls},
                                {"seconds", entry.seconds},           {"seconds_max", entry.seconds_max},
                                {"seconds_mean", entry.seconds_mean}, {"bytes", entry.bytes}};
    if (entry.messages > 0.0) json["messages"] = entry.messages;
    out.push_back(std::move(json));
  }
  return out;
}

// Entries without a function name or with a field that is not a number are left out.
std::vector<MpiFunctionProfile> mpi_profile_from(const nlohmann::json& list) {
  std::vector<MpiFunctionProfile> profile;
  if (!list.is_array()) return profile;
  for (const auto& entry : list) {
    if (!entry.is_object() || !entry.contains("function") || !entry["function"].is_string()) continue;
    MpiFunctionProfile read;
    read.function = entry["function"].get<std::string>();
    bool numbers = true;
    for (auto [key, value] : {std::pair{"calls", &read.calls}, {"seconds", &read.seconds},
                              {"seconds_max", &read.seconds_max}, {"seconds_mean", &read.seconds_mean},
                              {"bytes", &read.bytes}}) {
      if (!entry.contains(key) || !entry[key].is_number()) {
        numbers = false;
        break;
      }
      *value = entry[key].get<double>();
    }
    if (entry.contains("messages") && entry["messages"].is_number()) read.messages = entry["messages"].get<double>();
    if (numbers) profile.push_back(read);
  }
  std::stable_sort(profile.begin(), profile.end(),
                   [](const MpiFunctionProfile& a, const MpiFunctionProfile& b) { return a.seconds > b.seconds; });
  return profile;
}

}  // namespace record_json

std::string mpi_profile_json(const std::vector<MpiFunctionProfile>& profile) {
  return record_json::mpi_profile_document(profile).dump();
}

}  // namespace hetscale
