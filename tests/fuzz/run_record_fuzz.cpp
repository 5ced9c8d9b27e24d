// The run record reader (hetscale.run/1) and the analysis `hetscale analyze`
// makes of a record it read: the seed models on whatever numbers got through.
#include "fuzz_input.hpp"
#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/record/run_record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return hetscale::fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    const auto run = hetscale::parse_run_record(text, "fuzz.run.json");
    (void)hetscale::analyze_run(run);
  });
}
