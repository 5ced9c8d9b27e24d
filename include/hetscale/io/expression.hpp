#pragma once
// An arithmetic expression a user writes on the command line, such as a
// program's workload "2*N^3 + 40*N^2" or an overhead "bcast(p) + N*send(N)":
// numbers, named variables, + - * / ^ (right-associative power), unary minus,
// parentheses, the functions sqrt, exp, log (natural), log2 and log10, and any
// further functions the caller names. Parsed once, evaluated many times.
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hetscale::io {

class Expression {
 public:
  using Function = std::function<double(double)>;

  // `variables` and `functions` are the names the text may use beyond the
  // built-in functions. Throws std::invalid_argument with the position and
  // what was expected there ("at 7: unknown name 'M'; allowed: N, p").
  static Expression parse(std::string_view text, std::vector<std::string> variables,
                          std::vector<std::string> functions = {});

  // `values` in the order of the variables given to parse, `functions` in
  // the order of the function names.
  double evaluate(std::span<const double> values, std::span<const Function> functions = {}) const;

  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace hetscale::io
