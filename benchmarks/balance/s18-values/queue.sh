#!/bin/sh
# Session 18: variant packs played one game at a time, interleaved by seed so that a stop at any
# moment leaves every (variant, row) with the same seeds played. One process at a time (--workers 1).
# Usage (from the worktree): sh benchmarks/balance/s18-values/queue.sh VARIANTS_DIR OUT_DIR FIRST LAST NAME...
# NAME is a folder of VARIANTS_DIR (make_variants.py), or `main` for the shipped games/moscow41.
# Rows: pg = German planner vs greedy Soviets, pp = planner vs planner. A finished file is not replayed.
V=$1; OUT=$2; FIRST=$3; LAST=$4; shift 4
CB=.venv/bin/casebook
mkdir -p "$OUT"
s=$FIRST
while [ "$s" -le "$LAST" ]; do
  for variant in "$@"; do
    if [ "$variant" = main ]; then pack=games/moscow41; else pack="$V/$variant"; fi
    for row in pg pp; do
      if [ "$row" = pg ]; then bots="--bot german=planner --bot soviet=greedy"; else bots=""; fi
      f="$OUT/$variant-$row-s$s.json"
      [ -s "$f" ] && continue
      echo "$(date -u +%H:%M:%S) start $variant $row seed $s"
      # shellcheck disable=SC2086
      $CB batch "$pack" october-blitz --games 1 --first-seed "$s" --workers 1 --no-vp --quiet $bots --json "$f"
      echo "$(date -u +%H:%M:%S) end   $variant $row seed $s rc=$?"
    done
  done
  s=$((s + 1))
done
