#!/bin/sh
# Session 18's first run (11:25-12:11 UTC): queue.sh with the variants pzlimit4 and t4ground2.
# Usage (from the worktree): sh benchmarks/balance/s18-values/run.sh VARIANTS_DIR OUT_DIR FIRST LAST
exec sh "$(dirname "$0")/queue.sh" "$1" "$2" "$3" "$4" pzlimit4 t4ground2
