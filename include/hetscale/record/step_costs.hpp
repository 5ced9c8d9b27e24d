#pragma once
// What a step of Gaussian elimination costs beyond its computation on one
// configuration, measured at several row lengths by `hetscale bench steps`
// (mpi/step_benchmark.hpp): the file `hetscale.step-costs/1`, read by
// `hetscale scale predict --step-costs` (docs/scalability.md).
#include <string>
#include <string_view>
#include <vector>

namespace hetscale {

struct StepCost {
  double length = 0.0;               // L: the row length (the elimination's remaining size)
  double step_seconds = 0.0;         // mean time of one step
  double computation_seconds = 0.0;  // mean over steps of the slowest rank's CPU time / emulated speed
  double overhead_seconds = 0.0;     // step - computation
};

struct StepCosts {
  inline static constexpr std::string_view schema = "hetscale.step-costs/1";
  std::string source;  // where it was read from, for messages
  int ranks = 0;
  std::size_t steps = 0;                // timed steps per length
  std::vector<double> emulated_speeds;  // per rank (empty: all 1)
  std::vector<double> marked_speeds;    // per rank: the rows' shares (empty: equal)
  std::vector<StepCost> costs;          // lengths increasing
};

// Throws io::InputError naming the source and field: no costs, lengths that
// are not whole numbers >= 1 increasing, times that are not finite or below 0,
// ranks < 1.
StepCosts parse_step_costs_json(std::string_view text, const std::string& source);
StepCosts read_step_costs(const std::string& path);
std::string step_costs_json(const StepCosts& costs);

}  // namespace hetscale
