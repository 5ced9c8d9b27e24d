// Chen et al. 2008's matrix multiplication on every MPI rank, the rows shared
// evenly, the product checked on rank 0 (Freivalds' test).
//
//   mpiexec -np 2 distributed_kernel
//
// Built against an installed hetscale (tests/install/consumer):
//   find_package(hetscale REQUIRED)
//   target_link_libraries(distributed_kernel PRIVATE hetscale::mpi)
#include <cstdio>
#include <stdexcept>

#include "hetscale/mpi/farm.hpp"
#include "hetscale/mpi/kernels.hpp"

int main(int argc, char** argv) {
  using namespace hetscale;
  mpi::MpiSession session(argc, argv);
  mpi::KernelOptions options;
  options.kernel = mpi::KernelKind::matrix_multiplication;
  options.size = 96;
  try {
    if (argc > 1) throw std::invalid_argument("usage: mpiexec -np N distributed_kernel (no arguments)");
    mpi::validate_kernel_options(options, session.size());
  } catch (const std::invalid_argument& error) {
    if (session.rank() == 0) std::fprintf(stderr, "distributed_kernel: %s\n", error.what());
    return 2;
  }
  const auto run = mpi::run_kernel(options);
  if (session.rank() != 0) return 0;
  std::printf("mm, N %zu, %d ranks: check %s (%s)\n", options.size, session.size(),
              run->check.passed ? "passed" : "FAILED", run->check.quantity.c_str());
  return run->check.passed ? 0 : 1;
}
