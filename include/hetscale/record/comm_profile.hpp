#pragma once
// A machine's communication profile: what `hetscale bench comm` measured, the
// least-squares fits of Chen et al. 2008 Section 4.5's forms, and the resulting
// model::CommunicationCosts used by `hetscale scale predict`. JSON schema
// "hetscale.comm-profile/1" (docs/formats.md), all times in seconds:
//
// {
//   "schema": "hetscale.comm-profile/1",
//   "label": "...",
//   "costs": {
//     "broadcast": { "intercept": a, "per_process": b },     T_bcast = a + b p
//     "send":      { "intercept": a, "per_element": b },     T_send = a + b N (doubles)
//     "receive":   { "intercept": a, "per_element": b },
//     "barrier":   { "per_process": c },                     T_barrier = c p
//     "unit_computation": t_c,                              seconds per unit of work
//     "reference_marked_speed": C_ref                       optional, Mflop/s
//   },
//   "fits": { "broadcast": { "r_squared": ..., "points": ... }, ... },   optional
//   "structures": {                                                       optional
//     "multiphase": { "M": .., "N": .., "R": .., "Q": .., "r_squared": .., "points": .. },
//     "shift":      { "N": .., "Q": .., "r_squared": .., "points": .. },
//     "broadcast": {...}, "scatter": {...}, "gather": {...}
//   },
//   "samples": [ { "operation": "broadcast", "processes": 4, "elements": 1000,
//                  "seconds": 1.2e-5, "repetitions": 200 }, ... ],        optional
//   "context": { ... }                                                    optional
// }
//
// A profile with only "costs" is valid: data/papers/seed001-section45.json
// holds the paper's own Section 4.5 parameters in this form.
//
// "structures" holds Stage-GA's five communication structures (Section D,
// Table II): t(d, p) = f1(p) d + f2(p) for d doubles per processor among p
// processes, f1(p) = M p + N and f2(p) = R p + Q (shift: f1 = N, f2 = Q). M
// and N are seconds per double, R and Q seconds; r_squared and points are
// optional (a profile written by hand may give the parameters only).
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/io/provenance.hpp"
#include "hetscale/model/communication.hpp"
#include "hetscale/model/parallel_code.hpp"

namespace hetscale {

struct CommSample {
  std::string operation;  // "broadcast", "send", "receive", "barrier", "compute", or a structure:
                          // "multiphase", "shift", "scatter", "gather" (broadcast is shared)
  std::size_t processes = 0;
  double elements = 0.0;  // doubles per message, per processor for a structure (0 for a barrier)
  double seconds = 0.0;   // time of one operation (median of the repetitions)
  std::size_t repetitions = 0;
};

struct CommFitQuality {
  std::string operation;
  double r_squared = 0.0;
  std::size_t points = 0;
};

// Stage-GA's communication structures, in the order of Table II's text.
inline constexpr std::array<std::string_view, 5> communication_structures{"multiphase", "shift", "broadcast", "scatter",
                                                                          "gather"};

// One structure's fitted costs (paper notation: m = M, n = N, r = R, q = Q).
struct StructureCosts {
  std::string structure;  // one of communication_structures
  double m = 0.0;         // seconds per double per process (0 for shift)
  double n = 0.0;         // seconds per double
  double r = 0.0;         // seconds per process (0 for shift)
  double q = 0.0;         // seconds
  std::optional<double> r_squared;
  std::size_t points = 0;  // samples fitted; 0 when not given

  double f1(double processes) const { return model::structure_term(m, n, processes); }
  double f2(double processes) const { return model::structure_term(r, q, processes); }
  // Predicted seconds for `elements` doubles per processor among `processes` (Stage-GA, Eq 3).
  double seconds(double elements, double processes) const {
    return model::stage_communication_time(f1(processes), f2(processes), elements);
  }
};

struct CommProfile {
  inline static constexpr std::string_view schema = "hetscale.comm-profile/1";
  std::string source;
  std::string label;
  model::CommunicationCosts costs;
  std::vector<CommFitQuality> fits;
  std::vector<CommSample> samples;
  std::vector<StructureCosts> structures;  // in the order of communication_structures; empty if not measured
  io::Provenance context;  // where and how it was measured
};

// The costs of structure `name` (one of communication_structures) in
// `profile`; InputError(profile.source, "structures.NAME", ...) when the
// profile lacks it, std::invalid_argument when `name` is no structure.
const StructureCosts& structure_costs(const CommProfile& profile, std::string_view name);

CommProfile parse_comm_profile(std::string_view text, const std::string& source);
CommProfile read_comm_profile(const std::string& path);
std::string comm_profile_json(const CommProfile& profile);

}  // namespace hetscale
