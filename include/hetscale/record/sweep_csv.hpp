#pragma once
// Sweeps and configurations as CSV files, as Chen et al. 2008 print them
// (Tables 3-4), read as written: cells with the spaces around them removed,
// blank lines and lines starting with '#' skipped, the first other line the
// header. What the rows mean (the work W(N) of a kernel or a program, a sweep
// made of them) is the analysis's (analysis/isospeed.hpp). Bad input throws
// InputError naming the file and its line.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/record/step_costs.hpp"

namespace hetscale {

// One row of a CSV sweep.
struct SweepCsvRow {
  std::string field;           // "line K", for messages
  double size = 0.0;           // N
  double seconds = 0.0;        // T (a T_ms column read as seconds)
  std::optional<double> work;  // the W column's value, when there is one
};

struct SweepCsv {
  std::string header_field, header_text;  // "line K" and the header as written, for messages
  bool has_work_column = false;
  std::vector<SweepCsvRow> rows;  // at least one
};

// A header with N and one of T_ms or T_s; optional columns W, speed and E_s
// (printed values, recomputed by the analysis); every N, T and W a number > 0.
SweepCsv parse_sweep_csv_rows(std::string_view text, const std::string& source);
// The columns a CSV sweep may have, as listed in messages.
inline constexpr std::string_view sweep_csv_columns = "N, W, T_ms, T_s, speed, E_s";

// A configuration of a scalability study (Chen et al. 2008, Definition 3).
struct ScalingConfiguration {
  std::string name;
  double marked_speed = 0.0;                  // C, Mflop/s
  std::optional<double> size;                 // N that holds E_s (measured), if known
  std::optional<std::size_t> processes;       // p, if known
  std::vector<double> process_marked_speeds;  // per process in rank order, if known
  std::string source;                         // the file it came from
  // The kernel's steps measured on this configuration (bench steps): T_o (and
  // mm's T_c) from them instead of Section 4.5's model (predict_from_step_costs).
  std::optional<StepCosts> step_costs;
};

// CSV with the header `name,marked_speed,N` (optionally `,processes`), one
// configuration per row in scaling order, at least two.
std::vector<ScalingConfiguration> parse_configurations_csv(std::string_view text, const std::string& source);
std::vector<ScalingConfiguration> read_configurations(const std::string& path);

}  // namespace hetscale
