#!/usr/bin/env bash
# scripts/gpu/s38.sh - session 38's device call: the wmma fragments as the chip lays them out and
# loads them (sim/run/wmma.c, from session 37's probe), checked on the chip. `simtlab run --mode
# compare --detail` on tests/run/wmma.cu (11 launches: every shape and type), tests/run/wmma_layout.cu
# (23 fragment types against the H200's table: the program checks itself on both sides),
# examples/wmma_gemm.cu at n = 64 and 128 (the closed forms of examples/README.md), and
# tests/run/async_copy.cu (count_k now zeroes its array's second half itself: CUDA's
# cg::memcpy_async of element counts copies min(dst, src) and zeroes nothing) and
# tests/run/async_race.cu, and tests/run/ptx_cp_async.cu and ptx_mma.cu (cp.async, ldmatrix and
# mma.sync as inline PTX, translated by the rewriter: valid CUDA? right on the chip, whose
# fragments the test packs by PTX's layout? the same counters?). Then pipe_k's SASS and ncu's LDGSTS counters, for its 512 load sectors
# against the simulator's 256 (half its copies float4 pointers with a byte count).
#   OUT=/dir bash scripts/gpu/s38.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s38
gpu_outdir "$D"
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
B=/tmp/bs38
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  >"$D/build.txt" 2>&1
timeout 400 cmake --build $B -j16 --target simtlab-run simtlab_runtime simtlab_cublas_kernels \
  >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
echo "build ok $(date -u +%T)"
run_compare() { # NAME FILE [args...]
  local n=$1 p=$2
  shift 2
  SIMTLAB_RUN_CACHE=/tmp/rc38 timeout 300 $B/simtlab-run "$p" --mode compare --detail "$@" >"$D/compare_$n.txt" 2>&1
  echo "$n compare rc=$?"
  grep -E "correct|WRONG|H200's|differ|agree" "$D/compare_$n.txt" | head -14
}
run_compare wmma tests/run/wmma.cu
run_compare wmma_layout tests/run/wmma_layout.cu
run_compare wmma_gemm64 examples/wmma_gemm.cu -- 64
run_compare wmma_gemm128 examples/wmma_gemm.cu -- 128
run_compare async_copy tests/run/async_copy.cu
run_compare async_race tests/run/async_race.cu
run_compare ptx_cp_async tests/run/ptx_cp_async.cu
run_compare ptx_mma tests/run/ptx_mma.cu
# pipe_k: which instructions its two kinds of cuda::memcpy_async become, and what ncu counts
nvcc -arch=sm_90 -o /tmp/ac38 tests/run/async_copy.cu >"$D/pipe_k.txt" 2>&1
cuobjdump -sass -fun pipe_k /tmp/ac38 2>&1 | grep -E "Function|LDG|STS|LDS|LDGSTS|STG|BAR|ARRIVE|DEPBAR|BRA|ISETP" \
  | sed 's#/\* 0x[0-9a-f]* \*/##' >>"$D/pipe_k.txt"
ncu --kernel-name regex:pipe_k --csv --metrics \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,smsp__inst_executed_op_ldgsts.sum,smsp__inst_executed_op_global_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
  /tmp/ac38 >>"$D/pipe_k.txt" 2>&1
echo "pipe_k rc=$?"; grep -E "LDGSTS|LDG|sectors|requests|inst_executed" "$D/pipe_k.txt" | head -30
