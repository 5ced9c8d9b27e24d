#pragma once
// A machine's communication profile: what `hetscale bench comm` measured, the
// least-squares fits of seed 001 Section 4.5's forms, and the resulting
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
//   "samples": [ { "operation": "broadcast", "processes": 4, "elements": 1000,
//                  "seconds": 1.2e-5, "repetitions": 200 }, ... ],        optional
//   "context": { ... }                                                    optional
// }
//
// A profile with only "costs" is valid: data/papers/seed001-section45.json
// holds the paper's own Section 4.5 parameters in this form.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/model/communication.hpp"

namespace hetscale {

struct CommSample {
  std::string operation;  // "broadcast", "send", "receive", "barrier", "compute"
  std::size_t processes = 0;
  double elements = 0.0;  // doubles per message (0 for a barrier)
  double seconds = 0.0;   // time of one operation (median of the repetitions)
  std::size_t repetitions = 0;
};

struct CommFitQuality {
  std::string operation;
  double r_squared = 0.0;
  std::size_t points = 0;
};

struct CommProfile {
  inline static constexpr std::string_view schema = "hetscale.comm-profile/1";
  std::string source;
  std::string label;
  model::CommunicationCosts costs;
  std::vector<CommFitQuality> fits;
  std::vector<CommSample> samples;
  std::string context_json = "{}";
};

CommProfile parse_comm_profile(std::string_view text, const std::string& source);
CommProfile read_comm_profile(const std::string& path);
std::string comm_profile_json(const CommProfile& profile);

}  // namespace hetscale
