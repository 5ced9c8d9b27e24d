#include "hetscale/record/comm_profile.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <utility>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "io/strict_json.hpp"
#include "io/provenance_json.hpp"

namespace hetscale {
namespace {

// The operations a fit may name (Chen et al. 2008), and those a sample may name (with Stage-GA's structures).
constexpr std::array<std::string_view, 5> fit_operations{"broadcast", "send", "receive", "barrier", "compute"};
constexpr std::array<std::string_view, 9> sample_operations{"broadcast",  "send",  "receive", "barrier", "compute",
                                                            "multiphase", "shift", "scatter", "gather"};

template <std::size_t Count>
std::string known_operation(const io::JsonObject& object, std::string_view key, const std::string& name,
                            const std::array<std::string_view, Count>& known) {
  if (std::find(known.begin(), known.end(), name) == known.end())
    object.fail(key, fmt::format("unknown operation '{}'; allowed: {}", name, fmt::join(known, ", ")));
  return name;
}

std::size_t whole_number(const io::JsonObject& object, std::string_view key, double at_least) {
  const double value = object.number(key);
  if (value < at_least || value != std::floor(value) || value > 1e12)
    object.fail(key, fmt::format("must be a whole number >= {}, got {}", at_least, value));
  return static_cast<std::size_t>(value);
}

double required_non_negative(const io::JsonObject& object, std::string_view key) {
  object.raw(key);  // required
  return object.non_negative_number(key, 0.0);
}

// A line {"intercept": a, slope_name: b} of costs, both >= 0.
std::pair<double, double> read_line(const io::JsonObject& costs, std::string_view name, std::string_view slope_name) {
  const auto line = costs.object(name);
  line.allow_only({"intercept", slope_name});
  return {required_non_negative(line, "intercept"), required_non_negative(line, slope_name)};
}

model::CommunicationCosts read_costs(const io::JsonObject& costs) {
  costs.allow_only({"broadcast", "send", "receive", "barrier", "unit_computation", "reference_marked_speed"});
  model::CommunicationCosts result;
  std::tie(result.broadcast_intercept, result.broadcast_per_process) = read_line(costs, "broadcast", "per_process");
  std::tie(result.send_intercept, result.send_per_element) = read_line(costs, "send", "per_element");
  // Chen et al. 2008 Section 4.5 measured T_recv = T_send; a profile may say so by leaving receive out.
  std::tie(result.receive_intercept, result.receive_per_element) =
      costs.has("receive") ? read_line(costs, "receive", "per_element")
                           : std::pair{result.send_intercept, result.send_per_element};
  const auto barrier = costs.object("barrier");
  barrier.allow_only({"per_process"});
  result.barrier_per_process = required_non_negative(barrier, "per_process");
  result.unit_computation = costs.positive_number("unit_computation");
  result.reference_marked_speed = costs.optional_positive_number("reference_marked_speed");
  return result;
}

// "fits" of `top`: an object keyed by operation, read in the order of fit_operations.
std::vector<CommFitQuality> read_fits(const io::JsonObject& top) {
  const auto fits = top.object("fits");
  for (const auto& [operation, unused] : top.raw("fits").items())
    known_operation(fits, operation, operation, fit_operations);
  std::vector<CommFitQuality> result;
  for (const std::string_view operation : fit_operations) {
    if (!fits.has(operation)) continue;
    const auto fit = fits.object(operation);
    fit.allow_only({"r_squared", "points"});
    const double r_squared = fit.number("r_squared");
    if (r_squared > 1.0) fit.fail("r_squared", fmt::format("must be <= 1, got {}", r_squared));
    result.push_back({std::string(operation), r_squared, whole_number(fit, "points", 1)});
  }
  return result;
}

// "structures" of `top`: an object keyed by structure, read in the order of communication_structures.
std::vector<StructureCosts> read_structures(const io::JsonObject& top) {
  const auto structures = top.object("structures");
  for (const auto& [name, unused] : top.raw("structures").items())
    if (std::find(communication_structures.begin(), communication_structures.end(), name) ==
        communication_structures.end())
      structures.fail(
          name, fmt::format("unknown structure '{}'; allowed: {}", name, fmt::join(communication_structures, ", ")));
  std::vector<StructureCosts> result;
  for (const std::string_view name : communication_structures) {
    if (!structures.has(name)) continue;
    const auto entry = structures.object(name);
    StructureCosts costs;
    costs.structure = std::string(name);
    if (name == "shift") {
      entry.allow_only({"N", "Q", "r_squared", "points"});  // Stage-GA Table II: f1 = N, f2 = Q
    } else {
      entry.allow_only({"M", "N", "R", "Q", "r_squared", "points"});
      costs.m = entry.number("M");
      costs.r = entry.number("R");
    }
    costs.n = entry.number("N");
    costs.q = entry.number("Q");
    costs.r_squared = entry.optional_number("r_squared");
    if (costs.r_squared && *costs.r_squared > 1.0)
      entry.fail("r_squared", fmt::format("must be <= 1, got {}", *costs.r_squared));
    if (entry.has("points")) costs.points = whole_number(entry, "points", 1);
    result.push_back(std::move(costs));
  }
  return result;
}

CommSample read_sample(const io::JsonObject& sample) {
  sample.allow_only({"operation", "processes", "elements", "seconds", "repetitions"});
  CommSample result;
  result.operation = known_operation(sample, "operation", sample.string("operation"), sample_operations);
  result.processes = whole_number(sample, "processes", 1);
  result.elements = sample.non_negative_number("elements", 0.0);
  result.seconds = required_non_negative(sample, "seconds");
  result.repetitions = sample.has("repetitions") ? whole_number(sample, "repetitions", 1) : 1;
  return result;
}

// A count of doubles as written by people: 1000, not 1000.0.
nlohmann::ordered_json whole_or_real(double value) {
  if (value == std::floor(value) && value >= 0.0 && value < 9007199254740992.0)
    return static_cast<std::uint64_t>(value);
  return value;
}

}  // namespace

CommProfile parse_comm_profile(std::string_view text, const std::string& source) {
  const auto document = io::parse_json(text, source);
  const io::JsonObject top(document, source, "");
  top.require_schema(CommProfile::schema);
  top.allow_only({"schema", "label", "costs", "fits", "structures", "samples", "context"});

  CommProfile profile;
  profile.source = source;
  profile.label = top.optional_string("label").value_or("");
  profile.costs = read_costs(top.object("costs"));
  if (top.has("fits")) profile.fits = read_fits(top);
  if (top.has("structures")) profile.structures = read_structures(top);
  if (top.has("samples"))
    for (const auto& sample : top.objects("samples")) profile.samples.push_back(read_sample(sample));
  if (top.has("context")) {
    top.object("context");  // must be an object; kept as written
    profile.context = io::provenance_from(top.raw("context"));
  }
  return profile;
}

CommProfile read_comm_profile(const std::string& path) { return parse_comm_profile(io::read_text_file(path), path); }

const StructureCosts& structure_costs(const CommProfile& profile, std::string_view name) {
  if (std::find(communication_structures.begin(), communication_structures.end(), name) ==
      communication_structures.end())
    throw std::invalid_argument(fmt::format("unknown communication structure '{}'; allowed: {}", name,
                                            fmt::join(communication_structures, ", ")));
  for (const auto& costs : profile.structures)
    if (costs.structure == name) return costs;
  throw InputError(profile.source, fmt::format("structures.{}", name),
                   fmt::format("missing; the optimizer needs all five structures: {} (measure them with "
                               "mpiexec -n P hetscale bench comm)",
                               fmt::join(communication_structures, ", ")));
}

std::string comm_profile_json(const CommProfile& profile) {
  using nlohmann::ordered_json;
  const auto& costs = profile.costs;
  ordered_json document;
  document["schema"] = CommProfile::schema;
  if (!profile.label.empty()) document["label"] = profile.label;
  ordered_json cost_block;
  cost_block["broadcast"] = {{"intercept", costs.broadcast_intercept}, {"per_process", costs.broadcast_per_process}};
  cost_block["send"] = {{"intercept", costs.send_intercept}, {"per_element", costs.send_per_element}};
  cost_block["receive"] = {{"intercept", costs.receive_intercept}, {"per_element", costs.receive_per_element}};
  cost_block["barrier"] = {{"per_process", costs.barrier_per_process}};
  cost_block["unit_computation"] = costs.unit_computation;
  if (costs.reference_marked_speed) cost_block["reference_marked_speed"] = *costs.reference_marked_speed;
  document["costs"] = std::move(cost_block);
  if (!profile.fits.empty()) {
    ordered_json fits = ordered_json::object();
    for (const auto& fit : profile.fits) fits[fit.operation] = {{"r_squared", fit.r_squared}, {"points", fit.points}};
    document["fits"] = std::move(fits);
  }
  if (!profile.structures.empty()) {
    ordered_json structures = ordered_json::object();
    for (const auto& costs : profile.structures) {
      ordered_json entry;
      if (costs.structure != "shift") entry["M"] = costs.m;
      entry["N"] = costs.n;
      if (costs.structure != "shift") entry["R"] = costs.r;
      entry["Q"] = costs.q;
      if (costs.r_squared) entry["r_squared"] = *costs.r_squared;
      if (costs.points > 0) entry["points"] = costs.points;
      structures[costs.structure] = std::move(entry);
    }
    document["structures"] = std::move(structures);
  }
  if (!profile.samples.empty()) {
    ordered_json samples = ordered_json::array();
    for (const auto& sample : profile.samples)
      samples.push_back({{"operation", sample.operation},
                         {"processes", sample.processes},
                         {"elements", whole_or_real(sample.elements)},
                         {"seconds", sample.seconds},
                         {"repetitions", sample.repetitions}});
    document["samples"] = std::move(samples);
  }
  document["context"] = io::provenance_document(profile.context);
  return document.dump(2) + "\n";
}

}  // namespace hetscale
