// The papers' worked examples, recomputed from data/papers/*.json by the
// same code `hetscale demo` runs: every printed value must be reproduced.
#include "hetscale/papers/paper_checks.hpp"

#include <gtest/gtest.h>

#include "hetscale/io/input_error.hpp"
#include "support/assertions.hpp"
#include "support/temp_folder.hpp"

namespace hetscale {
namespace {

const std::string data_dir = HETSCALE_DATA_DIR;

TEST(PaperChecks, EveryPrintedValueIsReproduced) {
  const auto sections = reproduce_papers(data_dir);
  std::size_t checks = 0;
  for (const auto& section : sections)
    for (const auto& check : section.checks) {
      ++checks;
      EXPECT_TRUE(check.agrees()) << section.title << " / " << check.where << " / " << check.quantity
                                  << ": paper " << check.paper << ", hetscale " << check.computed;
    }
  // APGA 2004: 5 + 2 + 3; Chen et al. 2008: Tables 3-4 (1 + 3 x 5, 1 + 3 x 7), Tables 5-11 (3 x (2 x 5 + 4));
  // Clematis-Corana 1999: Table 1 (10), Table 2 (3 x 6 x 5)
  EXPECT_EQ(checks, 10u + 16u + 22u + 42u + 10u + 90u);
}

// A check that disagrees is reported as such, not hidden.
TEST(PaperChecks, AgreementIsWithinTheTolerance) {
  PaperCheck check{"where", "s", 1.5, 1.5 + 0.11, 1, 0.1};
  EXPECT_FALSE(check.agrees());
  check.computed = 1.5 + 0.09;
  EXPECT_TRUE(check.agrees());
}

TEST(PaperChecks, MissingDataFolderIsNamed) {
  try {
    reproduce_papers("/nonexistent-hetscale-data");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "/nonexistent-hetscale-data/papers/seed000.json: cannot be opened: No such file or directory");
  }
}

// The report's ewf-heterogeneity figure draws Clematis-Corana 1999 Table 1's ten 6-node configurations.
TEST(PaperData, Seed003Table1Speeds) {
  const auto configurations = seed003_table1_speeds(data_dir);
  ASSERT_EQ(configurations.size(), 10u);
  for (const auto& speeds : configurations) EXPECT_EQ(speeds.size(), 6u);
  EXPECT_EQ(testing_support::ErrorMessage([] { seed003_table1_speeds("/nonexistent-hetscale-data"); }),
            "/nonexistent-hetscale-data/papers/seed003.json: cannot be opened: No such file or directory");
  const testing_support::TempFolder folder;
  const auto path = folder.write("papers/seed003.json", R"({"table1": {"decimals": 2}})");
  EXPECT_EQ(testing_support::ErrorMessage([&] { seed003_table1_speeds(folder.path()); }),
            path + ": table1.configurations: Clematis-Corana 1999 Table 1 is not where the report expects it");
}

}  // namespace
}  // namespace hetscale
