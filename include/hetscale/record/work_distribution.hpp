#pragma once
// How a kernel run shared its work: what `hetscale kernel` and `scale sweep`
// write in a run record's context as "distribution" ("marked": in proportion
// to the marked speeds, Chen et al. 2008; "fpm:MODEL": by a functional
// performance model's partition, docs/partitioning.md) and
// "distribution_shares" (the marked speeds in Mflop/s, or each rank's rows).
#include <optional>
#include <string>
#include <vector>

namespace hetscale {

struct WorkDistribution {
  std::string name;            // "marked" or "fpm:MODEL"
  std::vector<double> shares;  // per rank, as written (empty when the context has none)

  // The model file of an "fpm:" distribution; empty for any other.
  std::string model_path() const;
  // One line for people: "the marked speeds (Mflop/s): 3338, 1393" or
  // "the functional performance model M (rows): 792, 444, 264".
  std::string describe() const;
};

}  // namespace hetscale
