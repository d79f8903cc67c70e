#!/usr/bin/env bash
# scripts/gpu/s44.sh - session 44's device call: tests/run/ptx_ldst.cu (ld, st and mov as inline
# PTX), graph_explicit.cu (a graph built node by node) and launch_kernel.cu built by nvcc and run on
# the chip (each checks itself: "...: correct"; ptx_ldst's misaligned and space modes must fail
# there too, graph_explicit's untyped mode runs there, its cycle mode fails), then `simtlab run --mode compare --detail` of it (the
# simulator's sectors and wavefronts of the PTX accesses beside the chip's counters), on any card;
# then, on an H200 only, session 39's owed compares (s39d.sh, which builds the same tree).
#   OUT=/dir bash scripts/gpu/s44.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s44
gpu_outdir "$D"
{
  nvcc -O2 -arch=sm_90 -o /tmp/pl44 tests/run/ptx_ldst.cu && for m in "" misaligned space; do
    /tmp/pl44 $m
    echo "ptx_ldst '$m' rc=$?"
  done
  nvcc -O2 -arch=sm_90 -o /tmp/ge44 tests/run/graph_explicit.cu && for m in "" untyped cycle; do
    /tmp/ge44 $m
    echo "graph_explicit '$m' rc=$?"
  done
  nvcc -O2 -arch=sm_90 -o /tmp/lk44 tests/run/launch_kernel.cu && /tmp/lk44
  echo "launch_kernel rc=$?"
} >"$D/chip.txt" 2>&1
cat "$D/chip.txt"
B=/tmp/bs39d # s39d's build directory, so that its build is reused
gpu_build_run $B "$D/build.txt" || exit 1
SIMTLAB_RUN_CACHE=/tmp/rc44 timeout 200 $B/simtlab-run tests/run/ptx_ldst.cu --mode compare --detail >"$D/ptx_ldst_compare.txt" 2>&1
echo "ptx_ldst compare rc=$?" | tee -a "$D/ptx_ldst_compare.txt"
grep -E 'ptx_ldst|every counter|some counters|differs' "$D/ptx_ldst_compare.txt" | head -20
if gpu_require_h200; then
  bash "$(dirname "$0")/s39d.sh"
fi
