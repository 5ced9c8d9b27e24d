#include "hetscale/measure/run_queue_split.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace hetscale::measure {

RunQueueSplit::RunQueueSplit(std::vector<bool> works_on_cpu)
    : works_on_cpu_(std::move(works_on_cpu)),
      pending_(works_on_cpu_.size(), 0.0),
      kept_(works_on_cpu_.size(), 0.0) {}

void RunQueueSplit::add(std::size_t activity, double time) {
  if (activity >= pending_.size())
    throw std::invalid_argument("RunQueueSplit::add: activity " + std::to_string(activity) + " of " +
                                std::to_string(pending_.size()));
  pending_[activity] += time;
}

double RunQueueSplit::pending() const { return std::accumulate(pending_.begin(), pending_.end(), 0.0); }

void RunQueueSplit::found(double delay) {
  const double interval = pending();
  const double waited = std::clamp(delay, 0.0, interval);
  for (std::size_t a = 0; a < pending_.size(); ++a) {
    const double share = interval > 0.0 ? waited * pending_[a] / interval : 0.0;
    const double lost = works_on_cpu_[a] ? share : 0.0;
    kept_[a] += pending_[a] - lost;
    other_load_ += lost;
    pending_[a] = 0.0;
  }
}

}  // namespace hetscale::measure
