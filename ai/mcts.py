"""Monte Carlo tree search (UCT) over the engine protocol, for every game.

* **Chance nodes.**  When ``chance_outcomes()`` lists the outcomes, a chance
  node samples one by its probability (so Mountain Goats' 1,296 ordered rolls
  collapse into 126 multisets); when it raises ``NotImplementedError`` (a
  shuffle) the node samples with ``sample_chance`` and keeps one child per
  distinct outcome met.
* **max^n.**  Every decision node belongs to one seat and picks by that
  seat's own average reward, so in 3-4 player games each player maximises
  its own result.  Rewards are vectors (:mod:`ai.reward`).
* **Simultaneous decisions** (``current_player() == SIMULTANEOUS``) use
  decoupled UCT: each seat to move keeps its own statistics at the node and
  picks from them alone, so no seat's choice depends on another's commitment;
  the joint choice is then applied in seat order.
* **Budgets**: an iteration cap and, when a ``clock`` function is injected,
  a wall-clock limit in seconds.  The search itself reads no clock and owns
  its ``random.Random``, so with ``clock=None`` a move is a pure function of
  (state, config, seed).
* **Lean nodes**: ``__slots__`` and parallel per-edge lists (actions, child,
  visits, total reward) held by the parent, so selection is one loop over
  flat lists.  The only copy per iteration is one ``clone()`` of the root.
* **Rollouts**: ``State.random_playout(rng)`` (a fused loop in each game) to
  the end, or, with ``rollout_depth``, a few random events then a cheap
  evaluation (:mod:`ai.evaluation`).
* **Tree reuse**: :meth:`MCTS.advance` moves the root along the events that
  were actually played, keeping the statistics below them.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from math import log, sqrt
from typing import Any

from engine.core import CHANCE, SIMULTANEOUS, TERMINAL, State

from .evaluation import chance_key_for, evaluator_for
from .reward import terminal_reward

Clock = Callable[[], float]


@dataclass(frozen=True)
class MCTSConfig:
    """Search settings.  ``iterations`` always caps; ``seconds`` needs a clock."""

    iterations: int = 1000
    seconds: float | None = None
    exploration: float = 0.7
    margin_weight: float = 0.1
    rollout_depth: int | None = None  # None: play out to the end
    reuse_tree: bool = False
    # ISMCTS only: other seats decide from a public tree instead of the observer's (docs/AI.md)
    public_tree: bool = False
    # ISMCTS only: consider only the moves the game's ``ai.evaluation.MOVE_FILTERS`` keeps (Mountainhome:
    # a sealed commitment built once, in one order, then "ready"; docs/AI.md)
    prune_moves: bool = True


class Node:
    """One search node.  Per-edge statistics live in the node's parallel lists."""

    __slots__ = ("player", "actions", "kids", "n", "w", "untried", "visits", "cum", "index", "seats")

    def __init__(self, state: State, cache: list[Any] | None = None) -> None:
        player = state.current_player()
        self.player = player
        self.visits = 0
        self.actions: Any  # a tuple, or a list that grows (sampled chance outcomes)
        self.n: list[int]
        self.w: list[float]
        self.cum: list[float] | None = None
        self.index: dict[Hashable, int] | None = None
        self.seats: list[_SeatStats] | None = None
        if player >= 0:
            actions = tuple(state.legal_actions(player))
            k = len(actions)
            self.actions = actions
            self.kids: Any = [None] * k
            self.n = [0] * k
            self.w = [0.0] * k
            self.untried: list[int] | None = list(range(k))
        elif player == CHANCE:
            self.n, self.w = [], []
            self.untried = None
            try:
                listed = state.chance_outcomes()
            except NotImplementedError:
                listed = None
            if listed:
                # Chance nodes of one game usually list the same outcomes (the
                # 126 roll multisets): share one outcome tuple and cumulative
                # table between them instead of rebuilding both per node.
                if cache is not None and cache[0] == listed:
                    self.actions, self.cum = cache[1], cache[2]
                else:
                    self.actions = tuple(outcome for outcome, _ in listed)
                    total = 0.0
                    cum = []
                    for _, p in listed:
                        total += p
                        cum.append(total)
                    self.cum = cum
                    if cache is not None:
                        cache[:] = [listed, self.actions, cum]
                self.kids = [None] * len(self.cum)
            else:  # sampled outcomes: one child per distinct outcome met
                self.actions = []
                self.kids = []
                self.index = {}
        elif player == SIMULTANEOUS:
            self.actions = ()
            self.n, self.w = [], []
            self.untried = None
            self.kids = {}
            self.seats = [_SeatStats(seat, state.legal_actions(seat)) for seat in state.to_move()]
        else:  # terminal
            self.actions = ()
            self.kids = ()
            self.n, self.w = [], []
            self.untried = None


class _SeatStats:
    """One seat's statistics at a simultaneous node (decoupled UCT)."""

    __slots__ = ("seat", "actions", "n", "w", "untried")

    def __init__(self, seat: int, actions: Any) -> None:
        self.seat = seat
        self.actions = tuple(actions)
        k = len(self.actions)
        self.n = [0] * k
        self.w = [0.0] * k
        self.untried = list(range(k))


def _ucb(n: list[int], w: list[float], visits: int, c: float) -> int:
    c2 = c * c * log(visits)
    best = 0
    best_value = -1.0
    i = 0
    for ni in n:
        value = w[i] / ni + sqrt(c2 / ni)
        if value > best_value:
            best_value = value
            best = i
        i += 1
    return best


class MCTS:
    """A UCT searcher for one game.  Not thread-safe; one per bot."""

    __slots__ = (
        "config",
        "rng",
        "clock",
        "evaluate",
        "chance_key",
        "root",
        "iterations_done",
        "game_id",
        "_chance_cache",
    )

    def __init__(
        self,
        game_id: str,
        config: MCTSConfig,
        *,
        seed: int = 0,
        clock: Clock | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.game_id = game_id
        self.config = config
        self.rng = rng if rng is not None else random.Random(seed)
        self.clock = clock
        self.evaluate = evaluator_for(game_id)
        self.chance_key = chance_key_for(game_id)
        self.root: Node | None = None
        self.iterations_done = 0
        self._chance_cache: list[Any] = [None, None, None]

    # ------------------------------------------------------------------ search

    def search(self, state: State, seat: int | None = None) -> Any:
        """Search from ``state`` and return the best action for ``seat``.

        ``seat`` defaults to the one seat to move; at a simultaneous decision
        it names which of the seats to move we are choosing for.
        """
        player = state.current_player()
        if player == TERMINAL or player == CHANCE:
            raise ValueError("search() needs a state where a seat is to move")
        if seat is None:
            if player < 0:
                raise ValueError("at a simultaneous decision, say which seat to choose for")
            seat = player
        root = self.root if self.config.reuse_tree else None
        if root is None or not self._matches(root, state):
            root = Node(state)
        self.root = root
        self.run(state, root)
        return self.best_action(root, seat)

    def _matches(self, node: Node, state: State) -> bool:
        player = state.current_player()
        if node.player != player:
            return False
        if player >= 0:
            return bool(node.actions == tuple(state.legal_actions(player)))
        if player == SIMULTANEOUS and node.seats is not None:
            return [s.seat for s in node.seats] == list(state.to_move()) and all(
                s.actions == tuple(state.legal_actions(s.seat)) for s in node.seats
            )
        return False

    def run(self, state: State, root: Node) -> int:
        """Run iterations on ``root`` (for ``state``) until the budget is spent."""
        config = self.config
        limit = config.iterations
        clock = self.clock
        deadline = None
        if clock is not None and config.seconds is not None:
            deadline = clock() + config.seconds
        done = 0
        iterate = self._iterate
        if deadline is None:
            while done < limit:
                iterate(state, root)
                done += 1
        else:
            while done < limit:
                iterate(state, root)
                done += 1
                if clock() >= deadline:  # type: ignore[misc]
                    break
        self.iterations_done = done
        return done

    def _iterate(self, root_state: State, root: Node) -> None:
        state = root_state.clone()
        rng = self.rng
        c = self.config.exploration
        node = root
        path: list[tuple[Node, Any]] = []
        append = path.append
        while True:
            p = node.player
            if p >= 0:
                untried = node.untried
                if untried:
                    j = rng.randrange(len(untried))
                    i = untried[j]
                    untried[j] = untried[-1]
                    untried.pop()
                    state.apply(p, node.actions[i])
                    append((node, i))
                    child = Node(state, self._chance_cache)
                    node.kids[i] = child
                    node = child
                    break
                i = _ucb(node.n, node.w, node.visits, c)
                state.apply(p, node.actions[i])
                append((node, i))
                node = node.kids[i]
            elif p == CHANCE:
                cum = node.cum
                if cum is not None:
                    i = bisect_right(cum, rng.random() * cum[-1])
                    if i >= len(cum):
                        i = len(cum) - 1
                    outcome = node.actions[i]
                else:
                    outcome = state.sample_chance(rng)
                    index = node.index
                    assert index is not None  # a chance node without listed outcomes has one
                    found = index.get(outcome)
                    if found is None:
                        i = len(node.actions)
                        node.actions.append(outcome)
                        node.kids.append(None)
                        index[outcome] = i
                    else:
                        i = found
                state.apply(CHANCE, outcome)
                node.visits += 1
                child = node.kids[i]
                if child is None:
                    child = node.kids[i] = Node(state, self._chance_cache)
                    if child.player != CHANCE:
                        node = child
                        break
                node = child
            elif p == SIMULTANEOUS:
                picks = []
                fresh = False
                for stats in node.seats:  # type: ignore[union-attr]
                    untried = stats.untried
                    if untried:
                        j = rng.randrange(len(untried))
                        i = untried[j]
                        untried[j] = untried[-1]
                        untried.pop()
                        fresh = True
                    else:
                        i = _ucb(stats.n, stats.w, node.visits, c)
                    picks.append(i)
                joint = tuple(picks)
                seats = node.seats
                for stats, i in zip(seats, picks):  # type: ignore[arg-type]
                    state.apply(stats.seat, stats.actions[i])
                append((node, joint))
                child = node.kids.get(joint)
                if child is None:
                    child = node.kids[joint] = Node(state, self._chance_cache)
                    node = child
                    break
                node = child
                if fresh:
                    break
            else:
                break
        reward = self._rollout(state)
        for node, i in path:
            node.visits += 1
            p = node.player
            if p >= 0:
                node.n[i] += 1
                node.w[i] += reward[p]
            else:
                for stats, k in zip(node.seats, i):  # type: ignore[arg-type]
                    stats.n[k] += 1
                    stats.w[k] += reward[stats.seat]

    def _rollout(self, state: State) -> list[float]:
        config = self.config
        depth = config.rollout_depth
        rng = self.rng
        if depth is None:
            if not state.is_terminal():
                state.random_playout(rng)
            return terminal_reward(state, config.margin_weight)
        events = 0
        while events < depth:
            player = state.current_player()
            if player == TERMINAL:
                return terminal_reward(state, config.margin_weight)
            if player == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue  # chance events are free: depth counts decisions
            for seat in state.to_move() if player < 0 else (player,):
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.randrange(len(actions))])
            events += 1
        return self.evaluate(state, config.margin_weight)

    # ------------------------------------------------------------------ results

    @staticmethod
    def edge_stats(node: Node, seat: int) -> tuple[tuple[Any, ...], list[int], list[float]]:
        """The actions, visit counts and total rewards of ``seat`` at ``node``."""
        if node.player == seat:
            return node.actions, node.n, node.w
        for stats in node.seats or ():
            if stats.seat == seat:
                return stats.actions, stats.n, stats.w
        raise ValueError(f"seat {seat} does not decide at this node")

    def best_action(self, node: Node, seat: int) -> Any:
        """The most visited action (ties: the higher average, then the first listed)."""
        actions, n, w = self.edge_stats(node, seat)
        best = 0
        best_key = (-1, -1.0)
        for i in range(len(actions)):
            key = (n[i], w[i] / n[i] if n[i] else 0.0)
            if key > best_key:
                best_key = key
                best = i
        return actions[best]

    def advance(self, seat: int, action: Any) -> None:
        """Move the kept root along an event that was played (tree reuse)."""
        node = self.root
        if node is None:
            return
        child = None
        if node.player >= 0 and seat == node.player:
            try:
                child = node.kids[node.actions.index(action)]
            except ValueError:
                child = None
        elif node.player == CHANCE and seat == CHANCE:
            index = node.index
            if index is None:  # listed outcomes: built only when a tree is reused
                index = {a: i for i, a in enumerate(node.actions)}
            i = index.get(action)
            if i is None and self.chance_key is not None:
                i = index.get(self.chance_key(action))
            child = node.kids[i] if i is not None else None
        self.root = child
