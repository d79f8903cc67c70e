#!/usr/bin/env bash
# scripts/gpu/s30.sh - one device call (session 30): what an L2 request costs by kind, for the
# time model's L2 term (sim/timemodel.c; docs/NOTES.md "Session 30").
#   OUT=/dir bash scripts/gpu/s30.sh      (on the device machine, from the repository root)
# A. scripts/gpu/l2req_probe.cu: coalesced, sector-wise and line-wise reads and stores of a
#    buffer that stays in L2, timed with events (s30/l2req.txt) and under Nsight Compute with the
#    L2 kept warm (s30/l2req.csv); the L2's metric names on this chip (s30/lts-metrics.txt).
# B. examples/transpose.cu at n = 1024, 2048, 4096, 8192 under Nsight Compute on a flushed L2,
#    with the L2's requests (s30/transpose-<n>.csv): the naive transpose's time against its stores.
# Everything comes back as one tarball, $OUT/s30.tgz.
set -u
D=/tmp/s30
. "$(dirname "$0")/env.sh"
gpu_outdir "$D"
M=gpu__time_duration.sum,sm__cycles_elapsed.max,lts__cycles_elapsed.avg,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
M=$M,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed
nvcc -O2 -lineinfo -std=c++17 -arch=sm_90 -o /tmp/l2req scripts/gpu/l2req_probe.cu >"$D/build.txt" 2>&1 &&
  nvcc -O2 -lineinfo -std=c++17 -arch=sm_90 -o /tmp/transpose examples/transpose.cu >>"$D/build.txt" 2>&1 ||
  { cat "$D/build.txt"; exit 1; }
# PROBE=0 skips A; TRANSPOSE_N lists B's sizes (the second call: "1280 1536 1792 2304 2560 3072 3584")
if [ "${PROBE:-1}" = 1 ]; then
timeout 120 /tmp/l2req >"$D/l2req.txt" 2>&1
echo "l2req plain rc=$?" | tee -a "$D/log.txt"
cat "$D/l2req.txt"
timeout 120 /tmp/l2req >"$D/l2req-2.txt" 2>&1
echo "l2req plain again rc=$?" | tee -a "$D/log.txt"
timeout 240 ncu --cache-control none --clock-control none --csv --page raw --print-units base --metrics "$M" \
  /tmp/l2req 2 1 >"$D/l2req.csv" 2>"$D/l2req.err"
echo "l2req ncu rc=$?" | tee -a "$D/log.txt"
ncu --query-metrics --chip gh100 2>/dev/null | grep -E '^lts__' >"$D/lts-metrics.txt"
fi
for n in ${TRANSPOSE_N:-1024 2048 4096 8192}; do
  timeout 240 ncu --cache-control all --clock-control none --csv --page raw --print-units base --metrics "$M" \
    /tmp/transpose $n >"$D/transpose-$n.csv" 2>"$D/transpose-$n.err"
  echo "transpose-$n ncu rc=$?" | tee -a "$D/log.txt"
done
echo "done" | tee -a "$D/log.txt"
tar czf "${OUT:-/tmp/out}/s30.tgz" -C /tmp s30
