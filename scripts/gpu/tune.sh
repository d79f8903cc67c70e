#!/usr/bin/env bash
# scripts/gpu/tune.sh - flash v2 tuning on the device: builds the lesson with
# each variant of compile-time knobs (CUDA flags), prints ptxas's register and
# spill report for the v2 kernels, times v2 (and standard once) at B=4, H=16,
# d=64, N=4096 (medians of 10), and checks the counters of v2 at small shapes in
# --mode compare.
#   OUT=/dir scripts/gpu/tune.sh "" "-DSOME_KNOB" ...   (knobs reach nvcc only: the
#   simulator side of --mode compare keeps the default kernel)
# env: SASS=1 (opcode counts), NCU=1 (Nsight Compute of variant 0), COMPARE=1
# (counters at small shapes), PROBE=1 (shared-memory wavefront probe),
# EXTRA="--heads 15|--sram 96k" (more v2 timings of variant 0, one per |).
set -u
OUT=${OUT:-/tmp/simtlab-tune}
mkdir -p "$OUT"
root=$(pwd)
export OMP_NUM_THREADS=8
# the median of --repeats timed runs (not the per-kernel rows of the text
# report: those are the one checked launch, cold, without a warm-up)
median() {
  timeout 120 "$@" --json | python3 -c 'import json,sys
d = json.load(sys.stdin)
for v in d["cuda"]["versions"]:
    print("    %-8s %9.3f ms (median)  %s  check %s" % (v["name"], v["time_ms"], "+".join(k["name"] for k in v["kernels"]), "PASS" if v["check"]["pass"] else "FAIL"))'
}
i=0
for flags in "$@"; do
  B=/tmp/simtlab-tune-$i
  {
    echo "##### variant $i: $flags"
    cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DCMAKE_CUDA_FLAGS="$flags -Xptxas -v" >/dev/null 2>&1
    cmake --build $B -j16 --target lesson 2>&1 | awk '/Compiling entry/ {match($0,/attn_[a-z0-9_]+/); n=substr($0,RSTART,RLENGTH)} /spill stores/ {match($0,/[0-9]+ bytes spill stores/); sp=substr($0,RSTART,RLENGTH)} /Used [0-9]+ registers/ {match($0,/Used [0-9]+ registers/); if (n ~ /v2/ && !seen[n]++) print n, substr($0,RSTART,RLENGTH), sp}' 
    L=$B/lesson
    if [ -n "${SASS:-}" ]; then
      cuobjdump -sass -fun '_Z17attn_flash_v2_d64PfS_S_S_PKfS1_S1_iifiii' $L > "$OUT/sass-$i.txt" 2>&1
      echo "SASS opcodes of attn_flash_v2_d64 (static count):"
      grep -oE '^ +/\*[0-9a-f]{4}\*/ +[@!P0-9 ]*[A-Z][A-Z0-9_.]+' "$OUT/sass-$i.txt" | awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -25 | paste - - - - -
    fi
    [ $i = 0 ] && median $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n 4096 --no-counters --repeats 10 --version standard
    if [ -n "${COMPARE:-}" ]; then
      for a in "--n 256 --d 64" "--n 256 --d 64 --v2-splits 3" "--n 256 --d 16" "--n 256 --d 128" "--n 200 --causal --d 32"; do
        echo "--- compare $a"; timeout 120 $L 4 --mode compare $a --version v2 --repeats 1 | grep -E "^    attn_flash|^PASS|^FAIL"
      done
    fi
    if [ -n "${NCU:-}" ] && [ $i = 0 ]; then
      ncu --kernel-name regex:attn_flash_v2 --launch-count 1 --section SpeedOfLight --section Occupancy \
        --section SchedulerStats --section WarpStateStats --section InstructionStats --section LaunchStats \
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
        --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio \
        $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n 4096 --no-counters --repeats 0 --version v2 2>&1 | grep -vE "^==PROF==|^    -{5}" | sed -n '/attn_flash_v2/,$p' | grep -vE "^ +(OPT|INF|WRN) |^          " | head -150
    fi
    if [ -n "${EXTRA:-}" ] && [ $i = 0 ]; then # extra v2 timings of variant 0: EXTRA="--heads 15|--sram 96k"
      IFS='|' read -ra xs <<<"$EXTRA"
      for x in "${xs[@]}"; do
        echo "--- v2 at N=4096 with $x"
        median $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n 4096 --no-counters --repeats 10 --version v2 $x
      done
    fi
    for n in 4096 1024; do
      echo "--- v2 at N=$n"
      median $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n $n --no-counters --repeats 10 --version v2
    done
  } >>"$OUT/tune.txt" 2>&1
  i=$((i+1))
done
if [ -n "${PROBE:-}" ]; then
  nvcc -arch=sm_90 -o /tmp/lds "$root/scripts/gpu/lds_patterns.cu" &&
    ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum /tmp/lds >"$OUT/lds.csv" 2>&1
  python3 - "$OUT/lds.csv" >>"$OUT/tune.txt" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
hdr = rows[0]; ki = hdr.index("Kernel Name"); mi = hdr.index("Metric Name"); vi = hdr.index("Metric Value"); ii = hdr.index("ID")
vals = {}
for r in rows[1:]:
    m = r[mi]; key = ("wf_" if "wavefronts" in m else "bc_") + ("ld" if "op_ld" in m else "st")
    vals.setdefault(int(r[ii]), {})[key] = r[vi]
names = {}
for r in rows[1:]:
    names[int(r[ii])] = r[ki]
for i in sorted(vals):
    if "probe" in names[i] and "store" not in names[i]:
        w = (4, 8, 16)[i // 16]; print("width", w, "pattern", i % 16, vals[i])
    else:
        print(names[i][:40], vals[i])
PY
fi
cat "$OUT/tune.txt"
