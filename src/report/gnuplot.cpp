#include "hetscale/report/gnuplot.hpp"

#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/io/child_process.hpp"

namespace hetscale::report {

std::string render_svg(const Figure& figure) {
  const std::string script = gnuplot_script(figure);
  if (!io::program_available("gnuplot"))
    throw std::runtime_error("gnuplot is not installed (Debian: apt-get install gnuplot-nox); figures need it");
  const auto drawn = io::run_program({"gnuplot"}, script);
  if (drawn.exit_code != 0 || drawn.output.find("</svg>") == std::string::npos) {
    const auto end = drawn.errors.find_first_of('\n', drawn.errors.find_first_not_of(" \n"));
    throw std::runtime_error(fmt::format("gnuplot did not draw figure '{}' (exit code {}): {}", figure.id,
                                         drawn.exit_code, drawn.errors.substr(0, end)));
  }
  return drawn.output;
}

std::string gnuplot_version() {
  if (!io::program_available("gnuplot")) return "";
  const auto answer = io::run_program({"gnuplot", "--version"});
  std::string version = answer.output;
  while (!version.empty() && (version.back() == '\n' || version.back() == ' ')) version.pop_back();
  return version;
}

}  // namespace hetscale::report
