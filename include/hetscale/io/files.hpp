#pragma once
#include <string>
#include <string_view>

namespace hetscale::io {

// The whole content of a file; InputError naming the path if it cannot be read.
std::string read_text_file(const std::string& path);

// Writes through a temporary file in the same folder, renamed into place, so
// that an interrupted run leaves the old file or none, never half a file.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace hetscale::io
