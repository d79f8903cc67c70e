#!/usr/bin/env bash
# scripts/gpu/s39c.sh - session 39's third device call: what the chip and NVIDIA's tools say of this
# session's changes. (1) tests/run/atomic_race.cu under compute-sanitizer's racecheck (does it
# report a shared histogram's missing barriers, as the simulator now does in --detail?); (2)
# tests/run/fault.cu built by nvcc: does cudaGetLastError right after the faulting launch return
# cudaSuccess, and cudaDeviceSynchronize the fault (the simulator's new pending error)? (3) a cuBLAS
# call with a host pointer: its status and the next sync's error; (4) `simtlab run --mode compare
# --detail` of tests/run/ptx_cp_async.cu (the guarded `@p cp.async` kernel built by nvcc too).
#   OUT=/dir bash scripts/gpu/s39c.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s39c
gpu_outdir "$D" >/dev/null
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
R=$D/chip.txt
T=/tmp/s39c
mkdir -p $T
nvcc -O2 -arch=sm_90 -lineinfo -o $T/atomic_race tests/run/atomic_race.cu >>"$R" 2>&1
for m in all init final; do
  { echo "=== atomic_race $m: plain run"; $T/atomic_race $m; echo "rc=$?"
    echo "=== atomic_race $m: racecheck"; timeout 120 compute-sanitizer --tool racecheck --racecheck-report all $T/atomic_race $m 2>&1 | head -40
  } >>"$R" 2>&1
done
nvcc -O2 -arch=sm_90 -lineinfo -o $T/fault tests/run/fault.cu >>"$R" 2>&1
{ echo "=== fault.cu on the chip"; $T/fault; echo "rc=$?"; } >>"$R" 2>&1
cat >$T/f.cu <<'CU'
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  float *d, *a = (float *)malloc(256); cudaMalloc(&d, 256);
  const float one = 1, zero = 0;
  cublasStatus_t s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, a, 8, d, 8, &zero, d, 8);
  cudaError_t le = cudaGetLastError();
  printf("status %d, last error %s, sync %s\n", (int)s, cudaGetErrorName(le), cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
CU
nvcc -O2 -arch=sm_90 -o $T/f $T/f.cu -lcublas >>"$R" 2>&1
{ echo "=== cublas host pointer on the chip"; $T/f; echo "rc=$?"; } >>"$R" 2>&1
B=/tmp/bs39c
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >"$D/build.txt" 2>&1
timeout 200 cmake --build $B -j16 --target simtlab-run simtlab_runtime simtlab_cublas_kernels >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
{ echo "=== ptx_cp_async --mode compare --detail"
  SIMTLAB_RUN_CACHE=/tmp/rc39c timeout 200 $B/simtlab-run tests/run/ptx_cp_async.cu --mode compare --detail 2>&1
  echo "rc=$?"
  echo "=== atomic_race --detail on the simulator (init)"
  SIMTLAB_RUN_CACHE=/tmp/rc39c timeout 100 $B/simtlab-run tests/run/atomic_race.cu --detail -- init 2>&1 | head -5
} >"$D/compare.txt" 2>&1
grep -E "^===|rc=|RACECHECK SUMMARY|Race reported|hazard|CHECK failed|launch checked|status|agree|differ" "$R" "$D/compare.txt" | head -60
