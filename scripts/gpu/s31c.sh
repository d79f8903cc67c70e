#!/usr/bin/env bash
# scripts/gpu/s31c.sh - one device call (session 31): third-party course programs (not in the
# repository: a folder carried to the device, .thirdparty/, listed in $LIST, one path a line, then
# optionally a tab and the driver's other arguments, e.g. more files and -I, from its folder) in
# `simtlab run --mode compare`, each against the chip's counters: which launches differ, and in what.
# $OUT/$TAG.tgz (TAG=s31c by default) holds $TAG/: one .txt a program, summary.txt, env.txt.
#   OUT=/dir LIST=.thirdparty/list.txt bash scripts/gpu/s31c.sh   (on the device, repository root)
set -u
T=${TAG:-s31c}
D=/tmp/$T
. "$(dirname "$0")/env.sh"
gpu_outdir "$D"
b=/tmp/b-s31
if [ ! -x $b/simtlab-run ]; then
  cmake -S . -B $b -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$D/configure.txt" 2>&1
fi
cmake --build $b -j16 --target simtlab-run >"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; exit 1; }
while IFS=$'\t' read -r f extra; do
  [ -n "$f" ] || continue
  name=$(echo "$f" | sed 's|^\.thirdparty/||; s|[/ ]|_|g; s|\.cu$||')
  t0=$(date +%s)
  (cd "$(dirname "$f")" && timeout "${EACH:-150}" $b/simtlab-run "$(basename "$f")" ${extra:-} --mode compare) >"$D/$name.txt" 2>&1
  rc=$?
  echo "$name rc=$rc $(( $(date +%s) - t0 ))s differs=$(grep -c ' differs' "$D/$name.txt")" | tee -a "$D/summary.txt"
done <"${LIST:?}"
tar czf "${OUT:-/tmp/out}/$T.tgz" -C /tmp "$T"
