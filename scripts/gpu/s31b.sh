#!/usr/bin/env bash
# scripts/gpu/s31b.sh - one device call (session 31): nvcc's loads of a float4 used in part
# (scripts/gpu/vec_fields_probe.cu's SASS), and tests/run/vector_fields.cu in --mode compare after
# its shared-memory kernel was changed to use all four fields. $OUT/s31b.tgz holds s31b/.
#   OUT=/dir bash scripts/gpu/s31b.sh      (on the device machine, from the repository root)
set -u
D=/tmp/s31b
. "$(dirname "$0")/env.sh"
gpu_outdir "$D"
nvcc -O2 -std=c++17 -arch=sm_90 -cubin -o /tmp/probe.cubin scripts/gpu/vec_fields_probe.cu >"$D/build.txt" 2>&1 &&
  cuobjdump -sass /tmp/probe.cubin | grep -E "Function|LDG|LDS" >"$D/probe.sass.txt"
cat "$D/probe.sass.txt"
b=/tmp/b-s31
if [ ! -x $b/simtlab-run ]; then
  cmake -S . -B $b -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$D/configure.txt" 2>&1
fi
cmake --build $b -j16 --target simtlab-run >>"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; exit 1; }
timeout 300 $b/simtlab-run tests/run/vector_fields.cu --mode compare >"$D/vector_fields.txt" 2>&1
echo "vector_fields: rc=$?" | tee -a "$D/summary.txt"
grep -E "differs|agree|correct|WRONG" "$D/vector_fields.txt"
tar czf "${OUT:-/tmp/out}/s31b.tgz" -C /tmp s31b
