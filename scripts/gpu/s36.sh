#!/usr/bin/env bash
# scripts/gpu/s36.sh - session 36's device call. First nvcuda::wmma on the chip, for
# sim/run/include/mma.h: scripts/gpu/wmma_probe.cu's fragment layouts (wmma_layout.txt), its SASS
# (wmma_sass.txt: which load and store instructions each fragment takes), and ncu's requests,
# sectors and wavefronts of one fragment load or store from global and shared memory
# (wmma_patterns.csv; scripts/gpu/wmma_table.py makes it a table). Then what session 35 owed
# (scripts/gpu/s35.sh with S35_NAME=s35b: test_parity, and `--mode compare` on a launch that faults
# on the GPU, which must now say "no counters"), and with its build `simtlab run --mode compare`
# on tests/run/wmma.cu, examples/wmma_gemm.cu, tests/run/async_copy.cu, and (session 37) the
# pipelines of tests/run/async_race.cu and the cuda::barrier kernels of tests/run/cuda_barrier.cu
# (compare_*.txt: do they build with nvcc and pass on the chip).
#   OUT=/dir bash scripts/gpu/s36.sh     (on the device machine, repository root; carry .dev/criterion)
set -u
# the wmma probe (its own script, which a call with little time left runs alone)
bash "$(dirname "$0")/s36b.sh"
D=${OUT:?}/s36
export PATH="$PATH:/usr/local/cuda/bin" # nvcc and ncu for compare mode (env.sh gpu_outdir sets it in the child scripts only)
S35_NAME=s35b bash "$(dirname "$0")/s35.sh"
for p in tests/run/wmma.cu examples/wmma_gemm.cu tests/run/async_copy.cu tests/run/async_race.cu tests/run/cuda_barrier.cu; do
  n=$(basename "$p" .cu)
  args=(); [ "$n" = wmma_gemm ] && args=(-- 64)
  SIMTLAB_RUN_CACHE=/tmp/rc36 timeout 300 /tmp/bs35/simtlab-run "$p" --mode compare --detail "${args[@]}" \
    >"$D/compare_$n.txt" 2>&1
  echo "$n compare rc=$?"; grep -E "correct|WRONG|differ|agree" "$D/compare_$n.txt" | head -12
done
