#!/usr/bin/env bash
# scripts/gpu/s39d.sh - session 39's last device call, for session 38's owed compare on an H200 (it
# ran on an H100): `simtlab run --mode compare --detail` of the tensor-core and async-copy tests
# and examples, at this session's head, plus tests/run/atomic_race.cu (counter5, the one-warp case
# the review fixed, and counter3) on the chip. The card is whatever the tool lends; env.txt says.
#   OUT=/dir bash scripts/gpu/s39d.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s39d
gpu_outdir "$D"
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
B=/tmp/bs39d
gpu_build_run $B "$D/build.txt" || exit 1
echo "build ok $(date -u +%T)"
C=$D/compares.txt
run_compare() { # NAME FILE [args...]
  local n=$1 p=$2
  shift 2
  SIMTLAB_RUN_CACHE=/tmp/rc39d timeout 150 $B/simtlab-run "$p" --mode compare --detail "$@" >/tmp/one.txt 2>&1
  local rc=$?
  { echo "=== $n rc=$rc"; cat /tmp/one.txt; } >>"$C"
  echo "$n rc=$rc: $(grep -cE '  differs' /tmp/one.txt) counters differ; $(grep -E 'every counter|some counters' /tmp/one.txt | head -1)"
}
run_compare wmma tests/run/wmma.cu
run_compare wmma_layout tests/run/wmma_layout.cu
run_compare wmma_gemm64 examples/wmma_gemm.cu -- 64
run_compare wmma_gemm128 examples/wmma_gemm.cu -- 128
run_compare async_copy tests/run/async_copy.cu
run_compare async_race tests/run/async_race.cu
run_compare ptx_cp_async tests/run/ptx_cp_async.cu
run_compare ptx_mma tests/run/ptx_mma.cu
nvcc -O2 -arch=sm_90 -o /tmp/ar39 tests/run/atomic_race.cu >>"$D/chip.txt" 2>&1
for m in counter5 counter3; do
  { echo "=== atomic_race $m on the chip"; /tmp/ar39 $m; echo "rc=$?"; } >>"$D/chip.txt" 2>&1
done
cat "$D/chip.txt"
