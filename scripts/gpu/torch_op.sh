#!/usr/bin/env bash
# scripts/gpu/torch_op.sh - lesson 5's PyTorch op (lessons/05_torch_stack/simtlab_torch)
# on a GPU: builds the extension from the lessons' kernel files with
# torch.utils.cpp_extension (ninja + nvcc), checks it against SDPA
# (simtlab_torch.check) and times it against PyTorch's fp32 EFFICIENT
# attention (simtlab_torch.bench).
# Run from the repository root, on the device machine (PyTorch, nvcc, ninja there):
#   OUT=/some/dir [BENCH_ARGS='--n 4096'] scripts/gpu/torch_op.sh
# Logs in $OUT: torch-env.txt, torch-build.txt, torch-check.txt, torch-bench.txt.
# Exit status: 1 if the build or a check failed.
set -u
OUT=${OUT:-/tmp/simtlab-gpu}
mkdir -p "$OUT"
root=$(pwd)
[ -f "$root/lessons/05_torch_stack/simtlab_torch/__init__.py" ] || { echo "run from the repository root"; exit 2; }
export PYTHONPATH=$root/lessons/05_torch_stack${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
# by default a fresh build directory each run (no stale lock file or objects);
# a SIMTLAB_TORCH_BUILD of your own is kept, and ninja rebuilds what changed
if [ -z "${SIMTLAB_TORCH_BUILD:-}" ]; then
  export SIMTLAB_TORCH_BUILD=/tmp/simtlab-torch-build
  rm -rf "$SIMTLAB_TORCH_BUILD"
fi
export MAX_JOBS=${MAX_JOBS:-8} # ninja's parallel compiles
# torch finds nvcc through CUDA_HOME (else `which nvcc`, else /usr/local/cuda)
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
if [ -z "${CUDA_HOME:-}" ] && command -v nvcc >/dev/null; then
  CUDA_HOME=$(dirname "$(dirname "$(command -v nvcc)")")
  export CUDA_HOME
fi

. "$(dirname "$0")/env.sh"
{
  gpu_env
  python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda, torch.cuda.get_device_name(0), "sm_%d%d" % torch.cuda.get_device_capability(0))'
  git -C "$root" rev-parse --short HEAD 2>/dev/null
} >"$OUT/torch-env.txt" 2>&1
cat "$OUT/torch-env.txt"

echo "== build ($SIMTLAB_TORCH_BUILD)"
if ! timeout 300 python3 -c '
import time, simtlab_torch as st
t = time.time()
st.extension(verbose=True)
print(f"built and loaded in {time.time() - t:.1f} s")' >"$OUT/torch-build.txt" 2>&1; then
  tail -40 "$OUT/torch-build.txt"
  echo "build FAILED (log: $OUT/torch-build.txt)"
  exit 1
fi
tail -1 "$OUT/torch-build.txt"

echo "== check"
timeout 150 python3 -m simtlab_torch.check >"$OUT/torch-check.txt" 2>&1
rc_check=$?
grep -E '^(FAIL|INFO)' "$OUT/torch-check.txt" | head -20
tail -1 "$OUT/torch-check.txt"
echo "check rc=$rc_check"

echo "== bench"
# shellcheck disable=SC2086
timeout 150 python3 -m simtlab_torch.bench ${BENCH_ARGS:-} >"$OUT/torch-bench.txt" 2>&1
echo "bench rc=$?" >>"$OUT/torch-bench.txt"
grep -E '^summary|rc=' "$OUT/torch-bench.txt"
[ "$rc_check" -eq 0 ]
