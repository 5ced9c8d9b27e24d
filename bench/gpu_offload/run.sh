#!/usr/bin/env bash
# The devices measured, on a machine with an NVIDIA GPU: builds two MPI
# programs of known device work and runs each under `hetscale measure`,
# then prints analyze's device table beside what each program says of
# itself (its counts, and its own timers of kernels and copies).
#   cuda_mpi.cu: CUDA (nvcc; device work from CUPTI's activity records)
#   tests/measure/programs/offload_known.c: OpenMP target offload (clang),
#     for NVIDIA GPUs (-fopenmp-targets=nvptx64-nvidia-cuda: device work
#     from CUPTI too, the offload runtime's time from its entry points),
#     else for LLVM's host device (x86_64: device work from the host plugin)
# Without nvcc, or without a GPU, the CUDA part is skipped (said on stderr)
# and the OpenMP part runs on the host device.
#   bench/gpu_offload/run.sh [HETSCALE [RANKS]]   (build/apps/hetscale/hetscale 2)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
hetscale=${1:-$source_dir/build/apps/hetscale/hetscale}
ranks=${2:-2}
work=$(mktemp -d /tmp/gpu-offload-XXXXXX)
trap 'rm -rf "$work"' EXIT

# Runs PROGRAM ARGS... under hetscale measure; prints its own lines and analyze's device table.
measured() {
  local name=$1
  shift
  echo "== $name"
  mpiexec --oversubscribe -np "$ranks" "$hetscale" measure --out "$work/$name.json" -- "$@"
  "$hetscale" analyze "$work/$name.json" | sed -n '/^Devices/,/^$/p'
}

gpu=no
if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then gpu=yes; fi

if command -v nvcc > /dev/null && [ "$gpu" = yes ]; then
  mpi_flags=$(mpicxx --showme:compile) mpi_libs=$(mpicxx --showme:link)
  nvcc -O2 -o "$work/cuda_mpi" "$here/cuda_mpi.cu" $mpi_flags -Xlinker "${mpi_libs// /,}"
  measured cuda "$work/cuda_mpi"
else
  echo "gpu_offload: the CUDA part is skipped: $( [ "$gpu" = yes ] && echo "no nvcc" || echo "no NVIDIA GPU (nvidia-smi -L)" )" >&2
fi

target=x86_64-pc-linux-gnu
if [ "$gpu" = yes ]; then target=nvptx64-nvidia-cuda; fi
clang=$(command -v clang-14 || command -v clang)
OMPI_CC=$clang mpicc -O2 -fopenmp -fopenmp-targets=$target -I"$source_dir/tests/measure/programs" \
  "$source_dir/tests/measure/programs/offload_known.c" -o "$work/offload_known"
measured "openmp-offload-$target" "$work/offload_known" 4 1000000 0.02
