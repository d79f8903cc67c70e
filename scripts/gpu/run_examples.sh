#!/usr/bin/env bash
# scripts/gpu/run_examples.sh - on the GPU machine (the device tool): builds
# simtlab-run and runs every example of examples/ (and tests/run/lines.cu,
# course.cu) in --mode compare, then lines.cu and fault.cu in --mode cuda.
# Everything goes to $OUT: one .txt (stdout+stderr) and one .json per run,
# env.txt with the card, driver and tool versions.
set -uo pipefail
FINAL="${OUT:-/tmp/out}"
OUT=/tmp/run-examples   # many files: they come back as one tarball, $FINAL/run-examples.tar.gz
rm -rf "$OUT"
mkdir -p "$OUT" "$FINAL"
b=/tmp/b-run
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  nvcc --version | tail -2
  (ncu --version || /usr/local/cuda/bin/ncu --version) 2>&1 | tail -1
  g++ --version | head -1
} >"$OUT/env.txt" 2>&1
cmake -S . -B $b -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.txt" 2>&1 &&
  cmake --build $b -j16 --target simtlab-run >"$OUT/build.txt" 2>&1 || { echo "build failed"; tail -30 "$OUT/build.txt"; exit 1; }
export PATH="$PATH:/usr/local/cuda/bin"
run() { # run <name> <args...>
  local name=$1; shift
  local t0 t1
  t0=$(date +%s%N)
  "$b/simtlab-run" "$@" >"$OUT/$name.txt" 2>&1
  local rc=$?
  t1=$(date +%s%N)
  echo "$name: rc=$rc $(( (t1 - t0) / 1000000 )) ms" | tee -a "$OUT/summary.txt"
}
run vector_add examples/vector_add.cu --mode compare --json "$OUT/vector_add.json"
run matmul examples/matmul.cu --mode compare --json "$OUT/matmul.json"
run transpose examples/transpose.cu --mode compare --json "$OUT/transpose.json"
run reduce examples/reduce.cu --mode compare --json "$OUT/reduce.json"
run histogram examples/histogram.cu --mode compare --json "$OUT/histogram.json"
run course tests/run/course.cu --mode compare --json "$OUT/course.json"
run lines tests/run/lines.cu --mode compare --json "$OUT/lines.json"
run lines_cuda tests/run/lines.cu --mode cuda --json "$OUT/lines_cuda.json"
run fault_cuda tests/run/fault.cu --mode cuda --no-counters
run vector_add_plain examples/vector_add.cu --mode cuda --no-counters
for f in "$OUT"/*.txt; do echo "== $(basename "$f")"; grep -E "launch [0-9]+:|differs|agrees" "$f"; done | head -80
tar -czf "$FINAL/run-examples.tar.gz" -C /tmp run-examples
