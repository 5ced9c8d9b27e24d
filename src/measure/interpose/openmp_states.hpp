#pragma once
// A rank's OpenMP threads in POP's states, from the OpenMP runtime's tool
// interface (OMPT: LLVM's libomp starts the tool this library exports, and
// calls it as teams begin and end and as threads wait at barriers). Each
// thread's time is split by its own clock (thread_clock.hpp): useful is its
// time on a CPU computing in a parallel region; its waits at the region's
// barriers are OpenMP time, split as DLB TALP splits them: the part every
// thread of the team waited (the least thread's wait, times the team) is
// scheduling, the rest load imbalance. Outside parallel regions the
// MPI-calling thread's own times (accounting.hpp) stand for the team: its
// computation is useful, and the other threads, idle meanwhile, are
// serialization; its MPI calls are MPI time for every thread of the team
// (TALP books the idle threads' time then as serialization too: here it is
// the MPI's). Waits for a CPU are other load, in no factor. Under
// --emulate-thread-speeds each thread is held back in the regions to its
// number's speed, at its barrier waits.
#include <cstddef>
#include <vector>

#include "hetscale/measure/rank_timeline.hpp"

namespace hetscale::interpose {

// Seconds summed over the rank's team (the largest team of its outermost
// parallel regions; 0: the runtime started no tool, or no region ran), and
// the MPI-calling thread's time in those regions.
struct OpenMpTotals {
  double team = 0.0, useful = 0.0, mpi = 0.0, imbalance = 0.0, scheduling = 0.0, serialization = 0.0, other = 0.0;
  double in_regions = 0.0;
};

// The rank's OpenMP totals at the end of the run, given its MPI-calling
// thread's kernel id and own times then (ticks; thread_totals.hpp's
// own_times), and the tick's length. That thread's time in parallel regions
// (computation, as the rank's timeline counts it) is told apart by its
// OpenMP clock; MPI calls are taken to be made outside them.
OpenMpTotals openmp_totals(int calling_thread, const measure::ThreadTimes& whole_run, double seconds_per_tick);

// The runtime's threads that worked in the counted regions, four values
// each: the thread's number in its team, its emulated speed (1: none, or
// past --emulate-thread-speeds' list), its work in the regions (on a CPU or
// blocked, s) and the time it was held back to its speed (s; work + held is
// its useful time). A number may come twice (two threads took it in turn).
std::vector<double> openmp_thread_rows(double seconds_per_tick);
constexpr std::size_t openmp_thread_values = 4;

}  // namespace hetscale::interpose
