// Lists from command-line values: split_at, and the number and size lists
// built on it (--speeds, --sizes).
#include "hetscale/io/number_list.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace hetscale::io {
namespace {

using testing_support::ErrorMessage;
using Pieces = std::vector<std::string_view>;

TEST(SplitAt, KeepsEmptyPieces) {
  EXPECT_EQ(split_at("a,,b", ','), (Pieces{"a", "", "b"}));
  EXPECT_EQ(split_at("a", ','), (Pieces{"a"}));
  EXPECT_EQ(split_at("", ','), (Pieces{""}));
  EXPECT_EQ(split_at(",a,", ','), (Pieces{"", "a", ""}));
  EXPECT_EQ(split_at("/usr/bin:/bin", ':'), (Pieces{"/usr/bin", "/bin"}));
}

TEST(SplitNames, CommasBlanksAndNewLinesSeparateNamesAndEmptyOnesAreSkipped) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(split_names("a,b,c"), (Names{"a", "b", "c"}));
  EXPECT_EQ(split_names("a, b,,c\n"), (Names{"a", "b", "c"}));
  EXPECT_EQ(split_names("node-1\tnode-2\r\nnode-3 "), (Names{"node-1", "node-2", "node-3"}));
  EXPECT_EQ(split_names("alpha"), (Names{"alpha"}));
  EXPECT_EQ(split_names(""), Names{});
  EXPECT_EQ(split_names(" ,\n, "), Names{});
}

TEST(NumberList, CommasAndBlanksSeparateNumbers) {
  EXPECT_EQ(parse_number_list("1,0.5,0.25", "--speeds"), (std::vector<double>{1.0, 0.5, 0.25}));
  EXPECT_EQ(parse_number_list("1 2, 3", "--speeds"), (std::vector<double>{1.0, 2.0, 3.0}));
}

TEST(NumberList, AnEmptyItemAmongOthersIsAnError) {
  EXPECT_EQ(ErrorMessage([] { parse_number_list("1,,2", "--speeds"); }),
            "--speeds: item 2: is empty; expected a number");
  EXPECT_EQ(ErrorMessage([] { parse_number_list("1,", "--speeds"); }),
            "--speeds: item 2: is empty; expected a number");
  EXPECT_EQ(ErrorMessage([] { parse_number_list("", "--speeds"); }), "--speeds: no numbers given");
}

TEST(PositiveList, EveryNumberMustBeAboveZero) {
  EXPECT_EQ(parse_positive_list("1,0.5", "--speeds"), (std::vector<double>{1.0, 0.5}));
  EXPECT_EQ(ErrorMessage([] { parse_positive_list("1,0,2", "--speeds"); }), "--speeds: item 2: must be > 0, got 0");
  EXPECT_EQ(ErrorMessage([] { parse_positive_list("-1.5", "--marked-speeds"); }),
            "--marked-speeds: item 1: must be > 0, got -1.5");
  EXPECT_EQ(ErrorMessage([] { parse_positive_list("x", "--speeds"); }), "--speeds: item 1: 'x' is not a number");
}

TEST(SizeList, RangesAndLists) {
  EXPECT_EQ(parse_size_list("100:400:100", "--sizes"), (std::vector<std::size_t>{100, 200, 300, 400}));
  EXPECT_EQ(parse_size_list("10,20", "--sizes"), (std::vector<std::size_t>{10, 20}));
  EXPECT_EQ(ErrorMessage([] { parse_size_list("100:800", "--sizes"); }),
            "--sizes: '100:800' is not a range first:last:step");
  EXPECT_EQ(ErrorMessage([] { parse_size_list("100::10", "--sizes"); }),
            "--sizes: item 2: is empty; expected a number");
  EXPECT_EQ(parse_size_list("100:450:100", "--sizes"), (std::vector<std::size_t>{100, 200, 300, 400}));
}

// Found by tests/fuzz (regressions/options): a step below the first size's
// precision ran the range's loop for ever, filling memory.
TEST(SizeList, AStepTooSmallToMoveIsOneSizeNotAnEndlessRange) {
  EXPECT_EQ(ErrorMessage([] { parse_size_list("1e300:1e300:1e-300", "--sizes"); }),
            "--sizes: item 1: must be a whole number >= 1, got 1e+300");
  EXPECT_EQ(parse_size_list("4096:4096:1e-30", "--sizes"), (std::vector<std::size_t>{4096}));
  EXPECT_EQ(ErrorMessage([] { parse_size_list("1:2:1e-6", "--sizes"); }),
            "--sizes: range has more than 100000 sizes");
}

}  // namespace
}  // namespace hetscale::io
