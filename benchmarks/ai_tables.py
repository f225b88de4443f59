"""Recompute docs/AI.md's bot tables from the raw per-game results (JSONL from benchmarks/arena.py).

    python benchmarks/ai_tables.py benchmarks/ai_results/ladder/*.jsonl
    python benchmarks/ai_tables.py --ratings benchmarks/ai_results/tables/*.jsonl

Each file holds one pairing, one game per line.  Player A is whoever sits at seat ``game % players``
(benchmarks/arena.py rotates A that way); B is every other seat.  For each file: games, A's win
rate (a shared first place split) with its 95% Wilson interval, A's pairwise score (1 for finishing
ahead of another seat, 1/2 for a tie: the 2-player equivalent at 3-4 seats), and the mean number of
decisions per game of A and of one B seat (a bot that keeps re-committing a sealed bid shows up
here), and, for games recorded with per-verb counts (``verbs``, since 2026-11-26), the mean
number of ``commit_bid`` entries per game of A and of one B seat.  ``--ratings`` adds the level ratings per game and table size (random = 800), chained as
``python -m benchmarks.arena ratings`` does; ``--anchor PLAYER=RATING`` fixes another player's rating
(the opponent of a ladder whose rating was published from other runs).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.arena import chain_ratings, summarize


def load(path: str) -> tuple[str, str, str, int, list[dict]]:
    with open(path, encoding="utf-8") as handle:
        rows = sorted((json.loads(line) for line in handle if line.strip()), key=lambda row: row["game"])
    if not rows:
        raise SystemExit(f"{path}: no games")
    first = rows[0]
    players = len(first["seats"])
    a = first["seats"][first["game"] % players]
    b = next(spec for spec in first["seats"] if spec != a)
    game = os.path.basename(path).split("_")[0]
    return game, a, b, players, rows


GAMES = {"mg": "mountain-goats", "np": "nanga-parbat", "mh": "mountainhome"}


def row_for(path: str) -> tuple[dict, str]:
    prefix, a, b, players, rows = load(path)
    game = GAMES.get(prefix, "mountainhome")
    summary = summarize(game, a, b, rows, players=players)
    n = len(rows)
    moves_a = sum(r["moves"][r["game"] % players] for r in rows) / n
    moves_b = sum(r["moves"][(r["game"] + 1) % players] for r in rows) / n
    low, high = summary["ci95"]
    counted = [r for r in rows if "verbs" in r]  # games recorded since the arena counts verbs
    if counted and game == "mountainhome":  # the only game with sealed commitments
        k = len(counted)
        bids_a = sum(r["verbs"][r["game"] % players].get("commit_bid", 0) for r in counted) / k
        bids_b = sum(r["verbs"][(r["game"] + 1) % players].get("commit_bid", 0) for r in counted) / k
        entries = f"{bids_a:.0f} / {bids_b:.0f}" + (f" ({k} games)" if k < n else "")
    else:
        entries = "–"
    line = (
        f"| {os.path.relpath(path)} | {game} | {players} | {a} | {b} | {n} | {summary['a_win_rate']:.1%}"
        f" | [{low:.1%}, {high:.1%}] | {summary['pair_points'] / summary['pairs']:.1%}"
        f" | {moves_a:.0f} / {moves_b:.0f} | {entries} |"
    )
    return summary, line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--ratings", action="store_true")
    parser.add_argument("--anchor", action="append", default=[], metavar="PLAYER=RATING",
                        help="a player's fixed rating besides random = 800 (repeatable)")
    args = parser.parse_args(argv)
    print("| raw file | game | players | A | B | games | A's win rate | 95% CI | A's pairwise score | decisions per game, A / B"
          " | commit_bid entries per game, A / B |")
    print("|---|---|---:|---|---|---:|---:|---|---:|---|---|")
    summaries = []
    for path in args.files:
        summary, line = row_for(path)
        summaries.append(summary)
        print(line)
    if args.ratings:
        tables = sorted({(s["game"], s["players"]) for s in summaries})
        print()
        print("| game | players | ratings (random = 800) |")
        print("|---|---:|---|")
        for game, players in tables:
            anchors = {name: float(value) for name, value in (item.rsplit("=", 1) for item in args.anchor)}
            ratings = chain_ratings([s for s in summaries if s["game"] == game and s["players"] == players], anchors)
            print(f"| {game} | {players} | {', '.join(f'{k} {v}' for k, v in sorted(ratings.items(), key=lambda kv: kv[1]))} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
