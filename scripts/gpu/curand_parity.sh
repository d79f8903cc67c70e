#!/usr/bin/env bash
# scripts/gpu/curand_parity.sh - cuRAND's device API on the GPU against the simulator's
# (sim/run/include/curand_kernel.h): tests/run/curand.cu built by nvcc and run natively, its
# "curand: digest" (every integer draw and the bits of every uniform float and double of its
# first part) set beside the simulator's, and beside the toolkit's own header compiled for the
# host (-DCURAND_HOST_REFERENCE). Also tests/run/curand_host.cu (the host API, -lcurand).
#   OUT=/dir bash scripts/gpu/curand_parity.sh   (on the device machine, from the repository root)
# Everything lands in $OUT/curand: env.txt, gpu.txt (the native run), reference.txt (the host
# build), host_api.txt, verdict.txt. Exit status: 0 when the GPU's digest is the simulator's.
set -u
OUT=${OUT:-/tmp/simtlab-curand}
D=$OUT/curand
mkdir -p "$D"
# shellcheck source=scripts/gpu/env.sh
. "$(dirname "$0")/env.sh"
gpu_env >"$D/env.txt" 2>&1
cat "$D/env.txt"
# the simulator's digest (run_curand checks it: tests/scripts/run_case.cmake)
WANT=7f4447779d2e5a0d
nvcc -O2 -arch=sm_90 -o /tmp/curand_gpu tests/run/curand.cu >"$D/build.txt" 2>&1 || { cat "$D/build.txt"; exit 1; }
nvcc -O2 -arch=sm_90 -DCURAND_HOST_REFERENCE -x cu -o /tmp/curand_ref tests/run/curand.cu >>"$D/build.txt" 2>&1 ||
  { cat "$D/build.txt"; exit 1; }
nvcc -O2 -arch=sm_90 -o /tmp/curand_host tests/run/curand_host.cu -lcurand >>"$D/build.txt" 2>&1 ||
  { cat "$D/build.txt"; exit 1; }
timeout 300 /tmp/curand_gpu >"$D/gpu.txt" 2>&1
echo "gpu rc=$?" >>"$D/gpu.txt"
timeout 300 /tmp/curand_ref >"$D/reference.txt" 2>&1
echo "reference rc=$?" >>"$D/reference.txt"
timeout 300 /tmp/curand_host >"$D/host_api.txt" 2>&1
echo "host api rc=$?" >>"$D/host_api.txt"
gpu=$(sed -n 's/^curand: digest //p' "$D/gpu.txt")
ref=$(sed -n 's/^curand: digest //p' "$D/reference.txt")
{
  echo "simulator: $WANT"
  echo "gpu:       ${gpu:-none}"
  echo "host ref:  ${ref:-none}"
  if [ "$gpu" = "$WANT" ]; then echo "digest: the GPU's is the simulator's"; else echo "digest: DIFFERS"; fi
  grep -E '^curand: (correct|WRONG)' "$D/gpu.txt"
  grep -E '^curand_host: (correct|WRONG)' "$D/host_api.txt"
} | tee "$D/verdict.txt"
[ "$gpu" = "$WANT" ]
