#pragma once
// JSON documents for people's scripts: each carries a `schema` and a
// `context` block (tool, version, inputs) so that a result file explains itself.
#include <string>
#include <vector>

#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/analysis/serial_fit.hpp"
#include "hetscale/analysis/what_if.hpp"
#include "hetscale/sim/farm_what_if.hpp"
#include "hetscale/papers/paper_checks.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/report/html_report.hpp"

namespace hetscale::report {

std::string analysis_json(const RunAnalysis& analysis);
// A run with no computation (every t_comp 0): its times and MPI functions,
// "no_computation": true, and no efficiencies.
std::string times_json(const RunRecord& run);
std::string distribution_json(const DistributionMetrics& metrics);
std::string worsening_json(const WorseningMetrics& metrics);
std::string farm_what_if_json(const sim::FarmWhatIf& what_if);
std::string serial_fit_json(const SerialFit& fit);
std::string paper_checks_json(const std::vector<PaperSection>& sections);
// What a report page holds (`hetscale report --json`, hetscale.report/1):
// every section's title, source, its first screen (its lines, how many of its
// tables and figures open it), the summary of what is folded below,
// paragraphs, tables and figures (id, title, caption); the inputs, the page's
// path and the figures' folder (empty: none) in the context.
std::string report_contents_json(const Report& report, const std::vector<std::string>& inputs, const std::string& out,
                                 const std::string& figures_dir);

}  // namespace hetscale::report

namespace hetscale::report {

// One JSON document holding several, each under its name.
std::string combined_json(const std::vector<std::pair<std::string, std::string>>& named_documents);

// `hetscale simulate platform --json`: the platform's hosts, the files
// written (none: null) and SimGrid's XML (hetscale.simulate-platform/1).
std::string simulate_platform_json(const std::string& platform_path, const Platform& platform, const std::string& xml,
                                   const std::string& xml_file, const std::string& hostfile);

}  // namespace hetscale::report
