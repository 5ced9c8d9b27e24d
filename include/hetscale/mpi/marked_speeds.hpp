#pragma once
// Where the processes' marked speeds (Chen et al. 2008 Definition 1) come from for a
// kernel or a sweep on MPI: a platform file, a list, or (neither) a
// measurement on every rank just before the run (in the simulator: the
// simulated hosts' speeds). mpi.h stays private to the .cpp file.
#include <string>
#include <vector>

#include "hetscale/measure/speed_benchmark.hpp"
#include "hetscale/platform/platform.hpp"

namespace hetscale::mpi {

struct MarkedSpeedOptions {
  std::string platform;  // --marked: a platform file with one marked speed per rank
  std::string list;      // --marked-speeds: Mflop/s, one per rank (a number list, or @FILE)
  double seconds = 0.1;  // --speed-seconds: per benchmark kernel when measured
};

// The marked speeds given, one per rank of `ranks`, or none (to be measured).
// No MPI: every rank makes the same checks. InputError naming the setting
// (marked, marked-speeds, speed-seconds: the command line's option words) or
// the file: both sources given, a number or speed that is not > 0, a
// platform of relative speeds, not one speed per rank, seconds outside (0, 60].
std::vector<double> given_marked_speeds(const MarkedSpeedOptions& options, int ranks);

// The marked speeds of a run: `given` when there are any, else every rank's
// own, measured with the ranks of a host one at a time (measure_marked_speeds,
// as a node of relative speed emulated[rank], 1 when `emulated` is empty,
// `seconds` per benchmark kernel).
// Every rank gets them. Collective when measuring.
std::vector<double> marked_speeds_for_run(std::vector<double> given, const std::vector<double>& emulated,
                                          double seconds);

// The platform `hetscale bench speed` writes from every rank's measurement
// (measure_marked_speeds): one node per rank, named HOST:RANK, its marked
// speed in Mflop/s; `description` says how they were measured, at the
// relative speeds `emulated` (empty: none emulated).
struct MeasuredPlatform {
  Platform platform;
  std::string description;
  std::vector<std::vector<double>> kernel_mflops;  // per rank: the elimination, dgemm and fft kernels'
};
MeasuredPlatform measured_speed_platform(const std::vector<measure::SpeedMeasurement>& measured,
                                         const std::vector<double>& emulated, const std::string& name);

}  // namespace hetscale::mpi
