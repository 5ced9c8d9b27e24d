// An MPI + CUDA program of known work, for `hetscale measure` on a machine
// with an NVIDIA GPU (bench/gpu_offload/run.sh): every rank, STEPS times,
// copies N floats to its device, runs a kernel that updates them REPEAT
// times (y = a x + y), and copies them back; then one kernel with no copy.
// It times itself with CUDA events (the kernels and the copies, on the
// device's own clock) and counts what it did, and rank 0 prints:
//   per rank: kernels K, copies to the device T (X bytes), from it F (Y bytes)
//   own timers: kernels S s, copies C s
//   cuda_mpi [STEPS [N [REPEAT]]]   (10 4000000 200)
#include <cuda_runtime.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void saxpy(int n, int repeat, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float value = y[i];
  for (int r = 0; r < repeat; ++r) value = a * x[i] + value;
  y[i] = value;
}

static void check(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return;
  std::fprintf(stderr, "cuda_mpi: %s: %s\n", what, cudaGetErrorString(error));
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, devices = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  check(cudaSetDevice(rank % devices), "cudaSetDevice");
  const int steps = argc > 1 ? std::atoi(argv[1]) : 10, n = argc > 2 ? std::atoi(argv[2]) : 4000000;
  const int repeat = argc > 3 ? std::atoi(argv[3]) : 200;
  std::vector<float> x(n, 1.0f), y(n, 0.0f);
  float *dx = nullptr, *dy = nullptr;
  check(cudaMalloc(&dx, sizeof(float) * n), "cudaMalloc");
  check(cudaMalloc(&dy, sizeof(float) * n), "cudaMalloc");
  cudaEvent_t marks[4];
  for (auto& mark : marks) check(cudaEventCreate(&mark), "cudaEventCreate");
  float kernels_ms = 0.0f, copies_ms = 0.0f, ms = 0.0f;
  const int threads = 256, blocks = (n + threads - 1) / threads;
  for (int step = 0; step < steps; ++step) {
    check(cudaEventRecord(marks[0]), "cudaEventRecord");
    check(cudaMemcpy(dx, x.data(), sizeof(float) * n, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(dy, y.data(), sizeof(float) * n, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaEventRecord(marks[1]), "cudaEventRecord");
    saxpy<<<blocks, threads>>>(n, repeat, 2.0f, dx, dy);
    check(cudaEventRecord(marks[2]), "cudaEventRecord");
    check(cudaMemcpy(y.data(), dy, sizeof(float) * n, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaEventRecord(marks[3]), "cudaEventRecord");
    check(cudaEventSynchronize(marks[3]), "cudaEventSynchronize");
    cudaEventElapsedTime(&ms, marks[0], marks[1]);
    copies_ms += ms;
    cudaEventElapsedTime(&ms, marks[1], marks[2]);
    kernels_ms += ms;
    cudaEventElapsedTime(&ms, marks[2], marks[3]);
    copies_ms += ms;
    double sum = y[0];
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  check(cudaEventRecord(marks[0]), "cudaEventRecord");
  saxpy<<<blocks, threads>>>(n, repeat, 2.0f, dx, dy);
  check(cudaEventRecord(marks[1]), "cudaEventRecord");
  check(cudaEventSynchronize(marks[1]), "cudaEventSynchronize");
  cudaEventElapsedTime(&ms, marks[0], marks[1]);
  kernels_ms += ms;
  if (rank == 0) {
    const long long bytes = 4LL * n;
    std::printf("per rank: kernels %d, copies to the device %d (%lld bytes), from it %d (%lld bytes)\n", steps + 1,
                2 * steps, 2 * steps * bytes, steps, steps * bytes);
    std::printf("own timers: kernels %.6f s, copies %.6f s\n", kernels_ms * 1e-3, copies_ms * 1e-3);
  }
  cudaFree(dx);
  cudaFree(dy);
  MPI_Finalize();
  return 0;
}
