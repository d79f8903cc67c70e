#!/usr/bin/env bash
# scripts/gpu/wlines.sh - scripts/gpu/wlines_probe.cu under Nsight Compute, caches left alone
# between launches (issue 15, session 21: does the L2 keep written lines as long as read ones?).
#   OUT=/dir bash scripts/gpu/wlines.sh     (on the device machine, from the repository root)
# Results in $OUT/wl: env.txt, plain.txt (the probe's own "launch <i> <what> <f> <MB>" lines,
# one a launch in launch order), wl.csv (ncu's raw page: DRAM read and write bytes and the time
# of each launch), ncu.txt (ncu's log). The simulator's side, on any machine:
#   SIMTLAB_L2_COLD=0 ./simtlab run scripts/gpu/wlines_probe.cu --arch <sm_90|h200> --json sim.json
set -u
OUT=${OUT:-/tmp/simtlab-wl}
D=$OUT/wl
mkdir -p "$D"
. "$(dirname "$0")/env.sh"
gpu_env >"$D/env.txt" 2>&1
nvcc -arch=sm_90 -O2 -o /tmp/wlines_probe scripts/gpu/wlines_probe.cu >"$D/build.txt" 2>&1 || { cat "$D/build.txt"; exit 1; }
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
timeout 400 ncu --cache-control none --clock-control none --metrics $M -o /tmp/wl -f /tmp/wlines_probe \
  >"$D/plain.txt" 2>"$D/ncu.txt"
echo "wlines rc=$?"
ncu --import /tmp/wl.ncu-rep --csv --page raw --print-units base >"$D/wl.csv" 2>>"$D/ncu.txt"
grep -c . "$D/wl.csv"
