#pragma once
// What a kernel's step costs beyond its computation on one configuration,
// measured at several sizes by `hetscale bench steps` (mpi/step_benchmark.hpp):
// ge's elimination step at row lengths L, or mm's whole product (one step:
// A's rows and B sent, the rows of C computed and gathered) at orders N. The
// file `hetscale.step-costs/1`, read by `hetscale scale predict --step-costs`
// (docs/scalability.md).
#include <string>
#include <string_view>
#include <vector>

namespace hetscale {

struct StepCost {
  double length = 0.0;               // ge: L, the row length (the remaining size); mm: N, the order
  double step_seconds = 0.0;         // mean time of one step
  double computation_seconds = 0.0;  // mean over steps of the slowest rank's CPU time / emulated speed
  double overhead_seconds = 0.0;     // step - computation
};

struct StepCosts {
  inline static constexpr std::string_view schema = "hetscale.step-costs/1";
  std::string source;         // where it was read from, for messages
  std::string kernel = "ge";  // ge or mm (a file without the key: ge)
  int ranks = 0;
  std::size_t steps = 0;                // timed steps per size
  std::size_t fastest_of = 1;           // mm: the costs are medians of each this many steps' fastest
  std::vector<double> emulated_speeds;  // per rank (empty: all 1)
  std::vector<double> marked_speeds;    // per rank: the rows' shares (empty: equal)
  std::vector<StepCost> costs;          // lengths increasing
};

// Throws io::InputError naming the source and field: no costs, lengths that
// are not whole numbers >= 1 increasing, a kernel other than ge or mm, times that are not finite or below 0,
// ranks < 1.
StepCosts parse_step_costs_json(std::string_view text, const std::string& source);
StepCosts read_step_costs(const std::string& path);
std::string step_costs_json(const StepCosts& costs);

}  // namespace hetscale
