#!/usr/bin/env bash
# scripts/gpu/rounds.sh - flash v2 variants timed against each other in
# interleaved rounds, on the device, in one call.
#   OUT=/dir scripts/gpu/rounds.sh "label|nvcc flags|lesson args" ...
# e.g. "base||" "knob|-DSOME_KNOB|" "96k||--sram 96k" (the knobs of the committed
# rounds-*.txt logs, V2_EXP2F, V2_QK2, V2_DB, V2_CPASYNC, V2_PF, are in commit
# 20755f9's attention.cu, not in the current one). Builds each distinct set of
# flags once (in parallel; the flags reach nvcc only), prints ptxas's registers
# and spills and the SASS opcode counts of attn_flash_v2_d64, then runs ROUNDS
# rounds (default 3) of: standard once, then every variant, each one process,
# B=4 H=16 d=64 N=4096, the median of 20 timed runs (L2 flushed), result checked.
# Everything goes to $OUT/rounds.txt (SASS_KEEP=1: the first variant's
# SASS of attn_flash_v2_d64 to $OUT/sass-v2-d64.txt).
set -u
OUT=${OUT:-/tmp/simtlab-rounds}
mkdir -p "$OUT"
root=$(pwd)
export OMP_NUM_THREADS=8
R=$OUT/rounds.txt
declare -A dir
n=0
for v in "$@"; do
  IFS='|' read -r label flags args <<<"$v"
  [ -n "${dir[x$flags]:-}" ] && continue
  B=/tmp/simtlab-rounds-$n
  dir[x$flags]=$B
  n=$((n + 1))
  (cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_FLAGS="$flags -Xptxas -v" >/dev/null 2>&1 &&
    cmake --build $B -j4 --target lesson >$B.log 2>&1 || echo "build failed: $flags") &
done
wait
first_dir() { IFS='|' read -r a f b <<<"$1"; echo "${dir[x$f]}"; }
{
  date -u +"# %Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  for key in "${!dir[@]}"; do
    flags=${key#x}
    B=${dir[$key]}
    echo "## build '$flags'"
    awk '/Compiling entry/ {match($0,/attn_[a-z0-9_]+/); k=substr($0,RSTART,RLENGTH)}
         /spill stores/ {match($0,/[0-9]+ bytes spill stores/); sp=substr($0,RSTART,RLENGTH)}
         /Used [0-9]+ registers/ {match($0,/Used [0-9]+ registers/); if (k ~ /v2_d(64|128)/ && !seen[k]++) print "  " k, substr($0,RSTART,RLENGTH), sp}' $B.log
    cuobjdump -sass -fun '_Z17attn_flash_v2_d64PfS_S_S_PKfS1_S1_iifiii' $B/lesson >$B.sass 2>&1
    [ -n "${SASS_KEEP:-}" ] && [ "$B" = "$(first_dir "$1")" ] && cp $B.sass "$OUT/sass-v2-d64.txt"
    grep -oE '^ +/\*[0-9a-f]{4}\*/ +[@!P0-9 ]*[A-Z][A-Z0-9_.]+' $B.sass | awk '{print $NF}' | sed 's/\..*//' |
      sort | uniq -c | sort -rn | head -15 | paste - - - - - | sed 's/^/  /'
  done
} >"$R" 2>&1
t() { # t <binary> <lesson args...>: "median ms PASS|FAIL"
  timeout 120 "$@" --mode cuda --batch 4 --heads 16 --d 64 --n 4096 --no-counters --repeats 20 --json |
    python3 -c 'import json,sys
v = json.load(sys.stdin)["cuda"]["versions"][0]
print("%8.3f ms  %s" % (v["time_ms"], "PASS" if v["check"]["pass"] else "FAIL"))' 2>&1
}
first=$(first_dir "$1")
for r in $(seq 1 "${ROUNDS:-3}"); do
  echo "round $r standard:            $(t $first/lesson 4 --version standard)" >>"$R"
  for v in "$@"; do
    IFS='|' read -r label flags args <<<"$v"
    # shellcheck disable=SC2086
    printf 'round %s %-20s %s\n' "$r" "$label:" "$(t ${dir[x$flags]}/lesson 4 --version v2 $args)" >>"$R"
  done
done
nvidia-smi --query-gpu=clocks.current.sm,temperature.gpu,power.draw --format=csv,noheader | sed 's/^/# after: /' >>"$R"
cat "$R"
