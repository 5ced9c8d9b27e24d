#include "hetscale/measure/measure_settings.hpp"

#include <cstdlib>

#include <fmt/core.h>
#include <fmt/format.h>

namespace hetscale::measure {
namespace {

constexpr const char* program_variable = "HETSCALE_MEASURE_PROGRAM";
constexpr const char* out_variable = "HETSCALE_MEASURE_OUT";
constexpr const char* talp_json_variable = "HETSCALE_MEASURE_TALP_JSON";
constexpr const char* speeds_variable = "HETSCALE_MEASURE_SPEEDS";
constexpr const char* speeds_source_variable = "HETSCALE_MEASURE_SPEEDS_SOURCE";
constexpr const char* emulated_speeds_variable = "HETSCALE_MEASURE_EMULATE_SPEEDS";
constexpr const char* emulated_thread_speeds_variable = "HETSCALE_MEASURE_EMULATE_THREAD_SPEEDS";
constexpr const char* latency_variable = "HETSCALE_MEASURE_LATENCY";
constexpr const char* bandwidth_variable = "HETSCALE_MEASURE_BANDWIDTH";
constexpr const char* model_source_variable = "HETSCALE_MEASURE_MODEL_SOURCE";
constexpr const char* trace_variable = "HETSCALE_MEASURE_TRACE";
constexpr const char* every_call_variable = "HETSCALE_MEASURE_TIME_EVERY_CALL";

std::optional<double> positive(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || !end || *end != '\0' || !(value > 0.0)) return std::nullopt;
  return value;
}

// v1,v2,...: an item that is not a number > 0 counts as 1.
std::vector<double> speed_list(const std::string& text) {
  std::vector<double> speeds;
  for (std::size_t start = 0; !text.empty() && start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    speeds.push_back(positive(text.substr(start, comma - start)).value_or(1.0));
    start = comma + 1;
  }
  return speeds;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> MeasureSettings::to_environment() const {
  std::vector<std::pair<std::string, std::string>> variables;
  const auto add = [&variables](const char* name, const std::string& value) {
    if (!value.empty()) variables.emplace_back(name, value);
  };
  add(program_variable, program);
  add(out_variable, out);
  add(talp_json_variable, talp_json);
  add(speeds_variable, fmt::format("{}", fmt::join(speeds, ",")));
  if (!speeds.empty()) add(speeds_source_variable, speeds_source);
  add(emulated_speeds_variable, fmt::format("{}", fmt::join(emulated_speeds, ",")));
  add(emulated_thread_speeds_variable, fmt::format("{}", fmt::join(emulated_thread_speeds, ",")));
  if (latency) add(latency_variable, fmt::format("{}", *latency));
  if (bandwidth) add(bandwidth_variable, fmt::format("{}", *bandwidth));
  if (latency || bandwidth) add(model_source_variable, transfer_model_source);
  add(trace_variable, trace);
  if (time_every_call) add(every_call_variable, "1");
  return variables;
}

MeasureSettings MeasureSettings::from_environment(const std::function<const char*(const char*)>& lookup) {
  const auto get = [&lookup](const char* name) {
    const char* value = lookup(name);
    return std::string(value ? value : "");
  };
  MeasureSettings settings;
  settings.program = get(program_variable);
  settings.out = get(out_variable);
  settings.talp_json = get(talp_json_variable);
  settings.speeds = speed_list(get(speeds_variable));
  settings.speeds_source = get(speeds_source_variable);
  settings.emulated_speeds = speed_list(get(emulated_speeds_variable));
  settings.emulated_thread_speeds = speed_list(get(emulated_thread_speeds_variable));
  settings.latency = positive(get(latency_variable));
  settings.bandwidth = positive(get(bandwidth_variable));
  settings.transfer_model_source = get(model_source_variable);
  settings.trace = get(trace_variable);
  settings.time_every_call = get(every_call_variable) == "1";
  return settings;
}

}  // namespace hetscale::measure
