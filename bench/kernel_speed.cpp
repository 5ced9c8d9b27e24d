// The scalability kernels' achieved speed on one process, against the speed
// of BLAS dgemm on one core, measured in the same run (this machine is shared
// and noisy: only ratios within one run are compared).
//
//   kernel_speed [N]    (default 1024; run directly or under mpiexec -n 1)
//
// For each kernel (best of three runs, as for dgemm): W(N) / T for the whole run (Chen et al. 2008's workload over the
// elapsed time, data distribution and collection included), and the local
// computation's own rate (the flops it counted over its computation time).
// The local work of matrix multiplication is dgemm itself, so its rate should
// be dgemm's: the ratio printed is the check.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <cstdlib>
#include <string>

#include <fmt/core.h>

#include "hetscale/programs/kernels/dense.hpp"
#include "hetscale/mpi/kernels.hpp"
#include "hetscale/measure/speed_benchmark.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1024;
  using namespace hetscale::mpi;
  using hetscale::measure::measure_local_speed;
  namespace kernels = hetscale::programs::kernels;
  kernels::use_single_threaded_blas();

  // dgemm on one core at the kernels' size, the reference.
  const auto a = kernels::generate_matrix(n, n, 1), b = kernels::generate_matrix(n, n, 2);
  std::vector<double> c(n * n);
  double dgemm_seconds = 1e300;
  for (int repetition = 0; repetition < 3; ++repetition) {
    const double start = MPI_Wtime();
    kernels::multiply(a, b, c, n, n, n);
    dgemm_seconds = std::min(dgemm_seconds, MPI_Wtime() - start);
  }
  const double dgemm_mflops =
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / dgemm_seconds / 1e6;
  const auto marked = measure_local_speed(1.0, 0.3);

  std::printf("Kernels on one process, N = %zu, against BLAS dgemm on one core (%.0f Mflop/s at N = %zu)\n\n", n,
              dgemm_mflops, n);
  std::printf(
      "| kernel | W(N) / T (Mflop/s) | local computation (Mflop/s) | local / dgemm | W / T / dgemm | check |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const auto kind :
       {KernelKind::gaussian_elimination, KernelKind::matrix_multiplication, KernelKind::convolution}) {
    KernelOptions options;
    options.kernel = kind;
    options.size = n;
    options.marked_speeds = {marked.marked_mflops};
    // Best of three runs, as for dgemm.
    std::optional<KernelRun> run;
    double whole = 0.0, local = 0.0;
    for (int repetition = 0; repetition < 3; ++repetition) {
      run = run_kernel(options);
      const auto& node = run->record.nodes.front();
      whole = std::max(whole, run->point.work / run->point.seconds / 1e6);
      local = std::max(local, node.work / node.t_comp / 1e6);
    }
    std::printf("| %s | %.0f | %.0f | %.2f | %.2f | %s |\n", to_string(kind).c_str(), whole, local,
                local / dgemm_mflops, whole / dgemm_mflops, run->check.passed ? "passed" : "FAILED");
  }
  std::printf("\nmarked speed of this process (elimination, dgemm, fft average): %.0f Mflop/s\n", marked.marked_mflops);
  MPI_Finalize();
  return 0;
}
