#!/usr/bin/env bash
# scripts/gpu/s32b.sh - one device call (session 32's owed check): `simtlab run --mode compare` on
# the session's test programs after its fixes: tests/run/atomic_aggregate.cu (inc/dec not
# aggregated, 16 call sites a warp, a loop counter and a local in the address: every counter should
# agree), tests/run/atomic_one_word.cu (int_data and int_count times against the model's 0.741 ns),
# tests/run/global_race.cu (the racy kernel's sum on the chip: 528, as its note says). Nothing
# third-party: the repository alone. $OUT/s32b/ holds one .txt a program, summary.txt, env.txt.
#   OUT=/dir bash scripts/gpu/s32b.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s32b
gpu_outdir "$D"
b=/tmp/b-s32b
cmake -S . -B $b -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$D/configure.txt" 2>&1
cmake --build $b -j16 --target simtlab-run >"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; exit 1; }
for f in tests/run/atomic_aggregate.cu tests/run/atomic_one_word.cu tests/run/global_race.cu; do
  name=$(basename "$f" .cu)
  timeout 150 $b/simtlab-run "$f" --mode compare >"$D/$name.txt" 2>&1
  echo "$name rc=$? differs=$(grep -c ' differs' "$D/$name.txt")" | tee -a "$D/summary.txt"
done
grep -h "racy sum\|atomic_aggregate:\|atomic_one_word:" "$D"/*.txt
