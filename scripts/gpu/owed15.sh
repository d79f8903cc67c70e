#!/usr/bin/env bash
# scripts/gpu/owed15.sh - issue 15's owed H200 runs in one device call (session 22): the flushed
# hit-rate sweep (l2.sh with the lookup-miss metrics), flash v1's full grid and the sweep's one
# miss, N 512 d 64 causal (flash_v1_probe.sh, five runs each), and the written-lines probe
# (wlines.sh). Only on an H200: on any other card it prints the card and stops (the H100's
# figures are in docs/gpu/h100-*), unless ANY_CARD=1. Results: $OUT/owed15.tgz (l2/, v1p/, wl/).
#   OUT=/dir bash scripts/gpu/owed15.sh     (on the device machine, from the repository root)
set -u
OUT=${OUT:-/tmp/simtlab-owed15}
mkdir -p "$OUT"
. "$(dirname "$0")/env.sh"
gpu_require_h200 || exit 3
W=/tmp/owed15
mkdir -p $W
t0=$(date +%s)
METRICS=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum \
  CCS=all SKIP_PROBE=1 OUT=$W timeout 260 bash scripts/gpu/l2.sh
echo "l2 sweep rc=$? at $(($(date +%s) - t0)) s"
tar czf "$OUT/owed15.tgz" -C $W .
SHAPES="--n 1024 --d 64 --batch 4 --heads 16|--n 512 --d 64 --causal" REPS=5 OUT=$W timeout 170 bash scripts/gpu/flash_v1_probe.sh | tail -12
echo "v1 probe rc=$? at $(($(date +%s) - t0)) s"
tar czf "$OUT/owed15.tgz" -C $W .
OUT=$W timeout 150 bash scripts/gpu/wlines.sh
echo "wlines rc=$? at $(($(date +%s) - t0)) s"
tar czf "$OUT/owed15.tgz" -C $W .
