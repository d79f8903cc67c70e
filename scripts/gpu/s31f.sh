#!/usr/bin/env bash
# scripts/gpu/s31f.sh - one device call (session 31): nvcc's warp aggregation of atomics
# (scripts/gpu/atomic_aggr_probe.cu's SASS), then third-party programs in --mode compare
# (scripts/gpu/s31c.sh, LIST and TAG as there). $OUT/s31f.tgz holds s31f/.
#   OUT=/dir LIST=... TAG=... bash scripts/gpu/s31f.sh   (on the device machine, repository root)
set -u
D=/tmp/s31f
. "$(dirname "$0")/env.sh"
gpu_outdir "$D"
nvcc -O2 -arch=sm_90 -cubin -o /tmp/aggr.cubin scripts/gpu/atomic_aggr_probe.cu >"$D/build.txt" 2>&1 &&
  cuobjdump -sass /tmp/aggr.cubin | grep -E "Function|ATOM|RED|VOTE|POPC|FLO|MATCH|REDUX|S2R" >"$D/aggr.sass.txt"
cat "$D/aggr.sass.txt"
tar czf "${OUT:-/tmp/out}/s31f.tgz" -C /tmp s31f
if [ -n "${LIST:-}" ]; then bash "$(dirname "$0")/s31c.sh"; fi
