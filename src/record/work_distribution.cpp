#include "hetscale/record/work_distribution.hpp"

#include <string_view>

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "record/context_json.hpp"

namespace hetscale {
namespace {
constexpr std::string_view fpm_prefix = "fpm:";
}

std::string WorkDistribution::model_path() const {
  return name.rfind(fpm_prefix, 0) == 0 ? name.substr(fpm_prefix.size()) : std::string();
}

std::string WorkDistribution::describe() const {
  std::string shown;
  for (const double share : shares) shown += fmt::format("{}{:.4g}", shown.empty() ? "" : ", ", share);
  const std::string path = model_path();
  std::string what;
  if (name == "marked")
    what = "the marked speeds (Mflop/s)";
  else if (!path.empty())
    what = "the functional performance model " + path + " (rows)";
  else
    what = name;
  return shown.empty() ? what : what + ": " + shown;
}

namespace record_json {

std::optional<WorkDistribution> work_distribution_from(const nlohmann::json& context) {
  if (!context.is_object()) return std::nullopt;
  const auto name = context.find("distribution");
  if (name == context.end() || !name->is_string() || name->get<std::string>().empty()) return std::nullopt;
  WorkDistribution distribution{name->get<std::string>(), {}};
  const auto shares = context.find("distribution_shares");
  if (shares != context.end() && shares->is_array()) {
    for (const auto& share : *shares) {
      if (!share.is_number()) {
        distribution.shares.clear();
        break;
      }
      distribution.shares.push_back(share.get<double>());
    }
  }
  return distribution;
}

}  // namespace record_json

}  // namespace hetscale
