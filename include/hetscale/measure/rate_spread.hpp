#pragma once
// How steady a rank's computation rate was (docs/measure.md, "The verdict on
// the split"). A measured run's work shares come from its computation times,
// read as work at the nodes' speeds; where cores are shared or other load
// runs, the same work takes more or less CPU time from one moment to the
// next, and the shares are known only as well as the rate is steady.
// hetscale measures it without knowing the work: an iterative program's
// computation segments that end at the same MPI call are, most of them, the
// same step, so their spread around their mean is the rate's. The spread is
// the segments' standard deviation around their group's mean relative to
// their size, sqrt(sum of squared deviations / sum of squares), so a group of
// tiny segments (between two back-to-back calls) weighs nothing. A group's
// first segment is left out: it holds the program's start (allocation, first
// touch of its memory), not a step.
#include <cstddef>
#include <vector>

namespace hetscale::measure {

// The groups' running means (Welford's update); what each segment adds to
// the two sums is returned, so a thread can keep the sums where others read
// them.
class SegmentGroups {
 public:
  explicit SegmentGroups(std::size_t groups) : count_(groups, -1.0), mean_(groups, 0.0) {}

  struct Added {
    double deviation;  // to the sum of squared deviations from the group's mean
    double magnitude;  // to the sum of squares
  };
  // A segment of `size` (>= 0, any unit) in `group` (< groups, else ignored).
  Added add(std::size_t group, double size) {
    if (group >= count_.size()) return {0.0, 0.0};
    if (count_[group] < 0.0) {  // the first: left out
      count_[group] = 0.0;
      return {0.0, 0.0};
    }
    const double before = size - mean_[group];
    count_[group] += 1.0;
    mean_[group] += before / count_[group];
    return {before * (size - mean_[group]), size * size};
  }

 private:
  std::vector<double> count_, mean_;  // count -1: none seen yet
};

// sqrt(deviation / magnitude), in [0, 1]; 0 when nothing was added.
double rate_spread(double deviation, double magnitude);

}  // namespace hetscale::measure
