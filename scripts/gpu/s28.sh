#!/usr/bin/env bash
# scripts/gpu/s28.sh - session 28's device call: why does the simulator run slower on the device
# machine (16 cores) than on the 2-core development machine? Session 27 saw flash v1 detailed at
# 5.1-6.0 s there against 2.6 s here with 2 workers (docs/NOTES.md, "On the device machine").
#  - the machine: cores, the CPU quota and affinity the process gets, the CPU model;
#  - lesson 4 flash v1 alone, counting and detailed, at 1, 2, 4, 8 and 16 workers, with
#    /usr/bin/time's wall, user and system seconds;
#  - the same in --mode compare (detailed, beside the GPU), 16 workers;
#  - bench_sim 1 --json (the machine's own parallel ceiling, spin_1t / spin_2t).
#   OUT=/dir [S28_CC=/usr/bin/gcc] bash scripts/gpu/s28.sh    (on the device machine, repository root)
set -u
OUT=${OUT:-/tmp/s28}
mkdir -p "$OUT"
root=$(pwd)
B=/tmp/b28
crit=$root/.dev/criterion
{ date -u; nproc; grep -m1 "model name" /proc/cpuinfo; grep -c ^processor /proc/cpuinfo;
  grep Cpus_allowed_list /proc/self/status; cat /sys/fs/cgroup/cpu.max 2>&1; cat /proc/loadavg;
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "${S28_CC:-${CC:-gcc}}" --version | head -1;
  env | grep -E '^OMP|^GOMP|^CC=' ; } > "$OUT/env.txt" 2>&1
[ -n "${S28_CC:-}" ] && export CC=$S28_CC
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" > "$OUT/build.txt" 2>&1
timeout 280 cmake --build $B -j16 --target lesson bench_sim >> "$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; exit 1; }
echo "build ok $(date -u +%T)"
run() { # label, env..., args...
  local label=$1; shift
  echo "=== $label"
  /usr/bin/time -f "TIME wall %e user %U sys %S" env "$@" 2>&1 | grep -E "attn_flash_v1 |TIME|error"
}
{
  for t in 1 2 4 8 16; do
    run "count t=$t" OMP_NUM_THREADS=$t timeout 60 $B/lesson 4 --mode sim --version v1
    run "detail t=$t" OMP_NUM_THREADS=$t timeout 60 $B/lesson 4 --mode sim --version v1 --detail
  done
  run "compare t=16" OMP_NUM_THREADS=16 timeout 60 $B/lesson 4 --mode compare --version v1
  run "detail t=16 again" OMP_NUM_THREADS=16 timeout 60 $B/lesson 4 --mode sim --version v1 --detail
  run "detail t=16 passive" OMP_NUM_THREADS=16 OMP_WAIT_POLICY=passive timeout 60 $B/lesson 4 --mode sim --version v1 --detail
  run "detail t=16 proc_bind" OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores timeout 60 $B/lesson 4 --mode sim --version v1 --detail
} > "$OUT/scaling.txt" 2>&1
cat "$OUT/scaling.txt"
(cd $B && OMP_NUM_THREADS=2 timeout 120 bench/bench_sim 1 --json > "$OUT/bench.json" 2> "$OUT/bench.err")
echo "bench rc=$?"
if command -v perf > /dev/null; then
  OMP_NUM_THREADS=16 timeout 60 perf record -g -o "$OUT/perf.data" $B/lesson 4 --mode sim --version v1 --detail > /dev/null 2>&1
  perf report -i "$OUT/perf.data" --stdio --no-children 2> /dev/null | head -60 > "$OUT/perf.txt"
  rm -f "$OUT/perf.data"
else
  echo "no perf" > "$OUT/perf.txt"
fi
