#!/usr/bin/env bash
# bench/instr_count.sh - what a change does to the simulator's work, counted, not timed: the
# instructions (valgrind's cachegrind) of fixed lesson 4 runs on one worker, the working tree
# against a base revision, both built here the same way. Wall times on a shared 2-core machine
# move by 30 % from run to run (docs/bench-sim.md); these counts move by less than 0.01 %, so a
# change of a few per cent on the per-access path shows, and so does a regression. It also checks
# that each run's report is the same on both sides (all but the CPU times). A benchmark, not a
# test: exit 0 unless a build or run fails or the reports differ.
#   bench/instr_count.sh [BASE_REV]        (default HEAD: the uncommitted change)
# Needs valgrind (apt-get install valgrind). Builds in $TMPDIR (or /tmp); about 10 minutes.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
base_rev=${1:-HEAD}
command -v valgrind >/dev/null || { echo "bench/instr_count.sh needs valgrind: apt-get install valgrind" >&2; exit 2; }
command -v cg_annotate >/dev/null || { echo "bench/instr_count.sh needs cg_annotate (valgrind's)" >&2; exit 2; }
git -C "$here" rev-parse --verify -q "$base_rev^{commit}" >/dev/null ||
  { echo "bench/instr_count.sh: '$base_rev' is no revision of $here (a commit, a tag, HEAD~1)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/instr_count.XXXXXX") || { echo "bench/instr_count.sh: no temporary directory" >&2; exit 1; }
cleanup() {
  git -C "$here" worktree remove --force "$work/base-src" >/dev/null 2>&1 || git -C "$here" worktree prune
  rm -rf "$work"
}
trap cleanup EXIT
git -C "$here" worktree add -f --detach "$work/base-src" "$base_rev" >/dev/null 2>&1 ||
  { echo "bench/instr_count.sh: cannot check out $base_rev" >&2; exit 1; }
# valgrind cannot reserve the device arena's 256 GiB of address space: 8 GiB here (sim/memory.c;
# a base from before the size could be set gets the same two lines in its copy)
grep -q '^#ifndef SIM_ARENA_BYTES' "$work/base-src/sim/memory.c" ||
  sed -i 's|^#define SIM_ARENA_BYTES .*|#ifndef SIM_ARENA_BYTES\n&\n#endif|' "$work/base-src/sim/memory.c"
grep -q '^#ifndef SIM_ARENA_BYTES' "$work/base-src/sim/memory.c" ||
  { echo "bench/instr_count.sh: $base_rev's sim/memory.c has no SIM_ARENA_BYTES to set (too old a base)" >&2; exit 1; }
# no -march=native (valgrind does not run AVX-512) and no GPU backend: the simulator alone
build() { # SRC DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DSIMTLAB_TESTS=OFF -DSIMTLAB_NATIVE=OFF -DSIMTLAB_CUDA=OFF \
    -DCMAKE_C_FLAGS="-DSIM_ARENA_BYTES=0x200000000ull" >"$2.log" 2>&1 &&
    cmake --build "$2" -j"$(nproc)" --target lesson >>"$2.log" 2>&1 && return 0
  cp "$2.log" "${TMPDIR:-/tmp}/instr_count-build.log" # $work goes at exit
  echo "bench/instr_count.sh: the build of $1 failed; see ${TMPDIR:-/tmp}/instr_count-build.log" >&2
  tail -5 "$2.log" >&2
  return 1
}
echo "building $base_rev and the working tree (in $work)" >&2
build "$work/base-src" "$work/base" || exit 1
build "$here" "$work/head" || exit 1
runs=("4 --mode sim --n 512"
      "4 --mode sim --version v1 --n 256 --detail"
      "4 --mode sim --version v2 --n 512 --detail")
status=0
printf "%-46s %16s %16s %8s  %s\n" "lesson arguments (1 worker)" "base instr" "head instr" "head/base" "report"
for r in "${runs[@]}"; do
  for side in base head; do
    echo "  $side: lesson $r" >&2
    # shellcheck disable=SC2086 # the arguments are this script's own list
    OMP_NUM_THREADS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$work/cg.$side" \
      "$work/$side/lesson" $r >"$work/out.$side" 2>"$work/err.$side" ||
      { echo "bench/instr_count.sh: lesson $r failed on the $side side:" >&2; tail -5 "$work/err.$side" >&2; exit 1; }
    grep -Eo 'I +refs: +[0-9,]+' "$work/err.$side" | tr -dc '0-9' >"$work/n.$side"
    [ -s "$work/n.$side" ] || { echo "bench/instr_count.sh: no instruction count in cachegrind's output ($side):" >&2
                                tail -5 "$work/err.$side" >&2; exit 1; }
    # the report without its CPU times (the columns after the last counter) and trailing blanks
    sed -E 's/ +[0-9]+\.[0-9]+( +[0-9.]+x fewer)? *$//; s/ +$//' "$work/out.$side" >"$work/rep.$side"
  done
  same=same
  cmp -s "$work/rep.base" "$work/rep.head" || { same=DIFFERENT; status=1; diff "$work/rep.base" "$work/rep.head" >&2; }
  b=$(cat "$work/n.base") h=$(cat "$work/n.head")
  printf "%-46s %16s %16s %8s  %s\n" "$r" "$b" "$h" "$(awk -v b="$b" -v h="$h" 'BEGIN{printf "%.4f", h/b}')" "$same"
  echo "    head's top functions: $(cg_annotate "$work/cg.head" 2>/dev/null | awk '/file:function/{f=1; next} f && /^ *[0-9]/{sub(/\(.*%\)/,""); printf "%s %s; ", $1, $2; if (++n == 4) exit}')"
done
exit $status
