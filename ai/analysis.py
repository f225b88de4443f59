"""Post-game analysis: judge every decision of a finished game from what its player knew then.

The input is a game's record (engine notation: ``{"chance": ...}`` and ``{"player": s, "action": ...}``
entries, as ``python -m engine`` and the match export write them).  The walk folds the record through
the engine and, at each event:

* **a seat's decision** -- the seat's *observation* (``State.observation(seat)``, never the state) goes
  to the same search the bots use (:mod:`ai.bots`: MCTS over ``state_from_observation`` in
  perfect-information games, ISMCTS over determinizations of the observation otherwise).  The most
  visited move is the *suggested* move, and its average reward is the seat's expectation *before* the
  move.  A second search, its root restricted to the move played, gives the expectation *after* it.
  The drop is the move's loss; a seat with one move (after the game's move filter) is ``forced``.
* **a chance event** -- every seat's expectation just before and just after it, each from that seat's
  own observation, by a search whose root is the chance node: the difference is *luck*, kept apart
  from the seats' choices.  Both searches of a seat share one seed (common random numbers), which
  narrows the noise of their difference.

Expectations are rewards in [0, 1] with no margin term (``MCTSConfig.margin_weight = 0``): in a
2-player game the win chance (a draw counts half), in 3-4 players the share of the other seats a seat
finishes ahead of, so the expected place is ``1 + (players - 1) * (1 - value)``.  Losses are in
points of that scale (0-100).

Marks (lichess's thresholds on win chance, the anchor): inaccuracy from 5 points, mistake from 10,
blunder from 15, per game in ``THRESHOLDS`` (docs/AI.md, "Post-game analysis", says why).  Accuracy
per move is lichess's formula, ``103.1668 * exp(-0.04354 * loss) - 3.1669`` clamped to [0, 100]; a
player's accuracy is the mean over their unforced moves.

Every search gets its own ``random.Random`` seeded from ``(seed, event index, purpose)``, and a fixed
iteration budget (``BUDGETS``), with no clock: the analysis is a pure function of
(record, seed, budget), so any event can be recomputed alone and a rerun reproduces it exactly.
Nothing here reads a clock, does I/O or touches global random state (tests/engine/test_purity.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from math import exp
from typing import Any

from engine import get_game
from engine.core import CHANCE, TERMINAL, Game, State

from .bots import level_config
from .ismcts import ISMCTS, InfoNode
from .mcts import MCTS, MCTSConfig, Node
from .reward import terminal_reward

# Bump when anything changes what an analysis says (budget, thresholds, formulas): stored analyses are
# keyed by (match, version), so a new version is computed afresh and the old one stays as it was.
ANALYSIS_VERSION = 1


@dataclass(frozen=True)
class Budget:
    """Iterations per search: the decision, the move played (when not the suggestion), each chance side."""

    decision: int
    played: int
    luck: int


# Chosen so that a typical 2-player match is analysed in well under a minute on one core
# (benchmarks/analysis_cost.py; docs/AI.md, "Post-game analysis").
BUDGETS: dict[str, Budget] = {
    "mountain-goats": Budget(decision=1000, played=500, luck=200),
    "nanga-parbat": Budget(decision=400, played=200, luck=60),
    "mountainhome": Budget(decision=120, played=60, luck=40),
}
DEFAULT_BUDGET = Budget(decision=200, played=100, luck=50)

# Loss thresholds in points of expectation: inaccuracy, mistake, blunder.
THRESHOLDS: dict[str, tuple[float, float, float]] = {
    "mountain-goats": (5.0, 10.0, 15.0),
    "nanga-parbat": (5.0, 10.0, 15.0),
    "mountainhome": (5.0, 10.0, 15.0),
}
MARKS = ("inaccuracy", "mistake", "blunder")

Progress = Callable[[int, int, list[dict[str, Any]]], None]


def budget_for(game_id: str, players: int = 2) -> Budget:
    """The game's budget; with more than 2 players each chance event is valued from every seat's view,
    so its per-seat budget shrinks by ``2 / players`` (a 4-player Mountainhome match stays near a minute)."""
    budget = BUDGETS.get(game_id, DEFAULT_BUDGET)
    if players <= 2:
        return budget
    return replace(budget, luck=max(1, budget.luck * 2 // players))


def search_config(game_id: str, iterations: int) -> MCTSConfig:
    """The hard level's settings for ``game_id`` with a fixed iteration cap, no clock and no margin term."""
    return replace(level_config("hard", game_id), iterations=max(1, iterations), seconds=None, margin_weight=0.0)


def event_seed(seed: int, index: int, purpose: int) -> int:
    """The seed of one search: a pure function of the analysis seed, the event and what is searched."""
    return (seed * 1_000_003 + index * 8 + purpose) & ((1 << 63) - 1)


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of one move from its loss in points of win chance."""
    value = 103.1668 * exp(-0.04354 * max(0.0, loss)) - 3.1669
    return max(0.0, min(100.0, value))


def mark_for(game_id: str, loss: float) -> str | None:
    low, mid, high = THRESHOLDS.get(game_id, (5.0, 10.0, 15.0))
    if loss >= high:
        return "blunder"
    if loss >= mid:
        return "mistake"
    if loss >= low:
        return "inaccuracy"
    return None


def expected_place(value: float, players: int) -> float:
    return 1.0 + (players - 1) * (1.0 - value)


# ---------------------------------------------------------------------------- searches


class _MCTSValuer(MCTS):
    """MCTS that also sums one seat's rollout rewards: the root average is that seat's expectation."""

    __slots__ = ("seat", "total")
    seat: int
    total: float

    def _rollout(self, state: State) -> list[float]:
        reward = MCTS._rollout(self, state)
        self.total += reward[self.seat]
        return reward


class _ISMCTSValuer(ISMCTS):
    """ISMCTS from one seat's observation that sums that seat's rewards; the seat need not be to move."""

    __slots__ = ("total", "only", "_armed")
    total: float
    only: Any
    _armed: bool

    def _rollout(self, state: State) -> list[float]:
        reward = ISMCTS._rollout(self, state)
        self.total += reward[self.observer]
        return reward

    def _iterate(self, state: State, root: InfoNode, public: InfoNode) -> None:
        self._armed = self.only is not None
        ISMCTS._iterate(self, state, root, public)

    def _legal(self, state: State, seat: int) -> list[Any]:
        if self._armed and seat == self.observer:  # the root decision: only the move played
            self._armed = False
            return [self.only]
        return ISMCTS._legal(self, state, seat)

    def run_from(self, observation: Mapping[str, Any], seat: int, iterations: int) -> InfoNode:
        """``iterations`` iterations from determinizations of ``observation`` (``seat`` need not move)."""
        self.observer = seat
        root = self.root = InfoNode()
        public = self.public_root = InfoNode()
        deal = self.game.determinizer(observation, seat)
        for _ in range(iterations):
            self._iterate(deal(self.rng), root, public)
        self.iterations_done = iterations
        return root


def _new_ismcts(game: Game, iterations: int, seed: int, only: Any = None) -> _ISMCTSValuer:
    searcher = _ISMCTSValuer(game, search_config(game.id, iterations), rng=random.Random(seed))
    searcher.total = 0.0
    searcher.only = only
    searcher._armed = False
    return searcher


def _new_mcts(game: Game, iterations: int, seed: int, seat: int) -> _MCTSValuer:
    searcher = _MCTSValuer(game.id, search_config(game.id, iterations), rng=random.Random(seed))
    searcher.seat = seat
    searcher.total = 0.0
    return searcher


def _restrict(node: Node, seat: int, action: Any) -> None:
    """Make ``seat``'s only choice at ``node`` the move ``action`` (a fresh node)."""
    if node.player == seat:
        node.actions, node.kids, node.n, node.w, node.untried = (action,), [None], [0], [0.0], [0]
        return
    for stats in node.seats or ():
        if stats.seat == seat:
            stats.actions, stats.n, stats.w, stats.untried = (action,), [0], [0.0], [0]


@dataclass(frozen=True)
class Judgement:
    """One decision judged: the options the search compared and the two expectations."""

    legal: int
    best: Any
    before: float  # the suggested move's expectation
    after: float  # the played move's expectation
    visits: int  # the suggested move's visits in the main search


def judge_decision(
    game: Game, observation: Mapping[str, Any], seat: int, played: Any, *, budget: Budget, seed: int
) -> Judgement:
    """Judge ``played`` from ``seat``'s observation alone: the same path as :func:`ai.bots.choose_action`."""
    rng = random.Random(seed)
    state = game.state_from_observation(observation, seat, rng)
    if seat not in state.to_move():
        raise ValueError(f"seat {seat} is not to move in this observation")
    if game.perfect_information:
        legal = list(state.legal_actions(seat))
        if len(legal) <= 1:
            return Judgement(len(legal), played, 0.0, 0.0, 0)
        main = _new_mcts(game, budget.decision, seed + 1, seat)
        best = main.search(state, seat)
        assert main.root is not None
        actions, n, w = MCTS.edge_stats(main.root, seat)
        q = {a: (w[i] / n[i] if n[i] else 0.0) for i, a in enumerate(actions)}
        visits = {a: n[i] for i, a in enumerate(actions)}
        before = q[best]
        if played == best:
            return Judgement(len(legal), best, before, before, visits[best])
        alone = _new_mcts(game, budget.played, seed + 2, seat)
        root = Node(state)
        _restrict(root, seat, played)
        alone.run(state, root)
        _, n2, w2 = MCTS.edge_stats(root, seat)
        after = w2[0] / n2[0] if n2[0] else 0.0
        return Judgement(len(legal), best, max(before, after), after, visits[best])
    imain = _new_ismcts(game, budget.decision, seed + 1)
    legal = imain._legal(state, seat)
    if len(legal) <= 1 and (not legal or played in legal):
        return Judgement(len(legal), played, 0.0, 0.0, 0)
    best = imain.search(observation, seat)
    assert imain.root is not None
    table = imain.root.stats.get(seat, {})
    entry = table.get(best) or [0, 0.0, 0]
    before = entry[1] / entry[0] if entry[0] else 0.0
    if played == best:
        return Judgement(len(legal), best, before, before, int(entry[0]))
    ialone = _new_ismcts(game, budget.played, seed + 2, only=played)
    iroot = ialone.run_from(observation, seat, budget.played)
    mine = iroot.stats.get(seat, {}).get(played)
    after = mine[1] / mine[0] if mine and mine[0] else 0.0
    return Judgement(len(legal), best, max(before, after), after, int(entry[0]))


def position_value(game: Game, observation: Mapping[str, Any], seat: int, *, iterations: int, seed: int) -> float:
    """``seat``'s expectation from its observation alone, whoever is to move (a chance node included)."""
    rng = random.Random(seed)
    state = game.state_from_observation(observation, seat, rng)
    if state.current_player() == TERMINAL:
        return terminal_reward(state, 0.0)[seat]
    if game.perfect_information:
        searcher = _new_mcts(game, iterations, seed + 1, seat)
        searcher.run(state, Node(state))
        return float(searcher.total / max(1, searcher.iterations_done))
    valuer = _new_ismcts(game, iterations, seed + 1)
    valuer.run_from(observation, seat, iterations)
    return float(valuer.total / max(1, iterations))


# ---------------------------------------------------------------------------- the walk


def _json_key(value: Any) -> Hashable:
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def analyse_record(
    game_id: str,
    players: int,
    options: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]],
    *,
    seed: int,
    budget: Budget | None = None,
    progress: Progress | None = None,
    start: int = 0,
    done: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The analysis of a record: one entry per event, then marks, accuracy and luck per seat.

    ``progress(done, total, entries)`` is called after each event with the entries so far (a caller may
    save them, and resume from them).  ``done`` (with ``start``) holds the entries of
    the first ``start`` events computed earlier (a resumed analysis): they are kept, not recomputed.
    """
    game = get_game(game_id)
    budget = budget or budget_for(game_id, players)
    state = game.new_initial_state(players, options)
    entries: list[dict[str, Any]] = [dict(entry) for entry in (done or [])[:start]]
    if len(entries) != start:
        raise ValueError(f"a resumed analysis needs the first {start} entries, not {len(entries)}")
    total = len(events)
    for index, event in enumerate(events):
        seat, action = state.decode_event(dict(event))
        if index < start:
            state.apply(seat, action)
            continue
        if seat == CHANCE:
            before = [position_value(game, state.observation(s), s, iterations=budget.luck,
                                     seed=event_seed(seed, index, 2 + s)) for s in range(players)]
            state.apply(seat, action)
            after = [position_value(game, state.observation(s), s, iterations=budget.luck,
                                    seed=event_seed(seed, index, 2 + s)) for s in range(players)]
            entries.append({
                "index": index, "kind": "chance",
                "values": {str(s): [round(before[s], 4), round(after[s], 4)] for s in range(players)},
                "luck": {str(s): round(100 * (after[s] - before[s]), 2) for s in range(players)},
            })
        else:
            judged = judge_decision(game, state.observation(seat), seat, action, budget=budget,
                                    seed=event_seed(seed, index, 0))
            played_json = state.action_to_json(seat, action)
            entry: dict[str, Any] = {"index": index, "kind": "move", "seat": seat, "played": played_json,
                                     "legal": judged.legal}
            if judged.legal <= 1:
                entry.update({"forced": True, "mark": None})
            else:
                loss = max(0.0, 100 * (judged.before - judged.after))
                best_json = state.action_to_json(seat, judged.best)
                entry.update({
                    "forced": False,
                    "best": best_json,
                    "best_is_played": _json_key(best_json) == _json_key(played_json),
                    "values": {str(seat): [round(judged.before, 4), round(judged.after, 4)]},
                    "loss": round(loss, 2),
                    "mark": mark_for(game_id, loss),
                    "accuracy": round(move_accuracy(loss), 2),
                })
                if players > 2:
                    entry["places"] = [round(expected_place(judged.before, players), 2),
                                       round(expected_place(judged.after, players), 2)]
            entries.append(entry)
            state.apply(seat, action)
        if progress is not None:
            progress(index + 1, total, entries)
    return summarise(game_id, players, entries, budget=budget, seed=seed)


def summarise(
    game_id: str, players: int, entries: list[dict[str, Any]], *, budget: Budget, seed: int
) -> dict[str, Any]:
    seats: list[dict[str, Any]] = []
    for s in range(players):
        moves = [e for e in entries if e["kind"] == "move" and e["seat"] == s]
        judged = [e for e in moves if not e["forced"]]
        counts = {mark: sum(1 for e in judged if e["mark"] == mark) for mark in MARKS}
        accuracy = round(sum(e["accuracy"] for e in judged) / len(judged), 1) if judged else None
        luck = round(sum(e["luck"][str(s)] for e in entries if e["kind"] == "chance"), 2)
        seats.append({"seat": s, "moves": len(moves), "forced": len(moves) - len(judged), "accuracy": accuracy,
                      "luck": luck, **counts})
    low, mid, high = THRESHOLDS.get(game_id, (5.0, 10.0, 15.0))
    return {
        "version": ANALYSIS_VERSION,
        "game": game_id,
        "players": players,
        "seed": seed,
        "budget": {"decision": budget.decision, "played": budget.played, "luck": budget.luck},
        "thresholds": {"inaccuracy": low, "mistake": mid, "blunder": high},
        "scale": "win chance" if players == 2 else "share of the other seats finished ahead of",
        "seats": seats,
        "events": entries,
    }


def series(analysis: Mapping[str, Any]) -> list[list[tuple[int, float, float]]]:
    """Per seat, the graph's points: (event index, expectation before, after), carried across events
    where the seat was not evaluated (a flat line), so every seat has a point at every event."""
    players = int(analysis["players"])
    current = [0.5] * players
    out: list[list[tuple[int, float, float]]] = [[] for _ in range(players)]
    for entry in analysis["events"]:
        values = entry.get("values", {})
        for s in range(players):
            pair = values.get(str(s))
            if pair is None:
                out[s].append((entry["index"], current[s], current[s]))
            else:
                out[s].append((entry["index"], float(pair[0]), float(pair[1])))
                current[s] = float(pair[1])
    return out


__all__ = [
    "ANALYSIS_VERSION", "BUDGETS", "Budget", "THRESHOLDS", "analyse_record", "budget_for", "judge_decision",
    "mark_for", "move_accuracy", "position_value", "series",
]
