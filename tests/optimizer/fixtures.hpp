#pragma once
// What the optimizer's tests share: the shipped example programs and the
// machine like Stage-GA's.
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "hetscale/optimizer/machine.hpp"
#include "hetscale/optimizer/parser.hpp"

namespace hetscale::optimizer::testing {

// The text of examples/programs/NAME.
inline std::string example(const std::string& name) {
  std::ifstream in(std::string(HETSCALE_EXAMPLES_DIR) + "/programs/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Stage-GA Figure 7 (H1; H2 with {{"N", 10240}}).
inline Program hessenberg(const std::map<std::string, long>& defines = {}) {
  return parse_program(example("hessenberg.c"), "hessenberg.c", defines);
}

// data/machines/seed004-ethernet16.json (HETSCALE_DATA_DIR must be defined).
inline Machine shipped_machine() {
  return read_machine(std::string(HETSCALE_DATA_DIR) + "/machines/seed004-ethernet16.json");
}

}  // namespace hetscale::optimizer::testing
