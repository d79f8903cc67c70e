#!/usr/bin/env bash
# bench/detail_memory.sh - detailed mode's peak memory against counting mode's,
# lesson by lesson at the largest shapes the lessons document (issue 12: within
# 2x). Prints one line per run and the ratio; a benchmark, not a test.
#   bench/detail_memory.sh [build/lesson]
set -u
L=${1:-$(dirname "$0")/../build/lesson}
[ -x "$L" ] || { echo "no lesson binary at $L (./simtlab lesson list builds it)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 2; }
peak() { # peak RSS in KB of one run, its rc
  /usr/bin/time -f "%M" -o /tmp/detail_memory.$$ "$L" "$@" >/dev/null 2>&1
  echo "$(cat /tmp/detail_memory.$$) $?"
}
printf "%-48s %12s %12s %7s\n" "lesson arguments" "count KB" "detail KB" "ratio"
while read -r args; do
  [ -z "$args" ] && continue
  read -r c rc1 <<<"$(peak $args)"
  read -r d rc2 <<<"$(peak $args --detail)"
  printf "%-48s %12s %12s %7s%s\n" "$args" "$c" "$d" "$(awk -v a="$c" -v b="$d" 'BEGIN{printf "%.2f", b/a}')" \
    "$([ "$rc1$rc2" = 00 ] || echo "  (rc $rc1/$rc2)")"
done <<'LIST'
2 --n 16777216
2 --n 16777216 --block 1024
3 --rows 512 --cols 16384
3 --rows 1 --cols 16777216 --block 32
4 --n 2048
4 --n 1024 --d 128 --causal
6 --rows 1823 --cols 16384
6 --n 16777216 --block 16384
LIST
rm -f /tmp/detail_memory.$$
