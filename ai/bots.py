"""The bots' single entry point.

``choose_move`` receives a seat's *observation* (never the true state, never
the match's seed) and returns an action in record notation.  A full state is
obtained only by determinizing that observation, so a bot cannot see what its
seat cannot:

* perfect-information games (``game.perfect_information``): the observation
  is the whole state, and :class:`ai.mcts.MCTS` searches it;
* hidden-information games: :class:`ai.ismcts.ISMCTS` determinizes the
  observation afresh on every iteration and keys its nodes by what the seat
  knows.

Budgets: each level has a wall-clock limit (``seconds``) and an iteration cap
(``iterations``, for Mountain Goats; other games scale it by
``ai.evaluation.ITERATION_FACTOR`` so that the cap takes about ``seconds`` on
the reference machine, or set it per level in ``ai.evaluation.LEVEL_ITERATIONS``).  ``ai/`` reads no clock (tests/engine/test_purity.py):
a caller that wants the wall-clock limit enforced passes a clock in, e.g.
``choose_move(..., clock=time.perf_counter)``, and the search stops at
whichever limit comes first.  Without a clock only the iteration cap applies
and the move is a pure function of (observation, seat, level, seed) -- that
is how tests and ``python -m benchmarks.arena`` get reproducible games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine import get_game
from engine.core import Game

from .evaluation import ITERATION_FACTOR, LEVEL_ITERATIONS, ROLLOUT_DEPTH
from .ismcts import ISMCTS
from .mcts import MCTS, MCTSConfig

# "rating": per game, on an Elo scale anchored at random = 800, computed by
# `python -m benchmarks.arena ratings` from the arena runs listed in docs/AI.md
# ("Ratings"); a game or level without a run has no entry.  "table_ratings":
# per game and table size (3, 4 seats), from the pairwise scores of the runs in
# docs/AI.md ("3 and 4 players"; `python benchmarks/ai_tables.py --ratings
# benchmarks/ai_results/tables/*.jsonl`); medium has none (not run); Mountainhome's are from the
# shipped levels but few games (8-16 per pairing: wide intervals).  Mountainhome's 2-player ratings
# chain from its ladder against the old medium level (docs/AI.md, "Why more iterations lost").
# Iteration caps are set near what the time limit allows for Mountain Goats on the reference
# machine.
LEVELS: dict[str, dict[str, Any]] = {
    "random": {
        "label": "Random",
        "description": "a uniformly random legal move; no search",
        "seconds": 0.0,
        "iterations": 0,
        "rating": {"mountain-goats": 800, "nanga-parbat": 800, "mountainhome": 800},
        "table_ratings": {"mountain-goats": {3: 800, 4: 800}, "mountainhome": {3: 800, 4: 800}},
    },
    "easy": {
        "label": "Easy",
        "description": "Monte Carlo tree search, at most 0.1 s of thinking per move",
        "seconds": 0.1,
        "iterations": 400,
        "rating": {"mountain-goats": 1529, "nanga-parbat": 1230, "mountainhome": 903},
        "table_ratings": {"mountain-goats": {3: 1141, 4: 1393}, "mountainhome": {3: 1040, 4: 1118}},
    },
    "medium": {
        "label": "Medium",
        "description": "Monte Carlo tree search, at most 0.5 s of thinking per move",
        "seconds": 0.5,
        "iterations": 2000,
        "rating": {"mountain-goats": 1885, "nanga-parbat": 1419, "mountainhome": 1333},
    },
    "hard": {
        "label": "Hard",
        "description": "Monte Carlo tree search, at most 2 s of thinking per move",
        "seconds": 2.0,
        "iterations": 8000,
        "rating": {"mountain-goats": 2289, "nanga-parbat": 1650, "mountainhome": 1653},
        "table_ratings": {"mountain-goats": {3: 1841, 4: 1912}, "mountainhome": {3: 1210, 4: 1476}},
    },
}


def level_config(level: str, game_id: str = "mountain-goats", *, scale: float = 1.0) -> MCTSConfig:
    """The search settings of a level for a game; ``scale`` multiplies the iteration cap (arena use)."""
    spec = LEVELS[level]
    caps = LEVEL_ITERATIONS.get(game_id, {})
    base = caps[level] if level in caps else spec["iterations"] * ITERATION_FACTOR.get(game_id, 1.0)
    iterations = max(1, int(round(base * scale)))
    return MCTSConfig(iterations=iterations, seconds=spec["seconds"] or None, rollout_depth=ROLLOUT_DEPTH.get(game_id))


def make_searcher(
    game: Game, config: MCTSConfig, *, seed: int, clock: Callable[[], float] | None
) -> MCTS | ISMCTS:
    if game.perfect_information:
        return MCTS(game.id, config, seed=seed, clock=clock)
    return ISMCTS(game, config, seed=seed, clock=clock)


def choose_action(
    game: Game,
    observation: Mapping[str, Any],
    seat: int,
    *,
    level: str = "random",
    seed: int = 0,
    clock: Callable[[], float] | None = None,
    config: MCTSConfig | None = None,
) -> Any:
    """The engine action (not JSON) ``seat`` plays in ``observation``.

    ``config`` overrides the level's settings (arena and tests).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known levels: {', '.join(LEVELS)}")
    rng = random.Random(seed)
    state = game.state_from_observation(observation, seat, rng)
    if seat not in state.to_move():
        raise ValueError(f"seat {seat} is not to move in this observation")
    actions = state.legal_actions(seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal move in this observation")
    if level == "random" and config is None:
        return actions[rng.randrange(len(actions))]
    if len(actions) == 1:
        return actions[0]
    config = config or level_config(level, game.id)
    if game.perfect_information:
        return MCTS(game.id, config, seed=seed, clock=clock).search(state, seat)
    return ISMCTS(game, config, seed=seed, clock=clock).search(observation, seat)


def choose_move(
    game_id: str,
    observation: Mapping[str, Any],
    seat: int,
    *,
    level: str = "random",
    seed: int = 0,
    clock: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """The bot's move for ``seat`` as a record-notation action.

    ``seed`` makes the choice reproducible: without a ``clock``, the same
    observation, level and seed always give the same move.  With a clock
    (e.g. ``time.perf_counter``) the search also stops after
    ``LEVELS[level]["seconds"]`` (plus at most one iteration).
    """
    game = get_game(game_id)
    action = choose_action(game, observation, seat, level=level, seed=seed, clock=clock)
    state = game.state_from_observation(observation, seat, random.Random(seed))
    return state.action_to_json(seat, action)
