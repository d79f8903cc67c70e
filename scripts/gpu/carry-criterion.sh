#!/usr/bin/env bash
# scripts/gpu/carry-criterion.sh - make .dev/criterion (ignored by git) for a device call:
# Criterion's headers and its shared libraries with their dependencies, copied from this
# machine's Debian packages (libcriterion-dev), because the GPU machine has no Criterion.
# Then: device run with carry [".dev"] and `scripts/gpu/run.sh` (which points CMake there).
set -euo pipefail
cd "$(dirname "$0")/../.."
dst=.dev/criterion
[ -f /usr/include/criterion/criterion.h ] || { echo "install libcriterion-dev first" >&2; exit 2; }
lib=$(ls /usr/lib/*/libcriterion.so.3 | head -1)
rm -rf "$dst" && mkdir -p "$dst/include" "$dst/lib"
cp -r /usr/include/criterion "$dst/include/"
cp -L "$lib" "$dst/lib/"
ln -sf libcriterion.so.3 "$dst/lib/libcriterion.so"
# every library it needs except the C library and the loader (present everywhere)
ldd "$lib" | awk '/=>/ {print $3}' | grep -vE '/(libc|libm|libdl|libpthread|librt|libresolv)\.so|ld-linux' |
  while read -r f; do cp -L "$f" "$dst/lib/"; done
du -sh "$dst"
