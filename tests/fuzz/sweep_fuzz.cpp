// The sweep readers: a hetscale.sweep/1 document, or a CSV sweep of the
// kernel ge on two processes of 100 Mflop/s; then the E_s trend and the size
// that holds it, as `hetscale scale fit --sweep` does.
#include "fuzz_input.hpp"
#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/record/sweep.hpp"

#include "io/strict_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    auto sweep = hetscale::io::looks_like_json(text)
                     ? hetscale::parse_sweep(text, "fuzz.sweep.json")
                     : hetscale::parse_sweep_csv(text, "fuzz.sweep.csv", "ge", {100.0, 100.0}, "c2");
    const auto trend = hetscale::fit_speed_efficiency_trend(sweep, 1);
    (void)hetscale::find_target_size(sweep, trend, 0.5);
  });
}
