// `hetscale bench comm`'s tables: a communication profile (Chen et al. 2008 Section
// 4.5, Stage-GA's structures) for people.
#include "hetscale/report/comm_profile_report.hpp"

#include <gtest/gtest.h>

#include <string>

namespace hetscale::report {
namespace {

CommProfile MeasuredProfile() {
  CommProfile profile;
  profile.costs.broadcast_intercept = 2e-6;
  profile.costs.broadcast_per_process = 1.5e-6;
  profile.costs.send_intercept = 3e-6;
  profile.costs.send_per_element = 1e-9;
  profile.costs.barrier_per_process = 4e-6;
  profile.costs.unit_computation = 2.5e-9;
  profile.costs.reference_marked_speed = 400.0;
  profile.fits = {{"broadcast", 0.98765, 4}, {"send", 0.9991, 6}, {"barrier", 0.5, 3}};
  profile.samples = {{"broadcast", 2, 1000, 5e-6, 100},
                     {"broadcast", 3, 10, 6.5e-6, 100},
                     {"send", 2, 1000, 4e-6, 200},
                     {"compute", 1, 0, 1.0, 1}};
  profile.context.ranks = 3;
  profile.context.host = "sunwulf";
  profile.context.mpi_library = "Open MPI v4.1.6";
  return profile;
}

TEST(CommProfileTable, FitsCostsAndSamples) {
  // The broadcast line at the smallest N broadcast; the compute samples (t_c) are not listed.
  EXPECT_EQ(comm_profile_table(MeasuredProfile()),
            "hetscale bench comm: 3 MPI ranks on sunwulf (Open MPI v4.1.6), medians of the repetitions, times in "
            "microseconds (us)\n"
            "\n"
            "operation  fitted form (Chen et al. 2008 Section 4.5)   r_squared  points\n"
            "-------------------------------------------------------------------------\n"
            "broadcast  T = 2 + 1.5 p us (at N = 10)                     0.988       4\n"
            "send       T = 3 + 0.001 N us (N doubles)                   0.999       6\n"
            "receive    T = T_send (a send is timed until received)          -       -\n"
            "barrier    T = 4 p us                                       0.500       3\n"
            "\n"
            "unit computation t_c = 2.5e-09 s per flop; reference marked speed C_ref = 400 Mflop/s (rank 0)\n"
            "\n"
            "samples\n"
            "operation  processes  elements  median_us  repetitions\n"
            "------------------------------------------------------\n"
            "broadcast          2      1000          5          100\n"
            "broadcast          3        10        6.5          100\n"
            "send               2      1000          4          200\n");
}

TEST(CommProfileTable, OneProcessCountAndStructures) {
  CommProfile profile = MeasuredProfile();
  profile.fits[0].points = 1;
  profile.structures = {{"multiphase", 1e-9, 2e-9, 3e-6, 4e-6, 0.97, 5}, {"shift", 0.0, 2e-9, 0.0, 4e-6, {}, 2}};
  profile.context = {};
  const std::string table = comm_profile_table(profile);
  EXPECT_EQ(table.substr(0, table.find('\n')),
            "hetscale bench comm: 0 MPI ranks on ? (?), medians of the repetitions, times in microseconds (us)");
  EXPECT_NE(table.find("(rank 0)\nnote: one process count (2 ranks): the broadcast line goes through the origin; run "
                       "with 3 or more ranks to fit its intercept\n"),
            std::string::npos);
  EXPECT_NE(table.find("\nstructures: t(d, p) = (M p + N) d + (R p + Q), d doubles per processor (shift: N d + Q)\n"
                       "structure (Stage-GA)  M us/double  N us/double  R us  Q us  r_squared  points\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("multiphase                  0.001        0.002     3     4      0.970       5\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("shift                           -        0.002     -     4          -       2\n"),
            std::string::npos)
      << table;
}

}  // namespace
}  // namespace hetscale::report
