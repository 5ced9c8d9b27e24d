#pragma once
// Drawing a Figure with gnuplot (Debian's gnuplot-nox, SVG terminal).
#include <string>

#include "hetscale/report/figure.hpp"

namespace hetscale::report {

// The figure as an SVG document. Throws io::ProgramUnavailable when gnuplot
// is not installed, std::runtime_error when it does not draw the figure
// (with gnuplot's first error line).
std::string render_svg(const Figure& figure);

// "gnuplot 5.4 patchlevel 4", or "" when it is not installed.
std::string gnuplot_version();

}  // namespace hetscale::report
