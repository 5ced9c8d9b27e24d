#pragma once
// What a report shows for its inputs, decided from their contents (pure: the
// files are read by the caller, the figures drawn after). Each input is
// recognised by its schema:
//   hetscale.run/1           a run: time breakdown, work shares, metrics;
//                            farm runs of one setting over several client
//                            counts give speed-up and efficiency curves
//                            instead (one section for the series)
//   hetscale.sweep/1         scalability: E_s against N with trend and
//                            target per kernel; psi between configurations
//   hetscale.comm-profile/1  with sweeps: psi predicted beside psi measured
//   hetscale.optimize/1      fitness per generation and the plan
//   hetscale.predict/1       each part: measured points, the fitted model and
//                            the prediction with its interval
//   hetscale.fpm/1           speed against share size per node (functional
//                            performance models)
#include <optional>
#include <string>
#include <vector>

#include "hetscale/report/html_report.hpp"

namespace hetscale::report {

struct ReportInput {
  std::string path;
  std::string text;
};

struct ReportOptions {
  std::string title = "hetscale report";
  std::vector<std::string> about;
  std::vector<std::string> model_figures;                   // names from model_figure_names()
  std::vector<std::vector<double>> seed003_configurations;  // speeds of Clematis-Corana 1999 Table 1 (for ewf-heterogeneity)
};

// "two-processors" (APGA 2004 Fig 1), "ewf-heterogeneity" (Clematis-Corana
// 1999 Fig 2).
const std::vector<std::string>& model_figure_names();
// The name a figure has now, for a name it had before ("seed000-fig1",
// "seed003-fig2"); nullopt for any other.
std::optional<std::string> model_figure_renamed(const std::string& old_name);

// The report with its figures not drawn yet (svg empty). InputError names the
// input that is not JSON or has a schema the report does not know, and any
// field its reader refuses.
Report build_report(const std::vector<ReportInput>& inputs, const ReportOptions& options);

}  // namespace hetscale::report
