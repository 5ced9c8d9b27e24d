#pragma once
// One point of a node's functional performance model: the speed of a share
// of `size` units of a workload on this process, timed until the 95 %
// confidence interval of the mean time is within a set precision (as
// FuPerMod's benchmark repeats its points), with the other load the process
// met meanwhile (run-queue delay from /proc/self/schedstat). No MPI here:
// `hetscale bench fpm` runs it on every rank, one at a time or all at once.
#include <cstddef>
#include <functional>
#include <string>

#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/model/speed_function.hpp"

namespace hetscale::measure {

// The work of a share of `size` units, done once on `processor`: each piece
// the kernel's process computes between two messages goes through
// processor.compute, so that an emulated node sleeps after each piece as it
// does in the kernel (ge: after each elimination step).
using ShareWorkload = std::function<void(std::size_t size, EmulatedProcessor& processor)>;

// A kernel's local computation on a share of `size` rows of an order-N
// problem, data made once for shares up to `largest_size`:
//   ge:   the share's rows, spread evenly over the matrix, through every
//         step of the elimination (each step updates the rows below the
//         pivot with its part of the pivot row, BLAS daxpy), as the kernel's
//         process does them: (2/3) size N^2 flops;
//   mm:   the share's rows of C = A B, A size x N, B N x N (BLAS dgemm);
//   conv: forward FFTs of the share's rows of N points (FFTW).
// Or `command:PROGRAM`: PROGRAM run by /bin/sh with {size} replaced by the
// size (a non-zero exit is std::invalid_argument naming the command).
// std::invalid_argument for another name, N = 0 or a command without {size}.
ShareWorkload share_workload(const std::string& kernel, std::size_t order, std::size_t largest_size);

// A command: kernel's text with every `field` ("{size}", "{device}") replaced by `value`.
std::string with_field(std::string text, const std::string& field, const std::string& value);

struct PointPrecision {
  double relative_half_width = 0.05;  // of the mean time's 95 % confidence interval
  std::size_t min_repetitions = 3, max_repetitions = 30;
  double max_seconds = 10.0;  // per point: no more repetitions begun past it
};

struct MeasuredPoint {
  model::SpeedPoint point;  // size, speed (units/s), interval (the confidence interval's half-width, units/s)
  std::size_t repetitions = 0;
  double other_load = 0.0;  // run-queue delay / elapsed time while measuring, 0 .. 1
  bool precise = false;     // the interval reached the precision
  double cpu_seconds = 0.0;   // the computations' CPU time (this thread's and its waited-for children's)
  double held_seconds = 0.0;  // the time they were held back to the emulated speed
};

// Times `work` on shares of `size` as a node of relative speed
// `emulated_speed` (<= 1: sleeps (1/v - 1) times the CPU time computed). A
// repetition shorter than 2 ms groups several calls. std::invalid_argument
// for size 0, a speed outside (0, 1] or a precision that is not > 0.
MeasuredPoint measure_speed_point(const ShareWorkload& work, std::size_t size, double emulated_speed,
                                  const PointPrecision& precision);

// Student's t for a two-sided 95 % interval with `degrees` degrees of freedom (>= 1).
double student_t_95(std::size_t degrees);

}  // namespace hetscale::measure
