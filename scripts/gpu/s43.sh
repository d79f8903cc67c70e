#!/usr/bin/env bash
# scripts/gpu/s43.sh - session 43's device call: tests/run/device_new.cu (new and delete in kernels)
# and tests/run/graph_capture.cu (CUDA graphs by stream capture, the capture's error codes) built by
# nvcc and run on the chip (each checks itself: "...: correct"), and `simtlab run --mode compare`
# of device_new, on any card; then, on an H200 only, session 39's owed compares (s39d.sh).
#   OUT=/dir bash scripts/gpu/s43.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s43
gpu_outdir "$D"
{
  nvcc -O2 -arch=sm_90 -o /tmp/dn43 tests/run/device_new.cu && /tmp/dn43
  echo "device_new rc=$?"
  nvcc -O2 -arch=sm_90 -o /tmp/gc43 tests/run/graph_capture.cu && /tmp/gc43
  echo "graph_capture rc=$?"
} >"$D/chip.txt" 2>&1
cat "$D/chip.txt"
if gpu_require_h200; then
  bash "$(dirname "$0")/s39d.sh"
else
  gpu_build_run /tmp/bs39d "$D/build.txt" || exit 1
fi
B=/tmp/bs39d # s39d's build of simtlab run
SIMTLAB_RUN_CACHE=/tmp/rc43 timeout 150 $B/simtlab-run tests/run/device_new.cu --mode compare >"$D/device_new_compare.txt" 2>&1
echo "device_new compare rc=$?" | tee -a "$D/device_new_compare.txt"
grep -E 'device_new|every counter|some counters' "$D/device_new_compare.txt" | head -5
