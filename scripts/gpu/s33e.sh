#!/usr/bin/env bash
# scripts/gpu/s33e.sh - session 33's fifth device call: after the review's changes, the cuBLAS
# programs with NVIDIA's cuBLAS: tests/run/cublas.cu (--mode cuda: its new checks, alpha 0 over a
# NaN A, nrm2 of infinities, GemmEx with a cudaDataType compute type, geam in place transposed
# refused, must hold on a GPU too) and examples/cublas_gemm.cu (--mode cuda, then compare: the
# course's tiled kernel paired, cublasSgemm beside NVIDIA's kernel). $OUT/s33e/all.txt.
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s33e
gpu_outdir "$D"
b=/tmp/b-s33e
cmake -S . -B $b -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$D/configure.txt" 2>&1
cmake --build $b -j16 --target simtlab-run >"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; exit 1; }
{
  cat "$D/env.txt"
  echo "=== tests/run/cublas.cu --mode cuda"
  timeout 150 $b/simtlab-run tests/run/cublas.cu --mode cuda 2>&1
  echo "rc=$?"
  echo "=== examples/cublas_gemm.cu --mode cuda -- 512"
  timeout 150 $b/simtlab-run examples/cublas_gemm.cu --mode cuda -- 512 2>&1
  echo "rc=$?"
  echo "=== examples/cublas_gemm.cu --mode compare -- 128"
  timeout 200 $b/simtlab-run examples/cublas_gemm.cu --mode compare -- 128 2>&1
  echo "rc=$?"
} >"$D/all.txt" 2>&1
grep -h "^=== \|rc=\|cublas: \|correct\|WRONG\|launch\|differs\|agrees" "$D/all.txt" | head -60
