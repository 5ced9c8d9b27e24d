#pragma once
// Bad input, as one line: which source (a file or an option), which field,
// what was wrong and what is allowed. The CLI prints what() and exits with 2.
#include <stdexcept>
#include <string>

namespace hetscale {

class InputError : public std::invalid_argument {
 public:
  // source: a file path or an option such as "--speeds"; field: a path inside
  // it such as "nodes[2].speed" (may be empty); problem: what is wrong and allowed.
  InputError(std::string source, std::string field, std::string problem);

  const std::string& source() const noexcept { return source_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  std::string source_, field_, problem_;
};

}  // namespace hetscale
