#!/usr/bin/env bash
# Bot strength at 3- and 4-seat tables (docs/AI.md, "3 and 4 players").
#
#   ROUNDS=10 nice -n 10 benchmarks/ai_table_sizes.sh
#
# For each game in GAMES (Nanga Parbat is a 2-player game) and table size in SIZES: hard against
# easy in every other seat, and hard against random, with the levels' iteration caps times the
# game's scale in SCALES (iteration budgets: every game is a
# pure function of the seed and its number).  Two more games per pairing and round, round-robin, so
# a run stopped at any time has about as many games of each pairing; each game is appended to
# benchmarks/ai_results/tables/<game>_<n>p_<a>_<b>_x<scale>.jsonl as it ends (resumable).
# Tables and ratings: python benchmarks/ai_tables.py --ratings benchmarks/ai_results/tables/*.jsonl
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$HERE/benchmarks/ai_results/tables"
mkdir -p "$OUT"
GAMES="${GAMES:-mountain-goats mountainhome}"
SIZES="${SIZES:-3 4}"
SCALES="${SCALES:-mountain-goats=0.1 mountainhome=1}"
ROUNDS="${ROUNDS:-10}"
PY="${PY:-python3}"
declare -A SHORT=([mountain-goats]=mg [nanga-parbat]=np [mountainhome]=mh)
cd "$HERE"
for round in $(seq 1 "$ROUNDS"); do
  games=$((2 * round))
  for game in $GAMES; do
    SCALE=1
    for item in $SCALES; do [ "${item%%=*}" = "$game" ] && SCALE="${item#*=}"; done
    for n in $SIZES; do
      for b in easy random; do
        "$PY" -m benchmarks.arena match --game "$game" --players "$n" --a hard --b "$b" --games "$games" \
          --scale "$SCALE" --seed $((300 + n)) --jobs 1 \
          --jsonl "$OUT/${SHORT[$game]}_${n}p_hard_${b}_x${SCALE}.jsonl" > /dev/null
        echo "$(date -u +%H:%M:%S) round $round: $game ${n}p hard vs $b, $games games"
      done
    done
  done
done
