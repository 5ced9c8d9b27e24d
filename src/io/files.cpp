#include "hetscale/io/files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "hetscale/io/input_error.hpp"

namespace hetscale::io {

std::string read_text_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw InputError(path, "", "is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", std::string("cannot be opened: ") + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw InputError(path, "", "could not be read");
  return content.str();
}

namespace {

// The process's file mode mask, read without changing it (umask() can only
// set it, which would race with other threads): Linux tells it in
// /proc/self/status; 022 when it does not.
mode_t process_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

}  // namespace

void check_writable(std::initializer_list<std::string> paths) {
  for (const auto& path : paths) {
    if (path.empty()) continue;
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) throw InputError(path, "", "is a directory, expected a file");
    const auto folder = std::filesystem::path(path).parent_path();
    const std::string where = folder.empty() ? "." : folder.string();
    if (::access(where.c_str(), W_OK) != 0)
      throw InputError(path, "", "cannot be written: " + where + ": " + std::strerror(errno));
  }
}

void write_file_atomically(const std::string& path, std::string_view content) {
  // A temporary of a unique name beside the target (two runs writing the
  // same file do not share it), flushed to the disk, then renamed over the
  // target: rename replaces a file in one step.
  std::string temporary = path + ".tmp.XXXXXX";
  const int descriptor = mkstemp(temporary.data());
  if (descriptor < 0) throw InputError(path, "", "cannot be written: " + std::string(std::strerror(errno)));
  auto fail = [&](const std::string& why) {
    ::close(descriptor);
    ::unlink(temporary.c_str());
    throw InputError(path, "", why);
  };
  for (std::size_t written = 0; written < content.size();) {
    const ssize_t n = ::write(descriptor, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("could not be written completely: " + std::string(std::strerror(errno)));
    written += static_cast<std::size_t>(n);
  }
  // mkstemp makes the file private (0600); a written file gets the usual mode.
  ::fchmod(descriptor, 0666 & ~process_umask());
  if (::fsync(descriptor) != 0) fail("could not be flushed: " + std::string(std::strerror(errno)));
  if (::close(descriptor) != 0) {
    ::unlink(temporary.c_str());
    throw InputError(path, "", "could not be written completely: " + std::string(std::strerror(errno)));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temporary.c_str());
    throw InputError(path, "", "cannot be replaced: " + why);
  }
}

TemporaryFolder::TemporaryFolder(std::string_view prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/" + std::string(prefix) + "-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot make a temporary folder " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace hetscale::io
