#!/usr/bin/env bash
# scripts/gpu/s34b.sh - session 34's second device call (20:57 UTC): s34.sh's checks (test_parity,
# lessons 4 and 3 in compare mode; .dev/criterion carried) again at the session's end, after the
# review's fixes and the host-call hint, into $OUT/s34b/.
#   OUT=/dir bash scripts/gpu/s34b.sh     (on the device machine, repository root; carry .dev/criterion)
S34_NAME=s34b exec bash "$(dirname "$0")/s34.sh"
