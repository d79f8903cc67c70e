#!/usr/bin/env bash
# scripts/gpu/s43.sh - session 43's device call: tests/run/device_new.cu (new and delete in kernels)
# built by nvcc and run on the chip (the program checks itself: "device_new: correct"), and
# `simtlab run --mode compare` of it; then session 39's owed compares (s39d.sh) in the same call.
# Only on an H200 (gpu_require_h200; ANY_CARD=1 runs anyway).
#   OUT=/dir bash scripts/gpu/s43.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s43
gpu_outdir "$D"
gpu_require_h200 || exit 3
{
  nvcc -O2 -arch=sm_90 -o /tmp/dn43 tests/run/device_new.cu && /tmp/dn43
  echo "rc=$?"
} >"$D/device_new_chip.txt" 2>&1
cat "$D/device_new_chip.txt"
bash "$(dirname "$0")/s39d.sh"
B=/tmp/bs39d # s39d's build of simtlab run
SIMTLAB_RUN_CACHE=/tmp/rc43 timeout 150 $B/simtlab-run tests/run/device_new.cu --mode compare >"$D/device_new_compare.txt" 2>&1
echo "device_new compare rc=$?" | tee -a "$D/device_new_compare.txt"
grep -E 'device_new|every counter|some counters' "$D/device_new_compare.txt" | head -5
