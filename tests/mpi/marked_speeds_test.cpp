// Where a kernel's or a sweep's marked speeds come from: given_marked_speeds
// makes the same checks on every rank before MPI runs anything.
#include "hetscale/mpi/marked_speeds.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"
#include "support/temp_folder.hpp"

#include <string>
#include <vector>

namespace hetscale::mpi {
namespace {

using testing_support::ErrorMessage;

TEST(GivenMarkedSpeeds, NoneGivenAreMeasured) { EXPECT_TRUE(given_marked_speeds({}, 4).empty()); }

TEST(GivenMarkedSpeeds, AListOrAPlatformFileOnePerRank) {
  EXPECT_EQ(given_marked_speeds({"", "20.9,20.9,20.3", 0.1}, 3), (std::vector<double>{20.9, 20.9, 20.3}));
  const testing_support::TempFolder folder;
  const auto platform = folder.write("marked.txt", "alpha 12.5\nbeta 25\n");
  EXPECT_EQ(given_marked_speeds({platform, "", 0.1}, 2), (std::vector<double>{12.5, 25}));
  EXPECT_EQ(ErrorMessage([&] {
              given_marked_speeds({platform, "", 0.1}, 3);
            }),
            platform + ": has 2 marked speeds for 3 MPI ranks; give one per rank");
}

TEST(GivenMarkedSpeeds, BadInputNamesTheOption) {
  EXPECT_EQ(ErrorMessage([] {
              given_marked_speeds({"p.json", "1,2", 0.1}, 2);
            }),
            "marked: give the marked speeds in a platform file or as a list, not both");
  EXPECT_EQ(ErrorMessage([] {
              given_marked_speeds({"", "1,0", 0.1}, 2);
            }),
            "marked-speeds: item 2: must be > 0, got 0");
  EXPECT_EQ(ErrorMessage([] {
              given_marked_speeds({"", "1,2", 0.1}, 3);
            }),
            "marked-speeds: has 2 marked speeds for 3 MPI ranks; give one per rank");
  EXPECT_EQ(ErrorMessage([] { given_marked_speeds({"", "", 0.0}, 2); }), "speed-seconds: must be in (0, 60], got 0");
  EXPECT_EQ(ErrorMessage([] { given_marked_speeds({"", "", 61.0}, 2); }), "speed-seconds: must be in (0, 60], got 61");
}

}  // namespace
}  // namespace hetscale::mpi
