// The communication profile reader (hetscale.comm-profile/1), which is also
// the optimizer's machine file.
#include "fuzz_input.hpp"
#include "hetscale/record/comm_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    (void)hetscale::parse_comm_profile(text, "fuzz.profile.json");
  });
}
