#!/usr/bin/env bash
# scripts/gpu/s38d.sh - session 38's last device call, for what s38.sh and s38c.sh left owed in
# little time: the build (simtlab-run only), ptx_cp_async.cu's compare, and NVIDIA's five
# tensor-core samples at their default kernel (carried in .dev/tcg: scripts/gpu/s38b.sh says how),
# all output in two files.
#   OUT=/dir bash scripts/gpu/s38d.sh
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s38d
gpu_outdir "$D" >/dev/null
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
B=/tmp/bs38
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1
timeout 200 cmake --build $B -j16 --target simtlab-run simtlab_runtime simtlab_cublas_kernels >/dev/null 2>&1 || { echo build failed; exit 1; }
echo "build ok $(date -u +%T)"
one() { # NAME FILE [args]
  local n=$1 f=$2
  shift 2
  SIMTLAB_RUN_CACHE=/tmp/rc38 timeout 100 $B/simtlab-run "$f" -I .dev/tcg/Common --mode compare --detail "$@" \
    >/tmp/s38d_one.txt 2>&1
  local rc=$?
  { echo "=== $n rc=$rc"; cat /tmp/s38d_one.txt; } >>"$D/compares.txt"
  echo "$n rc=$rc"; grep -E "correct|WRONG|Result|differ|agree|error" /tmp/s38d_one.txt | head -6
}
one ptx_cp_async tests/run/ptx_cp_async.cu
for s in cudaTensorCoreGemm immaTensorCoreGemm bf16TensorCoreGemm tf32TensorCoreGemm dmmaTensorCoreGemm; do
  [ -f .dev/tcg/$s.cu ] && one "$s" .dev/tcg/$s.cu
done
