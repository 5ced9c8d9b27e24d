#include "hetscale/measure/rank_timeline.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hetscale::measure {

RankTimes rank_timeline(const std::vector<ThreadTimes>& threads, double elapsed) {
  if (!std::isfinite(elapsed) || elapsed < 0.0)
    throw std::invalid_argument("rank_timeline: elapsed " + std::to_string(elapsed) + " must be finite and >= 0");
  RankTimes rank;
  if (threads.empty()) {
    rank.blocked = elapsed;
    return rank;
  }
  rank.any_thread = true;
  const ThreadTimes* busiest = &threads.front();
  const ThreadTimes* in_mpi = nullptr;
  for (std::size_t k = 0; k < threads.size(); ++k) {
    const auto& thread = threads[k];
    if (thread.computation() > busiest->computation()) {
      busiest = &thread;
      rank.busiest_thread = k;
    }
    if (thread.calls_mpi && (!in_mpi || thread.in_mpi() > in_mpi->in_mpi())) in_mpi = &thread;
  }
  // The computation and its wait for a CPU, never more than the elapsed time.
  const double computing = busiest->computation() + busiest->other;
  const double fit = computing > elapsed && computing > 0.0 ? elapsed / computing : 1.0;
  rank.on_cpu = busiest->on_cpu * fit;
  rank.held = busiest->held * fit;
  rank.other = busiest->other * fit;
  // MPI only while no thread computes.
  const double room = std::max(0.0, elapsed - rank.t_comp() - rank.other);
  if (in_mpi && in_mpi->in_mpi() > 0.0) {
    const double cut = std::min(1.0, room / in_mpi->in_mpi());
    rank.setup = in_mpi->setup * cut;
    rank.comm = in_mpi->comm * cut;
    rank.idle = in_mpi->idle * cut;
  }
  rank.blocked = std::max(0.0, room - rank.setup - rank.comm - rank.idle);
  return rank;
}

}  // namespace hetscale::measure
