#include "hetscale/record/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/expression.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/model/isospeed.hpp"
#include "io/strict_json.hpp"
#include "io/provenance_json.hpp"

namespace hetscale {
namespace {

using nlohmann::ordered_json;

// What "marked_speed" may differ from the sum of "marked_speeds": the paper
// prints marked speeds to two decimals.
constexpr double marked_speed_tolerance = 0.005;

bool boolean(const io::JsonObject& object, std::string_view key, bool if_missing) {
  if (!object.has(key)) return if_missing;
  const auto& value = object.raw(key);
  if (!value.is_boolean()) object.fail(key, "must be true or false, got " + value.dump());
  return value.get<bool>();
}

SweepPoint parse_point(const io::JsonObject& point) {
  point.allow_only({"N", "W", "T_s", "T_comp_s", "speed_Mflops", "E_s", "check", "T_runs_s"});
  SweepPoint parsed;
  parsed.size = point.positive_number("N");
  parsed.work = point.positive_number("W");
  parsed.seconds = point.positive_number("T_s");
  parsed.compute_seconds = point.non_negative_number("T_comp_s", 0.0);
  point.optional_number("speed_Mflops");  // derived: checked to be a number, recomputed
  point.optional_number("E_s");
  const auto check = point.optional_string("check");
  if (check && *check != "passed" && *check != "failed")
    point.fail("check",
               fmt::format("is \"{}\", expected \"passed\" or \"failed\" (or no check field: none ran)", *check));
  parsed.checked = check.has_value();
  parsed.check_passed = check.value_or("passed") == "passed";
  if (point.has("T_runs_s")) {
    parsed.run_seconds = point.positive_numbers("T_runs_s", "run times (s)", "s");
    if (std::find(parsed.run_seconds.begin(), parsed.run_seconds.end(), parsed.seconds) == parsed.run_seconds.end())
      point.fail("T_runs_s", fmt::format("does not hold T_s = {}: the point is one of its runs", parsed.seconds));
  }
  return parsed;
}

std::vector<double> marked_speeds(const io::JsonObject& top) {
  return top.positive_numbers("marked_speeds", "marked speeds (Mflop/s), one per process", "Mflop/s");
}

SweepTrend parse_trend(const io::JsonObject& trend) {
  trend.allow_only({"degree", "coefficients", "r_squared"});
  SweepTrend parsed;
  const double degree = trend.positive_number("degree");
  if (degree != std::floor(degree) || degree > static_cast<double>(SweepTrend::max_degree))
    trend.fail("degree", fmt::format("must be a whole number from 1 to {}, got {}", SweepTrend::max_degree, degree));
  parsed.degree = static_cast<std::size_t>(degree);
  const auto& coefficients = trend.raw("coefficients");
  if (!coefficients.is_array() || coefficients.size() != parsed.degree + 1)
    trend.fail("coefficients", fmt::format("must be an array of degree + 1 = {} numbers", parsed.degree + 1));
  for (const auto& c : coefficients) {
    if (!c.is_number() || !std::isfinite(c.get<double>()))
      trend.fail("coefficients", "must hold finite numbers, got " + c.dump());
    parsed.coefficients.push_back(c.get<double>());
  }
  parsed.r_squared = trend.number("r_squared");
  return parsed;
}

SweepTarget parse_target(const io::JsonObject& target) {
  target.allow_only({"E_s", "N", "extrapolated", "verified", "verifying_runs"});
  SweepTarget parsed;
  parsed.speed_efficiency = target.number("E_s");
  if (parsed.speed_efficiency <= 0.0 || parsed.speed_efficiency > 1.0)
    target.fail("E_s", fmt::format("must be in (0, 1], got {}", parsed.speed_efficiency));
  if (!target.raw("N").is_null()) parsed.size = target.positive_number("N");
  parsed.extrapolated = boolean(target, "extrapolated", false);
  if (target.has("verified")) parsed.verified = parse_point(target.object("verified"));
  if (target.has("verifying_runs"))
    for (const auto& run : target.objects("verifying_runs")) parsed.verifying_runs.push_back(parse_point(run));
  return parsed;
}

ordered_json point_json(const SweepPoint& point, double marked_speed_mflops) {
  ordered_json json{{"N", point.size},
                    {"W", point.work},
                    {"T_s", point.seconds},
                    {"T_comp_s", point.compute_seconds},
                    {"speed_Mflops", point.achieved_speed_mflops()},
                    {"E_s", point.speed_efficiency(marked_speed_mflops)}};
  if (point.checked) json["check"] = point.check_passed ? "passed" : "failed";
  if (!point.run_seconds.empty()) json["T_runs_s"] = point.run_seconds;
  return json;
}

}  // namespace

const SweepPoint& nearest_to_target(const Sweep& sweep, const std::vector<SweepPoint>& runs, double target) {
  if (runs.empty()) throw std::invalid_argument("nearest_to_target: no run");
  const double c = sweep.marked_speed();
  return *std::min_element(runs.begin(), runs.end(), [&](const SweepPoint& a, const SweepPoint& b) {
    return std::abs(a.speed_efficiency(c) - target) < std::abs(b.speed_efficiency(c) - target);
  });
}

double SweepPoint::achieved_speed_mflops() const { return model::achieved_speed(work, seconds) / 1e6; }

double SweepPoint::speed_efficiency(double marked_speed_mflops) const {
  return model::speed_efficiency(work, seconds, marked_speed_mflops * 1e6);
}

// Chen et al. 2008, Definition 1; a sweep not yet given its nodes has C = 0.
double Sweep::marked_speed() const { return marked_speeds.empty() ? 0.0 : model::marked_speed(marked_speeds); }

Sweep parse_sweep(std::string_view text, const std::string& source) {
  const auto document = io::parse_json(text, source);
  const io::JsonObject top(document, source, "");
  top.require_schema(Sweep::schema);
  top.allow_only({"schema", "kernel", "program", "workload", "configuration", "marked_speeds", "marked_speed", "points",
                  "trend", "target", "context"});
  Sweep sweep;
  sweep.source = source;
  if (top.has("kernel") == top.has("program"))
    top.fail("kernel", "give exactly one of kernel (hetscale's ge, mm, conv, mc) and program (the name of yours)");
  if (top.has("kernel")) {
    sweep.kernel = top.string("kernel");
    if (sweep.kernel != "ge" && sweep.kernel != "mm" && sweep.kernel != "conv" && sweep.kernel != "mc")
      top.fail("kernel", fmt::format("is \"{}\", expected one of ge, mm, conv, mc (a program of yours: \"program\")",
                                     sweep.kernel));
    if (top.has("workload")) top.fail("workload", "goes with program only: a kernel's W(N) is its own");
  } else {
    sweep.users_program = true;
    sweep.kernel = top.string("program");
    if (sweep.kernel.empty()) top.fail("program", "must not be empty");
    if (top.has("workload")) {
      sweep.workload = top.string("workload");
      try {
        io::Expression::parse(sweep.workload, {"N"});
      } catch (const std::invalid_argument& error) {
        top.fail("workload", fmt::format("\"{}\" is not an expression in N: {}", sweep.workload, error.what()));
      }
    }
  }
  sweep.configuration = top.string("configuration");
  sweep.marked_speeds = marked_speeds(top);
  if (const auto declared = top.optional_positive_number("marked_speed");
      declared && std::abs(*declared - sweep.marked_speed()) > marked_speed_tolerance)
    top.fail("marked_speed", fmt::format("is {} but the marked_speeds sum to {} (Mflop/s); C must be their sum",
                                         *declared, sweep.marked_speed()));
  for (const auto& point : top.objects("points")) sweep.points.push_back(parse_point(point));
  if (top.has("trend")) sweep.trend = parse_trend(top.object("trend"));
  if (top.has("target")) sweep.target = parse_target(top.object("target"));
  if (top.has("context")) {
    top.object("context");  // free-form, but an object
    sweep.context = io::provenance_from(top.raw("context"));
  }
  return sweep;
}

Sweep read_sweep(const std::string& path) { return parse_sweep(io::read_text_file(path), path); }

std::string sweep_json(const Sweep& sweep) {
  const double c = sweep.marked_speed();
  ordered_json out;
  out["schema"] = Sweep::schema;
  if (sweep.users_program) {
    out["program"] = sweep.kernel;
    if (!sweep.workload.empty()) out["workload"] = sweep.workload;
  } else {
    out["kernel"] = sweep.kernel;
  }
  out["configuration"] = sweep.configuration;
  out["marked_speeds"] = sweep.marked_speeds;
  out["marked_speed"] = c;
  out["points"] = ordered_json::array();
  for (const auto& point : sweep.points) out["points"].push_back(point_json(point, c));
  if (sweep.trend)
    out["trend"] = {{"degree", sweep.trend->degree},
                    {"coefficients", sweep.trend->coefficients},
                    {"r_squared", sweep.trend->r_squared}};
  if (sweep.target) {
    const auto& target = *sweep.target;
    out["target"] = {{"E_s", target.speed_efficiency},
                     {"N", target.size ? ordered_json(*target.size) : ordered_json(nullptr)},
                     {"extrapolated", target.extrapolated}};
    if (target.verified) out["target"]["verified"] = point_json(*target.verified, c);
    if (!target.verifying_runs.empty()) {
      out["target"]["verifying_runs"] = ordered_json::array();
      for (const auto& run : target.verifying_runs) out["target"]["verifying_runs"].push_back(point_json(run, c));
    }
  }
  out["context"] = io::provenance_document(sweep.context);
  return out.dump(2) + "\n";
}

bool sweep_checks_passed(const Sweep& sweep, bool with_verifying_run) {
  for (const auto& point : sweep.points)
    if (!point.check_passed) return false;
  if (with_verifying_run && sweep.target && sweep.target->verified) return sweep.target->verified->check_passed;
  return true;
}

}  // namespace hetscale
