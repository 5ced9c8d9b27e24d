#include "hetscale/optimizer/parser.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"

namespace hetscale::optimizer {
namespace {

// ------------------------------------------------------------------ tokens

enum class TokenKind { identifier, integer, real, symbol, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string text;
  int line = 0;
  int column = 0;
};

std::string position(int line, int column) { return std::to_string(line) + ":" + std::to_string(column); }

std::string describe(const Token& token) {
  return token.kind == TokenKind::end ? "end of input" : "'" + token.text + "'";
}

std::vector<Token> tokenize(std::string_view text, const std::string& source) {
  static const std::vector<std::string_view> two_char = {"++", "--", "+=", "-=", "*=", "/=", "<=", ">=", "==", "!="};
  static const std::string_view one_char = "()[]{};=+-*/<>,#";
  std::vector<Token> tokens;
  int line = 1, column = 1;
  std::size_t at = 0;
  const auto advance = [&](std::size_t count) {
    for (std::size_t k = 0; k < count && at < text.size(); ++k, ++at) {
      if (text[at] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  };
  while (at < text.size()) {
    const char c = text[at];
    const std::string_view rest = text.substr(at);
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance(1);
    } else if (rest.starts_with("//")) {
      advance(std::min(rest.find('\n'), rest.size()));
    } else if (rest.starts_with("/*")) {
      const std::size_t close = rest.find("*/", 2);
      if (close == std::string_view::npos)
        throw InputError(source, position(line, column), "expected '*/' closing this comment, got end of input");
      advance(close + 2);
    } else {
      Token token{TokenKind::symbol, "", line, column};
      std::size_t length = 0;
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        token.kind = TokenKind::identifier;
        while (length < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[length])) || rest[length] == '_'))
          ++length;
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && rest.size() > 1 && std::isdigit(static_cast<unsigned char>(rest[1])))) {
        token.kind = TokenKind::integer;
        const auto digits = [&] {
          while (length < rest.size() && std::isdigit(static_cast<unsigned char>(rest[length]))) ++length;
        };
        digits();
        if (length < rest.size() && rest[length] == '.') {
          token.kind = TokenKind::real;
          ++length;
          digits();
        }
        if (length < rest.size() && (rest[length] == 'e' || rest[length] == 'E')) {
          token.kind = TokenKind::real;
          ++length;
          if (length < rest.size() && (rest[length] == '+' || rest[length] == '-')) ++length;
          digits();
        }
      } else if (std::any_of(two_char.begin(), two_char.end(),
                             [&](std::string_view s) { return rest.starts_with(s); })) {
        length = 2;
      } else if (one_char.find(c) != std::string_view::npos) {
        length = 1;
      } else {
        throw InputError(source, position(line, column),
                         std::string("expected a name, a number or an operator, got '") + c + "'");
      }
      token.text = std::string(rest.substr(0, length));
      tokens.push_back(std::move(token));
      advance(length);
    }
  }
  tokens.push_back({TokenKind::end, "", line, column});
  return tokens;
}

// ------------------------------------------------------------- syntax tree

struct Expr {
  enum class Kind { number, loop_variable, scalar, array, negate, binary };
  Kind kind = Kind::number;
  char op = 0;                 // binary: + - * /
  std::int64_t value = 0;      // number (integral) or a define's value
  bool integral = true;        // number: an integer literal or a define
  std::string name;            // loop_variable, scalar, array
  std::vector<Expr> operands;  // negate: 1, binary: 2, array: the subscripts
  std::string text;            // source text (its start, for messages)
  int line = 0;
  int column = 0;
  int depth = 1;  // of the tree below and with this expression
};

// The parser and every walk of its trees recurse: deeper than this, a program
// is refused rather than let overflow the stack (tests/fuzz/regressions/program).
constexpr int max_nesting = 200;

// Where the program's integer arithmetic (bounds, subscripts, defines, counts)
// would overflow 64 bits, which in C++ is undefined behaviour; parse_program
// turns it into an InputError naming the place.
struct IntegerOverflow {
  int line = 0, column = 0;
};

std::int64_t checked(char op, std::int64_t a, std::int64_t b, int line, int column) {
  std::int64_t result = 0;
  bool overflow = false;
  switch (op) {
    case '+':
      overflow = __builtin_add_overflow(a, b, &result);
      break;
    case '-':
      overflow = __builtin_sub_overflow(a, b, &result);
      break;
    case '*':
      overflow = __builtin_mul_overflow(a, b, &result);
      break;
    default:  // '/', a nonzero divisor
      overflow = b == -1 && a == std::numeric_limits<std::int64_t>::min();
      result = overflow ? 0 : a / b;
  }
  if (overflow) throw IntegerOverflow{line, column};
  return result;
}
std::int64_t checked(char op, std::int64_t a, std::int64_t b, const Expr& at) {
  return checked(op, a, b, at.line, at.column);
}

struct Statement {
  enum class Kind { loop, assignment };
  Kind kind = Kind::loop;
  int line = 0;
  int column = 0;
  // loop: for (variable = lower; variable < upper (<= if inclusive); ++variable) body
  std::string variable;
  Expr lower, upper;
  bool inclusive = false;
  std::vector<Statement> body;
  // assignment: target (op)= value
  Expr target, value;
  bool compound = false;
};

// ------------------------------------------------------------------ parser

class Parser {
 public:
  Parser(std::string_view text, const std::string& source, const std::map<std::string, long>& defines)
      : source_(source), tokens_(tokenize(text, source)), overrides_(defines) {
    for (const auto& [name, value] : defines) defines_[name] = value;
  }

  // Top-level loop nests, with #define lines applied.
  std::vector<Statement> parse() {
    std::vector<Statement> roots;
    while (peek().kind != TokenKind::end) {
      if (is_symbol("#")) {
        parse_define();
      } else if (is_keyword("for")) {
        roots.push_back(parse_for());
      } else {
        fail(peek(), "'for' or '#define' at the top level");
      }
    }
    return roots;
  }

  const std::string& source() const { return source_; }

 private:
  enum class Context { bound, subscript, value };

  struct Use {
    int rank;
    int line;
    int column;
  };

  const std::string& source_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  int directive_line_ = 0;  // while parsing a #define: tokens past this line read as end of input
  const std::map<std::string, long>& overrides_;
  std::map<std::string, std::int64_t> defines_;
  std::vector<std::string> loop_scope_;
  std::map<std::string, Use> uses_;  // rank of every array (0: scalar) at its first use
  int nesting_ = 0;                  // signs, parentheses, subscripts and loops the parser is in

  const Token& peek() const {
    static const Token end_of_line{TokenKind::end, "", 0, 0};
    const Token& token = tokens_[next_];
    if (directive_line_ != 0 && token.line != directive_line_) {
      return token.kind == TokenKind::end ? token : end_of_line;
    }
    return token;
  }
  const Token& take() {
    const Token& token = peek();
    if (token.kind != TokenKind::end) ++next_;
    return token;
  }
  bool is_symbol(std::string_view symbol) const { return peek().kind == TokenKind::symbol && peek().text == symbol; }
  bool is_keyword(std::string_view word) const { return peek().kind == TokenKind::identifier && peek().text == word; }
  [[noreturn]] void fail(const Token& token, const std::string& expected) const {
    const Token& at = token.line == 0 ? tokens_[next_ - 1] : token;  // end of a #define line
    const int column = token.line == 0 ? at.column + static_cast<int>(at.text.size()) : at.column;
    throw InputError(source_, position(at.line, column), "expected " + expected + ", got " + describe(token));
  }
  const Token& expect_symbol(std::string_view symbol) {
    if (!is_symbol(symbol)) fail(peek(), "'" + std::string(symbol) + "'");
    return take();
  }
  const Token& expect_identifier(const std::string& what) {
    if (peek().kind != TokenKind::identifier) fail(peek(), what);
    return take();
  }
  bool in_loop_scope(const std::string& name) const {
    return std::find(loop_scope_.begin(), loop_scope_.end(), name) != loop_scope_.end();
  }

  void parse_define() {
    const Token& hash = take();
    directive_line_ = hash.line;
    if (!is_keyword("define")) fail(peek(), "'define' after '#'");
    take();
    const Token& name = expect_identifier("a name after '#define'");
    const Expr value = parse_expression(Context::bound);
    if (peek().kind != TokenKind::end) fail(peek(), "the end of the '#define' line");
    directive_line_ = 0;
    if (!overrides_.contains(name.text)) defines_[name.text] = value.value;
  }

  Statement parse_for() {
    const Nesting deeper(*this, peek());
    Statement loop;
    const Token& keyword = take();
    loop.line = keyword.line;
    loop.column = keyword.column;
    expect_symbol("(");
    const Token& variable = expect_identifier("a loop variable");
    loop.variable = variable.text;
    if (defines_.contains(loop.variable) || in_loop_scope(loop.variable))
      throw InputError(source_, position(variable.line, variable.column),
                       "expected a new loop variable, got '" + loop.variable + "', which is " +
                           (in_loop_scope(loop.variable) ? "an enclosing loop's variable" : "a define"));
    if (uses_.contains(loop.variable))
      throw InputError(source_, position(variable.line, variable.column),
                       "expected a new loop variable, got '" + loop.variable + "', which is an array or scalar");
    expect_symbol("=");
    loop.lower = parse_expression(Context::bound);
    expect_symbol(";");
    expect_loop_variable(loop.variable);
    if (is_symbol("<=")) {
      loop.inclusive = true;
    } else if (!is_symbol("<")) {
      fail(peek(), "'<' or '<='");
    }
    take();
    loop.upper = parse_expression(Context::bound);
    expect_symbol(";");
    if (is_symbol("++")) {
      take();
      expect_loop_variable(loop.variable);
    } else {
      expect_loop_variable(loop.variable);
      if (is_symbol("+=")) {
        take();
        const Token& step = peek();
        if (step.kind != TokenKind::integer || step.text != "1") fail(step, "'1' (loops step by one)");
        take();
      } else {
        expect_symbol("++");
      }
    }
    expect_symbol(")");
    loop_scope_.push_back(loop.variable);
    parse_statement(loop.body);
    loop_scope_.pop_back();
    return loop;
  }

  void expect_loop_variable(const std::string& variable) {
    const Token& token = peek();
    if (token.kind != TokenKind::identifier || token.text != variable) fail(token, "'" + variable + "'");
    take();
  }

  // Appends the statement (a block's statements) to `body`.
  void parse_statement(std::vector<Statement>& body) {
    if (is_keyword("for")) {
      body.push_back(parse_for());
    } else if (is_symbol("{")) {
      take();
      while (!is_symbol("}")) {
        if (peek().kind == TokenKind::end) fail(peek(), "'}'");
        parse_statement(body);
      }
      take();
    } else if (is_symbol(";")) {
      take();
    } else if (peek().kind == TokenKind::identifier) {
      body.push_back(parse_assignment());
    } else {
      fail(peek(), "a statement ('for', '{' or an assignment)");
    }
  }

  Statement parse_assignment() {
    Statement assignment;
    assignment.kind = Statement::Kind::assignment;
    assignment.line = peek().line;
    assignment.column = peek().column;
    assignment.target = parse_primary(Context::value);
    if (assignment.target.kind != Expr::Kind::array && assignment.target.kind != Expr::Kind::scalar)
      throw InputError(source_, position(assignment.line, assignment.column),
                       "expected an array element or a scalar to assign to, got '" + assignment.target.text + "'");
    static const std::set<std::string> compound = {"+=", "-=", "*=", "/="};
    if (peek().kind == TokenKind::symbol && compound.contains(peek().text)) {
      assignment.compound = true;
    } else if (!is_symbol("=")) {
      fail(peek(), "'=', '+=', '-=', '*=' or '/='");
    }
    take();
    assignment.value = parse_expression(Context::value);
    expect_symbol(";");
    return assignment;
  }

  // expr := term { ('+' | '-') term };  term := unary { ('*' | '/') unary }
  Expr parse_expression(Context context) {
    return parse_left_associative("+-", [&] { return parse_term(context); });
  }
  Expr parse_term(Context context) {
    return parse_left_associative("*/", [&] { return parse_unary(context); });
  }

  template <class Operand>
  Expr parse_left_associative(std::string_view operators, Operand operand) {
    const std::size_t first = next_;
    Expr left = operand();
    while (peek().kind == TokenKind::symbol && peek().text.size() == 1 &&
           operators.find(peek().text[0]) != std::string_view::npos) {
      const char op = take().text[0];
      left = binary(std::move(left), op, operand(), first);
    }
    return left;
  }

  // Counts how deep the parser is in signs, parentheses, subscripts and loops.
  class Nesting {
   public:
    Nesting(Parser& parser, const Token& at) : parser_(parser) {
      if (++parser_.nesting_ > max_nesting)
        throw InputError(parser_.source_, position(at.line, at.column),
                         "nested deeper than " + std::to_string(max_nesting) +
                             " signs, parentheses, subscripts or loops; allowed: up to that");
    }
    ~Nesting() { --parser_.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& parser_;
  };

  Expr parse_unary(Context context) {
    const Nesting deeper(*this, peek());
    if (is_symbol("+")) {
      take();
      return parse_unary(context);
    }
    if (is_symbol("-")) {
      const std::size_t first = next_;
      const Token& minus = take();
      Expr negate;
      negate.kind = Expr::Kind::negate;
      negate.line = minus.line;
      negate.column = minus.column;
      negate.operands.push_back(parse_unary(context));
      negate.integral = negate.operands[0].integral;
      negate.depth = 1 + negate.operands[0].depth;
      negate.value = checked('-', 0, negate.operands[0].value, negate);
      negate.text = text_of(first);
      return negate;
    }
    return parse_primary(context);
  }

  Expr parse_primary(Context context) {
    const std::size_t first = next_;
    const Token& token = peek();
    Expr expr;
    expr.line = token.line;
    expr.column = token.column;
    if (is_symbol("(")) {
      take();
      expr = parse_expression(context);
      expect_symbol(")");
      expr.text = text_of(first);
      return expr;
    }
    if (token.kind == TokenKind::integer || token.kind == TokenKind::real) {
      if (token.kind == TokenKind::real && context != Context::value)
        fail(token, "an integer in a " + std::string(context == Context::bound ? "loop bound" : "subscript"));
      expr.kind = Expr::Kind::number;
      expr.integral = token.kind == TokenKind::integer;
      if (expr.integral) {
        try {
          expr.value = std::stoll(token.text);
        } catch (const std::out_of_range&) {
          fail(token, "an integer below 2^63");
        }
      }
      expr.text = take().text;
      return expr;
    }
    if (token.kind != TokenKind::identifier) fail(token, "a number, a name or '('");
    const Token& name = take();
    expr.name = name.text;
    if (is_symbol("[")) {
      if (context != Context::value)
        fail(name, "a loop variable or a define (no array elements in bounds or subscripts)");
      if (in_loop_scope(name.text) || defines_.contains(name.text))
        throw InputError(source_, position(name.line, name.column),
                         "expected an array name before '[', got '" + name.text + "', which is a " +
                             (defines_.contains(name.text) ? "define" : "loop variable"));
      expr.kind = Expr::Kind::array;
      while (is_symbol("[")) {
        take();
        expr.operands.push_back(parse_expression(Context::subscript));
        expect_symbol("]");
      }
    } else if (in_loop_scope(name.text)) {
      expr.kind = Expr::Kind::loop_variable;
    } else if (auto define = defines_.find(name.text); define != defines_.end()) {
      expr.kind = Expr::Kind::number;
      expr.value = define->second;
    } else if (context != Context::value) {
      fail(name, std::string("a loop variable, a define or an integer in a ") +
                     (context == Context::bound ? "loop bound" : "subscript"));
    } else {
      expr.kind = Expr::Kind::scalar;
    }
    if (expr.kind == Expr::Kind::array || expr.kind == Expr::Kind::scalar)
      record_use(expr.name, static_cast<int>(expr.operands.size()), name.line, name.column);
    expr.text = text_of(first);
    return expr;
  }

  Expr binary(Expr left, char op, Expr right, std::size_t first) {
    Expr expr;
    expr.kind = Expr::Kind::binary;
    expr.op = op;
    expr.line = left.line;
    expr.column = left.column;
    expr.integral = left.integral && right.integral;
    expr.depth = 1 + std::max(left.depth, right.depth);
    if (expr.depth > max_nesting)
      throw InputError(
          source_, position(expr.line, expr.column),
          "an expression of more than " + std::to_string(max_nesting) + " operations; allowed: up to that");
    expr.operands.push_back(std::move(left));
    expr.operands.push_back(std::move(right));
    expr.text = text_of(first);
    if (directive_line_ != 0) expr.value = fold(expr);
    return expr;
  }

  // A #define's value: the expression has only numbers and earlier defines.
  std::int64_t fold(const Expr& expr) const {
    const std::int64_t a = expr.operands[0].value, b = expr.operands[1].value;
    if (expr.op == '/' && b == 0)
      throw InputError(source_, position(expr.line, expr.column), "expected a nonzero divisor in '" + expr.text + "'");
    return checked(expr.op, a, b, expr);
  }

  // Source text of the tokens from `first` to the last one taken, cut after
  // 120 characters (it is for messages; whole, a long sum's would be quadratic).
  std::string text_of(std::size_t first) const {
    std::string text;
    for (std::size_t t = first; t < next_; ++t) {
      if (text.size() > 120) return text + " ...";
      const std::string& piece = tokens_[t].text;
      const bool tight = text.empty() || text.back() == '(' || text.back() == '[' || piece == ")" || piece == "]" ||
                         piece == "[" || (t > first && tokens_[t - 1].text == "-" && t - 1 == first);
      if (!tight) text += ' ';
      text += piece;
    }
    return text;
  }

  void record_use(const std::string& name, int rank, int line, int column) {
    const auto [use, first_use] = uses_.try_emplace(name, Use{rank, line, column});
    if (first_use || use->second.rank == rank) return;
    const auto as = [](int r) {
      return r == 0 ? std::string("as a scalar")
                    : "with " + std::to_string(r) + (r == 1 ? " subscript" : " subscripts");
    };
    throw InputError(source_, position(line, column),
                     "'" + name + "' is used " + as(rank) + " here but " + as(use->second.rank) + " at " +
                         position(use->second.line, use->second.column) + "; an array keeps one rank");
  }
};

// ----------------------------------------------------- levels from the tree

constexpr std::int64_t max_counting_steps = 100'000'000;

std::int64_t checked_product(std::int64_t a, std::int64_t b, const std::string& source, int line) {
  try {
    return checked('*', a, b, line, 0);
  } catch (const IntegerOverflow&) {
    throw InputError(source, std::to_string(line), "operation count of this level overflows 64 bits");
  }
}

// Value of an integer expression (bounds: numbers, defines, loop variables).
std::int64_t evaluate(const Expr& expr, const std::map<std::string, std::int64_t>& env, const std::string& source) {
  switch (expr.kind) {
    case Expr::Kind::number:
      return expr.value;
    case Expr::Kind::loop_variable:
      return env.at(expr.name);
    case Expr::Kind::negate:
      return checked('-', 0, evaluate(expr.operands[0], env, source), expr);
    case Expr::Kind::binary: {
      const std::int64_t a = evaluate(expr.operands[0], env, source);
      const std::int64_t b = evaluate(expr.operands[1], env, source);
      if (expr.op == '/' && b == 0)
        throw InputError(source, position(expr.line, expr.column), "'" + expr.text + "' divides by zero");
      return checked(expr.op, a, b, expr);
    }
    default:
      return 0;
  }
}

using Interval = std::pair<std::int64_t, std::int64_t>;  // [low, high]

// The range an integer expression can take when each loop variable ranges over
// its interval (interval arithmetic: exact for sums of loop variables and
// constants, an upper bound otherwise).
Interval range_of(const Expr& expr, const std::map<std::string, Interval>& ranges) {
  switch (expr.kind) {
    case Expr::Kind::number:
      return {expr.value, expr.value};
    case Expr::Kind::loop_variable:
      return ranges.at(expr.name);
    case Expr::Kind::negate: {
      const Interval r = range_of(expr.operands[0], ranges);
      return {checked('-', 0, r.second, expr), checked('-', 0, r.first, expr)};
    }
    case Expr::Kind::binary: {
      const Interval a = range_of(expr.operands[0], ranges), b = range_of(expr.operands[1], ranges);
      if (expr.op == '+') return {checked('+', a.first, b.first, expr), checked('+', a.second, b.second, expr)};
      if (expr.op == '-') return {checked('-', a.first, b.second, expr), checked('-', a.second, b.first, expr)};
      if (expr.op == '/' && b.first <= 0 && b.second >= 0)
        return {std::min(a.first, checked('-', 0, a.second, expr)), std::max(a.second, checked('-', 0, a.first, expr))};
      std::vector<std::int64_t> corners;
      for (std::int64_t x : {a.first, a.second})
        for (std::int64_t y : {b.first, b.second}) corners.push_back(checked(expr.op, x, y, expr));
      return {*std::min_element(corners.begin(), corners.end()), *std::max_element(corners.begin(), corners.end())};
    }
    default:
      return {0, 0};
  }
}

void collect_loop_variables(const Expr& expr, std::vector<std::string>& variables) {
  if (expr.kind == Expr::Kind::loop_variable &&
      std::find(variables.begin(), variables.end(), expr.name) == variables.end())
    variables.push_back(expr.name);
  for (const Expr& operand : expr.operands) collect_loop_variables(operand, variables);
}

bool mentions(const Expr& expr, const std::string& variable) {
  std::vector<std::string> variables;
  collect_loop_variables(expr, variables);
  return std::find(variables.begin(), variables.end(), variable) != variables.end();
}

// Whether a loop bound or any expression inside `body` uses `variable`.
bool body_mentions(const std::vector<Statement>& body, const std::string& variable, bool bounds_only) {
  return std::any_of(body.begin(), body.end(), [&](const Statement& s) {
    if (s.kind == Statement::Kind::loop)
      return mentions(s.lower, variable) || mentions(s.upper, variable) || body_mentions(s.body, variable, bounds_only);
    return !bounds_only && (mentions(s.target, variable) || mentions(s.value, variable));
  });
}

// Stage-GA's operation count of one assignment: the + - * / of its value
// (subscript arithmetic excluded), one more for a compound assignment.
std::int64_t flops_of(const Expr& expr) {
  if (expr.kind == Expr::Kind::array) return 0;
  std::int64_t flops = expr.kind == Expr::Kind::binary ? 1 : 0;
  for (const Expr& operand : expr.operands) flops += flops_of(operand);
  return flops;
}

Subscript subscript_of(const Expr& expr) {
  Subscript subscript;
  subscript.text = expr.text;
  if (expr.kind == Expr::Kind::loop_variable) subscript.loop_variable = expr.name;
  collect_loop_variables(expr, subscript.loop_variables);
  return subscript;
}

void add_unique(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

class LevelBuilder {
 public:
  LevelBuilder(const std::string& source, std::map<std::string, std::int64_t>& largest_subscripts,
               std::vector<ArrayDeclaration>& arrays)
      : source_(source), largest_(largest_subscripts), arrays_(arrays) {}

  Level build(const Statement& root, int index) {
    level_ = Level{};
    level_.index = index;
    level_.line = root.line;
    std::map<std::string, Interval> ranges;
    describe({root}, 1, ranges);
    std::map<std::string, std::int64_t> env;
    steps_ = 0;
    next_loop_ = 0;
    count({root}, env, 1);
    return std::move(level_);
  }

 private:
  const std::string& source_;
  std::map<std::string, std::int64_t>& largest_;  // per "array/dimension": the largest subscript value
  std::vector<ArrayDeclaration>& arrays_;
  Level level_;
  std::int64_t steps_ = 0;
  std::size_t next_loop_ = 0;

  // Loops, references, arrays and scalars, in source order; subscript ranges.
  void describe(const std::vector<Statement>& body, int depth, std::map<std::string, Interval>& ranges) {
    for (const Statement& s : body) {
      if (s.kind == Statement::Kind::loop) {
        Loop loop;
        loop.variable = s.variable;
        loop.depth = depth;
        loop.line = s.line;
        loop.lower_bound = s.lower.text;
        loop.upper_bound = (s.inclusive ? "<= " : "< ") + s.upper.text;
        std::vector<std::string> used;
        collect_loop_variables(s.lower, used);
        collect_loop_variables(s.upper, used);
        if (used.empty()) loop.trip_count = trip_count(s, evaluate(s.lower, {}, source_), last_value(s, {}));
        level_.loops.push_back(std::move(loop));
        level_.depth = std::max(level_.depth, depth);
        const Interval low = range_of(s.lower, ranges), high = range_of(s.upper, ranges);
        ranges[s.variable] = {low.first, checked('-', high.second, s.inclusive ? 0 : 1, s.line, s.column)};
        describe(s.body, depth + 1, ranges);
        ranges.erase(s.variable);
      } else {
        const std::size_t known = level_.arrays.size();  // arrays are appended in order of first reference
        add_reference(s.target, true, s.compound, ranges);
        add_references(s.value, ranges);
        for (std::size_t a = known; a < level_.arrays.size(); ++a) level_.arrays[a].live_in = level_.arrays[a].read;
        if (s.target.kind == Expr::Kind::scalar) add_unique(level_.scalars_written, s.target.name);
        if (s.target.kind == Expr::Kind::scalar && s.compound) add_unique(level_.scalars_read, s.target.name);
      }
    }
  }

  std::int64_t last_value(const Statement& loop, const std::map<std::string, std::int64_t>& env) const {
    return checked('-', evaluate(loop.upper, env, source_), loop.inclusive ? 0 : 1, loop.line, loop.column);
  }
  static std::int64_t trip_count(const Statement& loop, std::int64_t first, std::int64_t last) {
    return std::max<std::int64_t>(
        0, checked('+', checked('-', last, first, loop.line, loop.column), 1, loop.line, loop.column));
  }

  void add_references(const Expr& expr, const std::map<std::string, Interval>& ranges) {
    if (expr.kind == Expr::Kind::array) add_reference(expr, false, true, ranges);
    if (expr.kind == Expr::Kind::scalar) add_unique(level_.scalars_read, expr.name);
    if (expr.kind == Expr::Kind::array) return;
    for (const Expr& operand : expr.operands) add_references(operand, ranges);
  }

  void add_reference(const Expr& expr, bool written, bool read, const std::map<std::string, Interval>& ranges) {
    if (expr.kind != Expr::Kind::array) return;
    ArrayReference reference{expr.name, {}, written, expr.line, expr.column};
    const bool reached =
        std::all_of(ranges.begin(), ranges.end(), [](const auto& r) { return r.second.first <= r.second.second; });
    for (std::size_t d = 0; d < expr.operands.size(); ++d) {
      reference.subscripts.push_back(subscript_of(expr.operands[d]));
      if (!reached) continue;
      const std::string key = expr.name + "/" + std::to_string(d);
      const std::int64_t high = range_of(expr.operands[d], ranges).second;
      auto [largest, fresh] = largest_.try_emplace(key, high);
      if (!fresh) largest->second = std::max(largest->second, high);
    }
    level_.references.push_back(std::move(reference));
    for (const Expr& subscript : expr.operands) add_references(subscript, ranges);
    auto array = std::find_if(level_.arrays.begin(), level_.arrays.end(),
                              [&](const LevelArray& a) { return a.name == expr.name; });
    if (array == level_.arrays.end()) {
      level_.arrays.push_back({expr.name, static_cast<int>(expr.operands.size()), {}, false, false});
      array = level_.arrays.end() - 1;
    }
    array->read = array->read || read;
    array->written = array->written || written;
    if (std::none_of(arrays_.begin(), arrays_.end(), [&](const ArrayDeclaration& a) { return a.name == expr.name; }))
      arrays_.push_back({expr.name, array->rank, {}});
  }

  // Adds the operations and loop iterations of `body`, run `times` times with
  // the loop variables in `env`. A loop whose variable no inner bound uses is
  // multiplied out; otherwise its values are enumerated (exact for triangular nests).
  void count(const std::vector<Statement>& body, std::map<std::string, std::int64_t>& env, std::int64_t times) {
    for (const Statement& s : body) {
      if (s.kind == Statement::Kind::assignment) {
        const std::int64_t flops = flops_of(s.value) + (s.compound ? 1 : 0);
        level_.operation_count =
            checked('+', level_.operation_count, checked_product(flops, times, source_, level_.line), s.line, s.column);
        continue;
      }
      const std::size_t loop_index = next_loop_++;
      const std::int64_t first = evaluate(s.lower, env, source_), last = last_value(s, env);
      const std::int64_t trips = trip_count(s, first, last);
      Loop& loop = level_.loops[loop_index];
      loop.total_iterations =
          checked('+', loop.total_iterations, checked_product(trips, times, source_, level_.line), s.line, s.column);
      const std::size_t after_body = next_loop_ + loops_in(s.body);
      if (trips > 0 && body_mentions(s.body, s.variable, true)) {
        for (std::int64_t value = first; value <= last; ++value) {
          if (++steps_ > max_counting_steps)
            throw InputError(source_, position(s.line, s.column),
                             "counting this loop nest exactly takes more than 10^8 steps; use bounds that "
                             "depend on fewer enclosing loops");
          env[s.variable] = value;
          next_loop_ = loop_index + 1;
          count(s.body, env, times);
        }
        env.erase(s.variable);
      } else if (trips > 0) {
        env[s.variable] = first;
        count(s.body, env, checked_product(times, trips, source_, level_.line));
        env.erase(s.variable);
      }
      next_loop_ = after_body;
    }
  }

  static std::size_t loops_in(const std::vector<Statement>& body) {
    std::size_t loops = 0;
    for (const Statement& s : body)
      if (s.kind == Statement::Kind::loop) loops += 1 + loops_in(s.body);
    return loops;
  }
};

Program parse_program_unchecked(std::string_view text, const std::string& source,
                                const std::map<std::string, long>& defines) {
  Parser parser(text, source, defines);
  std::vector<Statement> roots = parser.parse();
  if (roots.empty()) throw InputError(source, "", "expected at least one loop nest (level), got none");

  Program program;
  program.name = source;
  // The iterative loop: the only top-level statement, a loop holding only
  // loops, whose variable nothing inside uses (docs/optimizer.md).
  const Statement& outer = roots.front();
  const bool iterative = roots.size() == 1 && !outer.body.empty() &&
                         std::all_of(outer.body.begin(), outer.body.end(),
                                     [](const Statement& s) { return s.kind == Statement::Kind::loop; }) &&
                         !body_mentions(outer.body, outer.variable, false);
  std::vector<Statement> level_roots;
  if (iterative) {
    const std::int64_t first = evaluate(outer.lower, {}, source);
    const std::int64_t last = evaluate(outer.upper, {}, source) - (outer.inclusive ? 0 : 1);
    program.iterations = std::max<std::int64_t>(
        0, checked('+', checked('-', last, first, outer.line, outer.column), 1, outer.line, outer.column));
    level_roots = outer.body;
  } else {
    level_roots = std::move(roots);
  }

  std::map<std::string, std::int64_t> largest_subscripts;
  LevelBuilder builder(source, largest_subscripts, program.arrays);
  for (std::size_t l = 0; l < level_roots.size(); ++l)
    program.levels.push_back(builder.build(level_roots[l], static_cast<int>(l + 1)));

  for (ArrayDeclaration& array : program.arrays)
    for (int d = 0; d < array.rank; ++d) {
      const auto largest = largest_subscripts.find(array.name + "/" + std::to_string(d));
      array.extents.push_back(
          largest == largest_subscripts.end() ? 0 : std::max<std::int64_t>(0, checked('+', largest->second, 1, 0, 0)));
    }
  for (Level& level : program.levels) {
    for (LevelArray& array : level.arrays) array.extents = program.find_array(array.name)->extents;
    level.alignments = feasible_alignments(level);
  }
  return program;
}

}  // namespace

Program parse_program(std::string_view text, const std::string& source, const std::map<std::string, long>& defines) {
  try {
    return parse_program_unchecked(text, source, defines);
  } catch (const IntegerOverflow& at) {
    throw InputError(source, at.line > 0 ? position(at.line, at.column) : std::string(),
                     "integer arithmetic (bounds, subscripts, defines or operation counts) overflows 64 bits here; "
                     "allowed: values within +-9.2e18");
  }
}

std::map<std::string, long> parse_defines(const std::vector<std::string>& defines) {
  std::map<std::string, long> values;
  for (const std::string& define : defines) {
    const auto equals = define.find('=');
    const std::string name = define.substr(0, equals);
    const bool named =
        !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
    if (equals == std::string::npos || !named)
      throw InputError("define", "", fmt::format("expects NAME=VALUE with a C name, got '{}'", define));
    const std::string text = define.substr(equals + 1);
    std::size_t used = 0;
    long value = 0;
    try {
      value = std::stol(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size())
      throw InputError("define", name, fmt::format("expects a whole number, got '{}'", text));
    values[name] = value;
  }
  return values;
}

std::vector<int> parse_processor_counts(const std::string& text) {
  std::vector<int> processors;
  for (const double value : io::parse_positive_list(text, "procs")) {
    if (value != std::floor(value) || value > 1e6)
      throw InputError("procs", "", fmt::format("processor counts are whole numbers from 1 to 1e6, got {:g}", value));
    processors.push_back(static_cast<int>(value));
  }
  return processors;
}

}  // namespace hetscale::optimizer
