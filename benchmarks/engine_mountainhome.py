"""Random Mountainhome games per second, against a baseline in the same run.

    python benchmarks/engine_mountainhome.py [--seconds 30] [--players 2]

* ``engine (fused playout)``: ``State.random_playout``, what ``python -m engine bench``
  measures and what bot rollouts use (same draws and actions as the protocol loop).
* ``engine (protocol loop)``: ``engine.core.random_playout`` over the public
  protocol (``current_player`` / ``sample_chance`` / ``legal_actions`` / ``apply``).
* ``engine (checked path)``: the same random choices, but every event goes
  through its record notation and the checked path (``apply_event``), as a
  replayed record or a served move does.
* ``baseline (deep copies)``: the protocol loop plus a ``copy.deepcopy`` of the
  state before every event, the obvious way to keep search nodes apart
  (the engine's own ``clone`` is measured in the ``clone`` line of the output).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import interleaved, machine
from engine.core import CHANCE, random_event, random_playout
from engine.games.mountainhome import Mountainhome

GAME = Mountainhome()  # imported directly: works whether or not the game is registered yet


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    players = args.players
    seeds = iter(range(1, 10**9))
    events_seen = {"n": 0, "games": 0}

    def fused() -> int:
        state = GAME.new_initial_state(players)
        state.random_playout(random.Random(next(seeds)))
        return 1

    def protocol() -> int:
        state = GAME.new_initial_state(players)
        events_seen["n"] += random_playout(state, random.Random(next(seeds)))
        events_seen["games"] += 1
        return 1

    def checked() -> int:
        state = GAME.new_initial_state(players)
        rng = random.Random(next(seeds))
        while not state.is_terminal():
            state.apply_event(json.loads(json.dumps(random_event(state, rng))))
        return 1

    def deep_copies() -> int:
        state = GAME.new_initial_state(players)
        rng = random.Random(next(seeds))
        while not state.is_terminal():
            state = copy.deepcopy(state)
            if state.current_player() == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                seat = state.to_move()[0]
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.randrange(len(actions))])
        return 1

    rates = interleaved(
        {
            "engine (fused playout)": fused,
            "engine (protocol loop)": protocol,
            "engine (checked path)": checked,
            "baseline (deep copies)": deep_copies,
        },
        args.seconds,
    )
    # clone cost on mid-game states
    state = GAME.new_initial_state(players)
    random_playout(state, random.Random(7), max_events=150)
    start = time.perf_counter()
    for _ in range(2000):
        state.clone()
    clone_us = (time.perf_counter() - start) / 2000 * 1e6
    start = time.perf_counter()
    for _ in range(200):
        copy.deepcopy(state)
    deep_us = (time.perf_counter() - start) / 200 * 1e6
    base = rates["baseline (deep copies)"]
    print(json.dumps({
        "machine": machine(),
        "players": players,
        "events_per_game": round(events_seen["n"] / max(1, events_seen["games"]), 1),
        "games_per_s": {k: round(v, 2) for k, v in rates.items()},
        "ratio": {k: round(v / base, 2) for k, v in rates.items()},
        "clone_us": round(clone_us, 1),
        "deepcopy_us": round(deep_us, 1),
    }, indent=1))


if __name__ == "__main__":
    main()
