// The optimizer's result (hetscale.optimize/1), as `hetscale report` reads it.
#include "fuzz_input.hpp"
#include "hetscale/record/optimize_record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    (void)hetscale::parse_optimize_record(text, "fuzz.optimize.json");
  });
}
