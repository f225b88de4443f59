"""Our MCTS against OpenSpiel's Python MCTSBot, on the same rules code, in one run.

    .venv/bin/pip install -c constraints.txt open-spiel==2.0.2   # development only
    python benchmarks/ai_peer_openspiel.py speed --game mountain-goats --positions 20 --iterations 300
    python benchmarks/ai_peer_openspiel.py match --game nanga-parbat --games 100 --seconds 0.1 --seed 3 \
        --jsonl benchmarks/ai_results/peer_match_np_0.1s.jsonl

``speed``: for the same sampled positions (``benchmarks.arena.sample_positions``),
iterations per second of (with ``--depth D``, also ours with rollouts cut
after D decisions and evaluated, as the game's levels may play)

* ``ours``: :class:`ai.mcts.MCTS` with full random rollouts;
* ``openspiel``: ``MCTSBot`` with its stock ``RandomRolloutEvaluator``;
* ``openspiel_fused``: ``MCTSBot`` with an evaluator that calls our game's
  fused ``random_playout`` -- the same rollout code as ours, so the ratio
  measures the search (tree, selection, cloning) alone.

Both searches use the same reward (win/place plus 0.1 x margin; MCTSBot gets
it rescaled to [-1, 1]) and run with the same number of iterations per
position, interleaved position by position so that machine load hits both.

``match``: a head-to-head at equal wall-clock time per move.  Both sides get
``--seconds`` per move and stop on a clock: ours with its ``clock`` argument,
``MCTSBot`` as :class:`TimedMCTSBot`, which runs MCTSBot's own simulation loop
until the same seconds have elapsed (the check comes between simulations, as
ours does, so each side may overrun by at most one iteration).  The mean think
time and iterations per move of each side are reported so the equality can be
checked.  Seats rotate; MCTSBot uses the fused evaluator unless
``--stock-evaluator``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ai_openspiel_game
from open_spiel.python.algorithms import mcts

from ai.mcts import MCTS, MCTSConfig
from ai.reward import terminal_reward
from benchmarks.arena import sample_positions, wilson
from engine import get_game
from engine.core import CHANCE, TERMINAL

UCT_C_OPENSPIEL = 2.0  # returns in [-1, 1]; ours uses 0.7 on rewards in [0, 1]


class FusedRolloutEvaluator(mcts.Evaluator):
    """MCTSBot's random rollout, done by the engine's fused random_playout."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: Any) -> np.ndarray:
        inner = state.inner.clone()
        if not inner.is_terminal():
            inner.random_playout(self.rng)
        return np.array([2.0 * r - 1.0 for r in terminal_reward(inner, ai_openspiel_game.MARGIN_WEIGHT)])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def openspiel_bot(game: Any, sims: int, seed: int, fused: bool) -> Any:
    evaluator = FusedRolloutEvaluator(seed) if fused else mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(game, UCT_C_OPENSPIEL, sims, evaluator, solve=False, random_state=np.random.RandomState(seed + 1))


class _OutOfTime(Exception):
    pass


class TimedMCTSBot(mcts.MCTSBot):
    """``MCTSBot`` with a wall-clock budget per move instead of a simulation count.

    ``MCTSBot.mcts_search`` loops ``for _ in range(max_simulations)``; here
    ``max_simulations`` is effectively unbounded and ``_apply_tree_policy``,
    called at the start of every simulation with the root, ends the search once
    ``seconds`` have passed since ``mcts_search`` began (after at least one
    simulation).  A simulation is never cut in the middle: the exception is
    raised before it descends, so the tree returned is the one MCTSBot's own
    loop had built, and ``best_child()`` picks the move as usual.
    """

    def __init__(self, *args: Any, seconds: float, clock: Any = time.perf_counter, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.clock = clock
        self._deadline = 0.0
        self._root: Any = None
        self.simulations = 0

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        if root.explore_count > 0 and self.clock() >= self._deadline:
            self._root = root
            raise _OutOfTime
        return super()._apply_tree_policy(root, state)

    def mcts_search(self, state: Any) -> Any:
        self._deadline = self.clock() + self.seconds
        try:
            root = super().mcts_search(state)
        except _OutOfTime:
            root = self._root
        self._root = None
        self.simulations = root.explore_count
        return root


def timed_openspiel_bot(game: Any, seconds: float, seed: int, fused: bool) -> TimedMCTSBot:
    evaluator = FusedRolloutEvaluator(seed) if fused else mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return TimedMCTSBot(game, UCT_C_OPENSPIEL, 10**9, evaluator, solve=False,
                        random_state=np.random.RandomState(seed + 1), seconds=seconds)


def speed(game_id: str, players: int, positions: int, iterations: int, seed: int, depth: int | None = None) -> dict[str, Any]:
    game = get_game(game_id)
    osgame = ai_openspiel_game.register(game_id, players)
    states = sample_positions(game, players, positions, seed)
    totals = {"ours": 0.0, "openspiel": 0.0, "openspiel_fused": 0.0}
    if depth is not None:
        totals[f"ours_depth{depth}"] = 0.0
    for k, state in enumerate(states):
        started = time.perf_counter()
        MCTS(game_id, MCTSConfig(iterations=iterations), seed=seed + k).search(state)
        totals["ours"] += time.perf_counter() - started
        if depth is not None:
            started = time.perf_counter()
            MCTS(game_id, MCTSConfig(iterations=iterations, rollout_depth=depth), seed=seed + k).search(state)
            totals[f"ours_depth{depth}"] += time.perf_counter() - started
        for name, fused in (("openspiel", False), ("openspiel_fused", True)):
            bot = openspiel_bot(osgame, iterations, seed + k, fused)
            wrapped = ai_openspiel_game.wrap(osgame, state)
            started = time.perf_counter()
            bot.step(wrapped)
            totals[name] += time.perf_counter() - started
    rates = {name: round(positions * iterations / seconds, 1) for name, seconds in totals.items()}
    return {
        "game": game_id,
        "players": players,
        "positions": positions,
        "iterations_per_position": iterations,
        "iterations_per_second": rates,
        "ratio_vs_openspiel": round(rates["ours"] / rates["openspiel"], 2),
        "ratio_vs_openspiel_fused": round(rates["ours"] / rates["openspiel_fused"], 2),
    }


def match(game_id: str, games: int, seconds: float, seed: int, fused: bool, jsonl: str | None) -> dict[str, Any]:
    game = get_game(game_id)
    osgame = ai_openspiel_game.register(game_id, 2)
    rows: list[dict[str, Any]] = []
    if jsonl and os.path.exists(jsonl):  # resume: games already played are kept
        with open(jsonl, encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle if line.strip()]
        rows = rows[:games]
    out = open(jsonl, "a", encoding="utf-8") if jsonl else None
    for g in range(len(rows), games):
        ours_seat = g % 2
        state = game.new_initial_state(2)
        chance = random.Random(f"peer:{seed}:{g}")
        think = {"ours": 0.0, "openspiel": 0.0}
        moves = {"ours": 0, "openspiel": 0}
        iterations = {"ours": 0, "openspiel": 0}
        n = 0
        while state.current_player() != TERMINAL:
            player = state.current_player()
            if player == CHANCE:
                state.apply(CHANCE, state.sample_chance(chance))
                continue
            n += 1
            legal = state.legal_actions(player)
            if len(legal) == 1:
                state.apply_checked(player, legal[0])
                continue
            side = "ours" if player == ours_seat else "openspiel"
            started = time.perf_counter()
            if side == "ours":
                searcher = MCTS(game_id, MCTSConfig(iterations=10**9, seconds=seconds), seed=seed * 7919 + g * 1000 + n,
                                clock=time.perf_counter)
                action = searcher.search(state)
                done = searcher.iterations_done
            else:
                bot = timed_openspiel_bot(osgame, seconds, seed * 7919 + g * 1000 + n, fused)
                wrapped = ai_openspiel_game.wrap(osgame, state)
                action = wrapped.engine_action(bot.step(wrapped))
                done = bot.simulations
            think[side] += time.perf_counter() - started
            moves[side] += 1
            iterations[side] += done
            state.apply_checked(player, action)
        ranking = state.ranking()
        won = 1.0 if ranking[ours_seat] == 0 and ranking[1 - ours_seat] != 0 else 0.5 if ranking[ours_seat] == 0 else 0.0
        row = {"game": g, "ours_seat": ours_seat, "scores": state.scores(), "ours_points": won,
               "think_seconds": {k: round(v, 4) for k, v in think.items()}, "moves": moves, "iterations": iterations}
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    if out:
        out.close()
    return summarize_match(game_id, rows, seconds=seconds, fused=fused, seed=seed)


def summarize_match(game_id: str, rows: list[dict[str, Any]], seconds: float, fused: bool, seed: int) -> dict[str, Any]:
    games = len(rows)
    points = sum(r["ours_points"] for r in rows)
    low, high = wilson(points, games)
    think = {k: sum(r["think_seconds"][k] for r in rows) for k in ("ours", "openspiel")}
    moves = {k: sum(r["moves"][k] for r in rows) for k in ("ours", "openspiel")}
    iterations = {k: sum(r["iterations"][k] for r in rows) for k in ("ours", "openspiel")}
    return {
        "game": game_id,
        "games": games,
        "seed": seed,
        "seconds_per_move": seconds,
        "openspiel_bot": "TimedMCTSBot (MCTSBot's loop, stopped on the same clock)",
        "openspiel_evaluator": "fused random_playout" if fused else "RandomRolloutEvaluator",
        "ours_points": points,
        "ours_win_rate": round(points / games, 4) if games else None,
        "ci95": [round(low, 4), round(high, 4)],
        "searched_moves": moves,
        "mean_think_seconds": {k: round(think[k] / moves[k], 4) if moves[k] else None for k in think},
        "mean_iterations_per_move": {k: round(iterations[k] / moves[k], 1) if moves[k] else None for k in think},
        "iterations_per_second": {k: round(iterations[k] / think[k], 1) if think[k] else None for k in think},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--game", default="mountain-goats")
    s.add_argument("--players", type=int, default=2)
    s.add_argument("--positions", type=int, default=20)
    s.add_argument("--iterations", type=int, default=300)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--depth", type=int, help="also time ours with early-stopping rollouts of this depth")
    m = sub.add_parser("match")
    m.add_argument("--game", default="mountain-goats")
    m.add_argument("--games", type=int, default=40)
    m.add_argument("--seconds", type=float, default=0.5)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--stock-evaluator", action="store_true")
    m.add_argument("--jsonl", help="append one line per game here (and resume from it)")
    args = parser.parse_args()
    if args.command == "speed":
        result = speed(args.game, args.players, args.positions, args.iterations, args.seed, args.depth)
    else:
        result = match(args.game, args.games, args.seconds, args.seed, not args.stock_evaluator, args.jsonl)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
