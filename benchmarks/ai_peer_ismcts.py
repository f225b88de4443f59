"""Our ISMCTS against OpenSpiel's Python ``ISMCTSBot`` on Mountainhome, at equal time per move.

    python benchmarks/ai_peer_ismcts.py --games 10 --seconds 0.1 --seed 1 \
        --jsonl benchmarks/ai_results/peer_ismcts_mh_0.1cpu.jsonl

Both sides get ``--seconds`` per move of *this process's CPU time* (``time.process_time``; the
machine is shared, and CPU time is what each side actually got), checked between iterations, so
either may overrun by one iteration:

* ours: :func:`ai.bots.choose_action` at the ``hard`` level's settings (ISMCTS, rollouts cut after
  10 decisions and evaluated) with the clock injected and no iteration cap;
* OpenSpiel: ``ISMCTSBot`` (open_spiel.python.algorithms.ismcts) in a subclass whose search loop
  stops on the same clock, on our engine wrapped as an imperfect-information pyspiel game
  (:func:`register`): its information state of a seat is our observation of that seat (canonical
  JSON), its world samples are our determinizations (``state_from_observation``, via
  ``set_resampler``), its rollouts our fused ``random_playout`` to the end (the evaluator the
  ``MCTSBot`` peer uses), ``uct_c`` 2 on returns in [-1, 1].  Sealed, simultaneous decisions are
  asked seat by seat, as the service asks its bots; a shuffle (a chance event without listed
  outcomes) is shown to it as one sampled outcome.

Seats rotate; one JSON line per game; a stopped run resumes from its ``--jsonl``.
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

import pyspiel
from ai_openspiel_game import Codes, game_type_and_info
from open_spiel.python.algorithms import ismcts

from ai.bots import level_config
from ai.reward import terminal_reward
from benchmarks.arena import wilson
from engine import get_game
from engine.core import CHANCE, SIMULTANEOUS, TERMINAL, State

MARGIN_WEIGHT = 0.1
MAX_ACTIONS = 1 << 20
UCT_C = 2.0
_GAMES: dict[str, Any] = {}


def register(game_id: str, players: int) -> Any:
    """Our game as an imperfect-information, sequential pyspiel game (``python_cairn_is_<game>_<n>p``)."""
    short = f"python_cairn_is_{game_id.replace('-', '_')}_{players}p"
    if short in _GAMES:
        return _GAMES[short]
    engine_game, game_type, game_info = game_type_and_info(game_id, players, short, imperfect=True, max_actions=MAX_ACTIONS)
    actions = Codes()
    outcomes = Codes()
    shuffles = random.Random(f"shuffles:{short}")

    class CairnISState(pyspiel.State):
        def __init__(self, game: Any, inner: State | None = None) -> None:
            super().__init__(game)
            self.inner = inner if inner is not None else engine_game.new_initial_state(players)
            self.sampled: int | None = None  # a shuffle shown as one sampled outcome, until applied

        def current_player(self) -> int:
            player = self.inner.current_player()
            if player == SIMULTANEOUS:  # asked seat by seat, as the service asks its bots
                return self.inner.to_move()[0]
            return player

        def _legal_actions(self, player: int) -> list[int]:
            code = actions.code
            return sorted(code(a) for a in self.inner.legal_actions(player))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            try:
                listed = self.inner.chance_outcomes()
            except NotImplementedError:
                if self.sampled is None:
                    self.sampled = outcomes.code(self.inner.sample_chance(shuffles))
                return [(self.sampled, 1.0)]
            code = outcomes.code
            return sorted((code(o), p) for o, p in listed)

        def _apply_action(self, action: int) -> None:
            inner = self.inner
            player = inner.current_player()
            self.sampled = None
            if player == CHANCE:
                inner.apply(CHANCE, outcomes.values[action])
            else:
                inner.apply(self.current_player(), actions.values[action])

        def engine_action(self, code: int) -> Any:
            return actions.values[code]

        def _action_to_string(self, player: int, action: int) -> str:
            return repr(outcomes.values[action] if player == CHANCE else actions.values[action])

        def information_state_string(self, player: int | None = None) -> str:
            seat = self.current_player() if player is None else player
            return json.dumps(self.inner.observation(seat), sort_keys=True, separators=(",", ":"))

        def is_terminal(self) -> bool:
            return self.inner.is_terminal()

        def returns(self) -> list[float]:
            if not self.inner.is_terminal():
                return [0.0] * players
            return [2.0 * r - 1.0 for r in terminal_reward(self.inner, MARGIN_WEIGHT)]

        def __deepcopy__(self, memo: Any) -> CairnISState:
            return CairnISState(self.get_game(), self.inner.clone())

        def clone(self) -> CairnISState:
            return CairnISState(self.get_game(), self.inner.clone())

        def __str__(self) -> str:
            return repr(self.inner.key())

    class CairnISGame(pyspiel.Game):
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self, inner: State | None = None) -> CairnISState:
            return CairnISState(self, inner)

    pyspiel.register_game(game_type, CairnISGame)
    _GAMES[short] = pyspiel.load_game(short)
    return _GAMES[short]


class FusedRollout:
    """ISMCTSBot's evaluator: our fused random playout to the end, uniform priors."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: Any) -> np.ndarray:
        inner = state.inner.clone()
        if not inner.is_terminal():
            inner.random_playout(self.rng)
        return np.array([2.0 * r - 1.0 for r in terminal_reward(inner, MARGIN_WEIGHT)])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """``ISMCTSBot`` whose ``run_search`` loop (copied from open_spiel 2.0.2) stops on a clock."""

    def __init__(self, *args: Any, seconds: float, clock: Any = time.process_time, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.clock = clock
        self.simulations = 0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        deadline = self.clock() + self.seconds
        self.simulations = 0
        while self.simulations == 0 or self.clock() < deadline:
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled), "a world sample changed the information state"
            self.run_simulation(sampled)
            self.simulations += 1
        return self.get_final_policy(state, self._root_node)


def peer_bot(osgame: Any, engine_game: Any, seconds: float, seed: int) -> TimedISMCTSBot:
    bot = TimedISMCTSBot(osgame, FusedRollout(seed), UCT_C, 10**9, random_state=np.random.RandomState(seed % 2**32),
                         seconds=seconds)
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        inner = engine_game.state_from_observation(state.inner.observation(player), player, rng)
        return osgame.new_initial_state(inner)

    bot.set_resampler(resample)
    return bot


def play(game_id: str, number: int, seconds: float, seed: int, osgame: Any) -> dict[str, Any]:
    game = get_game(game_id)
    ours_seat = number % 2
    state = game.new_initial_state(2)
    chance = random.Random(f"peer-ismcts:{seed}:{number}")
    config = level_config("hard", game_id)
    from dataclasses import replace

    config = replace(config, iterations=10**9, seconds=seconds)
    think = {"ours": 0.0, "openspiel": 0.0}
    moves = {"ours": 0, "openspiel": 0}
    iterations = {"ours": 0, "openspiel": 0}
    events = 0
    while state.current_player() != TERMINAL:
        player = state.current_player()
        if player == CHANCE:
            state.apply(CHANCE, state.sample_chance(chance))
            continue
        events += 1
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            state.apply_checked(seat, legal[0])
            continue
        side = "ours" if seat == ours_seat else "openspiel"
        move_seed = seed * 7919 + number * 100003 + events
        started = time.process_time()
        if side == "ours":
            from ai.ismcts import ISMCTS

            searcher = ISMCTS(game, config, seed=move_seed, clock=time.process_time)
            action = searcher.search(state.observation(seat), seat)
            done = searcher.iterations_done
        else:
            bot = peer_bot(osgame, game, seconds, move_seed)
            view = game.state_from_observation(state.observation(seat), seat, random.Random(move_seed))
            wrapped = osgame.new_initial_state(view)
            action = wrapped.engine_action(bot.step(wrapped))
            done = bot.simulations
        think[side] += time.process_time() - started
        moves[side] += 1
        iterations[side] += done
        state.apply_checked(seat, action)
    ranking = state.ranking()
    points = 1.0 if ranking[ours_seat] < ranking[1 - ours_seat] else 0.5 if ranking[0] == ranking[1] else 0.0
    return {"game": number, "ours_seat": ours_seat, "scores": state.scores(), "ranking": ranking, "ours_points": points,
            "think_cpu_seconds": think, "moves": moves, "iterations": iterations}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="mountainhome")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jsonl")
    parser.add_argument("--summary-only", action="store_true", help="summarize the games in --jsonl, play none")
    args = parser.parse_args()
    osgame = register(args.game, 2)
    rows: list[dict[str, Any]] = []
    if args.jsonl and os.path.exists(args.jsonl):
        with open(args.jsonl, encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle if line.strip()]
        if not args.summary_only:
            rows = rows[: args.games]
    for number in range(len(rows), 0 if args.summary_only else args.games):
        row = play(args.game, number, args.seconds, args.seed, osgame)
        rows.append(row)
        if args.jsonl:
            with open(args.jsonl, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(row) + "\n")
    print(json.dumps(summary(args.game, rows, args.seconds), indent=2))
    return 0


def summary(game_id: str, rows: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    points = sum(r["ours_points"] for r in rows)
    n = len(rows)
    low, high = wilson(points, n)
    per_move = {
        side: {
            "cpu_seconds": round(sum(r["think_cpu_seconds"][side] for r in rows) / max(1, sum(r["moves"][side] for r in rows)), 4),
            "iterations": round(sum(r["iterations"][side] for r in rows) / max(1, sum(r["moves"][side] for r in rows)), 1),
        }
        for side in ("ours", "openspiel")
    }
    return {"game": game_id, "games": n, "seconds_per_move": seconds, "ours_points": points,
            "ours_win_rate": points / n if n else None, "ci95": [round(low, 4), round(high, 4)], "per_move": per_move}


if __name__ == "__main__":
    raise SystemExit(main())
