"""Rewards: what a finished (or cut-off) game is worth to each seat, in [0, 1].

A reward mixes two things ("a reward that reflects both winning and
score margin"):

* the *place*: ``1`` for a sole win, ``0`` for last, ties share
  (``(seats strictly behind + 0.5 * seats tied) / (players - 1)``), so a
  2-player draw is worth 0.5 to both;
* the *margin* over the best other seat, squashed into [0, 1]:
  ``0.5 + 0.5 * (mine - best_other) / (|mine| + |best_other| + 1)``.

``reward = (1 - margin_weight) * place + margin_weight * margin``.  The margin
term breaks ties between moves that all win (or all lose) in favour of bigger
wins and smaller losses, which plays better against humans and gives the
search a gradient in lost positions; its weight stays small so that winning
always comes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp

from engine.core import State


def place_values(ranking: Sequence[int]) -> list[float]:
    """Each seat's share of the win from a ranking (0 = first, ties share a place)."""
    n = len(ranking)
    if n == 1:
        return [1.0]
    out = []
    for i, r in enumerate(ranking):
        behind = tied = 0
        for j, other in enumerate(ranking):
            if j != i:
                if other > r:
                    behind += 1
                elif other == r:
                    tied += 1
        out.append((behind + 0.5 * tied) / (n - 1))
    return out


def margin_values(scores: Sequence[float]) -> list[float]:
    """Each seat's score margin over the best other seat, squashed into [0, 1]."""
    n = len(scores)
    out = []
    for i in range(n):
        mine = scores[i]
        best = max(scores[j] for j in range(n) if j != i) if n > 1 else 0
        out.append(0.5 + 0.5 * (mine - best) / (abs(mine) + abs(best) + 1.0))
    return out


def terminal_reward(state: State, margin_weight: float) -> list[float]:
    """The reward vector of a finished game."""
    place = place_values(state.ranking())
    if not margin_weight:
        return place
    margin = margin_values(state.scores())
    keep = 1.0 - margin_weight
    return [keep * p + margin_weight * m for p, m in zip(place, margin)]


def score_evaluation(state: State, margin_weight: float, temperature: float = 10.0) -> list[float]:
    """A cheap guess at the reward of an unfinished game from the current scores.

    The chance of finishing first is modelled as a logistic function of the
    lead over the best other seat, ``temperature`` points wide.  Games can do
    better (see :mod:`ai.evaluation`); this is the fallback for any game.
    """
    if state.is_terminal():
        return terminal_reward(state, margin_weight)
    return _from_scores(state.scores(), margin_weight, temperature)


def _from_scores(scores: Sequence[float], margin_weight: float, temperature: float) -> list[float]:
    n = len(scores)
    out = []
    margin = margin_values(scores)
    keep = 1.0 - margin_weight
    for i in range(n):
        best = max(scores[j] for j in range(n) if j != i) if n > 1 else 0
        lead = (scores[i] - best) / temperature
        lead = -30.0 if lead < -30.0 else 30.0 if lead > 30.0 else lead
        win = 1.0 / (1.0 + exp(-lead))
        out.append(keep * win + margin_weight * margin[i])
    return out
