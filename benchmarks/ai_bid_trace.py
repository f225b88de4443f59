"""Print every sealed-commitment decision of one arena game of Mountainhome (docs/AI.md).

    python benchmarks/ai_bid_trace.py --a "mcts:it=400,depth=10,prune=0" --b "mcts:it=100,depth=10,prune=0" --seed 5 --game 0

Replays game ``--game`` of ``python -m benchmarks.arena match --game mountainhome --a A --b B --seed S``
(iteration budgets: the same game, move for move) and prints, for each ``commit_bid`` or ``ready``,
the seat, its player, how many entries it has made in this bid and the move in record notation: a
search that walks round its own commitments shows up as a long run of entries before ``ready``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.arena import Player, _choose, _mix
from engine import get_game
from engine.core import CHANCE, TERMINAL


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", type=int, default=0)
    args = parser.parse_args(argv)
    from engine.games.mountainhome.constants import P_COMMIT

    game = get_game("mountainhome")
    specs = [args.a if s == args.game % 2 else args.b for s in range(2)]
    sides = [Player(spec, "iterations", 1.0, game.id) for spec in specs]
    state = game.new_initial_state(2)
    chance = random.Random(f"chance:{args.seed}:{args.game}")
    events = 0
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply(CHANCE, state.sample_chance(chance))
            events += 1
            continue
        seat = state.to_move()[0]
        action, _ = _choose(game, state, seat, sides[seat], _mix(args.seed, args.game, events, seat), None)
        if state.prompt == P_COMMIT:
            bid = state.bid
            print(f"seat {seat} ({specs[seat]}) entries so far {bid.commit_entries[seat]}: "
                  f"{json.dumps(state.action_to_json(seat, action))}", flush=True)
        state.apply(seat, action)
        events += 1
    print(f"scores {state.scores()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
