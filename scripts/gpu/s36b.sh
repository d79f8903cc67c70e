#!/usr/bin/env bash
# scripts/gpu/s36b.sh - the short form of s36.sh for a call with little device time left: only the
# wmma probe (layouts, SASS, ncu's counts of each fragment load and store), into $OUT/s36.
#   OUT=/dir bash scripts/gpu/s36b.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s36
gpu_outdir "$D"
nvcc -arch=sm_90 -std=c++17 -Iscripts/gpu -lineinfo -o /tmp/wmma_probe scripts/gpu/wmma_probe.cu >"$D/wmma_build.txt" 2>&1 ||
  { cat "$D/wmma_build.txt"; exit 1; }
timeout 60 /tmp/wmma_probe layout >"$D/wmma_layout.txt" 2>&1
echo "layout rc=$?"
cuobjdump -sass /tmp/wmma_probe >"$D/wmma_sass.txt" 2>&1
echo "sass rc=$?"
m=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum
m=$m,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum
timeout 150 ncu --metrics "$m" --csv /tmp/wmma_probe >"$D/wmma_patterns.csv" 2>"$D/wmma_ncu_err.txt"
echo "ncu rc=$?"
python3 scripts/gpu/wmma_table.py "$D/wmma_patterns.csv" >"$D/wmma_table.txt" 2>&1; cat "$D/wmma_table.txt"
grep "^type" "$D/wmma_layout.txt"
