#!/usr/bin/env bash
# scripts/gpu/s38c.sh - session 38's second call on the same warm machine (s38.sh's build in
# /tmp/bs38): ptx_cp_async.cu again (its bad_size kernel now builds with nvcc: ptxas refused the
# 8-byte cp.async.cg, so the first call's compare had no GPU side), then scripts/gpu/s38b.sh
# (NVIDIA's tensor-core samples, all in one file).
#   OUT=/dir bash scripts/gpu/s38c.sh
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s38c
mkdir -p "$D"
gpu_env >"$D/env.txt" 2>&1
export PATH="$PATH:/usr/local/cuda/bin" OMP_NUM_THREADS=16
SIMTLAB_RUN_CACHE=/tmp/rc38 timeout 300 /tmp/bs38/simtlab-run tests/run/ptx_cp_async.cu --mode compare --detail \
  >"$D/compare_ptx_cp_async.txt" 2>&1
echo "ptx_cp_async compare rc=$?"; grep -E "correct|WRONG|differ|agree" "$D/compare_ptx_cp_async.txt" | head
OUT=$D bash "$(dirname "$0")/s38b.sh"
