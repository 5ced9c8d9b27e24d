// Chen et al. 2008 Section 4.5's communication forms fitted to samples: exact
// recovery of known a, b, c from synthetic times, the non-negative
// constraints, the through-origin fit quality, and what cannot be fitted.
#include "hetscale/analysis/comm_fit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "support/assertions.hpp"

namespace hetscale {
namespace {

using testing_support::RelNear;
using testing_support::ThrowsInvalidArgumentNaming;

// The paper's Sunwulf values (Chen et al. 2008 Section 4.5), in seconds.
constexpr double bcast_a = 0.12e-3, bcast_b = 0.23e-3;
constexpr double send_a = 0.08e-3, send_b = 0.00003e-3;
constexpr double barrier_c = 0.39e-3;

// Samples that follow the forms exactly for p = 2..max_processes and the given
// sizes; larger broadcast messages take longer (the fit must use the smallest).
std::vector<CommSample> ExactSamples(std::size_t max_processes, const std::vector<double>& sizes) {
  std::vector<CommSample> samples;
  for (std::size_t p = 2; p <= max_processes; ++p) {
    const double q = static_cast<double>(p);
    samples.push_back({"barrier", p, 0.0, barrier_c * q, 10});
    for (double n : sizes) samples.push_back({"broadcast", p, n, bcast_a + bcast_b * q + 1e-9 * n * q, 10});
  }
  for (double n : sizes) samples.push_back({"send", 2, n, send_a + send_b * n, 10});
  samples.push_back({"compute", 1, 1e6, 0.031, 1});  // not communication: ignored
  return samples;
}

// Chen et al. 2008 Section 4.5: known a, b, c come back exactly.
TEST(CommFit, RecoversThePaperFormsExactly) {
  const auto fit = fit_communication_costs(ExactSamples(5, {1, 1000, 100000}));
  const auto& costs = fit.costs;
  EXPECT_TRUE(RelNear(costs.broadcast_intercept, bcast_a, 1e-6));
  EXPECT_TRUE(RelNear(costs.broadcast_per_process, bcast_b + 1e-9, 1e-9));
  EXPECT_TRUE(RelNear(costs.send_intercept, send_a, 1e-9));
  EXPECT_TRUE(RelNear(costs.send_per_element, send_b, 1e-9));
  EXPECT_EQ(costs.receive_intercept, costs.send_intercept);  // no receive samples: T_recv = T_send
  EXPECT_EQ(costs.receive_per_element, costs.send_per_element);
  EXPECT_TRUE(RelNear(costs.barrier_per_process, barrier_c, 1e-12));
  EXPECT_EQ(costs.unit_computation, 0.0);  // not the fit's business
  EXPECT_FALSE(costs.reference_marked_speed.has_value());

  ASSERT_EQ(fit.fits.size(), 3u);
  const std::vector<std::string> operations{"broadcast", "send", "barrier"};
  const std::vector<std::size_t> points{4, 3, 4};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(fit.fits[i].operation, operations[i]);
    EXPECT_EQ(fit.fits[i].points, points[i]);
    EXPECT_TRUE(RelNear(fit.fits[i].r_squared, 1.0, 1e-9)) << operations[i];
  }
}

// The broadcast fit takes the smallest message size only (the paper's form has no size).
TEST(CommFit, BroadcastUsesTheSmallestMessage) {
  std::vector<CommSample> samples = ExactSamples(4, {10, 100});
  for (auto& sample : samples)
    if (sample.operation == "broadcast" && sample.elements == 100) sample.seconds *= 50.0;
  const auto costs = fit_communication_costs(samples).costs;
  EXPECT_TRUE(RelNear(costs.broadcast_intercept, bcast_a, 1e-6));
  EXPECT_TRUE(RelNear(costs.broadcast_per_process, bcast_b + 1e-8, 1e-9));
}

// Receive samples, when measured apart, get their own line.
TEST(CommFit, ReceiveMeasuredApart) {
  auto samples = ExactSamples(3, {1, 1000});
  samples.push_back({"receive", 2, 1, 2e-6 + 3e-9, 5});
  samples.push_back({"receive", 2, 1000, 2e-6 + 3e-6, 5});
  const auto fit = fit_communication_costs(samples);
  EXPECT_TRUE(RelNear(fit.costs.receive_intercept, 2e-6, 1e-9));
  EXPECT_TRUE(RelNear(fit.costs.receive_per_element, 3e-9, 1e-9));
  ASSERT_EQ(fit.fits.size(), 4u);
  EXPECT_EQ(fit.fits[2].operation, "receive");
}

// Two ranks give one process count: the broadcast line goes through the origin.
TEST(CommFit, OneProcessCountBroadcastThroughTheOrigin) {
  const auto fit = fit_communication_costs(ExactSamples(2, {1, 8}));
  EXPECT_EQ(fit.costs.broadcast_intercept, 0.0);
  EXPECT_TRUE(RelNear(fit.costs.broadcast_per_process, (bcast_a + 2 * bcast_b + 2e-9) / 2, 1e-12));
  EXPECT_EQ(fit.fits[0].points, 1u);
  EXPECT_EQ(fit.fits[0].r_squared, 1.0);
}

// A time has no negative part: a line that would cross below zero at x = 0 is
// refitted through the origin, one that falls is refitted as a constant.
TEST(CommFit, NonNegativeLine) {
  const std::vector<double> x{1, 2, 3}, rising{1, 3, 5}, falling{5, 4, 4};
  const auto through_origin = fit_non_negative_line(x, rising);  // free line: -1 + 2 x
  EXPECT_EQ(through_origin.intercept, 0.0);
  EXPECT_TRUE(RelNear(through_origin.slope, 22.0 / 14.0));
  const auto constant = fit_non_negative_line(x, falling);  // free line slope < 0
  EXPECT_EQ(constant.slope, 0.0);
  EXPECT_TRUE(RelNear(constant.intercept, 13.0 / 3.0));
  EXPECT_TRUE(RelNear(constant.r_squared, 0.0, 1e-12));  // a constant explains none of the variation
  const auto free = fit_non_negative_line(x, std::vector<double>{3, 5, 7});
  EXPECT_TRUE(RelNear(free.intercept, 1.0));
  EXPECT_TRUE(RelNear(free.slope, 2.0));
}

// r_squared of a through-origin fit is measured about the mean, like the
// others: below 0 when the form fits worse than a constant.
TEST(CommFit, ThroughOriginRSquaredAboutTheMean) {
  const std::vector<double> x{2, 3, 4, 5}, flat{1.0, 1.1, 1.0, 1.1};
  const auto fit = fit_through_origin(x, flat);
  EXPECT_TRUE(RelNear(fit.slope, (2 * 1.0 + 3 * 1.1 + 4 * 1.0 + 5 * 1.1) / 54.0));
  EXPECT_LT(fit.r_squared, 0.0);
  const auto exact = fit_through_origin(x, std::vector<double>{0.8, 1.2, 1.6, 2.0});
  EXPECT_TRUE(RelNear(exact.slope, 0.4));
  EXPECT_TRUE(RelNear(exact.r_squared, 1.0, 1e-12));
}

// Stage-GA Table II: known M, N, R, Q (and shift's N, Q) come back exactly
// from t = (M p + N) d + (R p + Q) on a grid of p and d, with r_squared 1.
TEST(StructureFit, RecoversKnownParametersExactly) {
  struct Known {
    std::string structure;
    double m, n, r, q;
  };
  const Known known[] = {{"multiphase", 6.4e-9, -1.2e-8, 6.5e-6, -3.9e-6},
                         {"shift", 0.0, 2.9e-9, 0.0, 8.3e-6},
                         {"broadcast", 6.5e-10, 4.2e-11, 2.8e-6, -1.3e-6},
                         {"scatter", 6.2e-10, 9.9e-10, 1.1e-6, 3.3e-6},
                         {"gather", 1.3e-9, 0.0, 1.3e-6, 2.0e-6}};
  // Chen et al. 2008's samples besides: ignored, except broadcast, which is shared (left out here).
  std::vector<CommSample> samples = ExactSamples(5, {1, 1000, 100000});
  std::erase_if(samples, [](const CommSample& s) { return s.operation == "broadcast"; });
  for (const auto& k : known)
    for (std::size_t p = 2; p <= 16; p *= 2)
      for (double d : {1.0, 1000.0, 100000.0, 1e6})
        samples.push_back({k.structure, p, d, (k.m * static_cast<double>(p) + k.n) * d +
                                                   (k.r * static_cast<double>(p) + k.q), 5});
  const auto fits = fit_structure_costs(samples);
  ASSERT_EQ(fits.size(), 5U);
  for (std::size_t i = 0; i < 5; ++i) {
    const auto& fit = fits[i];
    EXPECT_EQ(fit.structure, known[i].structure);
    for (const auto& [value, expected] :
         {std::pair{fit.m, known[i].m}, {fit.n, known[i].n}, {fit.r, known[i].r}, {fit.q, known[i].q}})
      EXPECT_NEAR(value, expected, 1e-9 * std::abs(expected) + 1e-20) << fit.structure;
    ASSERT_TRUE(fit.r_squared.has_value());
    EXPECT_TRUE(RelNear(*fit.r_squared, 1.0, 1e-9));
    EXPECT_EQ(fit.points, 16U);
  }
}

// Only the structures measured are fitted (Chen et al. 2008's broadcast samples serve); one process count fits t = N d + Q;
// one message size cannot separate f1 from f2.
TEST(StructureFit, WhatCanAndCannotBeFitted) {
  const auto only_broadcast = fit_structure_costs(ExactSamples(4, {1, 1000}));  // the shared broadcast samples
  ASSERT_EQ(only_broadcast.size(), 1U);
  EXPECT_EQ(only_broadcast[0].structure, "broadcast");
  EXPECT_EQ(only_broadcast[0].points, 6U);
  const auto one_count = fit_structure_form(std::vector<double>{2, 2, 2}, std::vector<double>{1, 10, 100},
                                            std::vector<double>{3e-6 + 2e-9, 3e-6 + 2e-8, 3e-6 + 2e-7});
  EXPECT_EQ(one_count.m, 0.0);
  EXPECT_EQ(one_count.r, 0.0);
  EXPECT_TRUE(RelNear(one_count.n, 2e-9, 1e-9));
  EXPECT_TRUE(RelNear(one_count.q, 3e-6, 1e-9));
  const std::vector<CommSample> one_size{{"scatter", 2, 1000, 1e-5, 5}, {"scatter", 3, 1000, 2e-5, 5}};
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { fit_structure_costs(one_size); },
                                          {"scatter", "two or more message sizes d, got 1"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { fit_structure_form(std::vector<double>{2, 3}, std::vector<double>{1, 2}, std::vector<double>{1}); },
      {"same length"}));
}

TEST(CommFit, WhatCannotBeFitted) {
  auto without = [](const std::string& operation) {
    auto samples = ExactSamples(4, {1, 1000});
    std::erase_if(samples, [&](const CommSample& s) { return s.operation == operation; });
    return samples;
  };
  for (const std::string operation : {"broadcast", "send", "barrier"})
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { fit_communication_costs(without(operation)); },
                                            {"no " + operation + " samples"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { fit_communication_costs(ExactSamples(4, {1000})); },
                                          {"send samples have 1 message size", "two or more"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { fit_non_negative_line(std::vector<double>{1, 2}, std::vector<double>{1, -1}); }, {"y must be >= 0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] { fit_through_origin(std::vector<double>{0}, std::vector<double>{1}); }, {"x != 0"}));
}

TEST(CommFit, PlatformOfAProfile) {
  CommProfile profile;
  profile.label = "here, 4 ranks";
  profile.costs.send_intercept = 12e-6;
  profile.costs.send_per_element = 1e-9;
  const auto platform = platform_of_profile(profile, "node-a", 2);
  ASSERT_EQ(platform.nodes.size(), 1u);
  EXPECT_EQ(platform.nodes[0].name, "node-a");
  EXPECT_EQ(platform.nodes[0].cores, 2);
  EXPECT_DOUBLE_EQ(platform.nodes[0].speed, 1.0);
  EXPECT_EQ(platform.name, "here, 4 ranks");
  ASSERT_TRUE(platform.network.has_value());
  EXPECT_DOUBLE_EQ(platform.network->latency_s, 12e-6);
  EXPECT_DOUBLE_EQ(platform.network->bandwidth_Bps, 8e9);
  // Its JSON reads back as the same machine.
  const auto again = parse_platform_json(platform_json(platform), "again");
  EXPECT_EQ(again.nodes[0].cores, 2);
  EXPECT_DOUBLE_EQ(again.network->bandwidth_Bps, 8e9);
  profile.costs.send_intercept = 0.0;
  EXPECT_DOUBLE_EQ(platform_of_profile(profile, "n", 1).network->latency_s, 1e-9);
  profile.costs.send_per_element = 0.0;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { platform_of_profile(profile, "n", 1); }, {"per double is 0"}));
  profile.costs.send_per_element = 1e-9;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { platform_of_profile(profile, "n", 0); }, {"at least 1 core, got 0"}));
}

}  // namespace
}  // namespace hetscale
