#pragma once
// The JSON of a run record's context and of its parts, read and written here
// only (private to record/): the public headers hold the types.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetscale/record/farm_context.hpp"
#include "hetscale/record/mpi_profile.hpp"
#include "hetscale/record/run_context.hpp"
#include "hetscale/record/run_record.hpp"
#include "hetscale/record/work_distribution.hpp"

namespace hetscale::record_json {

// A run record read from its JSON document (run_record.cpp); `source` names it in errors.
RunRecord run_record_from(const nlohmann::json& document, const std::string& source);
nlohmann::ordered_json run_record_document(const RunRecord& run);

// The context object of the record read from `source`: its regions are read
// as run records (their errors name "SOURCE, region NAME").
RunContext run_context_from(const nlohmann::json& context, const std::string& source);
nlohmann::ordered_json run_context_document(const RunContext& context);

std::optional<FarmContext> farm_context_from(const nlohmann::json& context);
nlohmann::ordered_json farm_context_document(const FarmContext& context);

std::vector<MpiFunctionProfile> mpi_profile_from(const nlohmann::json& list);
nlohmann::ordered_json mpi_profile_document(const std::vector<MpiFunctionProfile>& profile);

// The "distribution" and "distribution_shares" of a kernel's context (or a sweep's).
std::optional<WorkDistribution> work_distribution_from(const nlohmann::json& context);

}  // namespace hetscale::record_json
