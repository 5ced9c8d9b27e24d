#pragma once
// Measurements of one or more metrics at several values of one scale
// parameter (p, C, N ...), each point with its repetitions: what `hetscale
// predict` fits. Read from and written in Extra-P's formats (Extra-P 4.2,
// docs/file-formats.md), so the two tools run on the same data:
//
// Text (`extrap --text`):            JSON Lines (`extrap --json`), one object a line:
//   PARAMETER p                        {"params":{"p":2},"callpath":"t_par","metric":"time",
//   POINTS 2 4 8                        "value":[1.25,1.31]}
//   REGION t_par                       "callpath" defaults to "<root>", "metric" to
//   METRIC time                        "<default>"; lines of one point accumulate
//   DATA 1.25 1.31                     repetitions; other keys are ignored.
//   DATA 0.70 0.69
//   DATA 0.41 0.40
//
// Reading is strict where Extra-P would fail later or silently: one parameter
// only, each point once, every value finite, every (callpath, metric) with
// data at every point; InputError naming the file, the line and what is
// allowed.
#include <string>
#include <string_view>
#include <vector>

namespace hetscale {

struct ScalingMeasurement {
  double x = 0.0;
  std::vector<double> values;  // repetitions, in order
};

// One (callpath, metric): its points in the order of the file's points.
struct ScalingSeries {
  std::string callpath;
  std::string metric;
  std::vector<ScalingMeasurement> points;

  // The values as repetitions at x: added to the point at x, or a new point.
  void add(double x, const std::vector<double>& values);
};

struct ScalingMeasurements {
  std::string source;
  std::string parameter;  // the scale variable's name
  std::vector<ScalingSeries> series;
  // What the reader must know about how the inputs were measured (shared
  // cores, other load), one line each; said first by `predict`.
  std::vector<std::string> cautions;
};

ScalingMeasurements parse_extra_p_text(std::string_view text, const std::string& source);
ScalingMeasurements parse_extra_p_json_lines(std::string_view text, const std::string& source);
// Either format, by the file's first character that is not blank ('{': JSON Lines).
ScalingMeasurements read_scaling_measurements(const std::string& path);

// What a file of measurements at several scales is, told by its text: run
// records, sweeps (their schema), or Extra-P's text or JSON Lines.
enum class ScalingInputKind { run, sweep, extra_p };
ScalingInputKind scaling_input_kind(const std::string& text);

// As Extra-P's JSON Lines reader reads them: one line per series and point,
// its repetitions as a list, numbers as they round-trip.
std::string extra_p_json_lines(const ScalingMeasurements& measurements);
// As Extra-P's text reader reads them.
std::string extra_p_text(const ScalingMeasurements& measurements);

}  // namespace hetscale
