#pragma once
// Inside each rank of a measured run: its OpenMP teams in POP's states (DLB
// TALP's OpenMP factors), its threads as processors of their speeds (APGA
// 2004 over the team), its devices (TALP 3.6's device factors). The same
// tables and lines for `analyze`'s text and the report's page, and the
// report's bars, built from the analysis alone (pure).
#include <string>
#include <utility>
#include <vector>

#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/report/figure.hpp"
#include "hetscale/report/html_report.hpp"

namespace hetscale::report {

// Each table with the lines that go under it; none for a run that measured
// no OpenMP team, no threads of their own speeds and no device.
std::vector<std::pair<HtmlTable, std::vector<std::string>>> inside_node_tables(const RunAnalysis& analysis);

// Bars: each thread's work and time held back in the parallel regions, and
// each device's kernels, copies and idle time; none when the run has none.
std::vector<Figure> inside_node_figures(const RunAnalysis& analysis, const std::string& id);

}  // namespace hetscale::report
