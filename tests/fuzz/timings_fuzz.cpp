// The CSV readers: timings (procs,size,seconds) and the serial-fraction fit
// `hetscale fit serial` makes of them, and scaling configurations
// (name,marked_speed,N[,processes]).
#include "fuzz_input.hpp"
#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/analysis/serial_fit.hpp"
#include "hetscale/record/timings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    const auto timings = hetscale::parse_timings_csv(text, "fuzz.timings.csv");
    (void)hetscale::fit_serial_fraction(timings);
  });
  return hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    (void)hetscale::parse_configurations_csv(text, "fuzz.configs.csv");
  });
}
