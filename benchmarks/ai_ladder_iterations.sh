#!/usr/bin/env bash
# Mountainhome ISMCTS strength against iterations, with and without the move filter (docs/AI.md,
# "Why more iterations lost").
#
#   FLAGS=,prune=0 ROUNDS=10 nice -n 19 benchmarks/ai_ladder_iterations.sh   # before the fix
#   FLAGS=,prune=1 ROUNDS=10 nice -n 19 benchmarks/ai_ladder_iterations.sh   # after it (the default)
#
# Plays "mcts:it=N,depth=10$FLAGS" (N in RUNGS) against one fixed opponent, OPP (default: 100
# iterations, rollouts cut after 10 decisions, without the move filter: the search as it was), two
# games per rung and round, round-robin over the rungs, so that a run stopped at any time has about
# as many games at every rung.  Games are pure functions of the seed and their number (iteration
# budgets, no clock), so the two FLAGS runs play the same deals with A in the same seats.  Each game
# is appended to benchmarks/ai_results/ladder/<flags>_it<N>_vs_<opp>.jsonl as it ends (a stopped run
# resumes).  Tables: python benchmarks/ai_tables.py benchmarks/ai_results/ladder/prune*_vs_*.jsonl
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$HERE/benchmarks/ai_results/ladder"
mkdir -p "$OUT"
RUNGS="${RUNGS:-20 400 1600}"
ROUNDS="${ROUNDS:-10}"
SEED="${SEED:-1700}"
FLAGS="${FLAGS:-,prune=1}"
OPP="${OPP:-mcts:it=100,depth=10,prune=0}"
OPP_NAME="${OPP_NAME:-it100prune0}"
PY="${PY:-python3}"
name="${FLAGS//[,=]/}"
cd "$HERE"
for round in $(seq 1 "$ROUNDS"); do
  games=$((2 * round))
  for n in $RUNGS; do
    "$PY" -m benchmarks.arena match --game mountainhome --a "mcts:it=$n,depth=10$FLAGS" --b "$OPP" \
      --games "$games" --seed "$SEED" --jobs 1 --jsonl "$OUT/${name}_it${n}_vs_${OPP_NAME}.jsonl" > /dev/null
    echo "$(date -u +%H:%M:%S) round $round: it=$n$FLAGS vs $OPP, $games games"
  done
done
