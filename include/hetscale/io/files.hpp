#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

namespace hetscale::io {

// The whole content of a file; InputError naming the path if it cannot be read.
std::string read_text_file(const std::string& path);

// Writes through a temporary file in the same folder, renamed into place, so
// that an interrupted run leaves the old file or none, never half a file.
void write_file_atomically(const std::string& path, std::string_view content);
// InputError naming the path when write_file_atomically could not write it
// (its folder missing or not writable, or it is a folder): a check made
// before a long run, so that the run's result is not lost at its end.
// Paths that are empty (not given) are passed over.
void check_writable(std::initializer_list<std::string> paths);

// A fresh folder under the system's temporary folder ($TMPDIR or /tmp), named
// PREFIX-XXXXXX, removed with all it holds when this goes out of scope;
// std::runtime_error naming the pattern when it cannot be made.
class TemporaryFolder {
 public:
  explicit TemporaryFolder(std::string_view prefix);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace hetscale::io
