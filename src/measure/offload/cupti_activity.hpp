#pragma once
// A CUDA program's devices through NVIDIA's CUPTI activity API: when a CUDA
// library (the runtime, the driver) or CUPTI itself is already loaded in the
// measured program at MPI_Init, the interposition library opens libcupti.so
// and asks it for activity records of kernels, copies and runtime API calls;
// at MPI_Finalize it flushes them and counts each as the offload plugins'
// activities are counted (offload_devices.hpp): a kernel's time is the
// device's useful time, a copy's its communication, a runtime call's the
// host in its device runtime. CUPTI is opened at run time: hetscale needs no
// CUDA toolkit to be built, and a program without CUDA never loads it.
namespace hetscale::offload {

// At MPI_Init: starts the activity records when a CUDA library is loaded
// and libcupti.so opens; false otherwise (nothing is done).
bool start_cuda_activity();
// At MPI_Finalize, before the records are written: the last records.
void flush_cuda_activity();

}  // namespace hetscale::offload
