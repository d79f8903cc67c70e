# scripts/gpu/sweep_runs.sh - sourced by the device scripts: the lesson commands of the compare
# sweep (docs/gpu/l2-run4: lesson 4 at N 256-8192, d 64 and 128, causal and not; lessons 2, 3, 6),
# in the order of its runs file, into the array SWEEP_RUNS; the full grids of the time model's
# validation (docs/gpu/timemodel-val: B 4, H 16) into FULL_GRID_RUNS.
SWEEP_RUNS=()
for n in 256 512 1024 2048 4096 8192; do
  for d in 64 128; do
    SWEEP_RUNS+=("4 --n $n --d $d" "4 --n $n --d $d --causal")
  done
done
SWEEP_RUNS+=("2" "2 --n 16777216" "3" "3 --rows 4096 --cols 4096" "6" "6 --n 16777216 --rows 4096 --cols 1024")
FULL_GRID_RUNS=()
for n in 1024 2048; do
  for d in 64 128; do
    FULL_GRID_RUNS+=("4 --n $n --d $d --batch 4 --heads 16" "4 --n $n --d $d --batch 4 --heads 16 --causal")
  done
done
