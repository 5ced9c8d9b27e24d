#pragma once
// What every fuzz target shares: the input as text, and the one outcome a
// reader may have besides success, bad input (std::invalid_argument, which
// hetscale's CLI prints as one line with exit 2). Anything else a reader
// throws escapes and libFuzzer reports it, as it reports a crash, a hang or a
// sanitizer's finding.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace hetscale::fuzz {

template <class Read>
int read_as_the_cli_would(const std::uint8_t* data, std::size_t size, Read read) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    read(text);
  } catch (const std::invalid_argument&) {
    // bad input, reported as such
  }
  return 0;
}

}  // namespace hetscale::fuzz
