#pragma once
// Monte Carlo photon transport through a slab: Majumdar 1999's application class
// (independent particle histories, a serial set-up and a final reduction, so
// that the single-processor time is tau_1 = a + b N_h). Local computation
// only: the MPI driver shares the histories out and sums the tallies.
//
// Each history draws from its own random stream, derived from (seed, history
// index) alone, so any split of the histories over processes gives the same
// tallies as one process running them all: the parallel run's check is exact
// equality with the serial reference.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hetscale::programs::kernels {

struct SlabProblem {
  double thickness_cm = 30.0;       // slab thickness; photons enter at x = 0 along +x
  double source_energy_MeV = 1.0;   // energy of the incident photons
  double cutoff_energy_MeV = 0.01;  // below it a photon is absorbed
  std::size_t energy_groups = 200;  // energy grid of the tabulated data
  std::size_t angle_points = 5000;  // points per scattering-angle table (set-up ~ energy_groups x angle_points)
};

// What the serial set-up computes (the part that does not shrink with more
// processes), flattened so it can be broadcast as doubles.
struct PhotonTables {
  SlabProblem problem;
  std::vector<double> values;  // layout private to photon_transport.cpp
};

// The serial set-up: tabulates cross sections and scattering-angle
// distributions on the energy grid. Throws std::invalid_argument for a
// non-physical problem (non-positive sizes, cutoff >= source energy, ...).
PhotonTables prepare_photon_tables(const SlabProblem& problem);

struct PhotonTally {
  std::uint64_t histories = 0;
  std::uint64_t transmitted = 0;  // left through x = thickness
  std::uint64_t reflected = 0;    // left back through x = 0
  std::uint64_t absorbed = 0;     // absorbed, or fell below the cutoff
  std::uint64_t collisions = 0;
  PhotonTally& operator+=(const PhotonTally& other);
  friend bool operator==(const PhotonTally&, const PhotonTally&) = default;
};

// Runs histories [first, first + count) of the stream `seed`. Throws
// std::invalid_argument if `tables` is not what prepare_photon_tables made for
// tables.problem (wrong size, invalid problem).
PhotonTally transport_photons(const PhotonTables& tables, std::uint64_t first, std::uint64_t count, std::uint64_t seed);

// Helpers: the physics that transport_photons uses, exposed for the tests.

// Macroscopic cross sections of the slab's material (water) at one energy,
// from the closed forms (not the tables). Throws std::invalid_argument for an
// energy that is not finite and positive.
struct PhotonCrossSections {
  double compton_per_cm = 0.0;        // Klein-Nishina per electron x electron density
  double photoelectric_per_cm = 0.0;  // C Z^4 / E^3.25 per atom x atom densities
  double total_per_cm() const { return compton_per_cm + photoelectric_per_cm; }
};
PhotonCrossSections photon_cross_sections(double energy_MeV);

// cos(theta) of a Compton scattering at `energy_MeV` (within the tables'
// energy grid, clamped to it otherwise), sampled from the tabulated
// Klein-Nishina distributions with two uniforms in [0, 1): `u_group` picks
// one of the two neighbouring energy groups, `u_angle` inverts its CDF.
double sample_scattering_cosine(const PhotonTables& tables, double energy_MeV, double u_group, double u_angle);

// The x-direction cosine after scattering a photon of x-direction cosine `u`
// through polar angle theta (mu = cos theta) and azimuth phi, phi measured
// from the plane of the old direction and the x axis:
// u' = u mu + sqrt((1 - u^2)(1 - mu^2)) cos phi, clamped to [-1, 1].
double scattered_direction_cosine(double u, double mu, double phi);

// One history, as transport_photons tallies it.
enum class PhotonFate : std::uint8_t { transmitted, reflected, absorbed };
struct PhotonHistory {
  PhotonFate fate = PhotonFate::absorbed;
  std::uint64_t collisions = 0;
};
PhotonHistory track_photon(const PhotonTables& tables, std::uint64_t history, std::uint64_t seed);

}  // namespace hetscale::programs::kernels
