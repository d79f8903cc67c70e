#!/usr/bin/env bash
# scripts/gpu/s39.sh - session 39's device call, for what session 38 left owed: why the host pass of
# NVIDIA's bf16/tf32/dmmaTensorCoreGemm failed on the device machine (their `#if __CUDA_ARCH__ >= 800`
# kernels then ran empty through the single-pass fallback; now a warning), with `simtlab run -v`
# and the cache entry's 0.host.log; then `--mode compare --detail` of the five samples (carried in
# .dev/tcg: scripts/gpu/s38b.sh says how they were cut).
#   OUT=/dir bash scripts/gpu/s39.sh     (on the device machine, repository root; carry .dev/tcg)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s39
gpu_outdir "$D" >/dev/null
cat "$D/env.txt"
{ g++ --version | head -1; gcc --version | head -1; uname -a; } | tee -a "$D/env.txt"
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
B=/tmp/bs39
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  >"$D/build.txt" 2>&1
timeout 200 cmake --build $B -j16 --target simtlab-run simtlab_runtime simtlab_cublas_kernels \
  >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
echo "build ok $(date -u +%T)"
R=$D/diag.txt
for s in bf16TensorCoreGemm cudaTensorCoreGemm; do
  rm -rf /tmp/rce
  { echo "=== $s -v"; SIMTLAB_RUN_CACHE=/tmp/rce timeout 90 $B/simtlab-run -v .dev/tcg/$s.cu -I .dev/tcg/Common 2>&1 | cut -c1-400 | head -60
    for f in /tmp/rce/*/0.host.log /tmp/rce/*/0.dev.log; do echo "--- $f"; head -c 6000 "$f"; done; } >>"$R" 2>&1
done
grep -nE "error|warning: .*__CUDA_ARCH__|single" "$R" | head -20
one() { # NAME FILE [args]
  local n=$1 f=$2
  shift 2
  SIMTLAB_RUN_CACHE=/tmp/rc39 timeout 100 $B/simtlab-run "$f" -I .dev/tcg/Common --mode compare --detail "$@" \
    >/tmp/s39_one.txt 2>&1
  local rc=$?
  { echo "=== $n rc=$rc"; cat /tmp/s39_one.txt; } >>"$D/compares.txt"
  echo "$n rc=$rc"; grep -E "correct|WRONG|Result|differ|agree|error|warning" /tmp/s39_one.txt | head -6
}
for s in bf16TensorCoreGemm tf32TensorCoreGemm dmmaTensorCoreGemm; do
  [ -f .dev/tcg/$s.cu ] && one "$s" .dev/tcg/$s.cu
done
