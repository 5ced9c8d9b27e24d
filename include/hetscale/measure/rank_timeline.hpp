#pragma once
// A rank is one timeline, not the sum of its threads (docs/measure.md, "A
// rank of several threads"). Each thread of a measured rank has its own exact
// breakdown: the threads that call MPI split into their computation (on-CPU,
// held back by an emulated speed, waiting for a CPU, blocked) and their time
// in MPI calls; the threads that never call MPI (a worker, OpenMP's pool) are
// all computation (on-CPU, or waiting for a CPU). The rank's parts are:
//  - computing while its busiest thread computes: t_comp is the largest
//    computation of any thread (on-CPU plus held back), t_other that thread's
//    wait for a CPU (threads that share the work run side by side, so the
//    rank's computation ends with its busiest thread's);
//  - in MPI only while no thread computes: the MPI parts of the thread with
//    the most MPI time, cut to the time the computation leaves (an MPI call
//    made while another thread computes is overlapped, not lost);
//  - blocked: the rest of the rank's elapsed time (no thread computing or in
//    MPI: sleeping, reading a file, waiting for a thread).
// The parts add up to the elapsed time whatever the threads do; a rank of one
// thread gets that thread's own breakdown.
#include <cstddef>
#include <vector>

namespace hetscale::measure {

// One thread's times over an interval, any one unit.
struct ThreadTimes {
  bool calls_mpi = false;
  double on_cpu = 0.0;   // computation on a CPU
  double held = 0.0;     // computation held back to an emulated speed
  double other = 0.0;    // computation waiting for a CPU (run-queue delay)
  double blocked = 0.0;  // outside MPI, not ready to run (sleeping, I/O, joining)
  double setup = 0.0, comm = 0.0, idle = 0.0;  // in MPI calls

  double computation() const { return on_cpu + held; }
  double in_mpi() const { return setup + comm + idle; }
};

struct RankTimes {
  double on_cpu = 0.0, held = 0.0, other = 0.0, blocked = 0.0, setup = 0.0, comm = 0.0, idle = 0.0;
  std::size_t busiest_thread = 0;  // whose computation is the rank's (index into the threads)
  bool any_thread = false;

  double t_comp() const { return on_cpu + held; }
};

// The rank's parts over `elapsed` (>= 0) from its threads' (docs above).
// Throws std::invalid_argument for a negative or non-finite elapsed time.
RankTimes rank_timeline(const std::vector<ThreadTimes>& threads, double elapsed);

}  // namespace hetscale::measure
