#pragma once
// Stage-GA's alignment parser: reads a sequential program in the C-like
// language of Figure 7 and returns its levels (docs/optimizer.md gives the
// language and the rules).
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include <string_view>

#include "hetscale/optimizer/program.hpp"

namespace hetscale::optimizer {

// Parses `text`; `source` names it in errors and becomes Program::name.
// `defines` (e.g. from -D N=10240) override the text's #define lines and may
// add names. Throws hetscale::InputError(source, "line:column", "expected ...,
// got ...") on a syntax error, and InputError for bad input (an array used
// with two ranks, a subscript below 0, an unknown name in a bound, ...).
// The values of NAME=VALUE overrides of a program's #define (VALUE a whole
// number); InputError naming the setting define.
std::map<std::string, long> parse_defines(const std::vector<std::string>& defines);
// Processor counts from a number list: whole numbers from 1 to 1e6
// (InputError naming the setting procs).
std::vector<int> parse_processor_counts(const std::string& text);

Program parse_program(std::string_view text, const std::string& source,
                      const std::map<std::string, long>& defines = {});

}  // namespace hetscale::optimizer
