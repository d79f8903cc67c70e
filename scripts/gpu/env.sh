# shellcheck shell=bash
# scripts/gpu/env.sh - sourced by the device scripts (run from the repository root):
# gpu_env prints what their env.txt records, the same fields in every script: the date (UTC), the
# card, its driver, memory and maximum clocks, nvcc's version and, where installed, Nsight
# Compute's. A script adds its own lines after it (uname, nproc, torch).
# gpu_build_lesson DIR LOG builds the lesson binary with the CUDA backend for sm_90 (no tests)
# in DIR, its output in LOG; on failure it prints LOG's tail and returns 1.
gpu_env() {
  date -u +"%Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -2
  if command -v ncu >/dev/null 2>&1; then ncu --version | tail -1; fi
}

# gpu_outdir DIR makes DIR afresh (and $OUT), records gpu_env and nproc in DIR/env.txt, prints
# them, and puts nvcc and ncu on the PATH: the start of every session-30-on device script.
gpu_outdir() {
  rm -rf "$1"
  mkdir -p "$1" "${OUT:-/tmp/out}"
  { gpu_env; nproc; } >"$1/env.txt" 2>&1
  cat "$1/env.txt"
  export PATH="$PATH:/usr/local/cuda/bin"
}

# gpu_build_run DIR LOG builds `simtlab run` (the driver, its runtime and cuBLAS kernels) with the CUDA
# backend for sm_90 in DIR, its output in LOG; on failure it prints LOG's tail and returns 1.
gpu_build_run() {
  cmake -S . -B "$1" -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
    >>"$2" 2>&1 &&
    timeout 200 cmake --build "$1" -j16 --target simtlab-run simtlab_runtime simtlab_cublas_kernels >>"$2" 2>&1 ||
    { tail -20 "$2"; return 1; }
}

gpu_build_lesson() {
  cmake -S . -B "$1" -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >>"$2" 2>&1 &&
    cmake --build "$1" -j16 --target lesson >>"$2" 2>&1 || { tail -30 "$2"; return 1; }
}

# gpu_require_h200 prints the card and returns 3 on any card but an H200, unless ANY_CARD=1 (for
# runs whose figures only an H200 can give: the device tool may lend an H100 for an H200 call)
gpu_require_h200() {
  local card
  card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  echo "card: $card"
  case "$card" in
    *H200*) return 0 ;;
    *) if [ "${ANY_CARD:-0}" != 1 ]; then echo "not an H200: nothing run"; return 3; fi ;;
  esac
}
