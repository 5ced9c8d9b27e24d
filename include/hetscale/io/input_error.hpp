#pragma once
// Bad input, as one line: which source (a file or a setting), which field,
// what was wrong and what is allowed. The CLI prints what() and exits with 2.
#include <stdexcept>
#include <string>

namespace hetscale {

class InputError : public std::invalid_argument {
 public:
  // source: a file path, or the setting that is wrong: the library names it
  // by its word (speeds), the command line by its option (with_options_named
  // says one as the other); field: a path inside it such as "nodes[2].speed"
  // (may be empty); problem: what is wrong and allowed.
  InputError(std::string source, std::string field, std::string problem);

  const std::string& source() const noexcept { return source_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  std::string source_, field_, problem_;
};

}  // namespace hetscale
