#!/usr/bin/env bash
# scripts/gpu/s39b.sh - session 39's second device call. The device machine's g++ is 13 (Ubuntu 24.04),
# this project's CI's is 12: (1) NVIDIA's bf16/tf32/dmmaTensorCoreGemm compared again after the
# __noinline__ fix (their host pass failed under g++ 13; carried in .dev/tcg), (2) the whole test
# suite built and run with g++ 13 (Criterion carried in .dev/criterion: scripts/gpu/carry-criterion.sh),
# its failures' output in ctest.txt.
#   OUT=/dir bash scripts/gpu/s39b.sh     (on the device machine, repository root; carry .dev)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s39b
gpu_outdir "$D" >/dev/null
{ g++ --version | head -1; } >>"$D/env.txt"
export CC=/usr/bin/gcc CXX=/usr/bin/g++ OMP_NUM_THREADS=16
crit=$(pwd)/.dev/criterion
export LD_LIBRARY_PATH=$crit/lib
B=/tmp/bs39b
cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$D/build.txt" 2>&1
timeout 150 cmake --build $B -j16 --target simtlab-run simtlab_runtime simtlab_cublas_kernels \
  >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
echo "run build ok $(date -u +%T)"
for s in bf16TensorCoreGemm tf32TensorCoreGemm dmmaTensorCoreGemm; do
  SIMTLAB_RUN_CACHE=/tmp/rc39b timeout 60 $B/simtlab-run .dev/tcg/$s.cu -I .dev/tcg/Common --mode compare --detail \
    >/tmp/one.txt 2>&1
  rc=$?
  { echo "=== $s rc=$rc"; cat /tmp/one.txt; } >>"$D/compares.txt"
  echo "$s rc=$rc"; grep -E "note|warning|correct|WRONG|Result|differ|agree|error" /tmp/one.txt | head -8
done
timeout 200 cmake --build $B -j16 >>"$D/build.txt" 2>&1 || { echo "full build failed or slow"; grep -E "error" "$D/build.txt" | head -20; }
echo "full build done $(date -u +%T)"
cd $B && timeout 300 ctest -j16 --timeout 250 --output-on-failure >"$D/ctest.txt" 2>&1
echo "ctest rc=$? $(date -u +%T)"
grep -E "tests passed|tests failed|Failed|\*\*\*" "$D/ctest.txt" | head -40
