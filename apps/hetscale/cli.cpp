#include "cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "hetscale/io/files.hpp"

namespace hetscale::cli {

Output written_and_shown(const std::string& json, const std::string& out, bool print_json,
                         const std::function<std::string()>& text) {
  if (!out.empty()) io::write_file_atomically(out, json);
  return {print_json ? json : text()};
}

int print(const Output& output) {
  std::fwrite(output.text.data(), 1, output.text.size(), stdout);
  return output.code;
}

namespace {
// A path relative to this executable's folder.
std::filesystem::path beside_executable(const char* relative) {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return (self.parent_path() / relative).lexically_normal();
}

// An installed hetscale: its data where `cmake --install` put it, relative to
// the executable (HETSCALE_INSTALLED_DATA, cmake/install.cmake).
bool installed() { return std::filesystem::is_directory(beside_executable(HETSCALE_INSTALLED_DATA)); }
}  // namespace

std::string home_dir() {
  if (const char* home = std::getenv("HETSCALE_HOME"); home && *home) return home;
  return installed() ? beside_executable(HETSCALE_INSTALLED_DATA).string() : HETSCALE_HOME;
}

std::string helper_path(const std::string& name, const std::string& built) {
  if (installed()) return (beside_executable(HETSCALE_INSTALLED_HELPERS) / name).string();
  std::error_code error;
  return built.empty() ? (std::filesystem::read_symlink("/proc/self/exe", error).parent_path() / name).string() : built;
}

}  // namespace hetscale::cli
