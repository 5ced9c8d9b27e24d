#include "hetscale/report/gnuplot.hpp"

#include <stdexcept>
#include <string_view>

#include <fmt/core.h>

#include "hetscale/io/child_process.hpp"
#include "hetscale/io/number_list.hpp"

namespace hetscale::report {
namespace {

// gnuplot's error on one line: it echoes the command and a caret above the
// message ("line 7: unrecognized plot type"), with warnings and blank lines
// about; the first such message not a warning, else the first non-blank line.
std::string error_line(std::string_view errors) {
  std::string first;
  for (std::string_view line : io::split_at(errors, '\n')) {
    const auto start = line.find_first_not_of(" \t\r");
    if (start == std::string_view::npos) continue;
    line = line.substr(start, line.find_last_not_of(" \t\r") + 1 - start);
    if (line.rfind("line ", 0) == 0 && line.find("warning:") == std::string_view::npos) return std::string(line);
    if (first.empty()) first = line;
  }
  return first;
}

}  // namespace

std::string render_svg(const Figure& figure) {
  const std::string script = gnuplot_script(figure);
  if (!io::program_available("gnuplot"))
    throw io::ProgramUnavailable("gnuplot is not installed (Debian: apt-get install gnuplot-nox); figures need it");
  const auto drawn = io::run_program({"gnuplot"}, script);
  if (drawn.exit_code != 0 || drawn.output.find("</svg>") == std::string::npos) {
    throw std::runtime_error(fmt::format("gnuplot did not draw figure '{}' (exit code {}): {}", figure.id,
                                         drawn.exit_code, error_line(drawn.errors)));
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
