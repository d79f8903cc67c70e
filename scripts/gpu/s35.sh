#!/usr/bin/env bash
# scripts/gpu/s35.sh - session 35's device call: test_parity (Criterion carried in .dev/criterion:
# scripts/gpu/carry-criterion.sh), and `simtlab run --mode compare` on the session's two new
# programs: tests/run/macro_kernel.cu (kernels a macro writes: the simulator counted 0 bytes
# before the host pass's kernels were made weak) and tests/run/shared_init.cu (__shared__ objects
# with a constant initializer: every access was reported as invalid before sim/tls.c). $OUT/s35/
# holds env.txt, build.txt, parity.txt, macro_kernel.txt, shared_init.txt, and overrun1.txt and
# overrun1_memcheck.txt (one element past a static __shared__ array: the simulator now reports it).
#   OUT=/dir bash scripts/gpu/s35.sh     (on the device machine, repository root; carry .dev/criterion)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/${S35_NAME:-s35} # S35_NAME=s35b: the second call, after the compare fix
gpu_outdir "$D"
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
crit=$(pwd)/.dev/criterion
B=/tmp/bs35
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$D/build.txt" 2>&1
timeout 400 cmake --build $B -j16 --target test_parity lesson simtlab-run simtlab_runtime simtlab_cublas_kernels \
  >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
echo "build ok $(date -u +%T)"
export LD_LIBRARY_PATH=$crit/lib
(cd $B && timeout 200 ctest -R "^parity$" --output-on-failure) >"$D/parity.txt" 2>&1
echo "parity rc=$?"; grep -E "Synthesis|tests passed|tests failed" "$D/parity.txt"
for p in macro_kernel shared_init; do
  SIMTLAB_RUN_CACHE=/tmp/rc35 timeout 300 $B/simtlab-run tests/run/$p.cu --mode compare --detail \
    >"$D/$p.txt" 2>&1
  echo "$p compare rc=$?"; grep -E "correct|WRONG|differ|agree|HBM|kernel" "$D/$p.txt" | head -12
done
# one element past a static __shared__ array's end: what the chip does (plain run, then memcheck)
SIMTLAB_RUN_CACHE=/tmp/rc35 timeout 300 $B/simtlab-run tests/run/shared_overrun.cu --mode compare -- 1 \
  >"$D/overrun1.txt" 2>&1
echo "overrun1 compare rc=$?"; grep -E "shared_overrun|invalid|past|Illegal|status" "$D/overrun1.txt" | head -8
nvcc -arch=sm_90 -o /tmp/ov1 tests/run/shared_overrun.cu >"$D/overrun1_memcheck.txt" 2>&1 &&
  timeout 120 compute-sanitizer --tool memcheck /tmp/ov1 1 >>"$D/overrun1_memcheck.txt" 2>&1
echo "overrun1 memcheck rc=$?"; grep -E "Invalid|out of bounds|ERROR SUMMARY|shared_overrun" "$D/overrun1_memcheck.txt" | head -6
