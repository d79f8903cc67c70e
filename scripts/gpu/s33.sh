#!/usr/bin/env bash
# scripts/gpu/s33.sh - one device call (session 33): session 32's owed check (s32b.sh: compare
# mode on tests/run/atomic_aggregate.cu, atomic_one_word.cu, global_race.cu), then the cuBLAS
# shim against the real library: tests/run/cublas.cu under nvcc (-lcublas; the program's own
# checks against its double reference must hold on the GPU too: "cublas: correct"), and in
# compare mode (what NVIDIA's GEMM kernels move beside simtlab's textbook one: expected to differ,
# recorded). Nothing to carry. $OUT/s32b/ and $OUT/s33/ hold one .txt a program and env.txt.
#   OUT=/dir bash scripts/gpu/s33.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
bash "$(dirname "$0")/s32b.sh"
D=${OUT:?}/s33
gpu_outdir "$D"
b=/tmp/b-s32b
cmake --build $b -j16 --target simtlab-run >"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; exit 1; }
timeout 200 $b/simtlab-run tests/run/cublas.cu --mode cuda >"$D/cublas_cuda.txt" 2>&1
echo "cublas --mode cuda rc=$?" | tee -a "$D/summary.txt"
grep -h "cublas: \|FAILED" "$D/cublas_cuda.txt" | head -20
timeout 250 $b/simtlab-run tests/run/cublas.cu --mode compare >"$D/cublas_compare.txt" 2>&1
echo "cublas --mode compare rc=$?" | tee -a "$D/summary.txt"
grep -h "launch [0-9]*:" "$D/cublas_compare.txt" | head -30
