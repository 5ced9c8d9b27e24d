#pragma once
// `hetscale report`'s page around the report: the model figures asked by
// name, the figures drawn and written beside the page, and its summary.
#include <functional>
#include <string>
#include <vector>

#include "hetscale/report/html_report.hpp"

namespace hetscale::report {

// The model figures a comma-separated list names, each once, in order; an
// old name is taken as its new one, said through `say` (one line). InputError
// naming the setting model for an empty name.
std::vector<std::string> model_figures_named(const std::string& list,
                                             const std::function<void(const std::string&)>& say);

// Lines under the page's title: what made it (`made_by`, "hetscale 1.0"), when,
// the gnuplot that drew its figures, and its inputs.
std::vector<std::string> report_about(const std::string& made_by, const std::vector<std::string>& inputs);

// Every figure of `report` drawn (its svg).
void draw_figures(Report& report);

// Each figure as DIR/ID.svg beside the gnuplot program that drew it (ID.gp),
// DIR made if missing; InputError naming the setting figures-dir when it
// cannot be.
void write_figures(const Report& report, const std::string& dir);

// What `hetscale report` prints: the page written, its sections, figures and
// tables, each section with its figures.
std::string report_summary(const Report& report, const std::string& page, const std::string& figures_dir);

}  // namespace hetscale::report
