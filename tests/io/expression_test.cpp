// io::Expression: what a user may write as a workload W(N) or an overhead
// T_o(N, p), its precedence, and one clear error for each mistake.
#include "hetscale/io/expression.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace hetscale::io {
namespace {

double At(const std::string& text, double n) {
  const double values[] = {n};
  return Expression::parse(text, {"N"}).evaluate(values);
}

std::string ErrorOf(const std::string& text, std::vector<std::string> functions = {}) {
  try {
    Expression::parse(text, {"N", "p"}, std::move(functions));
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "no error";
}

TEST(Expression, PrecedenceAndAssociativity) {
  EXPECT_DOUBLE_EQ(At("2*N^3", 10), 2000.0);
  EXPECT_DOUBLE_EQ(At("1 + 2 * 3", 0), 7.0);
  EXPECT_DOUBLE_EQ(At("(1 + 2) * 3", 0), 9.0);
  EXPECT_DOUBLE_EQ(At("2^3^2", 0), 512.0);  // right-associative: 2^(3^2)
  EXPECT_DOUBLE_EQ(At("-N^2", 3), -9.0);    // the power binds tighter than the sign
  EXPECT_DOUBLE_EQ(At("N^-1", 4), 0.25);
  EXPECT_DOUBLE_EQ(At("8 / 4 / 2", 0), 1.0);
  EXPECT_DOUBLE_EQ(At("10 - 4 - 3", 0), 3.0);
  EXPECT_DOUBLE_EQ(At("1.5e3 * N", 2), 3000.0);
}

TEST(Expression, TheKernelsWorkloadsWrittenOut) {
  // Chen et al. 2008, Section 4.1: GE and convolution.
  const double n = 310;
  EXPECT_NEAR(At("2/3*N^3 - 1/2*N^2 - 19/6*N + 3", n), 2.0 / 3 * n * n * n - 0.5 * n * n - 19.0 / 6 * n + 3, 1e-6);
  EXPECT_NEAR(At("66*N^2*log2(N) + 21*N^2 + 84*N*log2(N)", 256),
              66.0 * 256 * 256 * 8 + 21.0 * 256 * 256 + 84.0 * 256 * 8, 1e-6);
  EXPECT_NEAR(At("sqrt(N) + exp(0) + log(1) + log10(100)", 16), 4 + 1 + 0 + 2, 1e-12);
}

TEST(Expression, CallerFunctionsAndVariablesInOrder) {
  const auto overhead = Expression::parse("bcast(p) + 2*(p-1)*send(N)", {"N", "p"}, {"bcast", "send"});
  const double values[] = {100, 3};
  const Expression::Function functions[] = {[](double p) { return 1 + p; }, [](double n) { return 0.5 * n; }};
  EXPECT_DOUBLE_EQ(overhead.evaluate(values, functions), 4 + 2 * 2 * 50);
  EXPECT_EQ(overhead.text(), "bcast(p) + 2*(p-1)*send(N)");
}

TEST(Expression, EachMistakeSaysWhereAndWhat) {
  EXPECT_EQ(ErrorOf("2*M"), "at 3: unknown name 'M'; allowed: N, p");
  EXPECT_EQ(ErrorOf("2*N +"), "at 6: the expression ends where a number, a name or '(' was expected");
  EXPECT_EQ(ErrorOf("(N"), "at 3: ')' expected");
  EXPECT_EQ(ErrorOf("N N"), "at 3: unexpected 'N'");
  EXPECT_EQ(ErrorOf("2 ** N"), "at 4: unexpected '*' where a number, a name or '(' was expected");
  EXPECT_EQ(ErrorOf("send(N)"), "at 1: unknown function 'send'; allowed: sqrt, exp, log, log2, log10");
  EXPECT_EQ(ErrorOf("bcast(p", {"bcast"}), "at 8: ')' expected after the argument of bcast");
  EXPECT_EQ(ErrorOf(""), "at 1: the expression ends where a number, a name or '(' was expected");
  EXPECT_EQ(ErrorOf("N # comment"), "at 3: unexpected '#'");
}

// Found by tests/fuzz (regressions/options): nesting that would overflow the
// stack when parsed or evaluated is refused.
TEST(Expression, NestingDeeperThanTwoHundredIsRefused) {
  EXPECT_EQ(ErrorOf(std::string(5000, '(') + "N" + std::string(5000, ')')),
            "at 201: the expression is nested deeper than 200 signs, powers or parentheses");
  EXPECT_EQ(ErrorOf(std::string(300, '-') + "N"),
            "at 201: the expression is nested deeper than 200 signs, powers or parentheses");
  std::string long_sum = "N";
  for (int i = 0; i < 300; ++i) long_sum += "+N";
  EXPECT_EQ(ErrorOf(long_sum), "at 402: the expression is nested deeper than 200 operations");
  std::string sum_of_199 = "N";
  for (int i = 0; i < 199; ++i) sum_of_199 += "+N";
  const std::vector<double> values{1.0, 0.0};
  EXPECT_EQ(Expression::parse(sum_of_199, {"N", "p"}).evaluate(values), 200.0);
}

}  // namespace
}  // namespace hetscale::io
