#!/usr/bin/env bash
# scripts/gpu/s31h.sh - one device call (session 31's last): test_parity (Criterion carried in
# .dev/criterion: scripts/gpu/carry-criterion.sh) on the device's gcc after the session's changes
# to sim/launch.c (the built-ins' vector-returning twins, the float atomics' table), and
# tests/run/vector_align.cu (with the 64-bit integer vectors) in --mode compare. Lean: only the
# two targets are built. $OUT holds env.txt, build.txt, parity.txt, vector_align.txt.
#   OUT=/dir bash scripts/gpu/s31h.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
mkdir -p "${OUT:?}"
{ gpu_env; } >"$OUT/env.txt" 2>&1
export PATH="$PATH:/usr/local/cuda/bin" CC=/usr/bin/gcc OMP_NUM_THREADS=16
crit=$(pwd)/.dev/criterion
B=/tmp/b31h
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$OUT/build.txt" 2>&1
timeout 240 cmake --build $B -j16 --target test_parity simtlab-run >>"$OUT/build.txt" 2>&1 || { tail -20 "$OUT/build.txt"; exit 1; }
echo "build ok $(date -u +%T)"
export LD_LIBRARY_PATH=$crit/lib
(cd $B && timeout 200 ctest -R "^parity$" --output-on-failure) >"$OUT/parity.txt" 2>&1
echo "parity rc=$?"; grep -E "Synthesis|tests passed|tests failed" "$OUT/parity.txt"
timeout 90 $B/simtlab-run tests/run/vector_align.cu --mode compare >"$OUT/vector_align.txt" 2>&1
echo "vector_align rc=$?"; grep -E "launch [0-9]|differs|agree" "$OUT/vector_align.txt"
