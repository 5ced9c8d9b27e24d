// The platform reader: JSON (hetscale.platform/1) or `hostname marked-speed`
// text, told apart by the first character, then the relative speeds.
#include "fuzz_input.hpp"
#include "hetscale/platform/platform.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    const auto platform = hetscale::parse_platform(text, "fuzz.platform");
    (void)platform.relative_speeds();
  });
}
