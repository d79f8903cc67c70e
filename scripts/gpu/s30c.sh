#!/usr/bin/env bash
# scripts/gpu/s30c.sh - one device call (session 30): the examples at two sizes each on a flushed
# L2 (GPU time, DRAM bytes, the L2's requests), as held-out kernels for the time model's session-30
# terms (the L2's requests, 40 bytes in flight without barriers), which were fitted to the
# transposes, column_sums and matmul_naive. $OUT/s30c.tgz holds s30c/<example>-<args>.csv.
#   OUT=/dir bash scripts/gpu/s30c.sh      (on the device machine, from the repository root)
set -u
D=/tmp/s30c
. "$(dirname "$0")/env.sh"
gpu_outdir "$D"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_requests_srcunit_tex_op_read.sum
M=$M,lts__t_requests_srcunit_tex_op_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
for e in vector_add reduce histogram matmul coalescing; do
  nvcc -O2 -lineinfo -std=c++17 -arch=sm_90 -o /tmp/$e examples/$e.cu >>"$D/build.txt" 2>&1 || { cat "$D/build.txt"; exit 1; }
done
prof() { # prof <name> <binary> <args...>
  local name=$1; shift
  timeout 240 ncu --cache-control all --clock-control none --csv --page raw --print-units base --metrics "$M" \
    "$@" >"$D/$name.csv" 2>"$D/$name.err"
  echo "$name ncu rc=$?" | tee -a "$D/log.txt"
}
prof vector_add-1048576 /tmp/vector_add 1048576
prof vector_add-16777216 /tmp/vector_add 16777216
prof reduce-4194304 /tmp/reduce 4194304
prof reduce-67108864 /tmp/reduce 67108864
prof histogram-4194304 /tmp/histogram 4194304 64
prof histogram-16777216 /tmp/histogram 16777216 1024
prof matmul-512 /tmp/matmul 512
prof matmul-2048 /tmp/matmul 2048
prof coalescing-2048-16777216 /tmp/coalescing 2048 16777216
echo "done" | tee -a "$D/log.txt"
tar czf "${OUT:-/tmp/out}/s30c.tgz" -C /tmp s30c
