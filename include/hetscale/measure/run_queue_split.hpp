#pragma once
// Where a rank's run-queue delay goes, for the farm's and the kernels' own
// clock (measure::RankClock). hetscale measure's interposition library reads
// each thread's delay exactly instead, at the boundaries where the thread
// left its CPU (interpose/thread_clock.hpp); both keep the same rule for
// where the delay belongs, so their run records mean the same thing
// (docs/measure.md).
//
// The delay is read now and then (it is a counter of the process); the delay
// found since the last read is shared by the activities of that interval in
// proportion to their time, and is at most the interval. The share of an
// activity that works on the CPU (computation, the run's own set-up work) is
// other load, Clematis-Corana 1999's t_other, and comes out of that activity;
// the share of an activity that waits (for a partner, for a message, inside
// an MPI call that spins) stays in it: a wait that was descheduled was still
// a wait, and would have lasted as long.
#include <cstddef>
#include <vector>

namespace hetscale::measure {

class RunQueueSplit {
 public:
  // One flag per activity: true when its share of the delay is other load.
  explicit RunQueueSplit(std::vector<bool> works_on_cpu);

  // `time` more of `activity` in the current interval (any unit, the same as
  // the delay's).
  void add(std::size_t activity, double time);
  // Closes the interval with the delay found in it (negative counts as 0).
  void found(double delay);

  // Each activity's time in closed intervals, its other load taken out.
  const std::vector<double>& kept() const { return kept_; }
  // The other load of the closed intervals.
  double other_load() const { return other_load_; }
  // Time added since the last found(), all activities.
  double pending() const;

 private:
  std::vector<bool> works_on_cpu_;
  std::vector<double> pending_, kept_;
  double other_load_ = 0.0;
};

}  // namespace hetscale::measure
