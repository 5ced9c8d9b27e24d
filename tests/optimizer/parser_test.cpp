#include "hetscale/optimizer/parser.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "hetscale/io/input_error.hpp"
#include "hetscale/optimizer/alignment.hpp"
#include "hetscale/optimizer/program.hpp"
#include "optimizer/fixtures.hpp"
#include "support/assertions.hpp"

namespace hetscale::optimizer {
namespace {

using hetscale::testing_support::ErrorMessage;

using testing::example;
using testing::hessenberg;

std::vector<std::string> array_names(const Level& level) {
  std::vector<std::string> names;
  for (const LevelArray& array : level.arrays) names.push_back(array.name);
  return names;
}

std::vector<std::string> descriptions(const std::vector<Alignment>& alignments) {
  std::vector<std::string> texts;
  for (const Alignment& alignment : alignments) texts.push_back(alignment.description());
  return texts;
}

std::string parse_error(const std::string& text) {
  return ErrorMessage([&] { parse_program(text, "prog.c"); });
}

// ------------------------------------------------------------ Figure 7

TEST(OptimizerParser, Figure7HasTheFiveLevelsOfThePaper) {
  const Program program = hessenberg();
  EXPECT_EQ(program.name, "hessenberg.c");
  EXPECT_FALSE(program.iterations.has_value());
  ASSERT_EQ(program.levels.size(), 5u);
  const std::vector<std::vector<std::string>> arrays = {
      {"a", "V", "Z"}, {"b", "a", "V"}, {"c", "I", "b"}, {"d", "c", "A"}, {"e", "d", "c"}};
  const std::vector<int> depths = {3, 3, 2, 3, 3};
  for (std::size_t l = 0; l < 5; ++l) {
    EXPECT_EQ(program.levels[l].index, static_cast<int>(l + 1));
    EXPECT_EQ(array_names(program.levels[l]), arrays[l]) << "level " << l + 1;
    EXPECT_EQ(program.levels[l].depth, depths[l]) << "level " << l + 1;
  }
  EXPECT_EQ(program.levels[0].line, 9);
  EXPECT_EQ(program.levels[2].line, 23);
}

TEST(OptimizerParser, Figure7ReadsAndWritesAsWritten) {
  const Program program = hessenberg();
  const Level& level1 = program.levels[0];
  EXPECT_TRUE(level1.find_array("a")->written);
  EXPECT_TRUE(level1.find_array("a")->read);  // a[i][j] = a[i][j] + ...
  EXPECT_FALSE(level1.find_array("V")->written);
  const Level& level3 = program.levels[2];
  EXPECT_TRUE(level3.find_array("c")->written);
  EXPECT_FALSE(level3.find_array("c")->read);
  EXPECT_TRUE(level3.find_array("b")->read);
  EXPECT_EQ(level3.find_array("I")->extents, (std::vector<std::int64_t>{1024, 1024}));
  EXPECT_EQ(level3.data_elements(), 3 * 1024 * 1024);
  ASSERT_NE(program.find_array("V"), nullptr);
  EXPECT_EQ(program.find_array("V")->rank, 2);
  EXPECT_EQ(program.find_array("V")->element_count(), 1024 * 1024);
  EXPECT_EQ(program.arrays.size(), 9u);  // a V Z b c I d A e
}

TEST(OptimizerParser, Figure7OperationCountsByHand) {
  // Levels 1, 2, 4, 5: one + and one * per innermost iteration, N^3 times;
  // level 3: one - per element, N^2 times; "x = 0" costs nothing.
  const std::int64_t n = 1024;
  const Program program = hessenberg();
  const std::vector<std::int64_t> expected = {2 * n * n * n, 2 * n * n * n, n * n, 2 * n * n * n, 2 * n * n * n};
  for (std::size_t l = 0; l < 5; ++l) EXPECT_EQ(program.levels[l].operation_count, expected[l]) << "level " << l + 1;
  EXPECT_EQ(program.total_operations(), 8 * n * n * n + n * n);
  const Level& level1 = program.levels[0];
  ASSERT_EQ(level1.loops.size(), 3u);
  EXPECT_EQ(level1.loops[2].variable, "k");
  EXPECT_EQ(level1.loops[2].depth, 3);
  EXPECT_EQ(level1.loops[2].trip_count, n);
  EXPECT_EQ(level1.loops[2].total_iterations, n * n * n);
  EXPECT_EQ(level1.loops[0].upper_bound, "< N");
}

TEST(OptimizerParser, DefineOverrideChangesOperationCounts) {
  const std::int64_t n = 10240;  // H2
  const Program program = hessenberg({{"N", 10240}});
  EXPECT_EQ(program.levels[0].operation_count, 2 * n * n * n);
  EXPECT_EQ(program.levels[2].operation_count, n * n);
  EXPECT_EQ(program.find_array("e")->extents, (std::vector<std::int64_t>{n, n}));
}

// ----------------------------------------------------------- Table III

TEST(OptimizerParser, DongarraLoopsAreElevenLevelsWithTableIIIArrays) {
  const Program program = parse_program(example("dongarra.c"), "dongarra.c");
  ASSERT_EQ(program.levels.size(), 11u);
  const std::int64_t n = 10240;
  EXPECT_EQ(program.levels[0].operation_count, 2 * n * n * n);
  EXPECT_EQ(array_names(program.levels[0]), (std::vector<std::string>{"X2", "Y2", "Z2"}));
  EXPECT_EQ(program.levels[3].scalars_read, std::vector<std::string>{"S"});
  EXPECT_EQ(array_names(program.levels[7]),
            (std::vector<std::string>{"A2", "B2", "C2", "A1", "D2", "E2", "F2", "B1"}));
  EXPECT_EQ(program.levels[10].operation_count, 3 * n * n);
  EXPECT_EQ(program.find_array("D1")->extents, std::vector<std::int64_t>{n});
  // Level 11 sums columns into A1: only splitting j is communication-free.
  ASSERT_EQ(program.levels[10].alignments.size(), 1u);
  EXPECT_EQ(program.levels[10].alignments[0].description(),
            "A1: block, A2: column, B2: column, D2: column");
}

// ------------------------------------------------- loops and iterations

TEST(OptimizerParser, TriangularNestIsCountedExactly) {
  const Program program = parse_program(
      "for (i = 0; i < 10; i++)\n  for (j = i + 1; j < 10; j++)\n    s[i][j] = x[i][j] * 2 + 1;\n", "t.c");
  const Level& level = program.levels.at(0);
  EXPECT_EQ(level.loops[1].total_iterations, 45);  // 9 + 8 + ... + 0
  EXPECT_FALSE(level.loops[1].trip_count.has_value());
  EXPECT_EQ(level.loops[1].lower_bound, "i + 1");
  EXPECT_EQ(level.operation_count, 90);
  EXPECT_EQ(program.find_array("s")->extents, (std::vector<std::int64_t>{10, 10}));
}

TEST(OptimizerParser, InclusiveBoundsAndCompoundAssignments) {
  const Program program = parse_program("#define M 3\nfor (i = 1; i <= M; ++i) y[i] -= 2 * x[i - 1];", "t.c");
  EXPECT_EQ(program.levels[0].loops[0].trip_count, 3);
  EXPECT_EQ(program.levels[0].operation_count, 6);  // (* and -=) x 3
  EXPECT_EQ(program.find_array("y")->extents, std::vector<std::int64_t>{4});
  EXPECT_EQ(program.levels[0].references[1].subscripts[0].text, "i - 1");
  EXPECT_EQ(program.levels[0].references[1].subscripts[0].loop_variable, "");
}

TEST(OptimizerParser, OuterLoopWhoseVariableIsUnusedIsTheIterativeLoop) {
  const Program program = parse_program(
      "#define T 50\n#define N 8\n"
      "for (t = 0; t < T; t++) {\n"
      "  for (i = 0; i < N; i++) a[i] = b[i] * 2;\n"
      "  for (i = 0; i < N; i++) b[i] = a[i] + 1;\n"
      "}\n",
      "t.c");
  EXPECT_EQ(program.iterations, 50);
  ASSERT_EQ(program.levels.size(), 2u);
  EXPECT_EQ(program.operations_per_iteration(), 16);
  EXPECT_EQ(program.total_operations(), 800);
}

TEST(OptimizerParser, OuterLoopWhoseVariableIsUsedIsOneLevel) {
  const Program program = parse_program(
      "for (i = 0; i < 4; i++) {\n"
      "  for (j = 0; j < 4; j++) a[i][j] = 0;\n"
      "  for (j = 0; j < 4; j++) b[i][j] = a[i][j];\n"
      "}\n",
      "t.c");
  EXPECT_FALSE(program.iterations.has_value());
  ASSERT_EQ(program.levels.size(), 1u);
  EXPECT_EQ(program.levels[0].loops.size(), 3u);
  EXPECT_EQ(program.levels[0].depth, 2);
}

// ----------------------------------------------------------- bad input

TEST(OptimizerParser, SyntaxErrorsGiveLineColumnAndWhatWasExpected) {
  EXPECT_EQ(parse_error("#define N 4\nfor (i = 0; i < N; i++) {\n  a[i] = b[i] +;\n}\n"),
            "prog.c: 3:16: expected a number, a name or '(', got ';'");
  EXPECT_EQ(parse_error("for (i = 0; j < 4; i++) a[i] = 0;"), "prog.c: 1:13: expected 'i', got 'j'");
  EXPECT_EQ(parse_error("for (i = 0; i < 4; i++)\n  a[i] = 0\n"), "prog.c: 3:1: expected ';', got end of input");
  EXPECT_EQ(parse_error("for (i = 0; i < 4; i++) { a[i] = 0;"), "prog.c: 1:36: expected '}', got end of input");
  EXPECT_EQ(parse_error("a[0] = 1;"), "prog.c: 1:1: expected 'for' or '#define' at the top level, got 'a'");
  EXPECT_EQ(parse_error("/* level 1\nfor (i = 0; i < 4; i++) a[i] = 0;"),
            "prog.c: 1:1: expected '*/' closing this comment, got end of input");
  EXPECT_EQ(parse_error("for (i = 0; i < M; i++) a[i] = 0;"),
            "prog.c: 1:17: expected a loop variable, a define or an integer in a loop bound, got 'M'");
  EXPECT_EQ(parse_error("#define N\nfor (i = 0; i < 4; i++) a[i] = 0;"),
            "prog.c: 1:10: expected a number, a name or '(', got end of input");
  EXPECT_EQ(parse_error("for (i = 0; i < 4; i--) a[i] = 0;"), "prog.c: 1:21: expected '++', got '--'");
  EXPECT_EQ(parse_error(""), "prog.c: expected at least one loop nest (level), got none");
}

// Found by tests/fuzz (regressions/program): integer arithmetic that would
// overflow 64 bits (undefined behaviour) and nesting that would overflow the
// stack are bad input, named by line and column.
TEST(OptimizerParser, OverflowAndDeepNestingAreBadInput) {
  const std::string overflow =
      "prog.c: 2:13: integer arithmetic (bounds, subscripts, defines or operation counts) overflows 64 bits here; "
      "allowed: values within +-9.2e18";
  EXPECT_EQ(parse_error("#define N 9223372036854775807\nfor (i=0; i<N*N; ++i)\n  a[i]=1;\n"), overflow);
  EXPECT_EQ(parse_error("#define N 4\nfor (i=0; i<N; ++i)\n  a[i]=" + std::string(300, '(') + "1" +
                       std::string(300, ')') + ";\n"),
            "prog.c: 3:207: nested deeper than 200 signs, parentheses, subscripts or loops; allowed: up to that");
  std::string long_sum = "1";
  for (int i = 0; i < 300; ++i) long_sum += "+1";
  EXPECT_EQ(parse_error("#define N 4\nfor (i=0; i<N; ++i)\n  a[i]=" + long_sum + ";\n"),
            "prog.c: 3:8: an expression of more than 200 operations; allowed: up to that");
}

TEST(OptimizerParser, ArrayUsedWithTwoRanksIsBadInput) {
  EXPECT_EQ(parse_error("for (i=0;i<4;i++) a[i] = 1;\nfor (i=0;i<4;i++) for (j=0;j<4;j++) a[i][j] = 2;"),
            "prog.c: 2:37: 'a' is used with 2 subscripts here but with 1 subscript at 1:19; an array keeps one rank");
  EXPECT_EQ(parse_error("for (i=0;i<4;i++) s = s + a[i][i] * s[i];"),
            "prog.c: 1:37: 's' is used with 1 subscript here but as a scalar at 1:19; an array keeps one rank");
  EXPECT_THROW(parse_program("for (i=0;i<4;i++) b[i] = 1;\nfor (i=0;i<4;i++) b[i][i] = 1;", "p.c"), InputError);
}

// ---------------------------------------------------------- alignments

TEST(OptimizerAlignment, Level3OfFigure7IsTableI) {
  // Table I: (Horizontal, Horizontal, Horizontal), (Vertical, ...), (Rectangular, ...)
  // for c, I, b; (Horizontal, Vertical, Horizontal) is not an alignment.
  const Level level3 = hessenberg().levels[2];
  ASSERT_EQ(level3.alignments.size(), 3u);
  const std::vector<Pattern> table_i = {Pattern::row_block, Pattern::column_block, Pattern::block_2d};
  for (std::size_t a = 0; a < 3; ++a) {
    EXPECT_EQ(level3.alignments[a].id, static_cast<int>(a + 1));
    for (const char* array : {"c", "I", "b"}) EXPECT_EQ(level3.alignments[a].pattern_of(array), table_i[a]);
  }
  EXPECT_EQ(paper_name(level3.alignments[2].pattern_of("I")), "Rectangular");
  EXPECT_EQ(level3.alignments[0].description(), "c: row, I: row, b: row");
  EXPECT_EQ(level3.alignments[2].distributed_loops, (std::vector<std::string>{"i", "j"}));
}

TEST(OptimizerAlignment, EveryLevelOfFigure7HasThreeAlignments) {
  const Program program = hessenberg();
  for (const Level& level : program.levels) EXPECT_EQ(level.alignments.size(), 3u) << "level " << level.index;
  EXPECT_EQ(descriptions(program.levels[0].alignments),
            (std::vector<std::string>{"a: row, V: row, Z: replicated", "a: column, V: replicated, Z: column",
                                      "a: 2d-block, V: replicated, Z: replicated"}));
  // Level 4 reads c transposed: splitting i makes c column-distributed.
  EXPECT_EQ(program.levels[3].alignments[0].description(), "d: row, c: column, A: replicated");
}

TEST(OptimizerAlignment, ReplicatingDistributableReadsGivesTwelveForLevel3) {
  const Level level3 = hessenberg().levels[2];
  const std::vector<Alignment> all = feasible_alignments(level3, {.replicate_distributable_reads = true});
  EXPECT_EQ(all.size(), 12u);  // 3 splits x (I, b each distributed or replicated)
  for (const Alignment& alignment : all) EXPECT_NE(alignment.pattern_of("c"), Pattern::replicated);
  EXPECT_EQ(all[1].description(), "c: row, I: row, b: replicated");
  // Level 1: splits i and j each have one distributable read, (i, j) none.
  EXPECT_EQ(feasible_alignments(hessenberg().levels[0], {.replicate_distributable_reads = true}).size(), 5u);
}

TEST(OptimizerAlignment, WrittenScalarOrReductionLeavesOnlyTheSerialAlignment) {
  const Program program = parse_program(
      "for (i = 0; i < 8; i++) s = s + x[i];\n"
      "for (i = 0; i < 8; i++) for (j = 0; j < 8; j++) y[0] = y[0] + m[i][j];\n",
      "t.c");
  for (const Level& level : program.levels) {
    ASSERT_EQ(level.alignments.size(), 1u);
    EXPECT_TRUE(level.alignments[0].serial_only);
  }
  EXPECT_EQ(program.levels[0].alignments[0].description(), "serial: x: replicated");
}

TEST(OptimizerAlignment, TransposedCopyCannotUseTheSameGrid) {
  const Level level = parse_program("for (i = 0; i < 8; i++) for (j = 0; j < 8; j++) x[i][j] = y[j][i];", "t.c")
                          .levels[0];
  EXPECT_EQ(descriptions(level.alignments),
            (std::vector<std::string>{"x: row, y: column", "x: column, y: row", "x: 2d-block, y: replicated"}));
}

TEST(OptimizerAlignment, PatternNamesAndRanks) {
  EXPECT_EQ(to_string(Pattern::block_2d), "2d-block");
  EXPECT_EQ(paper_name(Pattern::row_block), "Horizontal");
  EXPECT_TRUE(pattern_fits_rank(Pattern::block, 1));
  EXPECT_FALSE(pattern_fits_rank(Pattern::row_block, 1));
  EXPECT_TRUE(pattern_fits_rank(Pattern::replicated, 2));
  const Alignment alignment{1, {{"a", Pattern::block}}, {"i"}, false};
  EXPECT_THROW(alignment.pattern_of("b"), std::invalid_argument);
}

}  // namespace
}  // namespace hetscale::optimizer
