#!/usr/bin/env bash
# scripts/gpu/tune.sh - flash v2 tuning on the device: builds the lesson with
# each variant of compile-time knobs (CUDA flags), prints ptxas's register and
# spill report for the v2 kernels, times v2 (and standard once) at B=4, H=16,
# d=64, N=4096, and checks the counters of v2 at small shapes in --mode compare.
#   OUT=/dir scripts/gpu/tune.sh "-DV2_KC=8" "-DV2_KC=16" ...
set -u
OUT=${OUT:-/tmp/simtlab-tune}
mkdir -p "$OUT"
root=$(pwd)
export OMP_NUM_THREADS=8
i=0
for flags in "$@"; do
  B=/tmp/simtlab-tune-$i
  {
    echo "##### variant $i: $flags"
    cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DCMAKE_CUDA_FLAGS="$flags -Xptxas -v" >/dev/null 2>&1
    cmake --build $B -j16 --target lesson 2>&1 | grep -A1 "attn_flash_v2_d64\|attn_std_scores" | grep -E "Used|spill|Compiling" | head -8
    L=$B/lesson
    if [ $i = 0 ]; then
      timeout 120 $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n 4096 --no-counters --repeats 10 --version standard | grep -E "ms|PASS|FAIL" | tail -4
      for a in "--n 256" "--n 256 --d 16" "--n 256 --d 128" "--n 200 --causal --d 32"; do
        echo "--- compare $a"; timeout 120 $L 4 --mode compare $a --version v2 --repeats 1 | grep -E "v2|wavefr|sector|PASS|FAIL" | head -12
      done
    fi
    for n in 4096 1024; do
      timeout 120 $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n $n --no-counters --repeats 10 --version v2 | grep -E "flash|ms|PASS|FAIL" | tail -3
    done
  } >>"$OUT/tune.txt" 2>&1
  i=$((i+1))
done
cat "$OUT/tune.txt"
