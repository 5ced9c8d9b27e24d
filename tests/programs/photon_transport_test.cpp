// The Monte Carlo photon transport kernel (Majumdar 1999's application): histories
// independent of how they are split, tallies that add up, and the physics
// against closed forms computed here independently (exponential attenuation,
// the Klein-Nishina cross section and angular distribution). The statistical
// checks use 5 standard errors and fixed seeds: they are deterministic, and a
// wrong distribution moves them by many standard errors.
#include "hetscale/programs/kernels/photon_transport.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace hetscale::programs::kernels {
namespace {

using testing_support::RelNear;
using testing_support::ThrowsInvalidArgumentNaming;

constexpr double electron_rest_energy_me_v = 0.51099895;
constexpr double classical_electron_radius_cm = 2.8179403262e-13;
// Water: 10 electrons per molecule, 6.02214076e23 / 18.015 molecules per gram.
constexpr double water_electrons_per_cm3 = 10.0 * 6.02214076e23 / 18.015;

SlabProblem slab(double thickness_cm, double energy_MeV) {
  SlabProblem problem;
  problem.thickness_cm = thickness_cm;
  problem.source_energy_MeV = energy_MeV;
  return problem;
}

// Klein-Nishina d sigma / d mu without pi r_e^2, written out here again.
double klein_nishina(double energy_MeV, double mu) {
  const double p = 1.0 / (1.0 + energy_MeV / electron_rest_energy_me_v * (1.0 - mu));
  return p * p * (p + 1.0 / p - (1.0 - mu * mu));
}

// Composite Simpson rule of f on [-1, 1] with 2 * 100000 intervals.
double simpson(const std::function<double(double)>& f) {
  constexpr int intervals = 200000;
  const double h = 2.0 / intervals;
  double sum = f(-1.0) + f(1.0);
  for (int i = 1; i < intervals; ++i) sum += (i % 2 == 1 ? 4.0 : 2.0) * f(-1.0 + h * i);
  return sum * h / 3.0;
}

bool within_standard_errors(double estimate, double expected, double standard_error, double count = 5.0) {
  return std::abs(estimate - expected) <= count * standard_error;
}

TEST(PhotonTransport, AnySplitOfTheHistoriesGivesTheSameTally) {
  const PhotonTables tables = prepare_photon_tables(slab(10.0, 0.5));
  for (const std::uint64_t seed : {std::uint64_t{7}, std::uint64_t{0x5eed2024}}) {
    const PhotonTally whole = transport_photons(tables, 0, 1000, seed);
    ASSERT_EQ(whole.histories, 1000u);
    ASSERT_GT(whole.collisions, 1000u);  // the slab is thick enough for several collisions

    PhotonTally two = transport_photons(tables, 0, 300, seed);
    two += transport_photons(tables, 300, 700, seed);
    EXPECT_EQ(two, whole) << "seed " << seed;

    // Uneven pieces, one empty, in another order.
    PhotonTally many;
    const std::uint64_t cuts[] = {0, 1, 2, 137, 137, 500, 998, 999, 1000};
    for (std::size_t i = std::size(cuts) - 1; i > 0; --i)
      many += transport_photons(tables, cuts[i - 1], cuts[i] - cuts[i - 1], seed);
    EXPECT_EQ(many, whole) << "seed " << seed;
  }
}

TEST(PhotonTransport, SeedsGiveDifferentTalliesThatAddUp) {
  const PhotonTables tables = prepare_photon_tables(slab(10.0, 0.5));
  const PhotonTally a = transport_photons(tables, 0, 2000, 1);
  const PhotonTally b = transport_photons(tables, 0, 2000, 2);
  EXPECT_NE(a, b);
  EXPECT_NE(a.collisions, b.collisions);
  for (const PhotonTally& tally : {a, b}) {
    EXPECT_EQ(tally.histories, 2000u);
    EXPECT_EQ(tally.transmitted + tally.reflected + tally.absorbed, tally.histories);
    EXPECT_GT(tally.transmitted, 0u);
    EXPECT_GT(tally.reflected, 0u);
    EXPECT_GT(tally.absorbed, 0u);
  }
  // The same seed and histories again: the same tally.
  EXPECT_EQ(transport_photons(tables, 0, 2000, 1), a);
}

TEST(PhotonTransport, TallyAddsEveryField) {
  PhotonTally sum{10, 4, 3, 3, 17};
  sum += PhotonTally{5, 1, 2, 2, 9};
  EXPECT_EQ(sum, (PhotonTally{15, 5, 5, 5, 26}));
}

TEST(PhotonTransport, ThinSlabTransmitsNearlyEveryPhoton) {
  const PhotonTally tally = transport_photons(prepare_photon_tables(slab(1e-4, 1.0)), 0, 20000, 3);
  EXPECT_GT(static_cast<double>(tally.transmitted), 0.999 * static_cast<double>(tally.histories));
}

TEST(PhotonTransport, ThickSlabTransmitsAlmostNothing) {
  // 100 cm of water is 7 mean free paths at 1 MeV: exp(-7.06) = 8.6e-4 pass
  // uncollided and the scattered photons (build-up, about 16 here) bring the
  // transmitted fraction to about 1.4 %; at 0.1 MeV it is 17 mean free paths.
  const PhotonTally one_MeV = transport_photons(prepare_photon_tables(slab(100.0, 1.0)), 0, 20000, 4);
  EXPECT_LT(static_cast<double>(one_MeV.transmitted), 0.03 * static_cast<double>(one_MeV.histories));
  const PhotonTally low = transport_photons(prepare_photon_tables(slab(100.0, 0.1)), 0, 20000, 4);
  EXPECT_LT(static_cast<double>(low.transmitted), 1e-3 * static_cast<double>(low.histories));
}

TEST(PhotonTransport, UncollidedTransmissionFollowsTheExponentialLaw) {
  constexpr std::uint64_t histories = 100000;
  for (const auto& [thickness, energy] : {std::pair{5.0, 1.0}, std::pair{2.0, 0.1}, std::pair{20.0, 2.5}}) {
    const PhotonTables tables = prepare_photon_tables(slab(thickness, energy));
    std::uint64_t uncollided = 0;
    for (std::uint64_t n = 0; n < histories; ++n) {
      const PhotonHistory history = track_photon(tables, n, 11);
      if (history.fate == PhotonFate::transmitted && history.collisions == 0) ++uncollided;
    }
    const double expected = std::exp(-photon_cross_sections(energy).total_per_cm() * thickness);
    const double fraction = static_cast<double>(uncollided) / histories;
    const double standard_error = std::sqrt(expected * (1.0 - expected) / histories);
    EXPECT_TRUE(within_standard_errors(fraction, expected, standard_error))
        << thickness << " cm at " << energy << " MeV: uncollided fraction " << fraction << ", expected "
        << expected << " +- " << standard_error;
  }
}

TEST(PhotonTransport, CrossSectionsMatchKleinNishinaAndWaterData) {
  for (const double energy : {0.01, 0.1, 0.5, 1.0, 3.0}) {
    // sigma_KN = pi r_e^2 int_{-1}^{1} (d sigma / d mu) / (pi r_e^2) d mu
    const double sigma = std::numbers::pi * classical_electron_radius_cm * classical_electron_radius_cm *
                         simpson([energy](double mu) { return klein_nishina(energy, mu); });
    EXPECT_TRUE(RelNear(photon_cross_sections(energy).compton_per_cm, water_electrons_per_cm3 * sigma, 1e-9))
        << energy << " MeV";
  }
  // NIST XCOM, water: incoherent 0.07066 cm^2/g at 1 MeV; photoelectric
  // 0.1557 cm^2/g at 30 keV and 2.76e-3 cm^2/g at 100 keV (the power law is
  // fitted at 30 keV).
  EXPECT_TRUE(RelNear(photon_cross_sections(1.0).compton_per_cm, 0.07066, 0.005));
  EXPECT_TRUE(RelNear(photon_cross_sections(0.03).photoelectric_per_cm, 0.1557, 0.02));
  EXPECT_TRUE(RelNear(photon_cross_sections(0.1).photoelectric_per_cm, 2.76e-3, 0.15));
}

TEST(PhotonTransport, SampledScatteringCosineHasTheKleinNishinaMoments) {
  const PhotonTables tables = prepare_photon_tables(SlabProblem{});
  std::mt19937_64 generator(12345);
  const auto uniform = [&generator] { return static_cast<double>(generator() >> 11) * 0x1.0p-53; };
  constexpr int samples = 200000;
  // 0.3 and 0.7 MeV fall between the energy groups.
  for (const double energy : {0.02, 0.3, 0.7, 1.0}) {
    const double norm = simpson([energy](double mu) { return klein_nishina(energy, mu); });
    const double mean = simpson([energy](double mu) { return mu * klein_nishina(energy, mu); }) / norm;
    const double second = simpson([energy](double mu) { return mu * mu * klein_nishina(energy, mu); }) / norm;
    const double fourth =
        simpson([energy](double mu) { return mu * mu * mu * mu * klein_nishina(energy, mu); }) / norm;

    double sum = 0.0;
    double sum_squares = 0.0;
    for (int i = 0; i < samples; ++i) {
      const double u_group = uniform();
      const double mu = sample_scattering_cosine(tables, energy, u_group, uniform());
      ASSERT_GE(mu, -1.0);
      ASSERT_LE(mu, 1.0);
      sum += mu;
      sum_squares += mu * mu;
    }
    const double mean_error = std::sqrt((second - mean * mean) / samples);
    const double second_error = std::sqrt((fourth - second * second) / samples);
    EXPECT_TRUE(within_standard_errors(sum / samples, mean, mean_error))
        << energy << " MeV: sampled mean cos theta " << sum / samples << ", Klein-Nishina " << mean << " +- "
        << mean_error;
    EXPECT_TRUE(within_standard_errors(sum_squares / samples, second, second_error))
        << energy << " MeV: sampled mean cos^2 theta " << sum_squares / samples << ", Klein-Nishina " << second
        << " +- " << second_error;
  }
}

TEST(PhotonTransport, DirectionCosineFollowsTheRotatedDirectionVector) {
  // Rotate a 3D unit vector d by (theta, phi) about itself, with phi measured
  // from e1, the unit vector along x_hat - u d (in the plane of d and the x
  // axis); e2 = d x e1. The new direction is mu d + sin(theta)(cos phi e1 +
  // sin phi e2) and its x-component must be the helper's u'.
  std::mt19937_64 generator(99);
  std::uniform_real_distribution<double> cosine(-1.0, 1.0);
  std::uniform_real_distribution<double> angle(0.0, 2.0 * std::numbers::pi);
  for (int trial = 0; trial < 1000; ++trial) {
    const double u = cosine(generator);
    const double mu = cosine(generator);
    const double phi = angle(generator);
    const double azimuth = angle(generator);  // where d points around the x axis
    const double s = std::sqrt(1.0 - u * u);
    const double d[3] = {u, s * std::cos(azimuth), s * std::sin(azimuth)};
    double e1[3] = {1.0 - u * d[0], -u * d[1], -u * d[2]};
    const double e1_length = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (double& component : e1) component /= e1_length;
    const double e2[3] = {d[1] * e1[2] - d[2] * e1[1], d[2] * e1[0] - d[0] * e1[2], d[0] * e1[1] - d[1] * e1[0]};
    const double sin_theta = std::sqrt(1.0 - mu * mu);
    double rotated[3];
    for (int i = 0; i < 3; ++i)
      rotated[i] = mu * d[i] + sin_theta * (std::cos(phi) * e1[i] + std::sin(phi) * e2[i]);
    ASSERT_NEAR(rotated[0] * rotated[0] + rotated[1] * rotated[1] + rotated[2] * rotated[2], 1.0, 1e-12);
    EXPECT_NEAR(scattered_direction_cosine(u, mu, phi), rotated[0], 1e-12)
        << "u " << u << ", mu " << mu << ", phi " << phi;
  }
  // Along the x axis the new cosine is mu whatever phi; phi = 0 and pi add and
  // subtract the polar angles.
  EXPECT_DOUBLE_EQ(scattered_direction_cosine(1.0, 0.3, 1.0), 0.3);
  EXPECT_NEAR(scattered_direction_cosine(std::cos(0.4), std::cos(0.25), 0.0), std::cos(0.15), 1e-15);
  EXPECT_NEAR(scattered_direction_cosine(std::cos(0.4), std::cos(0.25), std::numbers::pi), std::cos(0.65), 1e-15);
}

TEST(PhotonTransport, BadProblemsThrowNamingTheField) {
  const auto prepare = [](SlabProblem problem) { return [problem] { prepare_photon_tables(problem); }; };
  const auto with = [](auto field, auto value) {
    SlabProblem problem;
    problem.*field = value;
    return problem;
  };
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::thickness_cm, 0.0)), {"thickness_cm", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::thickness_cm, -2.5)), {"thickness_cm", "-2.5"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      prepare(with(&SlabProblem::thickness_cm, std::numeric_limits<double>::infinity())), {"thickness_cm", "inf"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::source_energy_MeV, std::nan(""))),
                                          {"source_energy_MeV", "nan"}));
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::source_energy_MeV, 5.0)), {"source_energy_MeV", "5"}));
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::cutoff_energy_MeV, 0.0)), {"cutoff_energy_MeV", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::cutoff_energy_MeV, 1e-4)),
                                          {"cutoff_energy_MeV", "0.0001"}));
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::cutoff_energy_MeV, 1.0)), {"cutoff_energy_MeV", "1"}));
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::energy_groups, std::size_t{1})), {"energy_groups", "1"}));
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::angle_points, std::size_t{0})), {"angle_points", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(prepare(with(&SlabProblem::angle_points, std::size_t{1} << 40)),
                                          {"angle_points", "1099511627776"}));

  // Tables that do not match their problem, and energies that are not positive.
  PhotonTables tables = prepare_photon_tables(SlabProblem{});
  tables.values.pop_back();
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { transport_photons(tables, 0, 1, 1); }, {"PhotonTables.values"}));
  tables = prepare_photon_tables(SlabProblem{});
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [&] { transport_photons(tables, std::numeric_limits<std::uint64_t>::max(), 2, 1); }, {"first", "count"}));
  tables.problem.thickness_cm = -1.0;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { track_photon(tables, 0, 1); }, {"thickness_cm", "-1"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { photon_cross_sections(-0.5); }, {"energy_MeV", "-0.5"}));
}

}  // namespace
}  // namespace hetscale::programs::kernels
