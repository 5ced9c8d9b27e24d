// APGA 2004 on the speeds given (default 1,0.5, a node half as fast as the
// other): the heterogeneous speed-up s (Eq 5), its ceiling s_max (Eq 6) and
// the efficiency e = s / s_max (Eq 7) for an even split of the work and for
// shares in proportion to speed (Proposition 1).
//
//   heterogeneous_efficiency [SPEEDS]
//
// Built against an installed hetscale (tests/install/consumer):
//   find_package(hetscale REQUIRED)
//   target_link_libraries(heterogeneous_efficiency PRIVATE hetscale::hetscale)
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hetscale/io/number_list.hpp"
#include "hetscale/model/heterogeneous.hpp"
#include "hetscale/report/table.hpp"

namespace {
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace hetscale;
  try {
    if (argc > 2) throw std::invalid_argument("usage: heterogeneous_efficiency [SPEEDS], e.g. 1,0.5");
    const std::string given = argc == 2 ? argv[1] : "1,0.5";
    const auto speeds = io::parse_positive_list(given, "SPEEDS");
    const std::vector<std::pair<std::string, std::vector<double>>> splits{
        {"even", std::vector<double>(speeds.size(), 1.0 / static_cast<double>(speeds.size()))},
        {"proportional", model::speed_proportional_shares(speeds)}};
    report::TextTable table({"shares", "speed-up", "efficiency"});
    for (const auto& [name, shares] : splits)
      table.add_row({name, number(model::heterogeneous_speedup(speeds, shares)),
                     number(model::heterogeneous_efficiency(speeds, shares))});
    std::cout << "speeds " << given << ": s_max " << number(model::max_speedup(speeds)) << "\n" << table.render();
    return 0;
  } catch (const std::invalid_argument& error) {
    std::cerr << "heterogeneous_efficiency: " << error.what() << "\n";
    return 2;
  }
}
