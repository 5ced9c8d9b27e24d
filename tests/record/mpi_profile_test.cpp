// The MPI profile of a measured run (record/mpi_profile.hpp): written in a run
// record's context and read back, most time first, read leniently.
#include "hetscale/record/mpi_profile.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hetscale/record/run_context.hpp"

namespace hetscale {
namespace {

const std::vector<MpiFunctionProfile>& Read(const std::string& context) {
  static RunContext read;
  read = parse_run_context(context, "context.json");
  return read.mpi_functions();
}

TEST(MpiProfile, RoundTripMostTimeFirst) {
  const std::vector<MpiFunctionProfile> written{{"MPI_Recv", 10, 0.5, 0.5, 0.25, 40},
                                                {"MPI_Send", 10, 0.75, 0.7, 0.375, 40}};
  const auto read = Read(R"({"tool": "hetscale measure", "mpi_functions": )" + mpi_profile_json(written) + "}");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].function, "MPI_Send");
  EXPECT_EQ(read[0].seconds, 0.75);
  EXPECT_EQ(read[0].seconds_max, 0.7);
  EXPECT_EQ(read[1].function, "MPI_Recv");
  EXPECT_EQ(read[1].calls, 10);
  EXPECT_EQ(read[1].bytes, 40);
}

TEST(MpiProfile, NoneOrMalformedEntriesLeftOut) {
  EXPECT_TRUE(Read("{}").empty());
  EXPECT_TRUE(Read(R"({"tool": "hetscale farm"})").empty());
  EXPECT_TRUE(Read(R"({"mpi_functions": 3})").empty());
  const auto read =
      Read(R"({"mpi_functions": [{"calls": 1}, {"function": "MPI_Bcast", "calls": "many", "seconds": 1,)"
           R"( "seconds_max": 1, "seconds_mean": 1, "bytes": 0}, {"function": "MPI_Barrier", "calls": 2, "seconds": 0.1,)"
           R"( "seconds_max": 0.1, "seconds_mean": 0.05, "bytes": 0}]})");
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].function, "MPI_Barrier");
}

}  // namespace
}  // namespace hetscale
