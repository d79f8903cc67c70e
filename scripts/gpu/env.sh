# shellcheck shell=bash
# scripts/gpu/env.sh - sourced by the device scripts (from the repository root, as they run):
# gpu_env prints what their env.txt records, the same fields in every script: the date (UTC), the
# card, its driver, memory and maximum clocks, nvcc's version and, where installed, Nsight
# Compute's. A script adds its own lines after it (uname, nproc, torch).
gpu_env() {
  date -u +"%Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -2
  if command -v ncu >/dev/null 2>&1; then ncu --version | tail -1; fi
}
