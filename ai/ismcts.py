"""Single-observer information-set MCTS (SO-ISMCTS) for hidden-information games.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree
Search", with the decoupled handling of simultaneous moves:

* **Determinization from the observation only.**  Every iteration starts
  from ``game.state_from_observation(observation, seat, rng)``: a full state
  dealt at random to agree with what the bot's seat sees.  The search never
  receives the true state.  The search deals through
  ``game.determinizer(observation, seat) -> (rng -> state)``, the same deal,
  which a game may override to parse the observation once per search instead
  of once per iteration.
* **Nodes keyed by what the observer knows.**  A node's children are keyed by
  the observer's *view* of each event, not by the event: the observer's own
  actions are seen as they are; other seats' actions and chance events are
  seen only as far as the game reveals them.  A game that declares
  ``ACTION_VIEW`` says exactly what is seen with
  ``State.action_view(observer, seat, action)`` (``seat`` is ``CHANCE`` for
  outcomes; called before the event is applied); otherwise the key is the
  observer's whole observation after the event (canonical JSON), which is
  always correct and slower.  An event can also reveal things through its
  consequences (the cards a shuffle lets the observer draw, the card an
  exploration turns up): a game with ``ACTION_VIEW`` may also declare
  ``INFO_DIGEST``, ``State.info_digest(observer)``, a cheap summary
  of parts of the observer's observation taken *after* the event, and the
  key is then ``(view, digest)``.  Both must depend only on what the
  observer may know (tests/engine/test_mountainhome_information.py).
* **Availability.**  An action's UCB term uses how often it was *legal* when
  its node was visited (not the node's visit count), because different
  determinizations allow different actions (a card only some deals give).
* **Simultaneous decisions** (sealed bids): every seat to move picks from its
  own statistics at the node before any choice is applied, so no seat's
  search uses another seat's commitment; the joint choice is then applied in
  seat order and the observer sees only what the game reveals of it.

* **Two trees** (``MCTSConfig.public_tree``, off by default: not yet shown
  to play better).  The observer decides from its own tree (keyed as above);
  every other seat decides from a *public* tree, keyed by what every seat sees
  (``action_view(PUBLIC, ...)`` and a game's public digest,
  ``ai.evaluation.PUBLIC_DIGESTS``, or else the spectator's observation as
  canonical JSON).  With a single tree keyed by the observer's information a
  modelled opponent would choose at nodes that tell apart the observer's
  hidden cards and sealed commitments, i.e. answer a sealed bid it cannot see
  (strategy fusion the wrong way round); the more iterations, the better it
  learns to (docs/AI.md).

* **A move filter** (``MCTSConfig.prune_moves``, on): a game may list in
  ``ai.evaluation.MOVE_FILTERS`` which of a seat's legal moves the search
  considers (in the tree, the rollouts and the final choice), from the seat's
  own legal moves and commitment only.  Mountainhome's keeps one path to each
  sealed commitment (cards in order, then uses, then ``ready``): the rules let
  a seat replace its commitment at will, and a search that could undo its own
  steps random-walked through them (docs/AI.md).

Each seat's statistics hold that seat's own reward, so other seats are
modelled as maximising their own result (max^n).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Mapping
from math import log, sqrt
from typing import Any

from engine.core import ACTION_VIEW, CHANCE, INFO_DIGEST, TERMINAL, Game, State

from .evaluation import evaluator_for, move_filter_for, public_digest_for
from .mcts import MCTSConfig
from .reward import terminal_reward

_UNSEEN = object()
# The observer of the public tree: no seat, so every seat's private actions look sealed to it.
PUBLIC = -3


class InfoNode:
    """A node for one information set of the observer."""

    __slots__ = ("kids", "stats")

    def __init__(self) -> None:
        self.kids: dict[Hashable, InfoNode] = {}
        # seat -> action -> [visits, total reward, times available]
        self.stats: dict[int, dict[Hashable, list[Any]]] = {}

    def child(self, key: Hashable) -> InfoNode:
        kid = self.kids.get(key)
        if kid is None:
            kid = self.kids[key] = InfoNode()
        return kid


class ISMCTS:
    __slots__ = (
        "game", "config", "rng", "clock", "root", "public_root", "iterations_done", "evaluate", "observer",
        "_viewer", "_digest", "_public_digest", "_moves",
    )

    def __init__(
        self,
        game: Game,
        config: MCTSConfig,
        *,
        seed: int = 0,
        clock: Callable[[], float] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.game = game
        self.config = config
        self.rng = rng if rng is not None else random.Random(seed)
        self.clock = clock
        self.root: InfoNode | None = None  # the observer's tree: its own decisions
        self.public_root: InfoNode | None = None  # the public tree: every other seat's decisions
        self.iterations_done = 0
        self.evaluate = evaluator_for(game.id)
        self._public_digest = public_digest_for(game.id)
        self._moves = move_filter_for(game.id) if config.prune_moves else None
        self.observer = -1
        self._viewer = ACTION_VIEW in game.features
        self._digest = INFO_DIGEST in game.features

    def search(self, observation: Mapping[str, Any], seat: int) -> Any:
        """The best action for ``seat`` given only its ``observation``."""
        self.observer = seat
        root = self.root = InfoNode()
        public = self.public_root = InfoNode()
        config = self.config
        clock = self.clock
        deadline = clock() + config.seconds if clock is not None and config.seconds is not None else None
        done = 0
        legal: tuple[Any, ...] | None = None
        rng = self.rng
        deal = self.game.determinizer(observation, seat)
        while done < config.iterations:
            state = deal(rng)
            if legal is None:
                if seat not in state.to_move():
                    raise ValueError(f"seat {seat} is not to move in this observation")
                legal = tuple(self._legal(state, seat))
            self._iterate(state, root, public)
            done += 1
            if clock is not None and deadline is not None and clock() >= deadline:
                break
        self.iterations_done = done
        assert legal is not None
        table = root.stats.get(seat, {})
        best = legal[0]
        best_key = (-1, -1.0)
        for action in legal:
            entry = table.get(action)
            key = (int(entry[0]), entry[1] / entry[0] if entry[0] else 0.0) if entry else (0, 0.0)
            if key > best_key:
                best_key = key
                best = action
        return best

    # ------------------------------------------------------------------

    def _legal(self, state: State, seat: int) -> list[Any]:
        """The moves the search considers for ``seat``: its legal moves, less what the game's move filter drops."""
        legal = list(state.legal_actions(seat))
        moves = self._moves
        return moves(state, seat, legal) if moves is not None else legal

    def _view(self, state: State, observer: int, seat: int, action: Any) -> Any:
        """What ``observer`` (or ``PUBLIC``) sees of ``seat`` doing ``action`` (before it is applied)."""
        if seat == observer:
            return action
        if self._viewer:
            return state.action_view(observer, seat, action)
        return _UNSEEN

    def _observation_key(self, state: State, observer: int | None) -> str:
        return json.dumps(state.observation(observer), sort_keys=True, separators=(",", ":"))

    def _after(self, state: State) -> Any:
        """What the observer sees of an event's consequences (after it is applied), if the game says."""
        if self._digest:
            return state.info_digest(self.observer)
        return None

    def _keys(self, state: State, views: list[Any], public_views: list[Any]) -> tuple[Hashable, Hashable]:
        """The child keys, in the observer's tree and in the public tree, of the event just applied."""
        if any(view is _UNSEEN for view in views):
            mine: Hashable = self._observation_key(state, self.observer)
        else:
            mine = (tuple(views), self._after(state))
        if not self.config.public_tree:
            return mine, None
        public_digest = self._public_digest
        if public_digest is None or any(view is _UNSEEN for view in public_views):
            public: Hashable = self._observation_key(state, None)
        else:
            public = (tuple(public_views), public_digest(state))
        return mine, public

    def _iterate(self, state: State, root: InfoNode, public: InfoNode) -> None:
        """One iteration: descend the tree(s), expand, roll out, back up.

        The observer decides from its own tree (keyed by what it knows).  With
        ``config.public_tree`` every other seat decides from the public tree (keyed by what every
        seat knows), walked alongside, so no modelled opponent can react to the observer's hidden
        cards or sealed commitments; without it (the default, what the levels were measured with)
        every seat decides from the observer's tree.
        """
        rng = self.rng
        c = self.config.exploration
        me = self.observer
        public_tree = self.config.public_tree
        node = root
        pnode = public
        path: list[tuple[InfoNode, int, Any]] = []
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                outcome = state.sample_chance(rng)
                view = self._view(state, me, CHANCE, outcome)
                public_view = self._view(state, PUBLIC, CHANCE, outcome) if public_tree else None
                state.apply(CHANCE, outcome)
                key, public_key = self._keys(state, [view], [public_view])
                node = node.child(("chance", key))
                if public_tree:
                    pnode = pnode.child(("chance", public_key))
                continue
            movers = (player,) if player >= 0 else state.to_move()
            picks: list[tuple[int, Any]] = []
            fresh = False
            for seat in movers:
                where = node if seat == me or not public_tree else pnode
                legal = self._legal(state, seat)
                table = where.stats.get(seat)
                if table is None:
                    table = where.stats[seat] = {}
                untried = [a for a in legal if a not in table]
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    table[action] = [0, 0.0, 0]
                    fresh = True
                else:
                    action = None
                    best_value = -1.0
                    for a in legal:
                        entry = table[a]
                        value = entry[1] / entry[0] + c * sqrt(log(entry[2] + 1) / entry[0])
                        if value > best_value:
                            best_value = value
                            action = a
                for a in legal:  # availability of the expanded actions
                    seen = table.get(a)
                    if seen is not None:
                        seen[2] += 1
                picks.append((seat, action))
                path.append((where, seat, action))
            # Every seat has chosen before any choice is applied.
            views = [self._view(state, me, seat, action) for seat, action in picks]
            public_views = [self._view(state, PUBLIC, seat, action) for seat, action in picks] if public_tree else []
            for seat, action in picks:
                state.apply(seat, action)
            key, public_key = self._keys(state, views, public_views)
            kids = node.kids
            child = kids.get(key)
            if child is None:
                child = kids[key] = InfoNode()
                fresh = True
            node = child
            if public_tree:
                pkids = pnode.kids
                pchild = pkids.get(public_key)
                if pchild is None:
                    pchild = pkids[public_key] = InfoNode()
                    fresh = True
                pnode = pchild
            if fresh:
                break
        reward = self._rollout(state)
        for where, seat, action in path:
            entry = where.stats[seat][action]
            entry[0] += 1
            entry[1] += reward[seat]

    def _rollout(self, state: State) -> list[float]:
        config = self.config
        if config.rollout_depth is None:
            if not state.is_terminal():
                state.random_playout(self.rng)
            return terminal_reward(state, config.margin_weight)
        rng = self.rng
        events = 0
        while events < config.rollout_depth:
            player = state.current_player()
            if player == TERMINAL:
                return terminal_reward(state, config.margin_weight)
            if player == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            for seat in state.to_move() if player < 0 else (player,):
                actions = self._legal(state, seat)
                state.apply(seat, actions[rng.randrange(len(actions))])
            events += 1
        return self.evaluate(state, config.margin_weight)
