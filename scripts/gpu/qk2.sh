#!/usr/bin/env bash
# scripts/gpu/qk2.sh - one device call of session 3: the parity tests (with
# the planned mixed grid) and an interleaved timing of the V2_QK2 knob.
set -u
OUT=${OUT:-/tmp/simtlab-qk2}; mkdir -p "$OUT"
B=/tmp/simtlab-build; crit=$(pwd)/.dev/criterion; export OMP_NUM_THREADS=16
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCRITERION_INCLUDE_DIR=$crit/include \
  -DCRITERION_LIBRARY=$crit/lib/libcriterion.so >/dev/null 2>&1 && cmake --build $B -j16 >"$OUT/build.txt" 2>&1 || { tail -20 "$OUT/build.txt"; exit 1; }
date -u +"%Y-%m-%d %H:%M UTC" >"$OUT/parity.txt"
LD_LIBRARY_PATH=$crit/lib timeout 200 $B/tests/test_parity --verbose -j1 >>"$OUT/parity.txt" 2>&1
echo "parity rc=$?" >>"$OUT/parity.txt"; tail -2 "$OUT/parity.txt"; grep -E "H140.*(v2|merge)" "$OUT/parity.txt"
cmake -S . -B /tmp/simtlab-qk2 -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CUDA_FLAGS="-DV2_QK2" >/dev/null 2>&1 && cmake --build /tmp/simtlab-qk2 -j16 --target lesson >/dev/null 2>&1 || echo "qk2 build failed"
t() { "$@" --mode cuda --batch 4 --heads 16 --d 64 --n 4096 --no-counters --repeats 20 --json | python3 -c 'import json,sys
v = json.load(sys.stdin)["cuda"]["versions"][0]; print("%.3f ms %s" % (v["time_ms"], "PASS" if v["check"]["pass"] else "FAIL"))'; }
{
  date -u +"%Y-%m-%d %H:%M UTC: N=4096 medians of 20, base = the committed kernel, qk2 = -DV2_QK2"
  for r in 1 2; do
    echo "round $r standard: $(t $B/lesson 4 --version standard)"
    echo "round $r v2 base:  $(t $B/lesson 4 --version v2)"
    echo "round $r v2 qk2:   $(t /tmp/simtlab-qk2/lesson 4 --version v2)"
  done
} >"$OUT/rounds.txt" 2>&1
cat "$OUT/rounds.txt"
