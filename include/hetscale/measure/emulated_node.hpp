#pragma once
// A node of relative speed v on this machine (APGA 2004's heterogeneous
// workers, emulated): a task of nominal cost c seconds on a node of speed 1
// takes c / v here. A synthetic objective's cost is fixed and spent sleeping;
// a real objective's cost is the CPU time its evaluation took, and the node
// sleeps the extra c / v - c.
#include <cstddef>
#include <string>

#include "hetscale/ga/genetic_algorithm.hpp"
#include "hetscale/programs/objectives.hpp"

#include "hetscale/measure/hold_back.hpp"

namespace hetscale::measure {

struct Evaluation {
  double fitness = 0.0;          // NaN when the evaluation failed
  std::string failure;           // why (programs::EvaluationFailed), else empty
  double nominal_seconds = 0.0;  // c: the cost on a node of speed 1
  double compute_seconds = 0.0;  // wall-clock time the evaluation took here
};

// `time_scale` shrinks a fixed nominal cost (synthetic objectives only).
// Throws std::invalid_argument unless speed and time_scale are finite and > 0.
Evaluation evaluate_on_emulated_node(const programs::Objective& objective, const ga::Genome& genome, double speed,
                                     double time_scale);

// A process of relative speed v in (0, 1] running real computation on this
// machine: after each computation it sleeps (1/v - 1) times the CPU time the
// computation took (its thread's, and that of the child processes it ran and
// waited for), so its computations take 1/v times as long as here; what a
// sleep overshoots (a late wake-up on a busy machine) is taken from the next
// (measure/hold_back.hpp). The MPI kernels and `bench fpm`'s workloads
// compute through one of these.
class EmulatedProcessor {
 public:
  // Throws std::invalid_argument unless 0 < speed <= 1.
  explicit EmulatedProcessor(double speed);

  template <class Work>
  void compute(Work&& work) {
    const double cpu_start = begin();
    work();
    end(cpu_start);
  }

  double speed() const { return speed_; }
  // CPU time of all computations so far (the work at speed 1), seconds.
  double cpu_seconds() const { return cpu_seconds_; }
  // How many computations so far (each followed by its sleep when v < 1).
  std::size_t computations() const { return computations_; }
  // Wall-clock seconds slept after the computations (holding them back),
  // less what was slept beyond all they owed (HoldBack::overslept).
  double held_seconds() const { return held_seconds_ - hold_back_.overslept(); }

 private:
  double begin() const;
  void end(double cpu_start);
  double speed_ = 1.0;
  HoldBack hold_back_;
  double cpu_seconds_ = 0.0;
  double held_seconds_ = 0.0;
  std::size_t computations_ = 0;
};

// Lets this process's sleeps end on time (Linux timer slack of 1 ns).
void tighten_timer_slack();

// Seconds on the monotonic clock (CLOCK_MONOTONIC), for finish_at_speed.
double monotonic_seconds();
// A task of `cpu_seconds` begun at `started` (monotonic_seconds()) on a node
// of relative speed `speed`: sleeps until cpu_seconds / speed have passed
// since then (at once if they have). Throws std::invalid_argument unless
// 0 < speed <= 1.
void finish_at_speed(double started, double cpu_seconds, double speed);

}  // namespace hetscale::measure
