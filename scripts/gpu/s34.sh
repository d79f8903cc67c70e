#!/usr/bin/env bash
# scripts/gpu/s34.sh - session 34's device call: test_parity (Criterion carried in
# .dev/criterion: scripts/gpu/carry-criterion.sh) after the session's change to the scheduler
# (the ready queue holds runs of threads: sim/launch.c next_context, rdv_complete), and lessons 4
# (--detail, plain and causal) and 3 in --mode compare. $OUT/s34/ holds env.txt, build.txt,
# parity.txt, lesson4.txt, lesson4c.txt, lesson3.txt.
#   OUT=/dir bash scripts/gpu/s34.sh     (on the device machine, repository root; carry .dev/criterion)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/${S34_NAME:-s34} # s34b.sh runs these checks again into s34b/
gpu_outdir "$D"
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
crit=$(pwd)/.dev/criterion
B=/tmp/b${S34_NAME:-s34}
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$D/build.txt" 2>&1
timeout 300 cmake --build $B -j16 --target test_parity lesson >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
echo "build ok $(date -u +%T)"
export LD_LIBRARY_PATH=$crit/lib
(cd $B && timeout 200 ctest -R "^parity$" --output-on-failure) >"$D/parity.txt" 2>&1
echo "parity rc=$?"; grep -E "Synthesis|tests passed|tests failed" "$D/parity.txt"
timeout 200 $B/lesson 4 --mode compare --detail >"$D/lesson4.txt" 2>&1
echo "lesson4 compare rc=$?"; grep -iE "differ|agree|match|exact" "$D/lesson4.txt" | head -20
timeout 200 $B/lesson 4 --mode compare --detail --causal >"$D/lesson4c.txt" 2>&1
echo "lesson4 causal compare rc=$?"; grep -iE "differ|agree|match|exact" "$D/lesson4c.txt" | head -20
timeout 200 $B/lesson 3 --mode compare --detail >"$D/lesson3.txt" 2>&1
echo "lesson3 compare rc=$?"; grep -iE "differ|agree|match|exact" "$D/lesson3.txt" | head -20
