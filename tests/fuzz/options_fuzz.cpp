// What the command line reads: number lists (--speeds 1,0.5 or @file), size
// lists, and expressions (--workload "2*N^3 + 40*N^2"), evaluated.
#include <array>
#include <string>

#include "fuzz_input.hpp"
#include "hetscale/io/expression.hpp"
#include "hetscale/io/number_list.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hetscale;
  // "@path" names a file to read the list from; the list reader is the same.
  if (size == 0 || data[0] != '@') {
    fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
      (void)io::parse_number_list(std::string(text), "--speeds");
    });
    fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
      (void)io::parse_size_list(std::string(text), "--sizes");
    });
  }
  return fuzz::read_as_the_cli_would(data, size, [](std::string_view text) {
    const auto expression = io::Expression::parse(text, {"N", "p"}, {"send"});
    const std::array<double, 2> values{1000.0, 4.0};
    const std::array<io::Expression::Function, 1> send{[](double bytes) { return 1e-6 + bytes * 1e-9; }};
    (void)expression.evaluate(values, send);
  });
}
