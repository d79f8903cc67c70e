#!/usr/bin/env bash
# scripts/gpu/s40b.sh - session 40's third device call: the whole test suite built and run with the
# device machine's g++ 13 (this project's CI has g++ 12) at this session's head, after the race
# check's locks (sim/access.c) and the report's other access; Criterion carried in .dev/criterion
# (scripts/gpu/carry-criterion.sh). Failures' output in ctest.txt.
#   OUT=/dir bash scripts/gpu/s40b.sh     (on the device machine, repository root; carry .dev/criterion)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s40b
gpu_outdir "$D" >/dev/null
{ g++ --version | head -1; } >>"$D/env.txt"
export CC=/usr/bin/gcc CXX=/usr/bin/g++ OMP_NUM_THREADS=16
crit=$(pwd)/.dev/criterion
export LD_LIBRARY_PATH=$crit/lib
B=/tmp/bs40b
cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$D/build.txt" 2>&1
timeout 300 cmake --build $B -j16 >>"$D/build.txt" 2>&1 || { echo "build failed or slow"; grep -E "error" "$D/build.txt" | head -20; exit 1; }
echo "build done $(date -u +%T)"
cd $B && timeout 250 ctest -j16 --timeout 200 --output-on-failure >"$D/ctest.txt" 2>&1
echo "ctest rc=$? $(date -u +%T)"
grep -E "tests passed|tests failed|Failed|\*\*\*" "$D/ctest.txt" | head -40
