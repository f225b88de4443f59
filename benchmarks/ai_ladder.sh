#!/usr/bin/env bash
# Mountainhome ISMCTS strength against iterations (docs/AI.md, "Why more iterations did not help").
#
#   BEFORE=/path/to/checkout/of/the/old/search ROUNDS=6 nice -n 10 benchmarks/ai_ladder.sh
#
# Plays "mcts:it=N,depth=10" (N in RUNGS; "after": with AFTER_FLAGS) against a fixed "mcts:it=20,depth=10,c=0.7" on Mountainhome,
# two games per rung and round, alternating the code in $BEFORE (a checkout of the search before the
# fix; optional) and this checkout, so that a run stopped at any time has about as many games of
# each.  Games are pure functions of the seed and their number (iteration budgets, no clock), and
# each one is appended to benchmarks/ai_results/ladder/<version>_it<N>_vs_it20.jsonl as it ends
# ("after" is named with its flags, e.g. afterpub1_it400_vs_it20.jsonl; the recorded after_*.jsonl
# were played when the two-tree search was the default, so without the flag), so a stopped run
# resumes where it was.  Tables: python benchmarks/ai_tables.py ladder
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$HERE/benchmarks/ai_results/ladder"
mkdir -p "$OUT"
RUNGS="${RUNGS:-100 400}"
ROUNDS="${ROUNDS:-6}"
SEED="${SEED:-170}"
# The search after the fix: the two-tree ISMCTS, MCTSConfig.public_tree (the default when the
# recorded games were played, before commit 434c66f; since then an option, "pub=1").
AFTER_FLAGS="${AFTER_FLAGS:-,pub=1}"
PY="${PY:-python3}"
for round in $(seq 1 "$ROUNDS"); do
  games=$((2 * round))
  for n in $RUNGS; do
    for version in before after; do
      if [ "$version" = before ]; then
        [ -n "${BEFORE:-}" ] || continue
        dir="$BEFORE"; module=ai.arena; extra=""; name=before
      else
        dir="$HERE"; module=benchmarks.arena; extra="$AFTER_FLAGS"; name="after${AFTER_FLAGS//[,=]/}"
      fi
      (cd "$dir" && "$PY" -m "$module" match --game mountainhome --a "mcts:it=$n,depth=10$extra" \
        --b "mcts:it=20,depth=10,c=0.7" --games "$games" --seed "$SEED" --jobs 1 \
        --jsonl "$OUT/${name}_it${n}_vs_it20.jsonl" > /dev/null)
      echo "$(date -u +%H:%M:%S) round $round: $version it=$n vs it=20, $games games"
    done
  done
done
