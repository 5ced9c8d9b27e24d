#pragma once
// Stage-GA's alignment parser: reads a sequential program in the C-like
// language of Figure 7 and returns its levels (docs/optimizer.md gives the
// language and the rules).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "hetscale/optimizer/program.hpp"

namespace hetscale::optimizer {

// Parses `text`; `source` names it in errors and becomes Program::name.
// `defines` (e.g. from -D N=10240) override the text's #define lines and may
// add names. Throws hetscale::InputError(source, "line:column", "expected ...,
// got ...") on a syntax error, and InputError for bad input (an array used
// with two ranks, a subscript below 0, an unknown name in a bound, ...).
Program parse_program(std::string_view text, const std::string& source,
                      const std::map<std::string, long>& defines = {});

}  // namespace hetscale::optimizer
