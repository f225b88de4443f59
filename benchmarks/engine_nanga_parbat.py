"""Random 2-player Nanga Parbat games per second, against a baseline in the same run.

    python benchmarks/engine_nanga_parbat.py [--seconds 30] [--area-scoring]

* ``engine (fused playout)``: ``NangaParbatState.random_playout``, what bots use
  for rollouts and what ``python -m engine bench nanga-parbat`` measures.  It
  draws exactly the actions of the protocol loop but finds the chosen action
  without building the whole list.
* ``engine (protocol loop)``: the generic ``engine.core.random_playout`` over the
  public protocol (``legal_actions`` builds the full list at every step).
* ``baseline (straightforward)``: the same random playout written the obvious
  way: a dict from section name to piece, adjacency looked up by name in the
  data table, every legal action rebuilt from scratch at every step (camp
  claims as every N-combination of own hikers checked for connectedness by a
  search, trades as every N-combination of board indices), and the state
  deep-copied before each move, as an immutable-state engine would.

Games are timed in interleaved slices (``benchmarks.common.interleaved``) so
that the noise of a shared machine hits every variant alike; read the ratios.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import interleaved, machine
from engine import get_game
from engine.core import random_playout
from engine.games.nanga_parbat_data import DATA

TYPES = DATA["animal_types"]
POWERS = DATA["activated_types"]
ADJ = DATA["board"]["adjacency"]
REGIONS = {int(r): names for r, names in DATA["board"]["regions"].items()}
SECTIONS = [name for r in sorted(REGIONS) for name in REGIONS[r]]
ROWS = DATA["points_chart"]["rows"]
NEEDS = DATA["points_chart"]["column_requirements"]
VP = DATA["points_chart"]["vp"]
AREA = {int(k): v for k, v in DATA["area_scoring_points"].items()}


def connected(names):
    seen, todo = {names[0]}, [names[0]]
    while todo:
        for other in ADJ[todo.pop()]:
            if other in names and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(names)


def pays(types, different):
    plain = [t for t in types if t != "bharal"]
    return len(set(plain)) == len(plain) if different else len(set(plain)) <= 1


def naive_legal(st):
    s, cells, out = st["seat"], st["cells"], []
    animals = [n for n in SECTIONS if cells[n][0] == "animal"]
    hikers = [n for n in SECTIONS if cells[n][0] == "hiker"]
    if not st["trapped"]:
        here = [n for n in REGIONS[st["guide"]] if cells[n][0] == "animal"]
        if here:
            out += [("trap", n) for n in here]
        else:
            out += [("relocate", r) for r in REGIONS if any(cells[n][0] == "animal" for n in REGIONS[r])]
    ready = {t for t, activated in st["boards"][s] if not activated}
    for power in POWERS:
        if power not in ready:
            continue
        if power == "snow_leopard":
            out += [(power, a, b) for a, b in itertools.combinations(hikers, 2)
                    if b in ADJ[a] and cells[a][1] != cells[b][1]]  # fmt: skip
        elif power == "tahr":
            out += [(power, h, a) for h in hikers for a in ADJ[h] if cells[a][0] == "animal"]
        elif power == "musk_deer":
            out += [(power, a, b) for a, b in itertools.combinations(animals, 2) if cells[a][1] != cells[b][1]]
        else:
            out += [(power, r) for r in REGIONS if r != st["guide"]]
    if st["trapped"] and not st["claimed"] and st["cubes"][s]:
        own = [n for n in hikers if cells[n][1] == s]
        board = st["boards"][s]
        for row, kind in ROWS.items():
            for col, need in enumerate(NEEDS):
                if (row, col) in st["chart"]:
                    continue
                if kind == "build_camps":
                    if st["camps"][s] >= need:
                        out += [("claim", row, col, c) for c in itertools.combinations(own, need) if connected(c)]
                else:
                    for c in itertools.combinations(range(len(board)), need):
                        if pays([board[i][0] for i in c], kind == "trade_different_types"):
                            out.append(("claim", row, col, c))
    if st["trapped"]:
        out.append(("end_turn",))
    return out


def gain(st, s, points):
    new = st["score"][s] + points
    st["score"][s] = new + 1 if new == st["score"][1 - s] else new


def naive_apply(st, action):
    st = copy.deepcopy(st)
    s, cells, kind = st["seat"], st["cells"], action[0]
    if kind == "trap":
        animal = cells[action[1]][1]
        if animal == "red_panda" and st["score"][s] <= st["score"][1 - s]:
            gain(st, s, 1)
        st["boards"][s].append([animal, False])
        st["hikers"][s] -= 1
        cells[action[1]] = ("hiker", s)
        st["guide"] = int(action[1].split(".")[1])
        st["trapped"] = True
    elif kind == "relocate":
        st["guide"] = action[1]
    elif kind in POWERS:
        board = st["boards"][s]
        next(e for e in board if e[0] == kind and not e[1])[1] = True
        if kind == "yak":
            st["guide"] = action[1]
        else:
            cells[action[1]], cells[action[2]] = cells[action[2]], cells[action[1]]
    elif kind == "claim":
        _, row, col, chosen = action
        if ROWS[row] == "build_camps":
            for n in chosen:
                cells[n] = ("camp", s)
            st["camps"][s] -= len(chosen)
        else:
            st["boards"][s] = [e for i, e in enumerate(st["boards"][s]) if i not in chosen]
        st["chart"][(row, col)] = s
        st["cubes"][s] -= 1
        st["claimed"] = True
        gain(st, s, VP[row][col])
    else:
        if (st["hikers"] == [0, 0]) or (st["cubes"] == [0, 0]):
            if st["area"]:
                for r in sorted(REGIONS):
                    for seat in (0, 1):
                        count = sum(1 for n in REGIONS[r] if cells[n][0] != "animal" and cells[n][1] == seat)
                        if AREA.get(count):
                            gain(st, seat, AREA[count])
            st["over"] = True
        else:
            st["seat"], st["trapped"], st["claimed"] = 1 - s, False, False
    return st


def naive_game(rng, area):
    """One random game; the number of events (as the engine counts them)."""
    return naive_play(rng, area)["events"]


def naive_play(rng, area):
    """One random game, drawing from ``rng`` exactly as the engine's playout does; the final state."""
    first = rng.randrange(2)
    deck = [t for t in TYPES for _ in range(DATA["animals_per_type"])]
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    st = {
        "cells": {n: ("animal", t) for n, t in zip(SECTIONS, deck)},
        "guide": 1 + rng.randrange(6),
        "seat": first,
        "boards": [[], []],
        "hikers": [15, 15],
        "camps": [12, 12],
        "cubes": [5, 5],
        "chart": {},
        "score": [0, 0],
        "trapped": False,
        "claimed": False,
        "over": False,
        "area": area,
    }
    events = 3
    while not st["over"]:
        actions = naive_legal(st)
        st = naive_apply(st, actions[rng.randrange(len(actions))])
        events += 1
    st["events"] = events
    return st


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--area-scoring", action="store_true")
    args = parser.parse_args()
    game = get_game("nanga-parbat")
    options = {"area_scoring": args.area_scoring}
    rng = random.Random(0)

    def fused():
        game.new_initial_state(2, options).random_playout(rng)
        return 1

    def protocol():
        random_playout(game.new_initial_state(2, options), rng)
        return 1

    def baseline():
        naive_game(rng, args.area_scoring)
        return 1

    rates = interleaved(
        {"engine (fused playout)": fused, "engine (protocol loop)": protocol, "baseline (straightforward)": baseline},
        args.seconds,
    )
    base = rates["baseline (straightforward)"]
    result = {
        "machine": machine(),
        "uname": " ".join(os.uname()),
        "nproc": os.cpu_count(),
        "players": 2,
        "options": options,
        "seconds": args.seconds,
        "games_per_s": {k: round(v, 1) for k, v in rates.items()},
        "ratio_vs_baseline": {k: round(v / base, 2) for k, v in rates.items()},
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
