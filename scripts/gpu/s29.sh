#!/usr/bin/env bash
# scripts/gpu/s29.sh - one device call (session 29): GPU times and L1 counters of kernels that
# move the same bytes through DRAM but different sectors through the L1, for the time model's
# L1 term (sim/timemodel.c; docs/NOTES.md "Session 29").
#   OUT=/dir bash scripts/gpu/s29.sh      (on the device machine, from the repository root)
# A. examples/coalescing.cu (row_sums, column_sums, strided s = 1..32) at n = 2048 ... 16384,
#    built by nvcc -O2 -arch=sm_90, run plainly (its own event times) and under Nsight Compute
#    on a flushed L2 with free clocks (as docs/gpu/l2-run4 was measured): s29/coal-<n>.csv in $OUT/s29.tgz.
# B. The other examples (transpose n = 1024 and 4096, matmul n = 256 and 1024): held-out kernels
#    for the fit, the same way: s29/<name>-<n>.csv.
#    A third pass has the L2's requests and sectors (lts__*): s29/<name>-m3.csv.
# C. The L1's metric names on this chip (l1tex__*) for whoever refines the term: s29/l1tex-metrics.txt.
set -u
D=/tmp/s29 # many files: they come back as one tarball, $OUT/s29.tgz
rm -rf "$D"
mkdir -p "$D" "${OUT:-/tmp/out}"
. "$(dirname "$0")/env.sh"
{ gpu_env; nproc; } >"$D/env.txt" 2>&1
cat "$D/env.txt"
export PATH="$PATH:/usr/local/cuda/bin"
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum
M=$M,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.per_cycle_active
M2=l1tex__data_pipe_lsu_wavefronts_mem_lsu.sum,l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum
M2=$M2,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__m_xbar2l1tex_read_sectors_mem_lsu.sum
M3=gpu__time_duration.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum
M3=$M3,lts__t_sectors_srcunit_tex_op_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed
M3=$M3,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_requests.sum
prof() { # prof <name> <binary> <args...>: plain run, then the metrics, then the optional ones
  local name=$1; shift
  timeout 120 "$@" >"$D/$name-plain.txt" 2>&1
  echo "$name plain rc=$?" | tee -a "$D/log.txt"
  timeout 240 ncu --cache-control all --clock-control none --csv --page raw --print-units base --metrics "$M" \
    "$@" >"$D/$name.csv" 2>"$D/$name.err"
  echo "$name ncu rc=$?" | tee -a "$D/log.txt"
  timeout 120 ncu --cache-control all --clock-control none --csv --page raw --print-units base --metrics "$M2" \
    "$@" >"$D/$name-m2.csv" 2>"$D/$name-m2.err"
  echo "$name ncu2 rc=$?" | tee -a "$D/log.txt"
  timeout 120 ncu --cache-control all --clock-control none --csv --page raw --print-units base --metrics "$M3" \
    "$@" >"$D/$name-m3.csv" 2>"$D/$name-m3.err"
  echo "$name ncu3 rc=$?" | tee -a "$D/log.txt"
}
nvcc -O2 -lineinfo -std=c++17 -arch=sm_90 -o /tmp/coal examples/coalescing.cu >"$D/build.txt" 2>&1 &&
  nvcc -O2 -lineinfo -std=c++17 -arch=sm_90 -o /tmp/transpose examples/transpose.cu >>"$D/build.txt" 2>&1 &&
  nvcc -O2 -lineinfo -std=c++17 -arch=sm_90 -o /tmp/matmul examples/matmul.cu >>"$D/build.txt" 2>&1 ||
  { cat "$D/build.txt"; exit 1; }
# COAL="n:m ..." and OTHERS=0 select (session 29's second call: COAL="4096:1048576 4096:4194304" OTHERS=0)
for nm in ${COAL:-2048:4194304 4096:4194304 8192:4194304 16384:4194304}; do
  n=${nm%%:*} m=${nm##*:}
  if [ "$m" = 4194304 ]; then prof coal-$n /tmp/coal "$n" "$m"; else prof coal-$n-$m /tmp/coal "$n" "$m"; fi
done
if [ "${OTHERS:-1}" = 1 ]; then
  for n in 1024 4096; do prof transpose-$n /tmp/transpose $n; done
  for n in 256 1024; do prof matmul-$n /tmp/matmul $n; done
fi
ncu --query-metrics --chip gh100 2>/dev/null | grep -E '^l1tex__(t_|data_|m_)' >"$D/l1tex-metrics.txt"
echo "done" | tee -a "$D/log.txt"
tar czf "${OUT:-/tmp/out}/s29.tgz" -C /tmp s29
