#!/usr/bin/env bash
# scripts/gpu/s33d.sh - session 33's fourth device call: test_parity (Criterion carried in
# .dev/criterion: scripts/gpu/carry-criterion.sh) after the session's change to the warp's
# request flushes (a volatile access's lockstep and __activemask no longer flush: sim/launch.c
# rdv_complete), and lesson 4 --mode compare --detail (the headline's counters). $OUT/s33d/ holds
# env.txt, build.txt, parity.txt, lesson4.txt.
#   OUT=/dir bash scripts/gpu/s33d.sh     (on the device machine, repository root; carry .dev/criterion)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s33d
gpu_outdir "$D"
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
crit=$(pwd)/.dev/criterion
B=/tmp/b33d
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$D/build.txt" 2>&1
timeout 300 cmake --build $B -j16 --target test_parity lesson >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
echo "build ok $(date -u +%T)"
export LD_LIBRARY_PATH=$crit/lib
(cd $B && timeout 200 ctest -R "^parity$" --output-on-failure) >"$D/parity.txt" 2>&1
echo "parity rc=$?"; grep -E "Synthesis|tests passed|tests failed" "$D/parity.txt"
timeout 200 $B/lesson 4 --mode compare --detail >"$D/lesson4.txt" 2>&1
echo "lesson4 compare rc=$?"; grep -iE "differ|agree|match|exact" "$D/lesson4.txt" | head -20
