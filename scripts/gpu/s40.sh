#!/usr/bin/env bash
# scripts/gpu/s40.sh - session 40's device call: what the chip and racecheck say of
# tests/run/spin_lock.cu, the spin lock the simulator's --detail now follows (acquire and release
# through atomicCAS/atomicExch and fences). (1) each mode built by nvcc, run plainly: the sums;
# (2) the shared-memory modes under compute-sanitizer's racecheck (--racecheck-report all): does it
# report the lock without fences, or the read outside the lock, or the fenced lock?; (3) the
# simulator's --detail on the same modes with this machine's g++ (its verdicts beside the chip's).
#   OUT=/dir bash scripts/gpu/s40.sh     (on the device machine, repository root)
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s40
gpu_outdir "$D"
export CC=/usr/bin/gcc OMP_NUM_THREADS=16
T=/tmp/s40
mkdir -p $T
R=$D/chip.txt
nvcc -O2 -arch=sm_90 -lineinfo -o $T/spin_lock tests/run/spin_lock.cu >>"$R" 2>&1 || { cat "$R"; exit 1; }
for m in shared volatile global nofence outside gnofence; do
  { echo "=== spin_lock $m: plain run"; timeout 60 $T/spin_lock $m; echo "rc=$?"; } >>"$R" 2>&1
done
for m in shared volatile nofence outside; do
  { echo "=== spin_lock $m: racecheck"
    timeout 200 compute-sanitizer --tool racecheck --racecheck-report all $T/spin_lock $m 2>&1 | head -30
  } >>"$R" 2>&1
done
cat "$R"
B=/tmp/bs40
gpu_build_run $B "$D/build.txt" || exit 1
S=$D/sim.txt
for m in shared volatile global nofence outside gnofence; do
  { echo "=== simtlab run --detail spin_lock $m"
    SIMTLAB_RUN_CACHE=/tmp/rc40 timeout 150 $B/simtlab-run tests/run/spin_lock.cu --detail -- $m 2>&1 |
      grep -E "race|spin_lock |in kernel|error" | cut -c1-400
  } >>"$S" 2>&1
done
cat "$S"
