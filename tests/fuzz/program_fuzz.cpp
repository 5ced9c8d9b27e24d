// The optimizer's program parser: C-like loop nests with #define lines.
#include "fuzz_input.hpp"
#include "hetscale/optimizer/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    (void)hetscale::optimizer::parse_program(text, "fuzz.c");
  });
}
