#include "hetscale/record/step_costs.hpp"

#include <cmath>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/files.hpp"
#include "io/strict_json.hpp"

namespace hetscale {

namespace {

// Per rank, optional (absent or empty: not given).
std::vector<double> per_rank(const io::JsonObject& top, const char* key) {
  return top.has(key) ? top.positive_numbers(key, "numbers > 0, one per rank", "", true) : std::vector<double>{};
}

}  // namespace

StepCosts parse_step_costs_json(std::string_view text, const std::string& source) {
  const auto document = io::parse_json(text, source);
  const io::JsonObject top(document, source, "");
  top.require_schema(StepCosts::schema);
  top.allow_only(
      {"schema", "kernel", "ranks", "steps", "fastest_of", "emulated_speeds", "marked_speeds", "costs", "context"});
  StepCosts read;
  read.source = source;
  read.kernel = top.optional_string("kernel").value_or("ge");
  if (read.kernel != "ge" && read.kernel != "mm")
    top.fail("kernel", fmt::format("must be ge or mm, got '{}'", read.kernel));
  const double ranks = top.positive_number("ranks");
  if (ranks != std::floor(ranks)) top.fail("ranks", fmt::format("must be a whole number >= 1, got {}", ranks));
  read.ranks = static_cast<int>(ranks);
  read.steps = static_cast<std::size_t>(top.non_negative_number("steps", 0.0));
  const double fastest_of = top.non_negative_number("fastest_of", 1.0);
  if (fastest_of < 1.0 || fastest_of != std::floor(fastest_of))
    top.fail("fastest_of", fmt::format("must be a whole number >= 1, got {}", fastest_of));
  read.fastest_of = static_cast<std::size_t>(fastest_of);
  read.emulated_speeds = per_rank(top, "emulated_speeds");
  read.marked_speeds = per_rank(top, "marked_speeds");
  for (const auto& cost : top.objects("costs")) {
    cost.allow_only({"length", "step_seconds", "computation_seconds", "overhead_seconds"});
    StepCost value;
    value.length = cost.positive_number("length");
    if (value.length != std::floor(value.length))
      cost.fail("length", fmt::format("must be a whole number >= 1, got {}", value.length));
    if (!read.costs.empty() && value.length <= read.costs.back().length)
      cost.fail("length",
                fmt::format("lengths must increase, got {} after {}", value.length, read.costs.back().length));
    value.step_seconds = cost.non_negative_number("step_seconds", 0.0);
    value.computation_seconds = cost.non_negative_number("computation_seconds", 0.0);
    value.overhead_seconds = cost.number("overhead_seconds");  // a little below 0 is timer noise
    read.costs.push_back(value);
  }
  return read;
}

StepCosts read_step_costs(const std::string& path) { return parse_step_costs_json(io::read_text_file(path), path); }

std::string step_costs_json(const StepCosts& costs) {
  nlohmann::ordered_json document{{"schema", StepCosts::schema},
                                  {"kernel", costs.kernel},
                                  {"ranks", costs.ranks},
                                  {"steps", costs.steps},
                                  {"fastest_of", costs.fastest_of},
                                  {"emulated_speeds", costs.emulated_speeds},
                                  {"marked_speeds", costs.marked_speeds}};
  auto& rows = document["costs"] = nlohmann::ordered_json::array();
  for (const auto& cost : costs.costs)
    rows.push_back({{"length", cost.length},
                    {"step_seconds", cost.step_seconds},
                    {"computation_seconds", cost.computation_seconds},
                    {"overhead_seconds", cost.overhead_seconds}});
  return document.dump(2) + "\n";
}

}  // namespace hetscale
