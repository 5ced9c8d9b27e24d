#pragma once
// Monte Carlo photon transport through a slab: seed 002's application class
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

namespace hetscale::run::kernels {

struct SlabProblem {
  double thickness_cm = 3.0;           // slab thickness; photons enter at x = 0 along +x
  double source_energy_MeV = 1.0;      // energy of the incident photons
  double cutoff_energy_MeV = 0.01;     // below it a photon is absorbed
  std::size_t energy_groups = 200;     // energy grid of the tabulated data
  std::size_t angle_points = 2000;     // points per scattering-angle table
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

// Runs histories [first, first + count) of the stream `seed`.
PhotonTally transport_photons(const PhotonTables& tables, std::uint64_t first, std::uint64_t count,
                              std::uint64_t seed);

}  // namespace hetscale::run::kernels
