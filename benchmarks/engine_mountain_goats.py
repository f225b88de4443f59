"""Random 4-player Mountain Goats games per second, against baselines in the same run.

    python benchmarks/engine_mountain_goats.py [--seconds 30] [--players 4]

* ``engine (fused playout)``: ``State.random_playout``, what bots use for rollouts
  and what ``python -m engine bench`` measures.
* ``engine (protocol loop)``: the generic ``engine.core.random_playout`` over the
  public protocol (``current_player`` / ``sample_chance`` / ``legal_actions`` / ``apply``).
* ``baseline (straightforward)``: a plain implementation of the same rules,
  written the obvious way: dicts keyed by (seat, mountain), reachable climbs
  enumerated from scratch on every roll, no tables.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import interleaved, machine
from engine import get_game
from engine.core import random_playout

HEIGHTS = {5: 4, 6: 4, 7: 3, 8: 3, 9: 2, 10: 2}
STACKS = {2: [10, 9, 8, 7, 6, 5], 3: [11, 10, 9, 8, 7, 6], 4: [12, 11, 10, 9, 8, 7]}


def partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        yield [[first]] + part
        for k in range(len(part)):
            yield part[:k] + [[first] + part[k]] + part[k + 1 :]


def naive_reachable(roll):
    ones = [i for i, d in enumerate(roll) if d == 1]
    candidates = [list(roll)]
    if len(ones) >= 2:
        candidates = []
        for values in itertools.product(range(1, 7), repeat=len(ones)):
            if 1 in values:
                faces = list(roll)
                for i, v in zip(ones, values):
                    faces[i] = v
                candidates.append(faces)
    climbs = set()
    for faces in candidates:
        for part in partitions([0, 1, 2, 3]):
            totals = sorted(sum(faces[i] for i in block) for block in part)
            totals = [t for t in totals if 5 <= t <= 10]
            for k in range(len(totals) + 1):
                for combo in itertools.combinations(totals, k):
                    climbs.add(combo)
    return sorted(climbs)


def naive_game(players, rng):
    positions = {(s, m): 0 for s in range(players) for m in HEIGHTS}
    stacks = dict(zip(HEIGHTS, STACKS[players]))
    tokens = {s: [] for s in range(players)}
    bonuses = {s: [] for s in range(players)}
    bonus_pile = [15, 12, 9, 6]
    first = rng.randrange(players)
    seat = first
    ended = False
    events = 1
    while True:
        roll = [rng.randrange(6) + 1 for _ in range(4)]
        options = naive_reachable(roll)
        climb = options[rng.randrange(len(options))]
        events += 2
        for m in climb:
            if positions[(seat, m)] < HEIGHTS[m]:
                positions[(seat, m)] += 1
                if positions[(seat, m)] < HEIGHTS[m]:
                    continue
                for other in range(players):
                    if other != seat and positions[(other, m)] == HEIGHTS[m]:
                        positions[(other, m)] = 0
            if stacks[m] > 0:
                stacks[m] -= 1
                tokens[seat].append(m)
        sets = min(tokens[seat].count(m) for m in HEIGHTS)
        while sets > len(bonuses[seat]) and bonus_pile:
            bonuses[seat].append(bonus_pile.pop(0))
        if not bonus_pile or sum(1 for m in HEIGHTS if stacks[m] == 0) >= 3:
            ended = True
        if ended and seat == (first - 1) % players:
            return events
        seat = (seat + 1) % players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    game = get_game("mountain-goats")
    rng = random.Random(0)
    players = args.players

    def fused():
        game.new_initial_state(players).random_playout(rng)
        return 1

    def protocol():
        random_playout(game.new_initial_state(players), rng)
        return 1

    def baseline():
        naive_game(players, rng)
        return 1

    rates = interleaved(
        {"engine (fused playout)": fused, "engine (protocol loop)": protocol, "baseline (straightforward)": baseline},
        args.seconds,
        clock=time.process_time,
    )
    base = rates["baseline (straightforward)"]
    result = {
        "machine": machine(),
        "players": players,
        "seconds": args.seconds,
        "clock": "CPU time of this process (time.process_time)",
        "games_per_cpu_s": {k: round(v, 1) for k, v in rates.items()},
        "ratio_vs_baseline": {k: round(v / base, 2) for k, v in rates.items()},
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
