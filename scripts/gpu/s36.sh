#!/usr/bin/env bash
# scripts/gpu/s36.sh - session 36's device call. First nvcuda::wmma on the chip, for
# sim/run/include/mma.h: scripts/gpu/wmma_probe.cu's fragment layouts (wmma_layout.txt), its SASS
# (wmma_sass.txt: which load and store instructions each fragment takes), and ncu's requests,
# sectors and wavefronts of one fragment load or store from global and shared memory
# (wmma_patterns.csv; scripts/gpu/wmma_table.py makes it a table). Then what session 35 owed
# (scripts/gpu/s35.sh with S35_NAME=s35b: test_parity, and `--mode compare` on a launch that faults
# on the GPU, which must now say "no counters"), and with its build `simtlab run --mode compare`
# on tests/run/wmma.cu, examples/wmma_gemm.cu and tests/run/async_copy.cu (compare_*.txt).
#   OUT=/dir bash scripts/gpu/s36.sh     (on the device machine, repository root; carry .dev/criterion)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s36
gpu_outdir "$D"
nvcc -arch=sm_90 -std=c++17 -Iscripts/gpu -lineinfo -o /tmp/wmma_probe scripts/gpu/wmma_probe.cu >"$D/wmma_build.txt" 2>&1 ||
  { cat "$D/wmma_build.txt"; exit 1; }
cuobjdump -sass /tmp/wmma_probe >"$D/wmma_sass.txt" 2>&1
echo "sass rc=$? $(grep -c Function "$D/wmma_sass.txt") functions"
timeout 120 /tmp/wmma_probe layout >"$D/wmma_layout.txt" 2>&1
echo "layout rc=$?"; grep "^type" "$D/wmma_layout.txt"
timeout 120 /tmp/wmma_probe >"$D/wmma_run.txt" 2>&1
echo "patterns run rc=$?"; tail -1 "$D/wmma_run.txt"
m=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_ldsm.sum
m=$m,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum
timeout 300 ncu --metrics "$m" --csv /tmp/wmma_probe >"$D/wmma_patterns.csv" 2>"$D/wmma_ncu_err.txt"
echo "ncu rc=$? $(grep -c pattern_k "$D/wmma_patterns.csv") rows"
python3 scripts/gpu/wmma_table.py "$D/wmma_patterns.csv" >"$D/wmma_table.txt" 2>&1; cat "$D/wmma_table.txt"
S35_NAME=s35b bash "$(dirname "$0")/s35.sh"
for p in tests/run/wmma.cu examples/wmma_gemm.cu tests/run/async_copy.cu; do
  n=$(basename "$p" .cu)
  args=(); [ "$n" = wmma_gemm ] && args=(-- 64)
  SIMTLAB_RUN_CACHE=/tmp/rc36 timeout 300 /tmp/bs35/simtlab-run "$p" --mode compare --detail "${args[@]}" \
    >"$D/compare_$n.txt" 2>&1
  echo "$n compare rc=$?"; grep -E "correct|WRONG|differ|agree" "$D/compare_$n.txt" | head -12
done
