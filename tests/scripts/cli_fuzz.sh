#!/usr/bin/env bash
# tests/scripts/cli_fuzz.sh - the CLI fuzz of issue 12: every flag of every lesson (1-7, read
# from `lesson N --help`'s usage line) with bad values: negative, zero, 2^31, 2^63, 1e30,
# non-numeric, empty, missing, repeated, unknown (flags without a value: repeated, given a
# value, unknown). Each run must exit 0, 1 or 2 (no signal: no rc >= 128), finish within
# the per-run timeout (`timeout`, default 60 s), and an exit 2 must name the flag on stderr.
# Some runs must be refused (exit 2): a repeated, empty, missing or unknown flag, a value
# given to a flag that takes none, and, for a numeric flag (metavar other than PATH, FILE,
# FILE.cu, ARCH, NAME=RANGE or a list of choices), 2^63, 1e30, abc, ' 5', '+5' and 0x10.
#
#   tests/scripts/cli_fuzz.sh LESSON [TABLE.md]
#     LESSON    the lesson executable (build/lesson)
#     TABLE.md  where to write the table (flag, value, rc, first line of the message);
#               docs/cli-fuzz.md is this script's output:
#               tests/scripts/cli_fuzz.sh build/lesson docs/cli-fuzz.md
#   CLI_FUZZ_TIMEOUT  seconds per run (default 60)
# Exit 0 when every run passed, 1 otherwise (the failures are listed on stderr).
# Runs in a scratch directory (paths such as "0" or "abc" given to --csv land there).
# Values are passed as argv elements; nothing is evaluated by a shell.
set -u
LESSON=${1:?usage: cli_fuzz.sh LESSON [TABLE.md]}
TABLE=${2:-}
PER_RUN=${CLI_FUZZ_TIMEOUT:-60}
case $LESSON in /*) ;; *) LESSON=$PWD/$LESSON ;; esac
case $TABLE in /* | "") ;; *) TABLE=$PWD/$TABLE ;; esac
[ -x "$LESSON" ] || { echo "cli_fuzz.sh: $LESSON is not an executable" >&2; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/simtlab-cli-fuzz-XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1

# small sizes beside the fuzzed flag, so that a value that is accepted runs quickly
base_args() {
    case $1 in
    2) echo "--n 1000" ;;
    3) echo "--rows 2 --cols 64" ;;
    4) echo "--n 16 --d 16 --heads 1" ;;
    5) echo "--chunks 2 --chunk-bytes 4096 --iters 4" ;;
    6) echo "--n 1000 --rows 4 --cols 64" ;;
    7) echo "--n 16 --d 16 --heads 1" ;;
    *) echo "" ;;
    esac
}

rows=()
failures=()
runs=0
# run LESSON_NUMBER FLAG VALUE_LABEL MUST_REFUSE ARGS...: one run, checked and recorded
run() {
    local n=$1 flag=$2 label=$3 must_refuse=$4
    shift 4
    local base=() b
    read -r -a b <<<"$(base_args "$n")"
    local i=0
    while [ $i -lt ${#b[@]} ]; do # drop the fuzzed flag (and its value) from the base
        if [ "${b[$i]}" = "--$flag" ]; then
            i=$((i + 2))
            continue
        fi
        base+=("${b[$i]}")
        i=$((i + 1))
    done
    local out err rc
    out=$(timeout "$PER_RUN" "$LESSON" "$n" "${base[@]}" "$@" 2>"$scratch/err" </dev/null)
    rc=$?
    err=$(cat "$scratch/err")
    runs=$((runs + 1))
    local first
    if [ $rc -eq 0 ]; then first=$(printf '%s\n' "$out" | head -n 1); else first=$(printf '%s\n' "$err" | head -n 1); fi
    [ -n "$first" ] || first=$(printf '%s\n%s\n' "$err" "$out" | grep -m1 . || true)
    local verdict=ok
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        verdict="TIMEOUT (over ${PER_RUN} s)"
    elif [ $rc -ge 128 ]; then
        verdict="SIGNAL $((rc - 128))"
    elif [ $rc -gt 2 ]; then
        verdict="EXIT $rc (want 0, 1 or 2)"
    elif [ $rc -eq 2 ] && ! grep -qF -- "--$flag" <<<"$err"; then
        verdict="exit 2 without naming --$flag"
    elif [ "$must_refuse" = 1 ] && [ $rc -ne 2 ]; then
        verdict="exit $rc: accepted, must be refused (exit 2)"
    fi
    local shown=${first//|/\\|}
    shown=${shown:0:160}
    rows+=("| $n | --$flag | $label | $rc | ${shown//\`/\'} |")
    if [ "$verdict" != ok ]; then
        failures+=("lesson $n --$flag $label: $verdict: $first")
    fi
}

for n in ${CLI_FUZZ_LESSONS:-1 2 3 4 5 6 7}; do # CLI_FUZZ_LESSONS: a subset, for a quick run
    usage=$("$LESSON" "$n" --help 2>&1 | head -n 1)
    # [--name METAVAR] takes a value, [--name] does not
    while read -r opt; do
        [ -n "$opt" ] || continue
        name=${opt%% *}
        name=${name#--}
        if [ "$opt" = "--$name" ]; then
            run "$n" "$name" "repeated" 1 "--$name" "--$name"
            run "$n" "$name" "=1 (a value)" 1 "--$name=1"
            run "$n" "$name" "unknown (--${name}x)" 1 "--${name}x"
        else
            meta=${opt#* }
            good=1 # a first value for "repeated": a choice's first alternative
            case $meta in *"|"*) good=${meta%%|*} ;; esac
            numeric=1
            case $meta in PATH | FILE | FILE.cu | ARCH | NAME=RANGE | LIST | *"|"*) numeric=0 ;; esac
            for v in -1 0 2147483648; do
                run "$n" "$name" "$v" 0 "--$name" "$v"
            done
            for v in 9223372036854775808 1e30 abc " 5" "+5" 0x10; do
                run "$n" "$name" "'$v'" $numeric "--$name" "$v"
            done
            run "$n" "$name" "'' (empty)" 1 "--$name" ""
            run "$n" "$name" "missing" 1 "--$name"
            run "$n" "$name" "repeated ($good)" 1 "--$name" "$good" "--$name" "$good"
            run "$n" "$name" "unknown (--${name}x)" 1 "--${name}x" 1
        fi
    done < <(grep -o '\[--[^]]*\]' <<<"$usage" | tr -d '[]')
done

status=0
if [ ${#failures[@]} -gt 0 ]; then
    status=1
    printf 'cli_fuzz.sh: %d of %d runs failed:\n' "${#failures[@]}" "$runs" >&2
    printf '  %s\n' "${failures[@]}" >&2
else
    printf 'cli_fuzz.sh: %d runs, every one exited 0, 1 or 2 within %s s, and every exit 2 named its flag\n' "$runs" "$PER_RUN"
fi
if [ -n "$TABLE" ]; then
    {
        echo "# CLI fuzz of the lessons"
        echo
        echo "Generated $(date -u +%Y-%m-%d) by \`tests/scripts/cli_fuzz.sh build/lesson docs/cli-fuzz.md\`"
        echo "(the CTest test \`lesson_cli_fuzz\` runs the same and writes build/tests/cli-fuzz.md)."
        echo "Every flag of every lesson, from \`lesson N --help\`, with bad values; small sizes beside it"
        echo "(lesson 2: --n 1000; 3: --rows 2 --cols 64; 4: --n 16 --d 16 --heads 1; 5: --chunks 2"
        echo "--chunk-bytes 4096 --iters 4; 6: --n 1000 --rows 4 --cols 64). A run passes when it exits 0, 1"
        echo "or 2 (no signal), within ${PER_RUN} s, and an exit 2 names the flag on stderr; a repeated, empty,"
        echo "missing or unknown flag, a value given to a flag without one, and a numeric flag's 2^63, 1e30,"
        echo "abc, ' 5', '+5' or 0x10 must be refused (exit 2)."
        echo "\"first line\" is stderr's first line for a non-zero exit, stdout's for 0."
        echo
        if [ $status -eq 0 ]; then
            echo "Result: $runs runs, all passed."
        else
            echo "Result: ${#failures[@]} of $runs runs failed:"
            printf -- '- %s\n' "${failures[@]}"
        fi
        echo
        echo "| lesson | flag | value | rc | first line of the message |"
        echo "|---|---|---|---|---|"
        printf '%s\n' "${rows[@]}"
    } >"$TABLE"
fi
exit $status
