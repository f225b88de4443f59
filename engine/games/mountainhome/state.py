"""Mountainhome rules: the state, its prompts and the task loop.

Layout of the state (see docs/games/mountainhome.md, "Design"):

* zones are lists of card instances (ints); draw piles, the exploration pile
  and the shop deck keep their **top at the end** of the list;
* ``steps_done`` / ``tapped`` are indexed by instance (buildings), ``stored`` maps a
  building to the cards inside it;
* one pending prompt (``prompt``, ``prompt_seat``, ``prompt_data``) says who decides next;
  ``stack`` holds the tasks still to run (immutable tuples, so ``clone`` is a
  list copy).  ``_advance`` runs tasks until a prompt or a chance node is due.

The fields are declared once, in base.py; the rules live in mixins by job, each a module of
its own: ``turn`` (setup, the turn, construction, recurring events, the end and the scores),
``dwarves`` (dwarf uses, Karina, negative effects with Ygg and Lagertha), ``piles`` (hidden
piles, drawing and chance nodes), ``payment``, ``bidding``, ``moves`` (legal actions, why one
is illegal), ``apply``, ``notation`` (the record codec) and ``view`` (observations, redaction,
determinization).  Names come from ``constants``.

Every card effect of §22 is implemented; :class:`MissingRuleError` remains only as
the guard of fall-through branches no rule reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...core import (
    ACTION_VIEW,
    CHANCE,
    INFO_DIGEST,
    REDACTION,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    OptionSpec,
    RandomSource,
    State,
)
from . import tables
from .apply import ApplyMixin
from .base import StateBase
from .bidding import BiddingMixin
from .constants import (
    GAME_ID,
    K_FORTRESS,
    K_HALL,
    K_WAREHOUSE,
    P_CHANCE,
    P_COMMIT,
    P_NONE,
    P_OVER,
    P_TRASH,
    T_ACTION,
    T_ACTION_START,
    T_AFTER_DRAW,
    T_BID_CLEANUP,
    T_BID_COMMIT,
    T_BID_DRAW,
    T_BID_END,
    T_BID_PRIZE,
    T_BID_REVEAL,
    T_BID_WINNER,
    T_BOAT_DISCARD,
    T_CAVERN_ROLL,
    T_CHARITY,
    T_CONV,
    T_DAMAGE,
    T_DECKS,
    T_DRAW,
    T_DWARF_RESOLVE,
    T_END_TURN,
    T_EXPLORE,
    T_FINISH_USE,
    T_HANGOVER,
    T_HUT_TRASH,
    T_INSERT,
    T_KARINA,
    T_KEEP,
    T_LOKI,
    T_NOP,
    T_ONBID,
    T_OPENING,
    T_ORI_TAKE,
    T_PANDA_MOVE,
    T_PARTY_EXPLORE,
    T_PICK,
    T_PREPARE,
    T_PROTECT,
    T_REORG_PUT,
    T_RESOLVE_CHECK,
    T_SELECT,
    T_SHOPSHUFFLE,
    T_STEAL,
    T_THREATEN,
    T_TURN,
    T_XSHUFFLE,
)
from .dwarves import DwarvesMixin
from .layout import layout
from .moves import MovesMixin
from .notation import ACTION_FIELDS, CodecMixin
from .payment import PaymentMixin
from .piles import PilesMixin
from .turn import TurnMixin
from .view import ObservationMixin, determinizer, state_from_observation

# ====================================================================== the game


class Mountainhome(Game):
    id = GAME_ID
    name = "Mountainhome"
    min_players = 2
    max_players = 4
    action_fields = ACTION_FIELDS
    features = frozenset({REDACTION, ACTION_VIEW, INFO_DIGEST})  # view.py
    option_specs = (
        OptionSpec("shop_profile", "seed", ("seed", "tiered"), "construction office: seed (default) or tiered (§3.4)"),
        OptionSpec("legendaries", "pick", ("pick", "random"), "legendary dwarves picked in reverse seat order or dealt"),
        OptionSpec("labourer_vp", 0, (0, 1), "VP of each labourer (MH-25)"),
    )
    perfect_information = False
    has_chance = True
    simultaneous = True

    def max_events(self, players: int) -> int:
        # 60 rounds of X turns; a generous bound for random play (sealed commitments are
        # replaceable, so a random seat makes several commit_bid entries per bid).
        return 200_000

    def new_initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> MountainhomeState:
        players = self.check_players(players)
        return MountainhomeState(self, players, self.normalize_options(options))

    def blank_state(self, players: int, options: dict[str, Any]) -> MountainhomeState:
        """A state with its card layout set and nothing else (view.py fills in an observation)."""
        return MountainhomeState.blank(self, players, options)

    def state_from_observation(self, observation: Mapping[str, Any], seat: int, rng: RandomSource) -> MountainhomeState:
        return state_from_observation(self, observation, seat, rng)

    def determinizer(self, observation: Mapping[str, Any], seat: int) -> Callable[[RandomSource], MountainhomeState]:
        """``rng -> state``, as :meth:`state_from_observation` but parsing the observation once (ISMCTS)."""
        return determinizer(self, observation, seat)



# ====================================================================== the fields

# The state's fields are declared once, as the annotations of base.StateBase (with what each holds);
# the slots are made from them.  ``game``, ``players`` and ``options`` are State's own slots.
# ``clone`` and ``key`` below name each field once more, written out because a loop over the fields
# is much slower (clone is the search's hot path); tests/engine/test_mountainhome_state_fields.py
# checks that they name every declared field.
FIELDS: tuple[str, ...] = tuple(name for name in StateBase.__annotations__ if name not in State.__slots__)
NOT_IN_KEY = frozenset(("layout", "names", "kind_numbers", "created"))  # they follow from the options and ``kind``


# ====================================================================== the state


class MountainhomeState(
    TurnMixin, DwarvesMixin, PilesMixin, ApplyMixin, PaymentMixin, BiddingMixin, MovesMixin, CodecMixin, ObservationMixin, State,
):
    """The whole table.  Its fields are declared in base.py, its methods live in mixins by job (turn.py, piles.py, ...)."""

    __slots__ = FIELDS

    @classmethod
    def blank(cls, game: Mountainhome, players: int, options: dict[str, Any]) -> MountainhomeState:
        """A state with only its game, seats, options and card layout set."""
        state = cls.__new__(cls)
        state._set_layout(game, players, options)
        return state

    def _set_layout(self, game: Mountainhome, players: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = players
        self.options = options
        lay = self.layout = layout(players, options["shop_profile"])
        self.kind = list(lay.kinds)
        self.names = list(lay.names)
        self.kind_numbers = list(lay.kind_numbers)
        self.created = dict(lay.counts)

    def __init__(self, game: Mountainhome, players: int, options: dict[str, Any]) -> None:
        self._set_layout(game, players, options)
        n = players
        self.prompt = P_NONE
        self.prompt_seat = -1
        self.prompt_data = ()
        self.stack = []
        self.legendaries = [-1] * n
        self.draw = [[] for _ in range(n)]
        self.hand = [[] for _ in range(n)]
        self.discard = [[] for _ in range(n)]
        self.town = [[] for _ in range(n)]
        self.steps_done = {}
        self.tapped = {}
        self.stored = {}
        self.exploration = []
        self.shop_deck = []
        self.shop_slots = [-1, -1, -1]
        self.trash = []
        self.shared_area = []
        self.counters = {}
        self.fortress_dwarves = []
        self.cavern_dwarves = []
        self.cavern_owners = []
        self.aside_cards = []
        self.aside_owners = []
        self.selected = {}
        self.round = 0
        self.turn = 0
        self.active = -1
        self.dwarves_found = 0
        self.vp_tokens = [0] * n
        self.action_pool = [0, 0, 0]
        self.bought = False
        self.lair_used = False
        self.offers_to = []
        self.traded = False
        self.doubled_kinds = []
        self.pilings_pending = 0
        self.vp_tie_play = False
        self.vp_tie_turns_left = 0
        self.over = False
        self.bid = None
        self.bid_stack = []
        self.actions_applied = 0
        self.exploration_blocks = []
        self.shop_blocks = []
        self.draw_blocks = [[] for _ in range(n)]
        self.hand_known = [[] for _ in range(n)]
        self.private_knowledge = [{} for _ in range(n)]
        # setup (§3, §23.3 order)
        self.stack = [(T_OPENING,), (T_SHOPSHUFFLE, 0), (T_XSHUFFLE,), (T_SELECT, 0), (T_DECKS, 0)]
        if options["legendaries"] == "pick":
            self.stack.append((T_PICK, 0))
        else:
            self.stack.append((T_PICK, -1))
        self._advance()

    # ------------------------------------------------------------------ cloning & keys

    def clone(self) -> MountainhomeState:
        o = MountainhomeState.__new__(MountainhomeState)
        o.game = self.game
        o.players = self.players
        o.options = self.options
        o.layout = self.layout
        o.kind = self.kind[:]
        o.names = self.names[:]
        o.kind_numbers = self.kind_numbers[:]
        o.created = dict(self.created)
        o.prompt = self.prompt
        o.prompt_seat = self.prompt_seat
        o.prompt_data = self.prompt_data
        o.stack = self.stack[:]
        o.legendaries = self.legendaries[:]
        o.draw = [z[:] for z in self.draw]
        o.hand = [z[:] for z in self.hand]
        o.discard = [z[:] for z in self.discard]
        o.town = [z[:] for z in self.town]
        o.steps_done = dict(self.steps_done)
        o.tapped = dict(self.tapped)
        o.stored = {b: z[:] for b, z in self.stored.items()}
        o.exploration = self.exploration[:]
        o.shop_deck = self.shop_deck[:]
        o.shop_slots = self.shop_slots[:]
        o.trash = self.trash[:]
        o.shared_area = self.shared_area[:]
        o.counters = {e: z[:] for e, z in self.counters.items()}
        o.fortress_dwarves = self.fortress_dwarves[:]
        o.cavern_dwarves = self.cavern_dwarves[:]
        o.cavern_owners = self.cavern_owners[:]
        o.aside_cards = self.aside_cards[:]
        o.aside_owners = self.aside_owners[:]
        o.selected = dict(self.selected)
        o.round = self.round
        o.turn = self.turn
        o.active = self.active
        o.dwarves_found = self.dwarves_found
        o.vp_tokens = self.vp_tokens[:]
        o.action_pool = self.action_pool[:]
        o.bought = self.bought
        o.lair_used = self.lair_used
        o.offers_to = self.offers_to[:]
        o.traded = self.traded
        o.doubled_kinds = self.doubled_kinds[:]
        o.pilings_pending = self.pilings_pending
        o.vp_tie_play = self.vp_tie_play
        o.vp_tie_turns_left = self.vp_tie_turns_left
        o.over = self.over
        o.bid = self.bid.clone() if self.bid is not None else None
        o.bid_stack = [b.clone() for b in self.bid_stack]
        o.actions_applied = self.actions_applied
        o.exploration_blocks = self.exploration_blocks[:]
        o.shop_blocks = self.shop_blocks[:]
        o.draw_blocks = [z[:] for z in self.draw_blocks]
        o.hand_known = [z[:] for z in self.hand_known]
        o.private_knowledge = [dict(p) for p in self.private_knowledge]
        return o

    def key(self) -> tuple[Any, ...]:
        return (
            self.players, tuple(sorted(self.options.items())), tuple(self.kind), self.prompt, self.prompt_seat,
            self.prompt_data, tuple(self.stack), tuple(self.legendaries), tuple(map(tuple, self.draw)),
            tuple(map(tuple, self.hand)), tuple(map(tuple, self.discard)), tuple(map(tuple, self.town)),
            tuple(sorted(self.steps_done.items())), tuple(sorted(self.tapped.items())),
            tuple(sorted((b, tuple(z)) for b, z in self.stored.items())), tuple(self.exploration),
            tuple(self.shop_deck), tuple(self.shop_slots), tuple(self.trash), tuple(self.shared_area),
            tuple(sorted((e, tuple(z)) for e, z in self.counters.items())), tuple(self.fortress_dwarves),
            tuple(self.cavern_dwarves), tuple(self.cavern_owners), tuple(self.aside_cards), tuple(self.aside_owners),
            tuple(sorted(self.selected.items())), self.round, self.turn, self.active, self.dwarves_found,
            tuple(self.vp_tokens), tuple(self.action_pool), self.bought, self.lair_used, tuple(self.offers_to),
            self.traded, tuple(self.doubled_kinds), self.pilings_pending, self.vp_tie_play, self.vp_tie_turns_left,
            self.over, self.bid.key() if self.bid is not None else None, tuple(b.key() for b in self.bid_stack),
            self.actions_applied, tuple(self.exploration_blocks), tuple(self.shop_blocks),
            tuple(map(tuple, self.draw_blocks)), tuple(map(tuple, self.hand_known)),
            tuple(tuple(sorted((k, _freeze(v)) for k, v in p.items())) for p in self.private_knowledge),
        )

    # ------------------------------------------------------------------ small helpers

    def name(self, inst: int) -> str:
        return self.names[inst]

    def new_instance(self, kind: int) -> int:
        """A new Hoard or Hangover from the supply, numbered on from the last of its id (§23.2)."""
        count = self.created.get(kind, 0) + 1
        self.created[kind] = count
        self.kind.append(kind)
        self.kind_numbers.append(count)
        self.names.append(f"{tables.KID[kind]}#{count}")
        return len(self.kind) - 1

    def in_area(self, kind: int) -> bool:
        for e in self.shared_area:
            if self.kind[e] == kind:
                return True
        return False

    def finished(self, b: int) -> bool:
        return self.steps_done.get(b, 0) >= len(tables.KSTEPS[self.kind[b]])

    def upright(self, b: int) -> bool:
        return self.finished(b) and not self.tapped.get(b, True)

    def own_building(self, seat: int, kind: int) -> int:
        """A finished building of this kind in ``seat``'s town (first placed), or -1."""
        for b in self.town[seat]:
            if self.kind[b] == kind and self.finished(b):
                return b
        return -1

    def hall_of(self, seat: int) -> int:
        for b in self.town[seat]:
            if self.kind[b] in K_HALL and self.finished(b):
                return b
        return -1

    def hall_dwarves(self, seat: int) -> list[int]:
        b = self.hall_of(seat)
        return self.stored.get(b, []) if b >= 0 else []

    def warehouse_cards(self, seat: int) -> list[int]:
        b = self.own_building(seat, K_WAREHOUSE)
        return self.stored.get(b, []) if b >= 0 else []

    def card_value(self, inst: int) -> int:
        kind = self.kind[inst]
        if kind == tables.MUSHROOM_WINE and self.in_area(K_FORTRESS):
            return tables.FORTRESS["mushroom_wine_value"]
        return tables.KVALUE_AMT[kind]

    def unfinished(self, seat: int) -> list[int]:
        return [b for b in self.town[seat] if not self.finished(b)]

    def next_step_cost(self, b: int) -> tuple[int, int, int, int]:
        return tables.KSTEPS[self.kind[b]][self.steps_done.get(b, 0)]

    def owns_project(self, seat: int) -> bool:
        if self.options["shop_profile"] == "seed":
            return False  # projects exist only in the tiered profile
        return any(tables.IS_PROJECT[self.kind[b]] for b in self.town[seat]) or any(
            tables.IS_PROJECT[self.kind[c]] for zone in (self.draw[seat], self.hand[seat], self.discard[seat]) for c in zone
        )

    def take_from_hand_or_store(self, seat: int, card: int) -> None:
        """Remove a card the seat uses "as if in hand": hand, Clan Hall or Warehouse (MH-59)."""
        hand = self.hand[seat]
        if card in hand:
            hand.remove(card)
            self._hand_left(seat, card)
            return
        for b, cards in self.stored.items():
            if card in cards and b in self.town[seat]:
                cards.remove(card)
                return
        raise AssertionError(f"{self.names[card]} is not in seat {seat}'s hand or store")

    def _hand_left(self, seat: int, card: int) -> None:
        known = self.hand_known[seat]
        if card in known:
            known.remove(card)

    # ------------------------------------------------------------------ who decides

    def current_player(self) -> int:
        prompt = self.prompt
        if prompt == P_CHANCE:
            return CHANCE
        if prompt == P_OVER:
            return TERMINAL
        if prompt == P_COMMIT or prompt == P_TRASH:
            return SIMULTANEOUS
        return self.prompt_seat

    def to_move(self) -> tuple[int, ...]:
        prompt = self.prompt
        if prompt == P_COMMIT:
            assert self.bid is not None  # a bid is running (narrows Bid | None)
            return tuple(s for s in range(self.players) if not self.bid.ready[s])
        if prompt == P_TRASH:
            return tuple(sorted({chooser for chooser in self._trash_choosers() if not self._trash_done(chooser)}))
        if prompt in (P_CHANCE, P_OVER):
            return ()
        return (self.prompt_seat,)

    def is_terminal(self) -> bool:
        return self.prompt == P_OVER

    def is_chance_node(self) -> bool:
        return self.prompt == P_CHANCE

    # ------------------------------------------------------------------ the task loop

    def _prompt(self, prompt: int, seat: int = -1, data: tuple[Any, ...] = ()) -> None:
        self.prompt = prompt
        self.prompt_seat = seat
        self.prompt_data = data

    def _chance(self, data: tuple[Any, ...]) -> None:
        self.prompt = P_CHANCE
        self.prompt_seat = -1
        self.prompt_data = data

    def _advance(self) -> None:
        stack = self.stack
        while self.prompt == P_NONE:
            task = stack.pop()
            _TASKS[task[0]](self, task)

    def turn_order(self, first: int) -> list[int]:
        n = self.players
        return [(first + i) % n for i in range(n)]



def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


_TASKS: dict[int, Callable[[MountainhomeState, tuple[Any, ...]], None]] = {
    T_PICK: MountainhomeState._t_pick,
    T_DECKS: MountainhomeState._t_decks,
    T_SELECT: MountainhomeState._t_select,
    T_XSHUFFLE: MountainhomeState._t_xshuffle,
    T_SHOPSHUFFLE: MountainhomeState._t_shopshuffle,
    T_OPENING: MountainhomeState._t_opening,
    T_TURN: MountainhomeState._t_turn,
    T_ACTION_START: MountainhomeState._t_action_start,
    T_ACTION: MountainhomeState._t_action,
    T_EXPLORE: MountainhomeState._t_explore,
    T_PREPARE: MountainhomeState._t_prepare,
    T_AFTER_DRAW: MountainhomeState._t_after_draw,
    T_END_TURN: MountainhomeState._t_end_turn,
    T_DRAW: MountainhomeState._t_draw,
    T_BID_DRAW: MountainhomeState._t_bid_draw,
    T_BID_COMMIT: MountainhomeState._t_bid_commit,
    T_BID_REVEAL: MountainhomeState._t_bid_reveal,
    T_BID_WINNER: MountainhomeState._t_bid_winner,
    T_BID_CLEANUP: MountainhomeState._t_bid_cleanup,
    T_BID_PRIZE: MountainhomeState._t_bid_prize,
    T_DWARF_RESOLVE: MountainhomeState._t_dwarf_resolve,
    T_FINISH_USE: MountainhomeState._t_finish_use,
    T_BOAT_DISCARD: MountainhomeState._t_boat_discard,
    T_KARINA: MountainhomeState._t_karina,
    T_INSERT: MountainhomeState._t_insert,
    T_CHARITY: MountainhomeState._t_charity,
    T_CAVERN_ROLL: MountainhomeState._t_cavern_roll,
    T_RESOLVE_CHECK: MountainhomeState._t_resolve_check,
    T_REORG_PUT: MountainhomeState._t_reorg_put,
    T_DAMAGE: MountainhomeState._t_damage,
    T_HANGOVER: MountainhomeState._t_hangover,
    T_PARTY_EXPLORE: MountainhomeState._t_party_explore,
    T_BID_END: MountainhomeState._t_bid_end,
    T_HUT_TRASH: MountainhomeState._t_hut_trash,
    T_THREATEN: MountainhomeState._t_threaten,
    T_ONBID: MountainhomeState._t_onbid,
    T_ORI_TAKE: MountainhomeState._t_ori_take,
    T_KEEP: MountainhomeState._t_keep,
    T_CONV: MountainhomeState._t_conv,
    T_LOKI: MountainhomeState._t_loki,
    T_STEAL: MountainhomeState._t_steal,
    T_PROTECT: MountainhomeState._t_protect,
    T_NOP: MountainhomeState._t_nop,
    T_PANDA_MOVE: MountainhomeState._t_panda_move,
}


