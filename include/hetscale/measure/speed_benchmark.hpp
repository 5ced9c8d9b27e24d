#pragma once
// Marked speed (Chen et al. 2008, Definition 1 and Section 4.3): the sustained speed
// of one process on a fixed set of benchmark kernels, the project's own
// (Chen et al. 2008 used the NAS Parallel Benchmarks): a dense kernel (the Gaussian
// elimination row update, and BLAS dgemm) and an FFT kernel (FFTW). The marked
// speed is the average of the kernels' speeds, as the paper averaged its
// benchmarks. No MPI here: `hetscale bench speed` runs this on every rank at
// once.
#include <vector>

namespace hetscale::measure {

struct KernelSpeed {
  const char* kernel = "";  // "elimination", "dgemm", "fft"
  double mflops = 0.0;      // flop counted by the kernel's formula / elapsed time
  double seconds = 0.0;     // time measured
};

struct SpeedMeasurement {
  std::vector<KernelSpeed> kernels;
  double marked_mflops = 0.0;             // the average of the kernels' speeds
  double unit_computation_seconds = 0.0;  // t_c: seconds per flop of the elimination row update
};

// Runs each kernel for about `seconds_per_kernel` on this process, as a node of
// relative speed `emulated_speed` (<= 1: the process sleeps (1/v - 1) times
// the CPU time it computed). Throws std::invalid_argument for a speed outside
// (0, 1] or a non-positive time.
SpeedMeasurement measure_local_speed(double emulated_speed, double seconds_per_kernel);

}  // namespace hetscale::measure
