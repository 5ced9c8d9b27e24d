// Monte Carlo photon transport through a water slab (Majumdar 1999's application).
//
// Geometry. A slab 0 <= x <= L (L = thickness_cm), infinite in y and z.
// Photons of energy E0 (source_energy_MeV) enter at x = 0 moving along +x
// (direction cosine u = 1). Only x and u matter; a photon is transmitted when
// it crosses x = L, reflected when it crosses x = 0 going back.
//
// Material: liquid water, rho = 1 g/cm^3, M = 18.015 g/mol, molecules
// n_mol = rho N_A / M = 3.3428e22 cm^-3 (N_A = 6.02214076e23 /mol), each with
// 10 electrons (n_e = 10 n_mol) and atoms 2 H (Z = 1) + 1 O (Z = 8).
//
// Interactions (coherent scattering, electron binding and pair production are
// neglected; hence the limits 1 keV <= E and E0 <= 3 MeV, where pair
// production is below 4 % of the attenuation of water):
//   Compton scattering on free electrons, Klein-Nishina. With k = E / m_e c^2
//   (m_e c^2 = 0.51099895 MeV) and r_e = 2.8179403262e-13 cm,
//     sigma_KN(k) = 2 pi r_e^2 { (1+k)/k^2 [2(1+k)/(1+2k) - ln(1+2k)/k]
//                                + ln(1+2k)/(2k) - (1+3k)/(1+2k)^2 },
//     Sigma_C(E) = n_e sigma_KN(k)     (0.0706 /cm at 1 MeV; NIST XCOM 0.0707).
//   Angular distribution, mu = cos theta, P = E'/E = 1 / (1 + k (1 - mu)):
//     d sigma / d mu = pi r_e^2 P^2 (P + 1/P - 1 + mu^2),
//   energy after scattering E' = E / (1 + k (1 - mu)).
//   Photoelectric absorption, a power law per atom fitted to water's XCOM
//   values (within 15 % from 10 to 150 keV):
//     sigma_pe(Z, E) = C Z^4 (E / 1 MeV)^-3.25,  C = 1.27e-32 cm^2,
//     Sigma_pe(E) = n_mol (2 sigma_pe(1, E) + sigma_pe(8, E)).
//   Total Sigma_t = Sigma_C + Sigma_pe. A photon whose energy falls below
//   cutoff_energy_MeV is absorbed (deposited locally).
//
// Serial set-up (Majumdar 1999's a, independent of the number of histories): a
// log-spaced grid E_g = E_cut (E0/E_cut)^(g/(G-1)), g = 0..G-1, with
// ln Sigma_t and ln Sigma_pe at each E_g, and for each group the CDF of mu,
// F_g(mu_j), on mu_j = -1 + 2j/(A-1), j = 0..A-1, integrated from the
// Klein-Nishina density by the trapezoid rule and normalised to F_g(1) = 1.
// Work and storage are proportional to G A.
//
// One history (the per-history cost b):
//   1. at energy E, t = ln(E/E_cut) / Delta (Delta = ln(E0/E_cut)/(G-1)),
//      i = floor(t), f = t - i; Sigma = exp((1-f) ln Sigma_i + f ln Sigma_{i+1})
//      (log-log interpolation, exact for a power law);
//   2. free path s = -ln(1 - r) / Sigma_t (exponential distribution),
//      x += s u; leave if x >= L or x < 0;
//   3. collision: photoelectric with probability Sigma_pe / Sigma_t (absorbed),
//      else Compton: group i+1 with probability f, else group i (stochastic
//      interpolation between the groups' distributions); mu by inverting that
//      group's CDF (binary search, then linear in the CDF within the
//      interval); E' as above (absorbed below the cutoff); azimuth
//      phi = 2 pi r uniform, and the new direction cosine is
//        u' = u mu + sqrt((1 - u^2)(1 - mu^2)) cos phi,
//      the x-component of the direction rotated by (theta, phi).
//
// Random numbers: history n of seed s draws from xoshiro256** whose state is
// four outputs of splitmix64 started at mix(s) xor mix(n + gamma) (mix the
// splitmix64 finaliser, gamma its increment), so a history's stream depends on
// (s, n) only; uniforms in [0, 1) are the top 53 bits times 2^-53.
#include "hetscale/programs/kernels/photon_transport.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include <fmt/core.h>

#include "model/checks.hpp"

namespace hetscale::programs::kernels {
namespace {

constexpr double electron_rest_energy_mev = 0.51099895;
constexpr double classical_electron_radius_cm = 2.8179403262e-13;
constexpr double avogadro = 6.02214076e23;
constexpr double water_density = 1.0;                                            // g/cm^3
constexpr double water_molar_mass = 18.015;                                      // g/mol
constexpr double water_molecules = water_density * avogadro / water_molar_mass;  // cm^-3
constexpr double water_electrons = 10.0 * water_molecules;                       // cm^-3
constexpr double photoelectric_coefficient = 1.27e-32;                           // C, cm^2
constexpr double photoelectric_energy_exponent = 3.25;
// sum over the molecule's atoms of Z^4: 2 H + 1 O
constexpr double water_z4 = 2.0 * 1.0 + 8.0 * 8.0 * 8.0 * 8.0;

constexpr double minimum_cutoff_mev = 1e-3;
constexpr double maximum_source_mev = 3.0;
constexpr std::size_t maximum_table_values = 50'000'000;

void validate(const SlabProblem& problem) {
  using model::detail::require_positive;
  require_positive(problem.thickness_cm, "thickness_cm");
  require_positive(problem.source_energy_MeV, "source_energy_MeV");
  require_positive(problem.cutoff_energy_MeV, "cutoff_energy_MeV");
  if (problem.cutoff_energy_MeV < minimum_cutoff_mev)
    throw std::invalid_argument(fmt::format(
        "cutoff_energy_MeV must be >= {} (1 keV; the free-electron and power-law cross sections do not hold "
        "below), got {}",
        minimum_cutoff_mev, problem.cutoff_energy_MeV));
  if (problem.source_energy_MeV > maximum_source_mev)
    throw std::invalid_argument(fmt::format("source_energy_MeV must be <= {} (pair production is not modelled), got {}",
                                            maximum_source_mev, problem.source_energy_MeV));
  if (problem.cutoff_energy_MeV >= problem.source_energy_MeV)
    throw std::invalid_argument(fmt::format("cutoff_energy_MeV must be below source_energy_MeV = {}, got {}",
                                            problem.source_energy_MeV, problem.cutoff_energy_MeV));
  if (problem.energy_groups < 2)
    throw std::invalid_argument(fmt::format("energy_groups must be >= 2, got {}", problem.energy_groups));
  if (problem.angle_points < 2)
    throw std::invalid_argument(fmt::format("angle_points must be >= 2, got {}", problem.angle_points));
  if (problem.energy_groups > maximum_table_values / problem.angle_points)
    throw std::invalid_argument(
        fmt::format("energy_groups x angle_points must be <= {}, got energy_groups = {}, angle_points = {}",
                    maximum_table_values, problem.energy_groups, problem.angle_points));
}

// Layout of PhotonTables::values: ln Sigma_t[G], ln Sigma_pe[G], then the G
// CDF rows of A values each.
std::size_t table_size(const SlabProblem& problem) { return problem.energy_groups * (2 + problem.angle_points); }

double klein_nishina_sigma(double k) {
  const double log_term = std::log1p(2.0 * k);
  const double one_2k = 1.0 + 2.0 * k;
  return 2.0 * std::numbers::pi * classical_electron_radius_cm * classical_electron_radius_cm *
         ((1.0 + k) / (k * k) * (2.0 * (1.0 + k) / one_2k - log_term / k) + log_term / (2.0 * k) -
          (1.0 + 3.0 * k) / (one_2k * one_2k));
}

// d sigma / d mu of Klein-Nishina without the constant pi r_e^2.
double klein_nishina_density(double k, double mu) {
  const double ratio = 1.0 / (1.0 + k * (1.0 - mu));
  return ratio * ratio * (ratio + 1.0 / ratio - 1.0 + mu * mu);
}

std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr std::uint64_t splitmix_gamma = 0x9e3779b97f4a7c15ULL;

// xoshiro256** (Blackman and Vigna), seeded from (seed, history) by splitmix64.
class HistoryStream {
 public:
  HistoryStream(std::uint64_t seed, std::uint64_t history) {
    std::uint64_t counter = splitmix64_mix(seed) ^ splitmix64_mix(history + splitmix_gamma);
    for (std::uint64_t& word : state_) {
      counter += splitmix_gamma;
      word = splitmix64_mix(counter);
    }
  }

  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  std::uint64_t state_[4];
};

// Where an energy falls on the grid, and the cross sections there.
struct EnergyPoint {
  std::size_t group = 0;  // lower neighbour i
  double fraction = 0.0;  // f in [0, 1]
  double total_per_cm = 0.0;
  double photoelectric_per_cm = 0.0;
};

// Read-only view of checked tables.
class TableView {
 public:
  explicit TableView(const PhotonTables& tables) : problem_(tables.problem) {
    validate(problem_);
    const std::size_t expected = table_size(problem_);
    if (tables.values.size() != expected)
      throw std::invalid_argument(
          fmt::format("PhotonTables.values has {} values, expected {} for energy_groups = {} and angle_points = {}",
                      tables.values.size(), expected, problem_.energy_groups, problem_.angle_points));
    groups_ = problem_.energy_groups;
    angles_ = problem_.angle_points;
    log_total_ = tables.values.data();
    log_photoelectric_ = log_total_ + groups_;
    cdf_ = log_photoelectric_ + groups_;
    log_cutoff_ = std::log(problem_.cutoff_energy_MeV);
    inverse_log_step_ = static_cast<double>(groups_ - 1) / (std::log(problem_.source_energy_MeV) - log_cutoff_);
    angle_step_ = 2.0 / static_cast<double>(angles_ - 1);
  }

  const SlabProblem& problem() const { return problem_; }

  EnergyPoint locate(double energy_MeV) const {
    const double last = static_cast<double>(groups_ - 1);
    const double t = std::clamp((std::log(energy_MeV) - log_cutoff_) * inverse_log_step_, 0.0, last);
    EnergyPoint point;
    point.group = std::min(static_cast<std::size_t>(t), groups_ - 2);
    point.fraction = t - static_cast<double>(point.group);
    const std::size_t i = point.group;
    const double f = point.fraction;
    point.total_per_cm = std::exp((1.0 - f) * log_total_[i] + f * log_total_[i + 1]);
    point.photoelectric_per_cm = std::exp((1.0 - f) * log_photoelectric_[i] + f * log_photoelectric_[i + 1]);
    return point;
  }

  double sample_cosine(const EnergyPoint& point, double u_group, double u_angle) const {
    const std::size_t group = u_group < point.fraction ? point.group + 1 : point.group;
    const double* row = cdf_ + group * angles_;
    const double* above = std::upper_bound(row, row + angles_, u_angle);
    const std::size_t j = std::min(static_cast<std::size_t>(std::max<std::ptrdiff_t>(above - row - 1, 0)), angles_ - 2);
    const double width = row[j + 1] - row[j];
    const double within = width > 0.0 ? std::clamp((u_angle - row[j]) / width, 0.0, 1.0) : 0.5;
    return std::clamp(-1.0 + angle_step_ * (static_cast<double>(j) + within), -1.0, 1.0);
  }

 private:
  SlabProblem problem_;
  std::size_t groups_ = 0;
  std::size_t angles_ = 0;
  const double* log_total_ = nullptr;
  const double* log_photoelectric_ = nullptr;
  const double* cdf_ = nullptr;
  double log_cutoff_ = 0.0;
  double inverse_log_step_ = 0.0;
  double angle_step_ = 0.0;
};

}  // namespace

double scattered_direction_cosine(double u, double mu, double phi) {
  const double sines = std::sqrt(std::max(0.0, (1.0 - u * u) * (1.0 - mu * mu)));
  return std::clamp(u * mu + sines * std::cos(phi), -1.0, 1.0);
}

namespace {

PhotonHistory track(const TableView& tables, std::uint64_t history, std::uint64_t seed) {
  const SlabProblem& problem = tables.problem();
  HistoryStream stream(seed, history);
  double x = 0.0;
  double u = 1.0;
  double energy = problem.source_energy_MeV;
  PhotonHistory result;
  for (;;) {
    const EnergyPoint point = tables.locate(energy);
    x += -std::log1p(-stream.uniform()) / point.total_per_cm * u;
    if (x >= problem.thickness_cm) {
      result.fate = PhotonFate::transmitted;
      return result;
    }
    if (x < 0.0) {
      result.fate = PhotonFate::reflected;
      return result;
    }
    ++result.collisions;
    if (stream.uniform() * point.total_per_cm < point.photoelectric_per_cm) break;
    const double u_group = stream.uniform();
    const double u_angle = stream.uniform();
    const double mu = tables.sample_cosine(point, u_group, u_angle);
    energy /= 1.0 + energy / electron_rest_energy_mev * (1.0 - mu);
    if (energy < problem.cutoff_energy_MeV) break;
    u = scattered_direction_cosine(u, mu, 2.0 * std::numbers::pi * stream.uniform());
  }
  result.fate = PhotonFate::absorbed;
  return result;
}

}  // namespace

PhotonCrossSections photon_cross_sections(double energy_MeV) {
  model::detail::require_positive(energy_MeV, "energy_MeV");
  PhotonCrossSections sections;
  sections.compton_per_cm = water_electrons * klein_nishina_sigma(energy_MeV / electron_rest_energy_mev);
  sections.photoelectric_per_cm =
      water_molecules * photoelectric_coefficient * water_z4 * std::pow(energy_MeV, -photoelectric_energy_exponent);
  return sections;
}

PhotonTables prepare_photon_tables(const SlabProblem& problem) {
  validate(problem);
  const std::size_t groups = problem.energy_groups;
  const std::size_t angles = problem.angle_points;
  PhotonTables tables{problem, std::vector<double>(table_size(problem))};
  double* log_total = tables.values.data();
  double* log_photoelectric = log_total + groups;
  double* cdf = log_photoelectric + groups;

  const double log_cutoff = std::log(problem.cutoff_energy_MeV);
  const double log_step = (std::log(problem.source_energy_MeV) - log_cutoff) / static_cast<double>(groups - 1);
  const double angle_step = 2.0 / static_cast<double>(angles - 1);
  for (std::size_t g = 0; g < groups; ++g) {
    const double energy = g == 0            ? problem.cutoff_energy_MeV
                          : g + 1 == groups ? problem.source_energy_MeV
                                            : std::exp(log_cutoff + log_step * static_cast<double>(g));
    const PhotonCrossSections sections = photon_cross_sections(energy);
    log_total[g] = std::log(sections.total_per_cm());
    log_photoelectric[g] = std::log(sections.photoelectric_per_cm);

    const double k = energy / electron_rest_energy_mev;
    double* row = cdf + g * angles;
    double previous = klein_nishina_density(k, -1.0);
    row[0] = 0.0;
    for (std::size_t j = 1; j < angles; ++j) {
      const double density = klein_nishina_density(k, -1.0 + angle_step * static_cast<double>(j));
      row[j] = row[j - 1] + 0.5 * angle_step * (previous + density);
      previous = density;
    }
    const double norm = 1.0 / row[angles - 1];
    for (std::size_t j = 1; j + 1 < angles; ++j) row[j] *= norm;
    row[angles - 1] = 1.0;
  }
  return tables;
}

PhotonTally& PhotonTally::operator+=(const PhotonTally& other) {
  histories += other.histories;
  transmitted += other.transmitted;
  reflected += other.reflected;
  absorbed += other.absorbed;
  collisions += other.collisions;
  return *this;
}

double sample_scattering_cosine(const PhotonTables& tables, double energy_MeV, double u_group, double u_angle) {
  model::detail::require_positive(energy_MeV, "energy_MeV");
  const TableView view(tables);
  return view.sample_cosine(view.locate(energy_MeV), u_group, u_angle);
}

PhotonHistory track_photon(const PhotonTables& tables, std::uint64_t history, std::uint64_t seed) {
  return track(TableView(tables), history, seed);
}

PhotonTally transport_photons(const PhotonTables& tables, std::uint64_t first, std::uint64_t count,
                              std::uint64_t seed) {
  const TableView view(tables);
  if (count > std::numeric_limits<std::uint64_t>::max() - first)
    throw std::invalid_argument(
        fmt::format("histories [first, first + count) must not pass 2^64, got first = {}, count = {}", first, count));
  PhotonTally tally;
  tally.histories = count;
  for (std::uint64_t n = 0; n < count; ++n) {
    const PhotonHistory history = track(view, first + n, seed);
    tally.collisions += history.collisions;
    switch (history.fate) {
      case PhotonFate::transmitted:
        ++tally.transmitted;
        break;
      case PhotonFate::reflected:
        ++tally.reflected;
        break;
      case PhotonFate::absorbed:
        ++tally.absorbed;
        break;
    }
  }
  return tally;
}

}  // namespace hetscale::programs::kernels
