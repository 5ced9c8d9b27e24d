#include "hetscale/io/files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "hetscale/io/input_error.hpp"

namespace hetscale::io {

std::string read_text_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(path, "", "is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", std::string("cannot be opened: ") + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw InputError(path, "", "could not be read");
  return content.str();
}

void write_file_atomically(const std::string& path, std::string_view content) {
  const std::filesystem::path target(path);
  std::filesystem::path temporary = target;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, "", "cannot be written: " + std::string(std::strerror(errno)));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(temporary);
      throw InputError(path, "", "could not be written completely");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::filesystem::remove(temporary);
    throw InputError(path, "", "cannot be replaced: " + error.message());
  }
}

}  // namespace hetscale::io
