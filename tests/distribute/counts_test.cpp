// The even and proportional counts (distribute/counts.hpp): how many of a
// run's equal units of work (a farm's tasks, a kernel's rows) each process gets.
#include "hetscale/distribute/counts.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "support/assertions.hpp"

namespace hetscale::distribute {
namespace {

using testing_support::ThrowsInvalidArgumentNaming;
using Counts = std::vector<std::size_t>;

double sum_of(const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); }

TEST(Counts, EvenExamples) {
  // 10 = 3 * 3 + 1: the first client gets the extra task
  EXPECT_EQ(even_counts(10, 3), (Counts{4, 3, 3}));
  // APGA 2004 Section 6.2: 128 individuals on 32 clients, four each
  EXPECT_EQ(even_counts(128, 32), Counts(32, 4));
  // 11 = 4 * 2 + 3: the first three clients get one more
  EXPECT_EQ(even_counts(11, 4), (Counts{3, 3, 3, 2}));
  // fewer tasks than clients: the last ones get none
  EXPECT_EQ(even_counts(2, 5), (Counts{1, 1, 0, 0, 0}));
  EXPECT_EQ(even_counts(0, 3), (Counts{0, 0, 0}));
  EXPECT_EQ(even_counts(7, 1), (Counts{7}));
}

TEST(Counts, ProportionalExamples) {
  // speeds 1, 1, 2 (sum 4), 10 tasks: quotas 2.5, 2.5, 5; floors 2, 2, 5 = 9;
  // the one left goes to the largest remainder, a tie of 0.5 between
  // clients 0 and 1 won by the lower index: 3, 2, 5
  EXPECT_EQ(proportional_counts(10, {1.0, 1.0, 2.0}), (Counts{3, 2, 5}));
  // speeds 1, 2, 4 (sum 7), 10 tasks: quotas 1.43, 2.86, 5.71; floors 1, 2, 5
  // = 8; remainders 0.43, 0.86, 0.71: clients 1 and 2 get the two left
  EXPECT_EQ(proportional_counts(10, {1.0, 2.0, 4.0}), (Counts{1, 3, 6}));
  // speeds 1, 1, 1, 4 (sum 7), 6 tasks: quotas 0.857 (x3), 3.43; floors 0, 0,
  // 0, 3; the three left go to the three slow clients (remainder 0.857 >
  // 0.43), not to the fast one
  EXPECT_EQ(proportional_counts(6, {1.0, 1.0, 1.0, 4.0}), (Counts{1, 1, 1, 3}));
  // exact quotas: 7 tasks on 1, 2, 4
  EXPECT_EQ(proportional_counts(7, {1.0, 2.0, 4.0}), (Counts{1, 2, 4}));
  // equal speeds give the even split
  EXPECT_EQ(proportional_counts(10, {0.3, 0.3, 0.3}), even_counts(10, 3));
  EXPECT_EQ(proportional_counts(128, std::vector<double>(32, 0.7)), Counts(32, 4));
  EXPECT_EQ(proportional_counts(0, {1.0, 2.0}), (Counts{0, 0}));
  // only relative speeds matter
  EXPECT_EQ(proportional_counts(10, {10.0, 20.0, 40.0}), (Counts{1, 3, 6}));
}

// Over many random cases: the counts add up to the tasks, and (largest
// remainder) every count is the floor or the floor + 1 of its quota; even
// counts differ by at most one, larger first.
TEST(Counts, SumsToTasksOverRandomCases) {
  std::mt19937_64 rng(20240611);
  std::uniform_int_distribution<std::size_t> clients_dist(1, 40), tasks_dist(0, 600);
  std::uniform_real_distribution<double> speed_dist(0.01, 10.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t clients = clients_dist(rng), tasks = tasks_dist(rng);
    std::vector<double> speeds(clients);
    for (double& v : speeds) v = speed_dist(rng);
    // a third of the cases with many equal speeds (ties of remainders)
    if (trial % 3 == 0)
      for (std::size_t i = 0; i < clients; i += 2) speeds[i] = 1.0;

    const Counts even = even_counts(tasks, clients);
    ASSERT_EQ(even.size(), clients);
    EXPECT_EQ(std::accumulate(even.begin(), even.end(), std::size_t{0}), tasks);
    EXPECT_TRUE(std::is_sorted(even.rbegin(), even.rend()));
    EXPECT_LE(even.front() - even.back(), 1u);

    const Counts prop = proportional_counts(tasks, speeds);
    ASSERT_EQ(prop.size(), clients);
    EXPECT_EQ(std::accumulate(prop.begin(), prop.end(), std::size_t{0}), tasks)
        << "trial " << trial << ": " << tasks << " tasks on " << clients << " clients";
    const double total = sum_of(speeds);
    for (std::size_t i = 0; i < clients; ++i) {
      const double quota = static_cast<double>(tasks) * speeds[i] / total;
      EXPECT_GE(static_cast<double>(prop[i]), std::floor(quota) - 1e-9) << "trial " << trial << " client " << i;
      EXPECT_LE(static_cast<double>(prop[i]), std::floor(quota) + 1.0 + 1e-9) << "trial " << trial << " client " << i;
    }
  }
}

TEST(Counts, BadInputsThrowNamingTheValue) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { even_counts(10, 0); }, {"parts", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { proportional_counts(10, {}); }, {"speeds", "empty"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { proportional_counts(10, {1.0, 0.0}); }, {"speeds[1]", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { proportional_counts(10, {1.0, 2.0, -2.5}); },
                                          {"speeds[2]", "-2.5"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { proportional_counts(10, {std::numeric_limits<double>::infinity()}); }, {"speeds[0]", "inf"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { proportional_counts(10, {1.0, std::numeric_limits<double>::quiet_NaN()}); }, {"speeds[1]", "nan"}));
  // the speeds are checked even when no task is to be split
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { proportional_counts(0, {0.0}); }, {"speeds[0]"}));
}

}  // namespace
}  // namespace hetscale::distribute
