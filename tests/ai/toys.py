"""Small games implementing the engine protocol, for testing the bots.

* :class:`SealedBids` -- hidden hands, a shuffled deal (``chance_outcomes``
  raises), listed chance outcomes (the prize of each round) and sealed,
  simultaneous bids: the shape of Mountainhome's auctions in miniature.
* :class:`ThreeSeatTree` -- a two-move, three-player game whose max^n answer
  differs from what seat 0 would pick if it expected help.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from engine.core import CHANCE, SIMULTANEOUS, TERMINAL, Game, NotationError, RandomSource, State

DECK = (1, 2, 3, 4, 5, 6, 7, 8)
HAND = 3
PRIZES = (1, 2, 3)
ROUNDS = 3


class SealedBids(Game):
    """Each seat is dealt 3 of the cards 1-8 face down (two stay unseen).  Three rounds: a prize
    (1, 2 or 3 points, drawn without replacement) is revealed, then both seats
    bid one card face down at once; the higher card wins the prize, a tie
    wins nothing.  Bid cards are revealed and discarded."""

    id = "toy-sealed-bids"
    name = "Sealed bids (toy)"
    min_players = 2
    max_players = 2
    perfect_information = False
    has_chance = True
    simultaneous = True

    def max_events(self, players: int) -> int:
        return 1 + ROUNDS * 3

    def new_initial_state(self, players: int = 2, options: Mapping[str, Any] | None = None) -> SealedBidsState:
        self.check_players(players)
        return SealedBidsState(self)

    def state_from_observation(self, observation: Mapping[str, Any], seat: int, rng: RandomSource) -> SealedBidsState:
        state = SealedBidsState(self)
        obs = observation
        state.phase = obs["phase"]
        state.round = obs["round"]
        state.prizes_left = list(obs["prizes_left"])
        state.prize = obs["prize"]
        state.scores_ = list(obs["scores"])
        state.history = [tuple(pair) for pair in obs["revealed"]]
        other = 1 - seat
        if state.phase == "deal":
            return state
        unseen = [c for c in DECK if c not in obs["hand"] and all(c not in pair for pair in state.history)]
        if obs["my_bid"] is not None:
            unseen = [c for c in unseen if c != obs["my_bid"]]
        # deal the other seat's hand (and its sealed bid, if made) from the unseen cards
        need = obs["hand_sizes"][other] + (1 if obs["committed"][other] else 0)
        for i in range(len(unseen) - 1, 0, -1):
            j = rng.randrange(i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        cards = sorted(unseen[:need])
        hands: list[list[int]] = [[], []]
        bids: list[Any] = [None, None]
        hands[seat] = list(obs["hand"])
        bids[seat] = obs["my_bid"]
        if obs["committed"][other]:
            k = rng.randrange(len(cards))
            bids[other] = cards.pop(k)
        hands[other] = cards
        state.hands = hands
        state.bids = bids
        return state


class SealedBidsState(State):
    __slots__ = ("phase", "round", "hands", "bids", "prizes_left", "prize", "scores_", "history")

    def __init__(self, game: SealedBids) -> None:
        self.game = game
        self.players = 2
        self.options = {}
        self.phase = "deal"
        self.round = 0
        self.hands: list[list[int]] = [[], []]
        self.bids: list[Any] = [None, None]
        self.prizes_left = list(PRIZES)
        self.prize = None
        self.scores_ = [0, 0]
        self.history: list[tuple[int, int]] = []

    def current_player(self) -> int:
        if self.phase in ("deal", "prize"):
            return CHANCE
        if self.phase == "bid":
            return SIMULTANEOUS
        return TERMINAL

    def to_move(self) -> tuple[int, ...]:
        if self.phase != "bid":
            return ()
        return tuple(s for s in (0, 1) if self.bids[s] is None)

    def legal_actions(self, seat: int | None = None) -> tuple[int, ...]:
        if self.phase != "bid" or seat is None or self.bids[seat] is not None:
            return ()
        return tuple(self.hands[seat])

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.phase == "deal":
            raise NotImplementedError("the deal is a shuffle")
        return [(p, 1 / len(self.prizes_left)) for p in self.prizes_left]

    def sample_chance(self, rng: RandomSource) -> Any:
        if self.phase == "deal":
            cards = list(DECK)
            for i in range(len(cards) - 1, 0, -1):
                j = rng.randrange(i + 1)
                cards[i], cards[j] = cards[j], cards[i]
            return (tuple(sorted(cards[:HAND])), tuple(sorted(cards[HAND : 2 * HAND])))
        return self.prizes_left[rng.randrange(len(self.prizes_left))]

    def apply(self, seat: int, action: Any) -> None:
        if seat == CHANCE:
            if self.phase == "deal":
                self.hands = [list(action[0]), list(action[1])]
                self.phase = "prize"
            else:
                self.prize = action
                self.prizes_left.remove(action)
                self.phase = "bid"
            return
        self.hands[seat].remove(action)
        self.bids[seat] = action
        if self.bids[0] is not None and self.bids[1] is not None:
            a, b = self.bids
            if a > b:
                self.scores_[0] += self.prize
            elif b > a:
                self.scores_[1] += self.prize
            self.history.append((a, b))
            self.bids = [None, None]
            self.prize = None
            self.round += 1
            self.phase = "over" if self.round == ROUNDS else "prize"

    def clone(self) -> SealedBidsState:
        other = self.__class__.__new__(self.__class__)
        other.game = self.game
        other.players = 2
        other.options = {}
        other.phase = self.phase
        other.round = self.round
        other.hands = [h[:] for h in self.hands]
        other.bids = self.bids[:]
        other.prizes_left = self.prizes_left[:]
        other.prize = self.prize
        other.scores_ = self.scores_[:]
        other.history = self.history[:]
        return other

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "round": self.round,
            "prize": self.prize,
            "prizes_left": self.prizes_left[:],
            "scores": self.scores_[:],
            "revealed": [list(pair) for pair in self.history],
            "hand_sizes": [len(h) for h in self.hands],
            "committed": [b is not None for b in self.bids],
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "my_bid": self.bids[seat] if seat is not None else None,
        }

    def scores(self) -> list[int]:
        return self.scores_[:]

    def ranking(self) -> list[int]:
        s = self.scores_
        return [sum(1 for o in s if o > mine) for mine in s]

    def key(self) -> Any:
        return (self.phase, self.round, tuple(map(tuple, self.hands)), tuple(self.bids),
                tuple(self.prizes_left), self.prize, tuple(self.scores_), tuple(self.history))

    def action_to_json(self, seat: int, action: Any) -> dict[str, Any]:
        return {"bid": action}

    def action_from_json(self, seat: int, data: Any) -> Any:
        if not isinstance(data, dict) or type(data.get("bid")) is not int:
            raise NotationError(f"action {data!r} must be {{'bid': card}}")
        return data["bid"]

    def chance_to_json(self, outcome: Any) -> dict[str, Any]:
        if self.phase == "deal":
            return {"deal": [list(outcome[0]), list(outcome[1])]}
        return {"prize": outcome}

    def chance_from_json(self, data: Any) -> Any:
        if "deal" in data:
            return (tuple(data["deal"][0]), tuple(data["deal"][1]))
        return data["prize"]


def deal(hand0: tuple[int, ...], hand1: tuple[int, ...], prize: int) -> SealedBidsState:
    """A sealed-bids state after a given deal and first prize."""
    state = SealedBids().new_initial_state(2)
    state.apply(CHANCE, (tuple(sorted(hand0)), tuple(sorted(hand1))))
    state.apply(CHANCE, prize)
    return state


class ThreeSeatTree(Game):
    """Seat 0 picks "A" or "B", seat 1 then picks "x" or "y"; seat 2 never moves.

    Final scores (seat 0, seat 1, seat 2)::

        A x: (3, 1, 0)   A y: (0, 5, 2)    -> seat 1 prefers y (it wins)
        B x: (2, 1, 0)   B y: (1, 0, 2)    -> seat 1 prefers x (second beats last)

    So under max^n seat 0 must pick B (it then wins); A looks tempting to a
    seat that expects the others to help it (A x is its best score).
    """

    id = "toy-three-seat-tree"
    name = "Three-seat tree (toy)"
    min_players = 3
    max_players = 3
    has_chance = False

    def max_events(self, players: int) -> int:
        return 2

    def new_initial_state(self, players: int = 3, options: Mapping[str, Any] | None = None) -> ThreeSeatTreeState:
        return ThreeSeatTreeState(self)

    def state_from_observation(self, observation: Mapping[str, Any], seat: int, rng: RandomSource) -> ThreeSeatTreeState:
        state = ThreeSeatTreeState(self)
        state.moves = list(observation["moves"])
        return state


TREE_SCORES = {("A", "x"): (3, 1, 0), ("A", "y"): (0, 5, 2), ("B", "x"): (2, 1, 0), ("B", "y"): (1, 0, 2)}


class ThreeSeatTreeState(State):
    __slots__ = ("moves",)

    def __init__(self, game: ThreeSeatTree) -> None:
        self.game = game
        self.players = 3
        self.options = {}
        self.moves: list[str] = []

    def current_player(self) -> int:
        return len(self.moves) if len(self.moves) < 2 else TERMINAL

    def legal_actions(self, seat: int | None = None) -> tuple[str, ...]:
        return (("A", "B"), ("x", "y"))[len(self.moves)] if len(self.moves) < 2 else ()

    def apply(self, seat: int, action: Any) -> None:
        self.moves.append(action)

    def clone(self) -> ThreeSeatTreeState:
        other = ThreeSeatTreeState(self.game)
        other.moves = self.moves[:]
        return other

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {"moves": self.moves[:]}

    def scores(self) -> list[int]:
        if len(self.moves) < 2:
            return [0, 0, 0]
        return list(TREE_SCORES[tuple(self.moves)])  # type: ignore[index]

    def ranking(self) -> list[int]:
        s = self.scores()
        return [sum(1 for o in s if o > mine) for mine in s]

    def key(self) -> Any:
        return tuple(self.moves)

    def action_to_json(self, seat: int, action: Any) -> dict[str, Any]:
        return {"move": action}

    def action_from_json(self, seat: int, data: Any) -> Any:
        return data["move"]


def all_hands() -> list[tuple[int, ...]]:
    return list(combinations(DECK, HAND))
