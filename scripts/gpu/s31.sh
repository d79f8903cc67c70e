#!/usr/bin/env bash
# scripts/gpu/s31.sh - one device call (session 31): the shim's vector types copied whole
# (tests/run/vector_fields.cu: a float4 loaded and used field by field, changed and stored, a
# struct of two float4s, a float2, a uchar4, a float4 from shared memory) in --mode compare, with
# nvcc's SASS of its loads and stores; the other `simtlab run` programs with vector or struct
# copies (vector_align, struct_args, complex, course) and the examples in --mode compare; and
# examples/reduce.cu at n = 2^26, which printed WRONG on an H100 with its float accumulator.
# $OUT/s31.tgz holds s31/: one .txt per run, summary.txt, the SASS, env.txt.
#   OUT=/dir bash scripts/gpu/s31.sh      (on the device machine, from the repository root)
set -u
D=/tmp/s31
. "$(dirname "$0")/env.sh"
gpu_outdir "$D"
b=/tmp/b-s31
cmake -S . -B $b -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$D/configure.txt" 2>&1 &&
  cmake --build $b -j16 --target simtlab-run >"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; exit 1; }
run() { # run <name> <args...>
  local name=$1; shift
  timeout 300 "$b/simtlab-run" "$@" >"$D/$name.txt" 2>&1
  echo "$name: rc=$?" | tee -a "$D/summary.txt"
}
run vector_fields tests/run/vector_fields.cu --mode compare --json "$D/vector_fields.json"
run vector_align tests/run/vector_align.cu --mode compare
run struct_args tests/run/struct_args.cu --mode compare
run complex tests/run/complex.cu --mode compare
run course tests/run/course.cu --mode compare
for e in vector_add matmul transpose reduce histogram coalescing; do
  run "$e" "examples/$e.cu" --mode compare
done
run reduce_2e26 examples/reduce.cu --mode cuda --no-counters -- 67108864
nvcc -O2 -std=c++17 -arch=sm_90 -cubin -o /tmp/vf.cubin tests/run/vector_fields.cu >"$D/sass_build.txt" 2>&1 &&
  cuobjdump -sass /tmp/vf.cubin | grep -E "Function|LDG|STG|LDS|STS" >"$D/vector_fields.sass.txt"
grep -E "differs|agree|WRONG|correct" "$D"/*.txt | head -120
tar czf "${OUT:-/tmp/out}/s31.tgz" -C /tmp s31
