"""Per-game knowledge the search may use, each piece optional.

* ``EVALUATORS[game_id](state, margin_weight) -> reward vector``: a cheap
  estimate of an unfinished game, used when a rollout is cut off early
  (``MCTSConfig.rollout_depth``).  Games without one fall back to
  :func:`ai.reward.score_evaluation`.
* ``ITERATION_FACTOR[game_id]``: scales the levels' iteration caps.
* ``CHANCE_KEYS[game_id](outcome) -> outcome``: maps a chance outcome as the
  game *samples* it to the outcome as ``chance_outcomes()`` *lists* it, so that
  a tree kept between moves (tree reuse) can follow the real dice.  Mountain
  Goats samples ordered rolls (1,296) but lists the 126 sorted multisets,
  which give the same climbs.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.core import State

from .reward import _from_scores, score_evaluation, terminal_reward


def _mountain_goats(state: Any, margin_weight: float) -> list[float]:
    """Scores plus what each goat on the slopes is likely to earn.

    A goat on a summit takes a token of that mountain (worth its number) on
    each later climb there, while the stack lasts; a goat part-way up is
    worth a share of that.  The weights were tried against full rollouts with
    ``python -m ai.arena`` (docs/AI.md, "Early-stopping rollouts").
    """
    if state.phase == 3:
        return terminal_reward(state, margin_weight)
    n = state.n
    pos = state.pos
    stacks = state.stacks
    est = list(state.score)
    for i in range(6):
        if not stacks[i]:
            continue
        m = 5 + i
        h = (4, 4, 3, 3, 2, 2)[i]
        for s in range(n):
            p = pos[6 * s + i]
            if p:
                est[s] += m * (1.0 if p == h else 0.35 * p / h)
    return _from_scores(est, margin_weight, 8.0)


EVALUATORS: dict[str, Callable[[State, float], list]] = {
    "mountain-goats": _mountain_goats,
}


def _sorted_roll(outcome: Any) -> Any:
    return tuple(sorted(outcome)) if type(outcome) is tuple else outcome


CHANCE_KEYS: dict[str, Callable[[Any], Any]] = {
    "mountain-goats": _sorted_roll,
}


# A level's iteration cap is set for Mountain Goats; a game whose iterations
# cost more gets a smaller cap so that it takes about the level's seconds
# without a clock.  Measured with `python -m ai.arena speed` on both games in
# one run (docs/AI.md, "Levels and budgets").
ITERATION_FACTOR: dict[str, float] = {
    "nanga-parbat": 0.2,
    "mountainhome": 0.01,
}


def evaluator_for(game_id: str) -> Callable[[State, float], list]:
    return EVALUATORS.get(game_id, score_evaluation)


def chance_key_for(game_id: str) -> Callable[[Any], Any] | None:
    return CHANCE_KEYS.get(game_id)
