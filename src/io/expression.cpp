#include "hetscale/io/expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fmt/core.h>

namespace hetscale::io {

struct Expression::Node {
  enum class Kind { number, variable, call, builtin, negate, add, subtract, multiply, divide, power } kind;
  double number = 0.0;
  std::size_t index = 0;  // variable, call (the caller's function) or builtin
  std::shared_ptr<const Node> left, right;
  std::size_t depth = 1;  // of the tree below and with this node
};

namespace {

using Node = Expression::Node;
using Kind = Node::Kind;

// Parsing and evaluating recurse: deeper than this, an expression is refused
// rather than let overflow the stack (tests/fuzz/regressions/options).
constexpr std::size_t max_depth = 200;

struct Builtin {
  const char* name;
  double (*apply)(double);
};
constexpr Builtin builtins[] = {
    {"sqrt", [](double x) { return std::sqrt(x); }},   {"exp", [](double x) { return std::exp(x); }},
    {"log", [](double x) { return std::log(x); }},     {"log2", [](double x) { return std::log2(x); }},
    {"log10", [](double x) { return std::log10(x); }},
};

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

class Parser {
 public:
  Parser(std::string_view text, const std::vector<std::string>& variables, const std::vector<std::string>& functions)
      : text_(text), variables_(variables), functions_(functions) {}

  std::shared_ptr<const Node> parse() {
    auto root = sum();
    skip_blanks();
    if (at_ < text_.size()) fail(fmt::format("unexpected '{}'", text_[at_]));
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(fmt::format("at {}: {}", at_ + 1, what));
  }
  void skip_blanks() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool take(char c) {
    skip_blanks();
    if (at_ < text_.size() && text_[at_] == c) return ++at_, true;
    return false;
  }
  std::shared_ptr<const Node> make(Kind kind, std::shared_ptr<const Node> left,
                                   std::shared_ptr<const Node> right = nullptr) const {
    const std::size_t depth = 1 + std::max(left->depth, right ? right->depth : 0);
    if (depth > max_depth) fail(fmt::format("the expression is nested deeper than {} operations", max_depth));
    return std::make_shared<const Node>(Node{kind, 0.0, 0, std::move(left), std::move(right), depth});
  }
  // Counts how deep the parser is in signs, powers and parentheses.
  class Nesting {
   public:
    explicit Nesting(Parser& parser) : parser_(parser) {
      if (++parser_.nesting_ > max_depth)
        parser_.fail(fmt::format("the expression is nested deeper than {} signs, powers or parentheses", max_depth));
    }
    ~Nesting() { --parser_.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& parser_;
  };

  std::shared_ptr<const Node> sum() {
    auto left = product();
    for (;;) {
      if (take('+')) left = make(Kind::add, left, product());
      else if (take('-')) left = make(Kind::subtract, left, product());
      else return left;
    }
  }
  std::shared_ptr<const Node> product() {
    auto left = signed_power();
    for (;;) {
      if (take('*')) left = make(Kind::multiply, left, signed_power());
      else if (take('/')) left = make(Kind::divide, left, signed_power());
      else return left;
    }
  }
  // A sign applies to the whole power: -N^2 is -(N^2); an exponent may carry
  // its own sign: 2^-1.
  std::shared_ptr<const Node> signed_power() {
    const Nesting deeper(*this);
    if (take('-')) return make(Kind::negate, signed_power());
    if (take('+')) return signed_power();
    auto base = primary();
    if (take('^')) return make(Kind::power, base, signed_power());
    return base;
  }
  std::shared_ptr<const Node> primary() {
    skip_blanks();
    if (at_ >= text_.size()) fail("the expression ends where a number, a name or '(' was expected");
    if (take('(')) {
      auto inner = sum();
      if (!take(')')) fail("')' expected");
      return inner;
    }
    const char c = text_[at_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    fail(fmt::format("unexpected '{}' where a number, a name or '(' was expected", c));
  }
  std::shared_ptr<const Node> number() {
    const std::string rest(text_.substr(at_));
    char* end = nullptr;
    const double value = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str() || !std::isfinite(value)) fail("not a finite number");
    at_ += static_cast<std::size_t>(end - rest.c_str());
    auto node = std::make_shared<Node>(Node{Kind::number, value, 0, nullptr, nullptr});
    return node;
  }
  std::shared_ptr<const Node> name() {
    const std::size_t start = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    const std::string word(text_.substr(start, at_ - start));
    skip_blanks();
    const bool call = at_ < text_.size() && text_[at_] == '(';
    if (call) {
      std::size_t index = 0;
      Kind kind = Kind::call;
      bool known = false;
      for (std::size_t i = 0; i < functions_.size() && !known; ++i)
        if (functions_[i] == word) index = i, known = true;
      for (std::size_t i = 0; i < std::size(builtins) && !known; ++i)
        if (word == builtins[i].name) index = i, kind = Kind::builtin, known = true;
      if (!known) {
        at_ = start;
        std::vector<std::string> names = functions_;
        for (const auto& builtin : builtins) names.push_back(builtin.name);
        fail(fmt::format("unknown function '{}'; allowed: {}", word, listed(names)));
      }
      take('(');
      auto argument = sum();
      if (!take(')')) fail(fmt::format("')' expected after the argument of {}", word));
      const std::size_t depth = 1 + argument->depth;
      if (depth > max_depth) fail(fmt::format("the expression is nested deeper than {} operations", max_depth));
      return std::make_shared<Node>(Node{kind, 0.0, index, std::move(argument), nullptr, depth});
    }
    for (std::size_t i = 0; i < variables_.size(); ++i)
      if (variables_[i] == word) return std::make_shared<Node>(Node{Kind::variable, 0.0, i, nullptr, nullptr});
    at_ = start;
    fail(fmt::format("unknown name '{}'; allowed: {}", word, listed(variables_)));
  }

  std::string_view text_;
  const std::vector<std::string>& variables_;
  const std::vector<std::string>& functions_;
  std::size_t at_ = 0;
  std::size_t nesting_ = 0;
};

double evaluate_node(const Node& node, std::span<const double> values, std::span<const Expression::Function> functions) {
  const auto left = [&] { return evaluate_node(*node.left, values, functions); };
  const auto right = [&] { return evaluate_node(*node.right, values, functions); };
  switch (node.kind) {
    case Kind::number: return node.number;
    case Kind::variable:
      if (node.index >= values.size()) throw std::invalid_argument("expression: a variable has no value");
      return values[node.index];
    case Kind::call:
      if (node.index >= functions.size()) throw std::invalid_argument("expression: a function is not given");
      return functions[node.index](left());
    case Kind::builtin: return builtins[node.index].apply(left());
    case Kind::negate: return -left();
    case Kind::add: return left() + right();
    case Kind::subtract: return left() - right();
    case Kind::multiply: return left() * right();
    case Kind::divide: return left() / right();
    case Kind::power: return std::pow(left(), right());
  }
  return 0.0;
}

}  // namespace

Expression Expression::parse(std::string_view text, std::vector<std::string> variables,
                             std::vector<std::string> functions) {
  Expression expression;
  expression.text_ = std::string(text);
  expression.root_ = Parser(expression.text_, variables, functions).parse();
  return expression;
}

double Expression::evaluate(std::span<const double> values, std::span<const Function> functions) const {
  return evaluate_node(*root_, values, functions);
}

}  // namespace hetscale::io
