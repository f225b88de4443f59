"""Mountainhome rules: the state, its prompts and the turn machinery.

Layout of the state (see docs/games/mountainhome.md, "Design"):

* zones are lists of card instances (ints); draw piles, the exploration pile
  and the shop deck keep their **top at the end** of the list;
* ``prog`` / ``tapped`` are indexed by instance (buildings), ``stored`` maps a
  building to the cards inside it;
* one pending prompt (``pk``, ``pseat``, ``pdata``) says who decides next;
  ``stack`` holds the tasks still to run (immutable tuples, so ``clone`` is a
  list copy).  ``_advance`` runs tasks until a prompt or a chance node is due.

Every card effect of §22 is implemented; :class:`MissingRuleError` remains only as
the guard of fall-through branches no rule reaches.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any, Mapping

from ...core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    IllegalActionError,
    NotationError,
    OptionSpec,
    RandomSource,
    State,
)
from . import tables as T
from .layout import Layout, layout
from .tables import B, R, S

GAME_ID = "mountainhome"


class MissingRuleError(NotImplementedError):
    """Raised only by internal fall-throughs that no rule reaches (a bug guard, never a silent guess)."""


def _missing(what: str) -> MissingRuleError:
    return MissingRuleError(f"Mountainhome: {what} is not implemented yet")


# ------------------------------------------------------------------ prompt kinds (§23.5)

P_NONE = 0
P_CHANCE = 1
P_PICK = 2
P_CAVERN = 3
P_ACTION = 4
P_KARINA = 5
P_LAGERTHA = 6
P_TRADE = 7
P_HUT = 8
P_COMMIT = 9
P_ONBID = 10
P_TRASH = 11
P_CHOOSE = 12
P_OVER = 13

PROMPT_NAMES = {
    P_CHANCE: "chance",
    P_PICK: "setup_pick",
    P_CAVERN: "cavern_place",
    P_ACTION: "action_step",
    P_KARINA: "karina",
    P_LAGERTHA: "lagertha",
    P_TRADE: "trade_answer",
    P_HUT: "hut_draw",
    P_COMMIT: "bid_commit",
    P_ONBID: "on_bid_choice",
    P_TRASH: "bid_trash",
    P_CHOOSE: "choose",
    P_OVER: "over",
}

# choose prompts: pdata[0] is one of these
C_BOAT = 1
C_GOLEMS = 2
C_DRAGON = 3
C_GOBLINS = 4
C_REORG_N = 5
C_REORG_PUT = 6
C_CAV_RES = 7
C_CAV_BUILD = 8
C_BALDUR = 9
C_FORTRESS = 10
C_PARTY = 11
C_FOOLS = 12
C_PILING = 13
C_POLITICS = 14
C_LOKI = 15
C_MINECARTS = 16

# ------------------------------------------------------------------ action verbs (§23.4)

A_PICK = 0
A_PLAY = 1
A_DWARF = 2
A_COMMIT = 3
A_PLACE = 4
A_TAP = 5
A_DWELL = 6
A_BUYBACK = 7
A_HOARD = 8
A_BUY = 9
A_PLAYACT = 10
A_LAIR = 11
A_FREL = 12
A_OFFER = 13
A_END = 14
A_CAVERN = 15
A_PASS = 16
A_REACT = 17
A_TACCEPT = 18
A_TDECLINE = 19
A_HUT = 20
A_BID = 21
A_READY = 22
A_TRASH = 23
A_CHOOSE = 24

VERBS = {
    A_PICK: "choose_legendary",
    A_PLAY: "play_treasure",
    A_DWARF: "dwarf_ability",
    A_COMMIT: "commit_dwarf",
    A_PLACE: "place_blueprint",
    A_TAP: "tap",
    A_DWELL: "dwelling_build",
    A_BUYBACK: "pawn_buyback",
    A_HOARD: "hoard",
    A_BUY: "buy",
    A_PLAYACT: "play_action",
    A_LAIR: "lair",
    A_FREL: "fortress_release",
    A_OFFER: "trade_offer",
    A_END: "end_action_step",
    A_CAVERN: "cavern_place",
    A_PASS: "pass",
    A_REACT: "react",
    A_TACCEPT: "trade_accept",
    A_TDECLINE: "trade_decline",
    A_HUT: "hut_draw",
    A_BID: "commit_bid",
    A_READY: "ready",
    A_TRASH: "trash",
    A_CHOOSE: "choose",
}
VERB_CODES = {name: code for code, name in VERBS.items()}

# ------------------------------------------------------------------ tasks (the work stack)

T_PICK = 0
T_DECKS = 1
T_SELECT = 2
T_XSHUFFLE = 3
T_SHOPSHUFFLE = 4
T_OPENING = 5
T_TURN = 6
T_ACTION_START = 7
T_ACTION = 8
T_EXPLORE = 9
T_PREPARE = 10
T_AFTER_DRAW = 11
T_END_TURN = 12
T_DRAW = 13
T_BID_DRAW = 14
T_BID_COMMIT = 15
T_BID_REVEAL = 16
T_BID_TRASH = 17
T_BID_WINNER = 18
T_BID_CLEANUP = 19
T_BID_PRIZE = 20
T_DWARF_RESOLVE = 21
T_FINISH_USE = 22
T_BOAT_DISCARD = 23
T_KARINA = 24
T_INSERT = 25
T_CHARITY = 26
T_FORTRESS = 27
T_CAVERN_ROLL = 28
T_RESOLVE_CHECK = 29
T_REORG_PUT = 30
T_DAMAGE = 31
T_HANGOVER = 32
T_PARTY_EXPLORE = 33
T_BID_END = 34
T_HUT_TRASH = 35
T_THREATEN = 36
T_ONBID = 37
T_ORI_TAKE = 38
T_KEEP = 39
T_CONV = 40
T_LOKI = 41
T_STEAL = 42
T_PROTECT = 43
T_NOP = 44
T_WIZ_MOVE = 45
T_PANDA_MOVE = 46

# piles named in shuffle entries
PILE_EXPLORATION = 10
PILE_SHOP = 11  # + tier index for the tiered profile

# bid kinds
BID_DWARF, BID_PARTY, BID_WIZARD = 0, 1, 2
BID_KINDS = ("dwarf", "party", "wizard")

POOLS = ("dwarves", "events", "recurring")

# dwarf ability options
OPT_GAIN, OPT_DOUBLE = 0, 1

K = T.KINDEX
K_KARINA = K["karina"]
K_LAGERTHA = K["lagertha"]
K_MARG = K["marg"]
K_ORI = K["ori"]
K_BALDUR = K["baldur"]
K_THORVALD = K["thorvald"]
K_HALL = frozenset(T.HALL_BY_SEAT)
K_WAREHOUSE = K["warehouse"]
K_DWELLING = K["dwelling"]
K_PAWNSHOP = K["pawnshop"]
K_DUNGEON = K["dungeon"]
K_BOAT = K["boat"]
K_HUT = K["hut"]
K_WORKSHOP = K["workshop"]
K_FORTRESS = K["fortress"]
K_CAVERN = K["cavern"]
K_LAIR = K["lair"]
K_MARKET = K["marketplace"]
K_CONSULTANTS = K["consultants"]
K_POLITICS = K["politics"]
K_TAPFA = K["tapfa"]
K_PILING = K["piling"]
K_FOOLS = K["fools"]
K_LOKI = K["loki"]
K_MINECARTS = K["minecarts"]
K_MISHAP = K["mishap"]
K_PANDA = K["panda"]
K_WIZARD = K["wizard"]
K_YGG = K["ygg"]
K_GOLEMS = K["golems"]
K_DRAGON = K["dragon"]
K_GOBLINS = K["goblins"]
K_REORG = K["reorg"]
AFTER_DRAW_EVENTS = frozenset((K["dragon"], K["goblins"], K["reorg"]))
RECURRING = frozenset(k for k in range(T.NK) if T.KTYPE[k] in ("event_recurring", "location"))

ZERO = (0, 0, 0)


def _pays(cost: tuple[int, int, int, int], pool: list[int] | tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Every exact payment of ``cost`` (rocks, shinies, booze, any) that ``pool`` covers (§5.2)."""
    r0, s0, b0, anyk = cost
    pr, ps, pb = pool[0] - r0, pool[1] - s0, pool[2] - b0
    if pr < 0 or ps < 0 or pb < 0:
        return []
    if anyk == 0:
        return [(r0, s0, b0)]
    result = []
    for r in range(min(pr, anyk) + 1):
        rest = anyk - r
        for s in range(max(0, rest - pb), min(ps, rest) + 1):
            result.append((r0 + r, s0 + s, b0 + rest - s))
    return result


def _pay_fits(cost: tuple[int, int, int, int], pay: tuple[int, int, int]) -> bool:
    r, s, b = pay[0] - cost[0], pay[1] - cost[1], pay[2] - cost[2]
    return r >= 0 and s >= 0 and b >= 0 and r + s + b == cost[3]


def _add_cost(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


class Bid:
    """One running bid (§9).  Copied by :meth:`clone`."""

    __slots__ = (
        "kind",
        "prize",
        "owner",
        "target",
        "starter",
        "stage",
        "pool",
        "bres",
        "commit",
        "ready",
        "sizes",
        "values",
        "trashed",
        "choices",
        "contenders",
        "rounds",
        "winner",
        "hut",
        "conv",
        "ygg",
        "yggmark",
        "losers",
        "queue",
        "loki",
        "mishap",
        "protected",
        "tapfa",
        "ncommit",
        "mishappers",
        "wizstop",
    )

    def __init__(self, players: int, kind: int, prize: int, starter: int) -> None:
        self.kind = kind
        self.prize = prize
        self.owner = -1  # wizard: owner of the building
        self.target = -1  # wizard: the building
        self.starter = starter
        self.stage = 0
        self.pool: list[list[int]] = [[] for _ in range(players)]
        self.bres: list[list[int]] = [[0, 0, 0] for _ in range(players)]
        self.commit: list[tuple | None] = [None] * players
        self.ready = [False] * players
        self.sizes: list[int] = []
        self.values = [0] * players
        self.trashed: list[list[int]] = [[] for _ in range(players)]  # bid value of each trashed card, per round
        self.choices: dict[int, int] = {}  # target seat -> trashed card (sealed until all chose)
        self.contenders: list[int] = []  # seats choosing in the current trash round
        self.rounds = 0
        self.winner = -1
        self.hut = [0] * players
        self.conv: dict[int, int] = {}  # card -> counted resource type
        self.ygg = [False] * players  # revealed a Ygg (protected from B5 on)
        self.yggmark = [False] * players  # a Ygg stopped something
        self.losers: list[int] = []
        self.queue: list[tuple[int, int]] = []  # On Bid texts still to resolve: (seat, card)
        self.loki: dict[int, int] = {}  # victim -> chooser
        self.mishap = False
        self.protected = [False] * players  # B10: kept out of the Mishap deal / the Wizard move stopped
        self.tapfa = [False] * players
        self.ncommit = [0] * players  # commit_bid entries so far (public: sealed entries are listed)
        self.mishappers: list[int] = []
        self.wizstop = False  # the Wizard move was stopped (N7)

    def clone(self) -> "Bid":
        other = Bid.__new__(Bid)
        other.kind = self.kind
        other.prize = self.prize
        other.owner = self.owner
        other.target = self.target
        other.starter = self.starter
        other.stage = self.stage
        other.pool = [p[:] for p in self.pool]
        other.bres = [p[:] for p in self.bres]
        other.commit = self.commit[:]
        other.ready = self.ready[:]
        other.sizes = self.sizes[:]
        other.values = self.values[:]
        other.trashed = [t[:] for t in self.trashed]
        other.choices = dict(self.choices)
        other.contenders = self.contenders[:]
        other.rounds = self.rounds
        other.winner = self.winner
        other.hut = self.hut[:]
        other.conv = dict(self.conv)
        other.ygg = self.ygg[:]
        other.yggmark = self.yggmark[:]
        other.losers = self.losers[:]
        other.queue = self.queue[:]
        other.loki = dict(self.loki)
        other.mishap = self.mishap
        other.protected = self.protected[:]
        other.tapfa = self.tapfa[:]
        other.ncommit = self.ncommit[:]
        other.mishappers = self.mishappers[:]
        other.wizstop = self.wizstop
        return other

    def key(self) -> tuple:
        return (
            self.kind, self.prize, self.owner, self.target, self.starter, self.stage,
            tuple(map(tuple, self.pool)), tuple(map(tuple, self.bres)), tuple(self.commit),
            tuple(self.ready), tuple(self.sizes), tuple(self.values), tuple(map(tuple, self.trashed)),
            tuple(sorted(self.choices.items())), tuple(self.contenders), self.rounds, self.winner,
            tuple(self.hut), tuple(sorted(self.conv.items())), tuple(self.ygg), tuple(self.yggmark),
            tuple(self.losers), tuple(self.queue), tuple(sorted(self.loki.items())), self.mishap,
            tuple(self.protected), tuple(self.tapfa), tuple(self.ncommit), tuple(self.mishappers), self.wizstop,
        )


# ====================================================================== the game


class Mountainhome(Game):
    id = GAME_ID
    name = "Mountainhome"
    min_players = 2
    max_players = 4
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

    def new_initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> "MountainhomeState":
        players = self.check_players(players)
        return MountainhomeState(self, players, self.normalize_options(options))

    def state_from_observation(self, observation: Mapping[str, Any], seat: int, rng: RandomSource) -> "MountainhomeState":
        from .view import state_from_observation

        return state_from_observation(self, observation, seat, rng)

    def determinizer(self, observation: Mapping[str, Any], seat: int) -> Any:
        """``rng -> state``, as :meth:`state_from_observation` but parsing the observation once (ISMCTS)."""
        from .view import determinizer

        return determinizer(self, observation, seat)


# ====================================================================== the state


class MountainhomeState(State):
    __slots__ = (
        "n", "lay", "kind", "names", "knum", "created",
        "pk", "pseat", "pdata", "stack",
        "legend", "draw", "hand", "disc", "town", "prog", "tapped", "stored",
        "xp", "shop", "slots", "trash", "area", "counters", "fortress", "cav", "cav_owner",
        "aside", "aside_owner", "selected",
        "round", "turn", "active", "found", "tokens", "apool",
        "bought", "lair_used", "offers", "traded", "doubled", "piling",
        "tie_mode", "tie_left", "over", "bid", "bid_stack", "nact",
        "xblocks", "sblocks", "dblocks", "hknown", "private",
    )

    def __init__(self, game: Mountainhome, players: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = self.n = players
        self.options = options
        lay = self.lay = layout(players, options["shop_profile"])
        self.kind = list(lay.kinds)
        self.names = list(lay.names)
        self.knum = list(lay.knum)
        self.created = dict(lay.counts)
        n = players
        self.pk = P_NONE
        self.pseat = -1
        self.pdata: tuple = ()
        self.stack: list[tuple] = []
        self.legend = [-1] * n  # legendary kind per seat
        self.draw: list[list[int]] = [[] for _ in range(n)]
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.disc: list[list[int]] = [[] for _ in range(n)]
        self.town: list[list[int]] = [[] for _ in range(n)]
        self.prog: dict[int, int] = {}
        self.tapped: dict[int, bool] = {}
        self.stored: dict[int, list[int]] = {}
        self.xp: list[int] = []
        self.shop: list[int] = []
        self.slots = [-1, -1, -1]
        self.trash: list[int] = []
        self.area: list[int] = []
        self.counters: dict[int, list[int]] = {}
        self.fortress: list[int] = []
        self.cav: list[int] = []
        self.cav_owner: list[int] = []
        self.aside: list[int] = []
        self.aside_owner: list[int] = []
        self.selected: dict[int, tuple[int, ...]] = {}  # pool index -> selected instances (hidden!)
        self.round = 0
        self.turn = 0
        self.active = -1
        self.found = 0
        self.tokens = [0] * n
        self.apool = [0, 0, 0]
        self.bought = False
        self.lair_used = False
        self.offers: list[int] = []
        self.traded = False
        self.doubled: list[int] = []  # building kinds doubled until end of turn
        self.piling = 0
        self.tie_mode = False
        self.tie_left = 0
        self.over = False
        self.bid: Bid | None = None
        self.bid_stack: list[Bid] = []
        self.nact = 0  # player actions applied so far (stamps validator-checked actions)
        # public knowledge of hidden piles (see view.py): lists of (candidates | None, count), bottom first
        self.xblocks: list[tuple] = []
        self.sblocks: list[tuple] = []
        self.dblocks: list[list[tuple]] = [[] for _ in range(n)]
        self.hknown: list[list[int]] = [[] for _ in range(n)]
        self.private: list[dict] = [{} for _ in range(n)]
        # setup (§3, §23.3 order)
        self.stack = [(T_OPENING,), (T_SHOPSHUFFLE, 0), (T_XSHUFFLE,), (T_SELECT, 0), (T_DECKS, 0)]
        if options["legendaries"] == "pick":
            self.stack.append((T_PICK, 0))
        else:
            self.stack.append((T_PICK, -1))
        self._advance()

    # ------------------------------------------------------------------ cloning & keys

    def clone(self) -> "MountainhomeState":
        o = MountainhomeState.__new__(MountainhomeState)
        o.game = self.game
        o.players = o.n = self.n
        o.options = self.options
        o.lay = self.lay
        o.kind = self.kind[:]
        o.names = self.names[:]
        o.knum = self.knum[:]
        o.created = dict(self.created)
        o.pk = self.pk
        o.pseat = self.pseat
        o.pdata = self.pdata
        o.stack = self.stack[:]
        o.legend = self.legend[:]
        o.draw = [z[:] for z in self.draw]
        o.hand = [z[:] for z in self.hand]
        o.disc = [z[:] for z in self.disc]
        o.town = [z[:] for z in self.town]
        o.prog = dict(self.prog)
        o.tapped = dict(self.tapped)
        o.stored = {b: z[:] for b, z in self.stored.items()}
        o.xp = self.xp[:]
        o.shop = self.shop[:]
        o.slots = self.slots[:]
        o.trash = self.trash[:]
        o.area = self.area[:]
        o.counters = {e: z[:] for e, z in self.counters.items()}
        o.fortress = self.fortress[:]
        o.cav = self.cav[:]
        o.cav_owner = self.cav_owner[:]
        o.aside = self.aside[:]
        o.aside_owner = self.aside_owner[:]
        o.selected = dict(self.selected)
        o.round = self.round
        o.turn = self.turn
        o.active = self.active
        o.found = self.found
        o.tokens = self.tokens[:]
        o.apool = self.apool[:]
        o.bought = self.bought
        o.lair_used = self.lair_used
        o.offers = self.offers[:]
        o.traded = self.traded
        o.doubled = self.doubled[:]
        o.piling = self.piling
        o.tie_mode = self.tie_mode
        o.tie_left = self.tie_left
        o.over = self.over
        o.bid = self.bid.clone() if self.bid is not None else None
        o.bid_stack = [b.clone() for b in self.bid_stack]
        o.nact = self.nact
        o.xblocks = self.xblocks[:]
        o.sblocks = self.sblocks[:]
        o.dblocks = [z[:] for z in self.dblocks]
        o.hknown = [z[:] for z in self.hknown]
        o.private = [dict(p) for p in self.private]
        return o

    def key(self) -> tuple:
        return (
            self.n, tuple(sorted(self.options.items())), tuple(self.kind), self.pk, self.pseat, self.pdata,
            tuple(self.stack), tuple(self.legend), tuple(map(tuple, self.draw)), tuple(map(tuple, self.hand)),
            tuple(map(tuple, self.disc)), tuple(map(tuple, self.town)), tuple(sorted(self.prog.items())),
            tuple(sorted(self.tapped.items())), tuple(sorted((b, tuple(z)) for b, z in self.stored.items())),
            tuple(self.xp), tuple(self.shop), tuple(self.slots), tuple(self.trash), tuple(self.area),
            tuple(sorted((e, tuple(z)) for e, z in self.counters.items())), tuple(self.fortress),
            tuple(self.cav), tuple(self.cav_owner), tuple(self.aside), tuple(self.aside_owner),
            tuple(sorted(self.selected.items())), self.round, self.turn, self.active, self.found,
            tuple(self.tokens), tuple(self.apool), self.bought, self.lair_used, tuple(self.offers), self.traded,
            tuple(self.doubled), self.piling, self.tie_mode, self.tie_left, self.over,
            self.bid.key() if self.bid is not None else None, tuple(b.key() for b in self.bid_stack), self.nact,
            tuple(self.xblocks), tuple(self.sblocks), tuple(map(tuple, self.dblocks)),
            tuple(map(tuple, self.hknown)),
            tuple(tuple(sorted((k, _freeze(v)) for k, v in p.items())) for p in self.private),
        )

    # ------------------------------------------------------------------ small helpers

    def name(self, inst: int) -> str:
        return self.names[inst]

    def new_instance(self, kind: int) -> int:
        """A new Hoard or Hangover from the supply, numbered on from the last of its id (§23.2)."""
        count = self.created.get(kind, 0) + 1
        self.created[kind] = count
        self.kind.append(kind)
        self.knum.append(count)
        self.names.append(f"{T.KID[kind]}#{count}")
        return len(self.kind) - 1

    def in_area(self, kind: int) -> bool:
        for e in self.area:
            if self.kind[e] == kind:
                return True
        return False

    def finished(self, b: int) -> bool:
        return self.prog.get(b, 0) >= len(T.KSTEPS[self.kind[b]])

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
        if kind == T.MUSHROOM_WINE and self.in_area(K_FORTRESS):
            return T.FORTRESS["mushroom_wine_value"]
        return T.KVALUE_AMT[kind]

    def unfinished(self, seat: int) -> list[int]:
        return [b for b in self.town[seat] if not self.finished(b)]

    def next_step_cost(self, b: int) -> tuple[int, int, int, int]:
        return T.KSTEPS[self.kind[b]][self.prog.get(b, 0)]

    def owns_project(self, seat: int) -> bool:
        if self.options["shop_profile"] == "seed":
            return False  # projects exist only in the tiered profile
        return any(T.IS_PROJECT[self.kind[b]] for b in self.town[seat]) or any(
            T.IS_PROJECT[self.kind[c]] for zone in (self.draw[seat], self.hand[seat], self.disc[seat]) for c in zone
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
        known = self.hknown[seat]
        if card in known:
            known.remove(card)

    # ------------------------------------------------------------------ who decides

    def current_player(self) -> int:
        pk = self.pk
        if pk == P_CHANCE:
            return CHANCE
        if pk == P_OVER:
            return TERMINAL
        if pk == P_COMMIT or pk == P_TRASH:
            return SIMULTANEOUS
        return self.pseat

    def to_move(self) -> tuple[int, ...]:
        pk = self.pk
        if pk == P_COMMIT:
            return tuple(s for s in range(self.n) if not self.bid.ready[s])
        if pk == P_TRASH:
            return tuple(sorted({chooser for chooser in self._trash_choosers() if not self._trash_done(chooser)}))
        if pk in (P_CHANCE, P_OVER):
            return ()
        return (self.pseat,)

    def is_terminal(self) -> bool:
        return self.pk == P_OVER

    def is_chance_node(self) -> bool:
        return self.pk == P_CHANCE

    # ------------------------------------------------------------------ the task loop

    def _prompt(self, pk: int, seat: int = -1, data: tuple = ()) -> None:
        self.pk = pk
        self.pseat = seat
        self.pdata = data

    def _chance(self, data: tuple) -> None:
        self.pk = P_CHANCE
        self.pseat = -1
        self.pdata = data

    def _advance(self) -> None:
        stack = self.stack
        while self.pk == P_NONE:
            task = stack.pop()
            _TASKS[task[0]](self, task)

    def turn_order(self, first: int) -> list[int]:
        n = self.n
        return [(first + i) % n for i in range(n)]

    # ------------------------------------------------------------------ setup tasks (§3, §23.3)

    def _t_pick(self, task: tuple) -> None:
        i = task[1]
        if i < 0:
            self._chance(("assign",))
        elif i < self.n:
            self._prompt(P_PICK, self.n - 1 - i, (i,))

    def _t_decks(self, task: tuple) -> None:
        s = task[1]
        if s >= self.n:
            return
        self.stack.append((T_DECKS, s + 1))
        deck = (self.lay.legendary_inst[self.legend[s]], *self.lay.deck[s])
        self._chance(("shuffle", s, deck))

    def _t_select(self, task: tuple) -> None:
        p = task[1]
        if p >= 3:
            return
        self.stack.append((T_SELECT, p + 1))
        lay = self.lay
        x = str(self.n)
        if p == 0:
            pool, k = lay.dwarf_pool(self.legend), T.EXP["dwarves"][x]
        elif p == 1:
            pool, k = lay.event_pool, T.EXP["events"][x]
        else:
            pool, k = lay.recurring_pool, T.EXP["recurring"][x]
        self._chance(("select", p, tuple(pool), k))

    def _t_xshuffle(self, task: tuple) -> None:
        self._chance(("xshuffle", None))

    def _t_shopshuffle(self, task: tuple) -> None:
        t = task[1]
        tiers = self.lay.shop_tiers
        if t >= len(tiers):
            for i in range(3):
                self._refill(i)
            return
        self.stack.append((T_SHOPSHUFFLE, t + 1))
        self._chance(("shuffle", PILE_SHOP + t, tuple(tiers[t])))

    def _t_opening(self, task: tuple) -> None:
        self.stack.append((T_TURN, 0))
        for s in range(self.n - 1, -1, -1):
            self.stack.append((T_DRAW, s, T.SETUP_DRAW))

    # ------------------------------------------------------------------ knowledge upkeep

    def _draw_pop(self, seat: int, to_hand: bool = True) -> int:
        """Take the top card of ``seat``'s draw pile (into the hand: a private move)."""
        card = self.draw[seat].pop()
        blocks = self.dblocks[seat]
        cands, count = blocks[-1]
        if count == 1:
            blocks.pop()
            if len(cands) == 1 and to_hand:  # a publicly known top card: now known to be in hand
                self.hknown[seat].append(card)
        else:
            blocks[-1] = (cands, count - 1)
        priv = self.private[seat].get("top")
        if priv:
            self.private[seat]["top"] = priv[1:]
        return card

    def _draw_push_known(self, seat: int, card: int) -> None:
        """Put a card on top of a draw pile in public view (Dark Dungeon, Dragon Lair)."""
        self.draw[seat].append(card)
        self.dblocks[seat].append(((card,), 1))
        if self.private[seat].get("top"):
            self.private[seat]["top"] = (card, *self.private[seat]["top"])

    # Exploration-pile knowledge: blocks (known cards, count), bottom first.  A block holds its
    # known cards plus ``count - len(known)`` unseen ones, in an order nobody knows.
    # ``private[seat]["xtop"]`` is a seat's own knowledge of the top cards (Baldur's look).

    def _x_pop(self) -> int:
        """Reveal the top card of the exploration pile to everyone."""
        card = self.xp.pop()
        blocks = self.xblocks
        known, count = blocks[-1]
        if count == 1:
            blocks.pop()
        else:
            blocks[-1] = (tuple(c for c in known if c != card) if card in known else known, count - 1)
        for p in self.private:
            priv = p.get("xtop")
            if priv:
                p["xtop"] = priv[1:]
        return card

    def _x_bottom(self, card: int) -> None:
        self.xp.insert(0, card)
        self.xblocks.insert(0, ((card,), 1))

    def _x_top(self, card: int) -> None:
        self.xp.append(card)
        self.xblocks.append(((card,), 1))
        for p in self.private:
            if p.get("xtop"):
                p["xtop"] = (card, *p["xtop"])

    def _x_merge(self, extra: tuple = (), count: int = 0) -> None:
        """Forget the pile's order: one block (a random insert, a shuffle, a blind search)."""
        known = tuple(sorted({c for k, _ in self.xblocks for c in k} | set(extra)))
        self.xblocks = [(known, len(self.xp))] if self.xp else []
        for p in self.private:
            p.pop("xtop", None)

    def _x_merge_top(self, m: int) -> None:
        """The top ``m`` cards were reordered in private: merge the blocks covering them."""
        blocks = self.xblocks
        known: set[int] = set()
        count = 0
        while blocks and count < m:
            k, c = blocks.pop()
            known.update(k)
            count += c
        if count:
            blocks.append((tuple(sorted(known)), count))

    def _x_remove(self, card: int) -> bool:
        """Take a card out of the pile without looking (Dragon Attack!'s Lair search, MH-57)."""
        if card not in self.xp:
            return False
        self.xp.remove(card)
        for i, (known, count) in enumerate(self.xblocks):
            if card in known:
                if count == 1:
                    del self.xblocks[i]
                else:
                    self.xblocks[i] = (tuple(c for c in known if c != card), count - 1)
                break
        else:
            self._x_merge()
        for p in self.private:
            p.pop("xtop", None)
        return True

    def _refill(self, slot: int) -> None:
        if self.slots[slot] >= 0 or not self.shop:
            return
        card = self.shop.pop()
        cands, count = self.sblocks[-1]
        if count == 1:
            self.sblocks.pop()
        else:
            self.sblocks[-1] = (tuple(c for c in cands if c != card), count - 1)
        self.slots[slot] = card

    # ------------------------------------------------------------------ drawing (§0, §12)

    def _t_draw(self, task: tuple) -> None:
        seat, n = task[1], task[2]
        hut = len(task) > 3
        if n <= 0:
            return
        if not self.draw[seat]:
            if not self.disc[seat]:
                return  # both piles empty: the draw does nothing (§17)
            self.stack.append(task)
            self._chance(("shuffle", seat, tuple(self.disc[seat])))
            return
        card = self._draw_pop(seat)
        self.hand[seat].append(card)
        if hut:
            self.bid.hut[seat] += 1  # a Hut extra actually drawn (MH-89)
        if n > 1:
            self.stack.append((T_DRAW, seat, n - 1, 1) if hut else (T_DRAW, seat, n - 1))
        if T.KVALUE_RES[self.kind[card]] == R and self.in_area(K_GOLEMS):
            self._prompt(P_CHOOSE, seat, (C_GOLEMS, card))  # §13.2: decided before the next draw

    # ------------------------------------------------------------------ the turn (§4)

    def _t_turn(self, task: tuple) -> None:
        seat = task[1]
        if seat == 0:
            self.round += 1
        self.turn += 1
        self.active = seat
        self.bought = False
        self.lair_used = False
        self.offers = []
        self.traded = False
        self.doubled = []
        self.piling = 0
        self.apool = [0, 0, 0]
        self.stack.extend(((T_END_TURN, seat), (T_PREPARE, seat), (T_EXPLORE, seat), (T_ACTION_START, seat)))

    def _t_action_start(self, task: tuple) -> None:
        seat = task[1]
        if self.in_area(K_CAVERN):
            self._prompt(P_CAVERN, seat)
        else:
            self._prompt(P_ACTION, seat)

    def _t_cavern_roll(self, task: tuple) -> None:
        _, seat, cards = task
        if not cards:
            return
        self.stack.append((T_CAVERN_ROLL, seat, cards[1:]))
        self._chance(("roll", cards[0]))

    def _cavern_roll(self, card: int, value: int) -> None:
        """§15.1: 1-3 the dwarf goes home; 4-5 gain 4 S or 4 R; 6 a free step."""
        i = self.cav.index(card)
        owner = self.cav_owner[i]
        if value <= 3:
            del self.cav[i]
            del self.cav_owner[i]
            self.disc[owner].append(card)
        elif value <= 5:
            self._prompt(P_CHOOSE, owner, (C_CAV_RES,))
        elif self.unfinished(owner):
            self._prompt(P_CHOOSE, owner, (C_CAV_BUILD,))

    def _t_action(self, task: tuple) -> None:
        self._prompt(P_ACTION, task[1])

    def _t_explore(self, task: tuple) -> None:
        self.explore(task[1])

    def explore(self, seat: int) -> None:
        """§4.4: reveal the top exploration card and resolve it."""
        if not self.xp:
            return
        card = self._x_pop()
        kind = self.kind[card]
        typ = T.KTYPE[kind]
        if typ in ("resource", "unique_building") or T.IS_ACTION[kind]:
            self.disc[seat].append(card)
        elif T.IS_DWARF[kind]:
            self._set_aside(card, -1)
            if self.in_area(K_FORTRESS):
                self._prompt(P_CHOOSE, seat, (C_FORTRESS, card))
            else:
                self.start_bid(BID_DWARF, card, seat)
        elif typ == "event_immediate":
            self._set_aside(card, -1)
            if kind == K["charity"]:
                self.stack.append((T_CHARITY, card))
            else:  # Party at the Dining Hall!: a booze bid, then the card goes back (MH-61)
                self.stack.append((T_INSERT, card))
                self.start_bid(BID_PARTY, -1, seat)
        else:  # recurring event or Unique Location
            self.area.append(card)
            self.counters[card] = []

    def _t_insert(self, task: tuple) -> None:
        self._chance(("insert", task[1]))

    def _t_charity(self, task: tuple) -> None:
        """§14: each player in turn order reveals until a resource card; then one shuffle.

        "In turn order" starts with the active player (§0), whoever explored the
        Charity: a Party winner exploring in another player's turn (MH-61) does not
        become the active player, so the deal still starts with the active player.
        """
        event = task[1]
        revealed: list[int] = []
        for seat in self.turn_order(self.active):
            while self.xp:
                card = self._x_pop()
                if T.IS_RESOURCE[self.kind[card]]:
                    self.hand[seat].append(card)
                    self.hknown[seat].append(card)
                    break
                self._set_aside(card, -1)
                revealed.append(card)
        self._chance(("xshuffle", tuple(revealed) + (event,)))

    def _t_prepare(self, task: tuple) -> None:
        seat = task[1]
        hand = self.hand[seat]
        self.disc[seat].extend(hand)
        hand.clear()
        self.hknown[seat] = []
        for b in self.town[seat]:
            if self.finished(b):
                self.tapped[b] = False
        self.stack.append((T_AFTER_DRAW, seat, None))
        self.stack.append((T_DRAW, seat, T.HAND_DRAW))

    def _t_after_draw(self, task: tuple) -> None:
        """§4.3 step 4: Dragon Attack!, Goblins, Reorganisation, oldest first (MH-62)."""
        seat, events = task[1], task[2]
        if events is None:
            events = tuple(e for e in self.area if self.kind[e] in AFTER_DRAW_EVENTS)
        if not events:
            return
        event, rest = events[0], events[1:]
        self.stack.append((T_AFTER_DRAW, seat, rest))
        if event not in self.area:
            return
        kind = self.kind[event]
        if kind == K_DRAGON:
            if self.dwarves_available(seat) or any(self.prog.get(b, 0) for b in self.town[seat]):
                self._prompt(P_CHOOSE, seat, (C_DRAGON, event))
        elif kind == K_GOBLINS:
            self._add_counter(event, seat, resolve=False)  # counter first (MH-87)
            self.stack.append((T_RESOLVE_CHECK, event))
            if self._goblin_options(seat):
                self._prompt(P_CHOOSE, seat, (C_GOBLINS, event))
        else:  # Reorganisation
            self._add_counter(event, seat, resolve=False)
            self.stack.append((T_RESOLVE_CHECK, event))
            self._prompt(P_CHOOSE, seat, (C_REORG_N, event))

    def _goblin_options(self, seat: int) -> list[tuple]:
        opts: list[tuple] = [(A_CHOOSE, C_GOBLINS, 0, b) for b in self.town[seat] if self.upright(b)]
        res = [c for c in self.hand[seat] if T.IS_RESOURCE[self.kind[c]]]
        if res:
            top = max(self.card_value(c) for c in res)
            opts.extend((A_CHOOSE, C_GOBLINS, 1, c) for c in res if self.card_value(c) == top)
        opts.extend((A_CHOOSE, C_GOBLINS, 2, src, self.nact) for src in self.payment_options(seat, B, 1))
        return opts

    def _t_resolve_check(self, task: tuple) -> None:
        event = task[1]
        if event in self.counters and len(self.counters[event]) >= self.n:
            self._resolve_event(event)

    def _t_reorg_put(self, task: tuple) -> None:
        seat, k = task[1], task[2]
        if min(k, len(self.hand[seat])) > 0:
            self._prompt(P_CHOOSE, seat, (C_REORG_PUT, k))

    def _t_damage(self, task: tuple) -> None:
        """§7.5: remove the last completed step (after the N10 window)."""
        seat, b = task[1], task[2]
        was_finished = self.finished(b)
        self.prog[b] -= 1
        self.tapped[b] = True
        if was_finished and self.stored.get(b):
            self.disc[seat].extend(self.stored.pop(b))  # MH-29

    def _t_hangover(self, task: tuple) -> None:
        self.disc[task[1]].append(self.new_instance(T.HANGOVER))

    def _t_party_explore(self, task: tuple) -> None:
        self._prompt(P_CHOOSE, task[1], (C_PARTY,))

    def _t_end_turn(self, task: tuple) -> None:
        seat = task[1]
        self.doubled = []
        self.piling = 0
        n = self.n
        if self.tie_mode:
            self.tie_left -= 1
            if self.tie_left <= 0:
                self._end()
                return
        elif self.found >= n + 2:
            if self._single_leader():
                self._end()
                return
            self.tie_mode = True
            self.tie_left = T.TIE_EXTRA_ROUNDS * n
        if seat == n - 1 and self.round >= T.MAX_ROUNDS:
            self._end()
            return
        self.stack.append((T_TURN, (seat + 1) % n))

    def _end(self) -> None:
        self.over = True
        self.stack.clear()
        self._prompt(P_OVER)

    def _single_leader(self) -> bool:
        scores = self.scores()
        top = max(scores)
        return scores.count(top) == 1

    # ------------------------------------------------------------------ construction (§7)

    def _complete_step(self, b: int) -> None:
        self.prog[b] = self.prog.get(b, 0) + 1
        if self.finished(b):
            self.tapped[b] = False  # upright at once (§7.3)

    def _pay(self, pay: tuple[int, int, int]) -> None:
        pool = self.apool
        pool[0] -= pay[0]
        pool[1] -= pay[1]
        pool[2] -= pay[2]

    # ------------------------------------------------------------------ dwarf uses and Karina (§6, §10.4)

    def _where_reactable(self, seat: int, inst: int) -> bool:
        """Is this reaction card in ``seat``'s hand, Clan Hall or Dwelling (§10)?"""
        if inst in self.hand[seat]:
            return True
        for b in self.town[seat]:
            if self.kind[b] in K_HALL or self.kind[b] == K_DWELLING:
                if self.finished(b) and inst in self.stored.get(b, ()):
                    return True
        return False

    def _remove_reaction_card(self, seat: int, inst: int) -> None:
        if inst in self.hand[seat]:
            self.hand[seat].remove(inst)
            self._hand_left(seat, inst)
        else:
            for b in self.town[seat]:
                cards = self.stored.get(b)
                if cards and inst in cards:
                    cards.remove(inst)
                    break
        self.disc[seat].append(inst)

    def _set_aside(self, card: int, owner: int) -> None:
        self.aside.append(card)
        self.aside_owner.append(owner)

    def _unaside(self, card: int) -> int:
        i = self.aside.index(card)
        del self.aside[i]
        return self.aside_owner.pop(i)

    def _declare_dwarf_use(self, seat: int, action: tuple, dwarf: int, from_dwelling: int = -1) -> None:
        if from_dwelling >= 0:
            self.stored[from_dwelling].remove(dwarf)
        else:
            self.take_from_hand_or_store(seat, dwarf)
        self._set_aside(dwarf, seat)
        self.stack.append((T_ACTION, seat))
        self.stack.append((T_DWARF_RESOLVE, seat, action, dwarf))
        self.stack.append((T_KARINA, seat))
        self.pk = P_NONE

    def _t_karina(self, task: tuple) -> None:
        actor = task[1]
        karina = self.lay.legendary_inst[K_KARINA]
        for s in self.turn_order(actor)[1:]:
            if self._where_reactable(s, karina):
                self._prompt(P_KARINA, s, (actor,))
                return

    def threat_context(self) -> tuple[int, tuple]:
        """At an open Lagertha window: (victim, pdata), from the threatened task on the stack."""
        if self.pdata and self.pdata[0] == 1:
            return self.active, self.pdata
        task = self.stack[-1]
        kind = task[0]
        if kind == T_DWARF_RESOLVE:  # N1: Karina's cancel, the acting player is asked
            return task[1], (1, None)
        if kind == T_DAMAGE:
            return task[1], (10, None)
        if kind == T_HANGOVER:
            return task[1], (9, None)
        if kind == T_CONV:
            return self._pool_of(task[1]), (4, None)
        if kind == T_LOKI:
            return task[1], (2, None)
        if kind == T_STEAL:
            return task[2], (3, None)
        if kind == T_KEEP:
            return task[1], (5, None)
        if kind == T_NOP:
            return task[1], (task[2], (T_PROTECT, task[1], task[2]))
        if kind == T_PANDA_MOVE:
            return task[2], (8, None)
        raise AssertionError(f"no threatened effect on the stack: {task!r}")

    def _lagertha_holder(self, seat: int) -> bool:
        return self._where_reactable(seat, self.lay.legendary_inst[K_LAGERTHA])

    def _cancel_dwarf_use(self) -> None:
        task = self.stack.pop()
        assert task[0] == T_DWARF_RESOLVE
        _, seat, _, dwarf = task
        self._unaside(dwarf)
        self.disc[seat].append(dwarf)

    def _t_dwarf_resolve(self, task: tuple) -> None:
        _, seat, a, dwarf = task
        verb = a[0]
        if verb == A_DWARF and self.kind[dwarf] == K_BALDUR and a[2] == 1:
            # five explorations, then Baldur is shuffled into the pile and leaves your cards (MH-41)
            self.stack.append((T_INSERT, dwarf))
            for _ in range(5):
                self.stack.append((T_EXPLORE, seat))
            return
        self.stack.append((T_FINISH_USE, seat, dwarf))
        if verb == A_COMMIT or verb == A_DWELL:
            self._pay(a[3])
            self._complete_step(a[2])
            return
        kind = self.kind[dwarf]
        if kind in T.LABOURER_OPTIONS:
            self.apool[a[2]] += dict(T.LABOURER_OPTIONS[kind])[a[2]]
        elif kind in T.RENOWNED:
            res, amount, building = T.RENOWNED[kind]
            if a[2] == OPT_GAIN:
                self.apool[res] += amount
            elif building not in self.doubled:
                self.doubled.append(building)
        elif kind == K_ORI:
            self.stack.append((T_DRAW, seat, T.ORI_DRAW))
        elif kind == K_MARG:
            self._pay(a[3])
            for b in a[2]:
                self._complete_step(b)
        elif kind == K_BALDUR:  # (a): a private look at up to 5 top cards, then a new order
            m = min(5, len(self.xp))
            if m:
                self.private[seat]["xtop"] = tuple(reversed(self.xp[-m:]))
                self._prompt(P_CHOOSE, seat, (C_BALDUR,))
        elif kind == K_THORVALD:
            self._thorvald()
        else:
            raise _missing(f"the ability of {T.KNAME[kind]}")

    def _thorvald(self) -> None:
        """Turn cards over until an Event: it goes back on top, the rest to the bottom (MH-31)."""
        others: list[int] = []
        while self.xp:
            card = self._x_pop()
            if T.KTYPE[self.kind[card]] in ("event_immediate", "event_recurring"):
                self._x_top(card)
                break
            self._set_aside(card, -1)
            others.append(card)
        if others:
            self._chance(("bottom", tuple(sorted(others))))

    def _t_finish_use(self, task: tuple) -> None:
        _, seat, card = task
        self._unaside(card)
        self.disc[seat].append(card)

    # ------------------------------------------------------------------ action-step actions (§4.1)

    def _do_action(self, seat: int, a: tuple) -> None:
        verb = a[0]
        if verb == A_END:
            self.apool = [0, 0, 0]
            self.pk = P_NONE
            return
        if verb == A_PLAY:
            card = a[1]
            self.take_from_hand_or_store(seat, card)
            res = T.KVALUE_RES[self.kind[card]]
            if res == R and self.piling > 0:
                self.piling -= 1
                res = S
            self.apool[res] += self.card_value(card)
            self.disc[seat].append(card)
        elif verb == A_DWARF or verb == A_COMMIT:
            self._declare_dwarf_use(seat, a, a[1])
        elif verb == A_DWELL:
            dwelling = a[1]
            self._declare_dwarf_use(seat, a, self.stored[dwelling][0], dwelling)
        elif verb == A_PLACE:
            card = a[1]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            self.town[seat].append(card)
            self.prog[card] = 0
            self.tapped[card] = True
        elif verb == A_TAP:
            self._do_tap(seat, a)
        elif verb == A_HOARD:
            card = a[1]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            self.trash.append(card)
            self.apool[a[2]] += T.HOARD_GAIN
            self.stack.append((T_ACTION, seat))
            self.stack.append((T_DRAW, seat, T.HOARD_DRAW))
            self.pk = P_NONE
        elif verb == A_BUY:
            self._do_buy(seat, a[1], a[2])
        elif verb == A_PLAYACT:
            card = a[1]
            kind = self.kind[card]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            if kind == K_PILING:
                self.piling += 1
                self.disc[seat].append(card)
                return
            self._set_aside(card, seat)  # until resolved (MH-85)
            self.stack.append((T_ACTION, seat))
            self.stack.append((T_FINISH_USE, seat, card))
            self.pk = P_NONE
            if kind == K_WIZARD:
                b = a[2]
                owner = next(s for s in range(self.n) if b in self.town[s])
                self.start_bid(BID_WIZARD, -1, seat)
                self.bid.owner = owner
                self.bid.target = b
            else:  # Trash Panda: each move in order; a Hangover for another player is N8
                for c, to in reversed(a[2]):
                    if self.kind[c] == T.HANGOVER and to != seat:
                        self.stack.append((T_THREATEN, to, 8, (T_PANDA_MOVE, c, to), seat))
                    else:
                        self.stack.append((T_PANDA_MOVE, c, to))
        elif verb == A_LAIR:
            self.take_from_hand_or_store(seat, a[1])
            self.disc[seat].append(a[1])
            self.lair_used = True
            self._draw_push_known(seat, self.new_instance(T.HOARD))
        elif verb == A_FREL:
            self._pay((0, 0, T.FORTRESS["release_cost_booze"]))
            self.fortress.remove(a[1])
            self._x_top(a[1])
        elif verb == A_BUYBACK:
            shop = a[1]
            card = self.stored[shop].pop()
            self._pay((0, self.card_value(card), 0))
            self.hand[seat].append(card)
            self.hknown[seat].append(card)
        elif verb == A_OFFER:
            self.offers.append(a[1])
            if a[2] not in self.hknown[seat]:
                self.hknown[seat].append(a[2])  # the offered card is shown (§11)
            self.stack.append((T_ACTION, seat))
            self._prompt(P_TRADE, a[1], (seat, a[2], a[3]))
        else:
            raise _missing(VERBS[verb])

    def _do_buy(self, seat: int, slot: int, consultants: int) -> None:
        card = self.slots[slot]
        cost = T.price(self.kind[card], self.options["shop_profile"])
        if consultants:
            cost += T.CONSULTANTS_FEE
        self._pay((0, cost, 0))
        self.bought = True
        self.slots[slot] = -1
        if consultants:
            event = next(e for e in self.area if self.kind[e] == K_CONSULTANTS)
            self.town[seat].append(card)
            self.prog[card] = 0
            self.tapped[card] = True
            self._complete_step(card)
            self._refill(slot)
            self._add_counter(event, seat)
        else:
            self.disc[seat].append(card)
            self._refill(slot)

    def _do_tap(self, seat: int, a: tuple) -> None:
        b = a[1]
        kind = self.kind[b]
        self.tapped[b] = True
        if kind in T.PRODUCER:
            res, amount, _ = T.PRODUCER[kind]
            self.apool[res] += amount * (2 if kind in self.doubled else 1)
        elif kind in T.MULTIPLIER:
            res, mult = T.MULTIPLIER[kind]
            self.apool[res] += (mult - 1) * a[2]
        elif kind in K_HALL:
            for card in a[2]:
                self.hand[seat].remove(card)
                self._hand_left(seat, card)
                self.stored.setdefault(b, []).append(card)
        elif kind == K_WAREHOUSE or kind == K_DWELLING:
            if kind == K_DWELLING:
                self._pay((0, 0, T.DWELLING_COST))
            if a[2] >= 0:
                self.hand[seat].remove(a[2])
                self._hand_left(seat, a[2])
                self.stored.setdefault(b, []).append(a[2])
        elif kind == K_PAWNSHOP:
            card = a[2]
            self.take_from_hand_or_store(seat, card)
            old = self.stored.get(b)
            if old:
                self.disc[seat].extend(old)
            self.stored[b] = [card]
            self.apool[S] += self.card_value(card)
        elif kind == K_DUNGEON:
            self._pay((0, T.DUNGEON_COST, 0))
            self.disc[seat].remove(a[2])
            self._draw_push_known(seat, a[2])
        elif kind == K_WORKSHOP:
            if a[2] == 0:  # build
                self._pay(a[4])
                self._complete_step(a[3])
            elif a[3] >= 0 and self.finished(a[3]):
                self.tapped[a[3]] = False
        elif kind == K_BOAT:
            self.stack.append((T_ACTION, seat))
            self.stack.append((T_BOAT_DISCARD, seat))
            self.stack.append((T_DRAW, seat, T.BOAT_DRAW))
            self.pk = P_NONE
        else:
            raise _missing(f"the tap of {T.KNAME[kind]}")

    def _t_boat_discard(self, task: tuple) -> None:
        seat = task[1]
        if self.hand[seat]:
            self._prompt(P_CHOOSE, seat, (C_BOAT,))

    # ------------------------------------------------------------------ recurring events (§13)

    def _add_counter(self, event: int, seat: int, resolve: bool = True) -> None:
        counters = self.counters[event]
        counters.append(seat)
        if resolve and len(counters) >= self.n:
            self._resolve_event(event)

    def _resolve_event(self, event: int) -> None:
        """§13.1: VP tokens per counter, the card is trashed; the Dragon brings the Lair (MH-57)."""
        vp = T.KRESOLVE_VP[self.kind[event]]
        for seat in self.counters[event]:
            self.tokens[seat] += vp
        del self.counters[event]
        self.area.remove(event)
        self.trash.append(event)
        if self.kind[event] == K_DRAGON:
            lair = next((c for c in self.xp if self.kind[c] == K_LAIR), -1)
            if lair >= 0 and self._x_remove(lair):
                self.area.append(lair)
                self.counters[lair] = []

    # ------------------------------------------------------------------ negative effects (§10)

    def _threaten(self, victim: int, code: int, task: tuple, source: int = -1, cancel: tuple | None = None) -> None:
        """A listed negative effect is about to apply to ``victim`` (§10): Ygg, then Lagertha.

        ``task`` is the effect; ``cancel`` (optional) what happens instead when it is stopped.
        """
        if 2 <= code <= 7 and self._ygg_stops(victim, source):
            if cancel is not None:
                self.stack.append(cancel)
            return
        self.stack.append(task)
        if self._lagertha_holder(victim):
            self._prompt(P_LAGERTHA, victim, (code, cancel))

    def _ygg_stops(self, victim: int, source: int) -> bool:
        bid = self.bid
        if bid is None or source == victim or not bid.ygg[victim]:
            return False
        bid.yggmark[victim] = True
        return True

    def _t_threaten(self, task: tuple) -> None:
        _, victim, code, inner, source = task[:5]
        self._threaten(victim, code, inner, source, task[5] if len(task) > 5 else None)

    # ------------------------------------------------------------------ payment windows (§5.4)

    def payment_options(self, seat: int, res: int, cost: int) -> list[tuple]:
        """Source lists that pay ``cost`` of ``res``, each source needed (see the docs)."""
        kinds = self.kind
        atoms: list[tuple[tuple, int]] = []
        for c in self.hand[seat] + self.warehouse_cards(seat):
            if T.KVALUE_RES[kinds[c]] == res:
                atoms.append(((0, c), self.card_value(c)))
        boost = -1
        for b in self.town[seat]:
            if not self.upright(b):
                continue
            kind = kinds[b]
            if kind in T.PRODUCER and T.PRODUCER[kind][0] == res:
                amount = T.PRODUCER[kind][1] * (2 if kind in self.doubled and seat == self.active else 1)
                atoms.append(((1, b, 0), amount))
            elif kind in T.MULTIPLIER and T.MULTIPLIER[kind][0] == res and boost < 0:
                boost = b
            elif kind == K_PAWNSHOP and res == S:
                for c in self.hand[seat] + self.warehouse_cards(seat):
                    if T.IS_RESOURCE[kinds[c]]:
                        atoms.append(((2, b, c), self.card_value(c)))
        for c in self.hand[seat]:
            if kinds[c] == T.HOARD:
                atoms.append(((3, c, res), T.HOARD_GAIN))
        if self.pk == P_CHOOSE and seat == self.active and self._in_action_step() and self.apool[res]:
            pay = [0, 0, 0]
            pay[res] = min(cost, self.apool[res])
            atoms.append(((4, *pay), pay[res]))
        options: list[tuple] = []
        for k in range(1, len(atoms) + 1):
            for combo in combinations(range(len(atoms)), k):
                total = sum(atoms[i][1] for i in combo)
                if total >= cost and all(total - atoms[i][1] < cost for i in combo):
                    if self._distinct_cards([atoms[i][0] for i in combo]):
                        options.append(tuple(atoms[i][0] for i in combo))
                elif total < cost and boost >= 0:
                    mult = T.MULTIPLIER[kinds[boost]][1]
                    n = -(-(cost - total) // (mult - 1))
                    if n <= total and self._distinct_cards([atoms[i][0] for i in combo]):
                        options.append(tuple(atoms[i][0] for i in combo) + ((1, boost, n),))
            if k >= 4:
                break
        return list(dict.fromkeys(options))

    def _distinct_cards(self, sources: list[tuple]) -> bool:
        cards = [s[1] if s[0] in (0, 3) else s[2] for s in sources if s[0] in (0, 2, 3)]
        pawns = [s[1] for s in sources if s[0] == 2]
        return len(set(cards)) == len(cards) and len(set(pawns)) == len(pawns)

    def _in_action_step(self) -> bool:
        return any(t[0] == T_ACTION for t in self.stack)

    def payment_problem(self, seat: int, res: int, cost: int, sources: tuple) -> str:
        kinds = self.kind
        gained = [0, 0, 0]
        seen: set[int] = set()
        for src in sources:
            if src[0] == 0:
                c = src[1]
                if c in seen or not (T.IS_RESOURCE[kinds[c]] and (c in self.hand[seat] or c in self.warehouse_cards(seat))):
                    return f"{self.names[c]} is not a resource card in hand or Warehouse"
                seen.add(c)
                gained[T.KVALUE_RES[kinds[c]]] += self.card_value(c)
            elif src[0] in (1, 2):
                b = src[1]
                if b in seen or b not in self.town[seat] or not self.upright(b):
                    return f"{self.names[b]} is not a finished upright building of seat {seat}"
                seen.add(b)
                kind = kinds[b]
                if src[0] == 1 and kind in T.PRODUCER:
                    r, amount, _ = T.PRODUCER[kind]
                    gained[r] += amount * (2 if kind in self.doubled and seat == self.active else 1)
                elif src[0] == 1 and kind in T.MULTIPLIER:
                    r, mult = T.MULTIPLIER[kind]
                    if not 1 <= src[2] <= gained[r]:
                        return f"{self.names[b]} must pay n from resources gained earlier in the list"
                    gained[r] += (mult - 1) * src[2]
                elif src[0] == 2 and kind == K_PAWNSHOP:
                    c = src[2]
                    if c in seen or not (T.IS_RESOURCE[kinds[c]] and (c in self.hand[seat] or c in self.warehouse_cards(seat))):
                        return f"{self.names[c]} cannot be pawned"
                    seen.add(c)
                    gained[S] += self.card_value(c)
                else:
                    return f"{self.names[b]} has no such resource ability"
            elif src[0] == 3:
                c = src[1]
                if c in seen or kinds[c] != T.HOARD or c not in self.hand[seat]:
                    return f"{self.names[c]} is not a Dragon Hoard in hand"
                seen.add(c)
                gained[src[2]] += T.HOARD_GAIN
            else:
                if not (seat == self.active and self._in_action_step()):
                    return "the action pool is usable only in your own action step"
                pay = src[1:4]
                if any(pay[i] > self.apool[i] for i in range(3)):
                    return "the action pool does not hold that much"
                for i in range(3):
                    gained[i] += pay[i]
        if gained[res] < cost:
            return f"the sources give {gained[res]} {T.RES_NAMES[res]}, not {cost}"
        return ""

    def _pay_sources(self, seat: int, sources: tuple) -> None:
        """Carry out a payment window's sources; leftovers are lost (§5.4)."""
        kinds = self.kind
        for src in sources:
            if src[0] == 0:
                self.take_from_hand_or_store(seat, src[1])
                self.disc[seat].append(src[1])
            elif src[0] == 1:
                self.tapped[src[1]] = True
            elif src[0] == 2:
                b, c = src[1], src[2]
                self.take_from_hand_or_store(seat, c)
                old = self.stored.get(b)
                if old:
                    self.disc[seat].extend(old)
                self.stored[b] = [c]
                self.tapped[b] = True
            elif src[0] == 3:
                self.hand[seat].remove(src[1])
                self._hand_left(seat, src[1])
                self.trash.append(src[1])
                self.stack.append((T_DRAW, seat, T.HOARD_DRAW))
            else:
                self._pay(src[1:4])
        del kinds

    # ------------------------------------------------------------------ bids (§9)

    def start_bid(self, kind: int, prize: int, starter: int) -> None:
        if self.bid is not None:
            self.bid_stack.append(self.bid)
        self.bid = Bid(self.n, kind, prize, starter)
        if prize >= 0 and prize not in self.aside:
            self._set_aside(prize, -1)
        self.stack.append((T_BID_COMMIT,))
        for seat in reversed(self.turn_order(self.active)):
            self.stack.append((T_BID_DRAW, seat, 0))

    def _t_bid_draw(self, task: tuple) -> None:
        _, seat, phase = task
        if phase == 0:
            self.stack.append((T_BID_DRAW, seat, 1))
            self.stack.append((T_DRAW, seat, T.BID_DRAW))
        elif self.own_building(seat, K_HUT) >= 0:
            self._prompt(P_HUT, seat)

    def _t_bid_commit(self, task: tuple) -> None:
        bid = self.bid
        bid.stage = 1
        bid.sizes = [len(h) for h in self.hand]
        self._prompt(P_COMMIT)

    def _t_bid_reveal(self, task: tuple) -> None:
        """B4: all commitments become public; the uses run in turn order (task = (_, i, u))."""
        bid = self.bid
        order = self.turn_order(self.active)
        _, i, u = task
        if i == 0 and u == 0:
            bid.stage = 2
            for seat in order:
                commit = bid.commit[seat]
                if commit is None:
                    continue
                for card in commit[0]:
                    self.take_from_hand_or_store(seat, card)
                    bid.pool[seat].append(card)
        while i < len(order):
            seat = order[i]
            commit = bid.commit[seat]
            uses = commit[1] if commit is not None else ()
            while u < len(uses):
                use = uses[u]
                u += 1
                if self._bid_use(seat, use):
                    self.stack.append((T_BID_REVEAL, i, u))
                    self.stack.append((T_DRAW, seat, T.HOARD_DRAW))
                    return
            i += 1
            u = 0
        self._on_bid()

    def _bid_use(self, seat: int, use: tuple) -> bool:
        """Carry out one resource use at B4; True when it needs a draw (a Hoard)."""
        bres = self.bid.bres[seat]
        if use[0] == 0:  # tap
            b = use[1]
            kind = self.kind[b]
            self.tapped[b] = True
            if kind in T.PRODUCER:
                res, amount, _ = T.PRODUCER[kind]
                bres[res] += amount * (2 if kind in self.doubled and seat == self.active else 1)
            else:
                res, mult = T.MULTIPLIER[kind]
                bres[res] += (mult - 1) * use[2]
            return False
        if use[0] == 1:  # pawn
            b, card = use[1], use[2]
            self.take_from_hand_or_store(seat, card)
            old = self.stored.get(b)
            if old:
                self.disc[seat].extend(old)
            self.stored[b] = [card]
            self.tapped[b] = True
            bres[S] += self.card_value(card)
            return False
        card = use[1]  # hoard
        self.hand[seat].remove(card)
        self._hand_left(seat, card)
        self.trash.append(card)
        bres[use[2]] += T.HOARD_GAIN
        return True

    def _on_bid(self) -> None:
        """B5: Ygg protection, then the On Bid texts one card at a time (§9.4, MH-51)."""
        bid = self.bid
        kinds = self.kind
        queue = []
        for seat in self.turn_order(self.active):
            commit = bid.commit[seat]
            for card in commit[0] if commit is not None else ():
                kind = kinds[card]
                if kind == K_YGG:
                    bid.ygg[seat] = True
                if kind == K_MISHAP and seat not in bid.mishappers:
                    bid.mishappers.append(seat)
                if kind in T.ON_BID:
                    queue.append((seat, card))
        bid.queue = queue
        self.stack.append((T_ONBID,))

    def _t_onbid(self, task: tuple) -> None:
        bid = self.bid
        if not bid.queue:
            self._bid_values()
            bid.contenders = list(range(self.n))
            self._open_trash_round()
            return
        seat, card = bid.queue.pop(0)
        self.stack.append((T_ONBID,))
        kind = self.kind[card]
        if kind == K_ORI:
            self.stack.append((T_ORI_TAKE, seat, T.ORI_DRAW))
        elif kind == K_TAPFA:
            bid.tapfa[seat] = True
        elif kind == K_PILING:
            self._prompt(P_ONBID, seat, (C_PILING, card))
        elif kind == K_FOOLS:
            self._prompt(P_ONBID, seat, (C_FOOLS, card))
        elif kind == K_LOKI:
            self._prompt(P_ONBID, seat, (C_LOKI, card))
        elif kind == K_POLITICS:
            if self._politics_targets(seat):
                self._prompt(P_ONBID, seat, (C_POLITICS, card))
        elif kind == K_MINECARTS:
            for p in reversed(self.turn_order(self.active)):
                keep = (T_KEEP, p)
                if p == seat:
                    self.stack.append(keep)
                else:
                    self.stack.append((T_THREATEN, p, 5, keep, seat))
        elif kind == K_MISHAP:
            bid.mishap = True
        # Ygg: nothing at resolution; its protection started at B5 and its fate is decided in cleanup

    def _politics_targets(self, seat: int) -> list[int]:
        kinds = self.kind
        return [
            c for s in range(self.n) if s != seat for c in self.bid.pool[s] if not T.IS_DWARF[kinds[c]]
        ]

    def _pool_of(self, card: int) -> int:
        for s, pool in enumerate(self.bid.pool):
            if card in pool:
                return s
        return -1

    def _t_ori_take(self, task: tuple) -> None:
        """Ori's On Bid: the top cards of the draw pile join the pool; not a draw (MH-55)."""
        _, seat, n = task
        if n <= 0:
            return
        if not self.draw[seat]:
            if not self.disc[seat]:
                return
            self.stack.append(task)
            self._chance(("shuffle", seat, tuple(self.disc[seat])))
            return
        card = self._draw_pop(seat, to_hand=False)
        self.bid.pool[seat].append(card)
        if n > 1:
            self.stack.append((T_ORI_TAKE, seat, n - 1))

    def _t_keep(self, task: tuple) -> None:
        self._prompt(P_ONBID, task[1], (C_MINECARTS,))

    def _t_conv(self, task: tuple) -> None:
        self.bid.conv[task[1]] = task[2]

    def _t_loki(self, task: tuple) -> None:
        self.bid.loki[task[1]] = task[2]

    def _t_steal(self, task: tuple) -> None:
        _, card, victim, thief = task
        if card in self.bid.pool[victim]:
            self.bid.pool[victim].remove(card)
            self.bid.pool[thief].append(card)

    def _t_protect(self, task: tuple) -> None:
        """A stopped N6 keeps the seat out of the Mishap deal; a stopped N7 keeps its building."""
        if task[2] == 7:
            self.bid.wizstop = True
        else:
            self.bid.protected[task[1]] = True

    def _t_nop(self, task: tuple) -> None:
        return

    def _t_panda_move(self, task: tuple) -> None:
        _, card, to = task
        self.trash.remove(card)
        self.disc[to].append(card)

    def panda_eligible(self, card: int) -> bool:
        kind = self.kind[card]
        return not (T.IS_ACTION[kind] or T.KFAMILY[kind] == "event" or kind == K_PANDA)

    def panda_problem(self, seat: int, card: int, moves: Any) -> str:
        if card not in self.hand[seat] or self.kind[card] != K_PANDA:
            return "that card is not a Trash Panda in your hand"
        if not isinstance(moves, tuple) or len(moves) > 3:
            return "Trash Panda moves 0 to 3 cards"
        cards = [m[0] for m in moves]
        if len(set(cards)) != len(cards):
            return "a card is moved twice"
        for c, to in moves:
            if c not in self.trash or not self.panda_eligible(c):
                return f"{self.names[c]} is not a card Trash Panda may take from the trash"
            if not 0 <= to < self.n:
                return f"seat {to} does not exist"
            if T.IS_PROJECT[self.kind[c]] and self.owns_project(to):
                return f"seat {to} already owns a project (MH-65)"
        return ""

    def _panda_plays(self, seat: int, card: int) -> list[tuple]:
        """Panda plays up to symmetry: identical cards in the trash are taken lowest-numbered first."""
        from itertools import combinations_with_replacement, product

        by_kind: dict[int, list[int]] = {}
        for c in self.trash:
            if self.panda_eligible(c):
                by_kind.setdefault(self.kind[c], []).append(c)
        for cards in by_kind.values():
            cards.sort(key=lambda c: self.knum[c])
        kinds = sorted(by_kind)
        plays = []
        for k in range(4):
            for combo in combinations_with_replacement(kinds, k):
                if any(combo.count(x) > len(by_kind[x]) for x in set(combo)):
                    continue
                picked = []
                for x in sorted(set(combo)):
                    picked.extend(by_kind[x][: combo.count(x)])
                picked.sort()
                dests = [range(self.n) if self.kind[c] == T.HANGOVER else (seat,) for c in picked]
                for to in product(*dests):
                    moves = tuple(zip(picked, to))
                    if all(not (T.IS_PROJECT[self.kind[c]] and self.owns_project(d)) for c, d in moves):
                        plays.append((A_PLAYACT, card, moves, self.nact))
        return plays

    def _onbid_actions(self, seat: int) -> list[tuple]:
        d = self.pdata
        what = d[0]
        kinds = self.kind
        bid = self.bid
        if what == C_PILING:
            return [(A_PASS,)] + [(A_CHOOSE, C_PILING, c) for c in bid.pool[seat] if T.KVALUE_RES[kinds[c]] == R]
        if what == C_FOOLS:
            return [(A_PASS,)] + [
                (A_CHOOSE, C_FOOLS, c) for p in bid.pool for c in p if T.KVALUE_RES[kinds[c]] == S
            ]
        if what == C_LOKI:
            return [(A_CHOOSE, C_LOKI, s) for s in range(self.n) if s != seat]
        if what == C_POLITICS:
            return [(A_CHOOSE, C_POLITICS, c) for c in self._politics_targets(seat)]
        if what == C_MINECARTS:
            res = sorted(c for c in bid.pool[seat] if T.IS_RESOURCE[kinds[c]])
            return [(A_CHOOSE, C_MINECARTS, keep) for k in range(min(3, len(res)) + 1) for keep in combinations(res, k)]
        raise AssertionError(f"unknown On Bid prompt {what}")

    def _apply_onbid(self, seat: int, a: tuple) -> None:
        d = self.pdata
        what = d[0]
        bid = self.bid
        self.pk = P_NONE
        if a[0] == A_PASS:
            return
        if what == C_PILING:
            bid.conv[a[2]] = S
        elif what == C_FOOLS:
            card = a[2]
            victim = self._pool_of(card)
            if victim == seat:
                bid.conv[card] = R
            else:
                self._threaten(victim, 4, (T_CONV, card, R), seat)
        elif what == C_LOKI:
            self._threaten(a[2], 2, (T_LOKI, a[2], seat), seat)
        elif what == C_POLITICS:
            card = a[2]
            self._threaten(self._pool_of(card), 3, (T_STEAL, card, self._pool_of(card), seat), seat)
        elif what == C_MINECARTS:
            keep = set(a[2])
            kinds = self.kind
            stay = []
            for c in bid.pool[seat]:
                if T.IS_RESOURCE[kinds[c]] and c not in keep:
                    self.disc[seat].append(c)
                else:
                    stay.append(c)
            bid.pool[seat] = stay

    def counted_type(self, card: int, seat: int = -1) -> int:
        """A card's type for bid values: printed, unless Piling, Fool's Gold or Tapfa convert it."""
        bid = self.bid
        printed = T.KVALUE_RES[self.kind[card]]
        if bid is None:
            return printed
        if card in bid.conv:
            return bid.conv[card]
        if printed == R and seat >= 0 and bid.tapfa[seat]:
            return S
        return printed

    def card_bid_value(self, card: int, seat: int = -1) -> int:
        res = self.counted_type(card, seat)
        if res >= 0 and res in T.CURRENCY[BID_KINDS[self.bid.kind]]:
            return self.card_value(card)
        return 0

    def _bid_values(self) -> None:
        """B6 (§9.3)."""
        bid = self.bid
        currency = T.CURRENCY[BID_KINDS[bid.kind]]
        for seat in range(self.n):
            value = sum(self.card_bid_value(c, seat) for c in bid.pool[seat])
            value += sum(bid.bres[seat][r] for r in currency)
            if B in currency:
                value += T.DISTILLERY_BONUS * sum(
                    1 for b in self.town[seat] if self.kind[b] == T.DISTILLERY and self.finished(b)
                )
            if bid.kind == BID_WIZARD and seat == bid.owner:
                value += T.WIZARD_BONUS
            bid.values[seat] = value

    def eligible(self, seat: int) -> list[int]:
        """Cards ``seat`` may trash from its bid pool (MH-53)."""
        kinds = self.kind
        return [
            c for c in self.bid.pool[seat]
            if not T.IS_DWARF[kinds[c]] and kinds[c] not in T.TRASH_INELIGIBLE_IDS
        ]

    def _trash_targets(self) -> list[int]:
        return [s for s in self.bid.contenders if self.eligible(s)]

    def _trash_choosers(self) -> list[int]:
        loki = self.bid.loki
        return sorted({loki.get(t, t) for t in self._trash_targets()})

    def _trash_done(self, chooser: int) -> bool:
        bid = self.bid
        return all(t in bid.choices for t in self._trash_targets() if bid.loki.get(t, t) == chooser)

    def _open_trash_round(self) -> None:
        if self._trash_targets():
            self._prompt(P_TRASH)
        else:
            self._reveal_trash()

    def _reveal_trash(self) -> None:
        bid = self.bid
        for seat in self.turn_order(self.active):
            if seat not in bid.contenders:
                continue
            card = bid.choices.get(seat, -1)
            if card < 0:
                bid.trashed[seat].append(0)
                continue
            bid.trashed[seat].append(self.card_bid_value(card, seat))
            bid.pool[seat].remove(card)
            self.trash.append(card)
        bid.choices = {}
        self.pk = P_NONE
        self.stack.append((T_BID_WINNER,))

    def _t_bid_winner(self, task: tuple) -> None:
        """B8 and the tie-break rounds (§9.5)."""
        bid = self.bid
        r = bid.rounds
        if r == 0:
            top = max(bid.values)
            if top == 0:
                return self._bid_decided(-1)
            tied = [s for s in range(self.n) if bid.values[s] == top]
            if len(tied) == 1:
                return self._bid_decided(tied[0])
        else:
            tied = bid.contenders
        best = max(bid.trashed[s][r] for s in tied)
        tied = [s for s in tied if bid.trashed[s][r] == best]
        if len(tied) == 1:
            return self._bid_decided(tied[0])
        if not any(self.eligible(s) for s in tied):
            return self._bid_decided(-1)
        bid.rounds = r + 1
        bid.contenders = tied
        self._open_trash_round()

    def _bid_decided(self, winner: int) -> None:
        """After B8: B9 worst loser, B10 protection, B11 cleanup, B12 prize, B13 return."""
        bid = self.bid
        bid.winner = winner
        bid.stage = 3
        self.stack.append((T_BID_END,))
        order = self.turn_order(self.active)
        if bid.kind == BID_DWARF:
            self.stack.append((T_BID_PRIZE,))
        elif bid.kind == BID_PARTY:
            bid.losers = self._worst_losers()
            if winner >= 0:
                self.stack.append((T_PARTY_EXPLORE, winner))
            for seat in reversed(order):
                if seat in bid.losers:
                    self.stack.append((T_THREATEN, seat, 9, (T_HANGOVER, seat), -1))
        else:
            self.stack.append((T_BID_PRIZE,))
        self.stack.append((T_BID_CLEANUP,))
        # B10: end-of-bid protection, each affected player in turn order (pushed in reverse)
        threats = []
        if bid.mishap:
            threats.extend((p, 6, -1) for p in order if p not in bid.mishappers)
        if bid.kind == BID_WIZARD and winner >= 0 and winner != bid.owner:
            threats.append((bid.owner, 7, bid.starter))
        for victim, code, source in reversed(threats):
            self.stack.append((T_THREATEN, victim, code, (T_NOP, victim, code), source, (T_PROTECT, victim, code)))

    def _worst_losers(self) -> list[int]:
        """§9.6 (MH-14)."""
        bid = self.bid
        others = [s for s in range(self.n) if s != bid.winner]
        low = min(bid.values[s] for s in others)
        tied = [s for s in others if bid.values[s] == low]
        if len(tied) > 1:
            worst = min(bid.trashed[s][0] if bid.trashed[s] else 0 for s in tied)
            tied = [s for s in tied if (bid.trashed[s][0] if bid.trashed[s] else 0) == worst]
        return tied

    def _t_bid_cleanup(self, task: tuple) -> None:
        """B11 (§9.7): self-trashing cards, remaining cards home, Hut trashes, resources emptied."""
        bid = self.bid
        kinds = self.kind
        for seat in range(self.n):
            keep = []
            for c in bid.pool[seat]:
                if kinds[c] == K_POLITICS:
                    self.trash.append(c)
                elif kinds[c] == K_YGG:
                    (self.disc[seat] if bid.yggmark[seat] else self.trash).append(c)
                else:
                    keep.append(c)
            bid.pool[seat] = keep
        deal: list[int] = []
        for seat in range(self.n):
            if bid.mishap and not (bid.protected[seat] and seat not in bid.mishappers):
                for c in bid.pool[seat]:
                    (self.disc[seat] if T.IS_DWARF[kinds[c]] else deal).append(c)
            else:
                self.disc[seat].extend(bid.pool[seat])
            bid.pool[seat] = []
            bid.bres[seat] = [0, 0, 0]
        for seat in reversed(self.turn_order(self.active)):
            if bid.hut[seat]:
                self.stack.append((T_HUT_TRASH, seat, bid.hut[seat]))
        if deal:
            for c in deal:
                self._set_aside(c, -1)
            self._chance(("deal", tuple(sorted(deal))))

    def _mishap_deal(self, order: tuple) -> None:
        """§9.7: card i goes to the i-th unprotected player, in turn order from the active player."""
        bid = self.bid
        targets = [p for p in self.turn_order(self.active) if not (bid.protected[p] and p not in bid.mishappers)]
        for i, c in enumerate(order):
            self._unaside(c)
            self.disc[targets[i % len(targets)]].append(c)

    def _t_hut_trash(self, task: tuple) -> None:
        _, seat, left = task
        if left <= 0 or not any(not T.IS_DWARF[self.kind[c]] for c in self.hand[seat]):
            return
        self.stack.append((T_HUT_TRASH, seat, left - 1))
        self._chance(("rtrash", seat))

    def _t_bid_prize(self, task: tuple) -> None:
        """B12 (§9.8) for a dwarf bid and a Wizard bid."""
        bid = self.bid
        if bid.kind == BID_WIZARD:
            b, owner, winner = bid.target, bid.owner, bid.winner
            if winner < 0 or winner == owner or bid.wizstop or b not in self.town[owner]:
                return
            if T.IS_PROJECT[self.kind[b]] and self.owns_project(winner):
                return  # MH-84
            self.town[owner].remove(b)
            self.town[winner].append(b)
            stored = self.stored.get(b)
            if stored:
                dwarves = [c for c in stored if T.IS_DWARF[self.kind[c]]]
                self.disc[owner].extend(dwarves)
                self.stored[b] = [c for c in stored if not T.IS_DWARF[self.kind[c]]]
            return
        self._unaside(bid.prize)
        if bid.winner >= 0:
            self.disc[bid.winner].append(bid.prize)
            self.found += 1
        else:
            self._x_bottom(bid.prize)

    def _t_bid_end(self, task: tuple) -> None:
        self.bid = self.bid_stack.pop() if self.bid_stack else None

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int | None = None) -> list[tuple]:
        pk = self.pk
        if pk in (P_CHANCE, P_OVER, P_NONE):
            return []
        movers = self.to_move()
        if seat is None:
            if not movers:
                return []
            seat = movers[0]
        if seat not in movers:
            return []
        if pk == P_ACTION:
            return self._action_step_actions(seat)
        if pk == P_PICK:
            return [(A_PICK, k) for k in T.LEGENDARIES if k not in self.legend]
        if pk == P_KARINA:
            return [(A_REACT, self.lay.legendary_inst[K_KARINA]), (A_PASS,)]
        if pk == P_LAGERTHA:
            return [(A_REACT, self.lay.legendary_inst[K_LAGERTHA]), (A_PASS,)]
        if pk == P_COMMIT:
            return self._commit_neighbours(seat)
        if pk == P_TRASH:
            return self._trash_actions(seat)
        if pk == P_CHOOSE:
            return self._choose_actions(seat)
        if pk == P_ONBID:
            return self._onbid_actions(seat)
        if pk == P_CAVERN:
            return [(A_PASS,)] + [(A_CAVERN, d) for d in self.dwarves_available(seat)]
        if pk == P_HUT:
            return [(A_HUT, k) for k in range(T.CONSTANTS["hut_max_extra_draw"] + 1)]
        if pk == P_TRADE:
            return self._trade_answers(seat)
        raise _missing(f"prompt {PROMPT_NAMES.get(pk, pk)}")

    def _trade_answers(self, seat: int) -> list[tuple]:
        offerer, give, want = self.pdata
        kinds = self.kind
        acts: list[tuple] = [(A_TDECLINE,)]
        project_ok = not self.owns_project(offerer)
        for c in self.hand[seat]:
            if (want < 0 or kinds[c] == want) and (project_ok or not T.IS_PROJECT[kinds[c]]):
                acts.append((A_TACCEPT, c))
        return acts

    def dwarves_available(self, seat: int) -> list[int]:
        """Dwarves ``seat`` may use: hand and Clan Hall (§6.1)."""
        kinds = self.kind
        return [c for c in self.hand[seat] if T.IS_DWARF[kinds[c]]] + self.hall_dwarves(seat)

    def _construct_options(self, seat: int) -> list[tuple[int, tuple]]:
        """(building, pay) for one step of each unfinished building."""
        pool = self.apool
        return [(b, pay) for b in self.unfinished(seat) for pay in _pays(self.next_step_cost(b), pool)]

    def _marg_options(self, seat: int) -> list[tuple[tuple, tuple]]:
        pool = self.apool
        steps = []
        unfinished = self.unfinished(seat)
        for b in unfinished:
            p = self.prog.get(b, 0)
            costs = T.KSTEPS[self.kind[b]]
            steps.append(((b,), costs[p]))
            if p + 1 < len(costs):
                steps.append(((b, b), _add_cost(costs[p], costs[p + 1])))
        for b1, b2 in combinations(sorted(unfinished), 2):
            steps.append(((b1, b2), _add_cost(self.next_step_cost(b1), self.next_step_cost(b2))))
        return [(st, pay) for st, cost in steps for pay in _pays(cost, pool)]

    def _action_step_actions(self, seat: int) -> list[tuple]:
        acts, offers = self._action_step_parts(seat)
        for to, cards, wants in offers:
            for c in cards:
                acts.extend((A_OFFER, to, c, w) for w in wants)
        acts.append((A_END,))
        return acts

    def _action_step_parts(self, seat: int) -> tuple[list[tuple], list[tuple[int, list[int], list[int]]]]:
        """The action-step actions before the Marketplace offers, and the offers as (to, cards, wants).

        The listed order is: these actions, then every offer (target, card, want in that nesting),
        then ``end_action_step``; the fused playout indexes into it without building the offers.
        """
        kinds = self.kind
        pool = self.apool
        acts: list[tuple] = []
        hand = self.hand[seat]
        warehouse = self.warehouse_cards(seat)
        for c in hand:
            if T.IS_RESOURCE[kinds[c]]:
                acts.append((A_PLAY, c))
        for c in warehouse:
            acts.append((A_PLAY, c))
        construct = self._construct_options(seat)
        for d in self.dwarves_available(seat):
            kd = kinds[d]
            if kd in T.LABOURER_OPTIONS:
                acts.extend((A_DWARF, d, res) for res, _ in T.LABOURER_OPTIONS[kd])
            elif kd in T.RENOWNED:
                acts.append((A_DWARF, d, OPT_GAIN))
                acts.append((A_DWARF, d, OPT_DOUBLE))
            elif kd == K_ORI or kd == K_THORVALD:
                acts.append((A_DWARF, d))
            elif kd == K_BALDUR:
                acts.append((A_DWARF, d, 0))
                acts.append((A_DWARF, d, 1))
            elif kd == K_MARG:
                acts.extend((A_DWARF, d, st, pay) for st, pay in self._marg_options(seat))
            acts.extend((A_COMMIT, d, b, pay) for b, pay in construct)
        project = self.owns_project(seat)
        for c in hand:
            if T.IS_BUILDING[kinds[c]]:
                acts.append((A_PLACE, c))
        for b in self.town[seat]:
            if not self.upright(b):
                continue
            acts.extend(self._tap_actions(seat, b))
        for b in self.town[seat]:
            if kinds[b] == K_DWELLING and self.finished(b) and self.stored.get(b):
                acts.extend((A_DWELL, b, t, pay) for t, pay in construct)
        for s in range(self.n):
            for b in self.town[s]:
                if kinds[b] == K_PAWNSHOP and self.upright(b) and self.stored.get(b):
                    if self.card_value(self.stored[b][0]) <= pool[S]:
                        acts.append((A_BUYBACK, b))
        for c in hand:
            kc = kinds[c]
            if kc == T.HOARD:
                acts.extend((A_HOARD, c, res) for res in (R, S, B))
            elif kc == K_PILING:
                acts.append((A_PLAYACT, c))
            elif kc == K_WIZARD:
                acts.extend((A_PLAYACT, c, b) for s in range(self.n) if s != seat for b in self.town[s])
            elif kc == K_PANDA:
                acts.extend(self._panda_plays(seat, c))
        if not self.bought:
            profile = self.options["shop_profile"]
            consultants = self.in_area(K_CONSULTANTS)
            for slot, card in enumerate(self.slots):
                if card < 0 or (T.IS_PROJECT[kinds[card]] and project):
                    continue
                cost = T.price(kinds[card], profile)
                if cost <= pool[S]:
                    acts.append((A_BUY, slot, 0))
                    if consultants and cost + T.CONSULTANTS_FEE <= pool[S]:
                        acts.append((A_BUY, slot, 1))
        if self.in_area(K_LAIR) and not self.lair_used:
            acts.extend((A_LAIR, d) for d in self.dwarves_available(seat))
        if self.in_area(K_FORTRESS) and pool[B] >= T.FORTRESS["release_cost_booze"]:
            acts.extend((A_FREL, d) for d in self.fortress)
        offers: list[tuple[int, list[int], list[int]]] = []
        if self.in_area(K_MARKET) and not self.traded:
            wants = [-1] + sorted(set(kinds))
            for to in range(self.n):
                if to == seat or to in self.offers:
                    continue
                to_project = self.owns_project(to)
                cards = [c for c in hand if not (T.IS_PROJECT[kinds[c]] and to_project)]
                offers.append((to, cards, wants))
        return acts, offers

    def random_playout(self, rng: RandomSource) -> int:
        """Uniformly random legal play to the end; the number of events applied.

        The same draws and the same actions as :func:`engine.core.random_playout` (a test checks
        this); the action step is indexed without building its Marketplace offers.
        """
        events = 0
        randrange = rng.randrange
        while self.pk != P_OVER:
            pk = self.pk
            if pk == P_CHANCE:
                self.apply(CHANCE, self.sample_chance(rng))
            elif pk == P_ACTION:
                seat = self.pseat
                acts, offers = self._action_step_parts(seat)
                total = len(acts) + sum(len(cards) * len(wants) for _, cards, wants in offers) + 1
                i = randrange(total)
                if i < len(acts):
                    action = acts[i]
                elif i == total - 1:
                    action = (A_END,)
                else:
                    i -= len(acts)
                    for to, cards, wants in offers:
                        block = len(cards) * len(wants)
                        if i < block:
                            action = (A_OFFER, to, cards[i // len(wants)], wants[i % len(wants)])
                            break
                        i -= block
                self.apply(seat, action)
            else:
                seat = self.pseat if self.pseat >= 0 and pk not in (P_COMMIT, P_TRASH) else self.to_move()[0]
                actions = self.legal_actions(seat)
                self.apply(seat, actions[randrange(len(actions))])
            events += 1
        return events

    def _tap_actions(self, seat: int, b: int) -> list[tuple]:
        kinds = self.kind
        kind = kinds[b]
        pool = self.apool
        hand = self.hand[seat]
        if kind in T.PRODUCER or kind == K_BOAT:
            return [(A_TAP, b)]
        if kind in T.MULTIPLIER:
            res = T.MULTIPLIER[kind][0]
            return [(A_TAP, b, n) for n in range(1, pool[res] + 1)]
        if kind in K_HALL:
            dwarves = sorted(c for c in hand if T.IS_DWARF[kinds[c]])
            return [(A_TAP, b, sub) for k in range(len(dwarves) + 1) for sub in combinations(dwarves, k)]
        if kind == K_WAREHOUSE:
            return [(A_TAP, b, -1)] + [(A_TAP, b, c) for c in hand if T.IS_RESOURCE[kinds[c]]]
        if kind == K_DWELLING:
            if pool[B] < T.DWELLING_COST:
                return []
            acts = [(A_TAP, b, -1)]
            if not self.stored.get(b):
                acts.extend((A_TAP, b, c) for c in hand if T.IS_DWARF[kinds[c]])
            return acts
        if kind == K_PAWNSHOP:
            cards = [c for c in hand if T.IS_RESOURCE[kinds[c]]] + self.warehouse_cards(seat)
            return [(A_TAP, b, c) for c in cards]
        if kind == K_DUNGEON:
            if pool[S] < T.DUNGEON_COST:
                return []
            return [(A_TAP, b, c) for c in self.disc[seat]]
        if kind == K_WORKSHOP:
            acts = [
                (A_TAP, b, 0, t, pay)
                for t in self.unfinished(seat)
                for pay in _pays((0, 0, 0, T.WORKSHOP_COST), pool)
            ]
            acts.append((A_TAP, b, 1, -1))
            acts.extend((A_TAP, b, 1, t) for t in self.town[seat] if t != b and self.finished(t))
            return acts
        return []  # no tap ability (Witch's Hut, projects)

    # ---- sealed commitments (B3): ready plus every commitment one edit away

    def commit_cards_available(self, seat: int) -> list[int]:
        """Cards ``seat`` may commit: hand, Clan Hall dwarves and Warehouse cards (§9.2 B3)."""
        return self.hand[seat] + self.hall_dwarves(seat) + self.warehouse_cards(seat)

    def _use_sources(self, seat: int) -> list[int]:
        """Finished upright buildings with a resource tap usable in a bid (§8.3)."""
        kinds = self.kind
        return [
            b for b in self.town[seat]
            if self.upright(b) and (kinds[b] in T.PRODUCER or kinds[b] in T.MULTIPLIER or kinds[b] == K_PAWNSHOP)
        ]

    def _uses_valid(self, seat: int, cards: tuple, uses: tuple) -> str:
        """'' if this use list is valid for ``seat`` (given the committed cards), else the reason."""
        kinds = self.kind
        gained = [0, 0, 0]
        used_buildings: set[int] = set()
        used_cards: set[int] = set(cards)
        sources = set(self._use_sources(seat))
        hand = self.hand[seat]
        for use in uses:
            if use[0] in (0, 1):
                b = use[1]
                if b not in sources:
                    return f"{self.names[b]} is not a finished upright resource building of seat {seat}"
                if b in used_buildings:
                    return f"{self.names[b]} is used twice"
                used_buildings.add(b)
                kind = kinds[b]
                if use[0] == 0:
                    if kind in T.PRODUCER:
                        res, amount, _ = T.PRODUCER[kind]
                        gained[res] += amount * (2 if kind in self.doubled and seat == self.active else 1)
                    elif kind in T.MULTIPLIER:
                        res, mult = T.MULTIPLIER[kind]
                        n = use[2]
                        if n < 1 or n > gained[res]:
                            return f"{self.names[b]} needs n={n} from resources gained earlier in the list"
                        gained[res] += (mult - 1) * n
                    else:
                        return f"{self.names[b]} needs a card to pawn"
                else:
                    if kind != K_PAWNSHOP:
                        return f"{self.names[b]} is not a Pawn Shop"
                    card = use[2]
                    if card in used_cards:
                        return f"{self.names[card]} is committed or used twice"
                    if not (T.IS_RESOURCE[kinds[card]] and (card in hand or card in self.warehouse_cards(seat))):
                        return f"{self.names[card]} is not a resource card in hand or Warehouse"
                    used_cards.add(card)
                    gained[S] += self.card_value(card)
            else:
                card = use[1]
                if card in used_cards:
                    return f"{self.names[card]} is committed or used twice"
                if kinds[card] != T.HOARD or card not in hand:
                    return f"{self.names[card]} is not a Dragon Hoard in hand"
                used_cards.add(card)
                gained[use[2]] += T.HOARD_GAIN
        return ""

    def _uses_gained(self, seat: int, uses: tuple) -> list[int]:
        kinds = self.kind
        gained = [0, 0, 0]
        for use in uses:
            if use[0] == 0:
                kind = kinds[use[1]]
                if kind in T.PRODUCER:
                    res, amount, _ = T.PRODUCER[kind]
                    gained[res] += amount * (2 if kind in self.doubled and seat == self.active else 1)
                else:
                    res, mult = T.MULTIPLIER[kind]
                    gained[res] += (mult - 1) * use[2]
            elif use[0] == 1:
                gained[S] += self.card_value(use[2])
            else:
                gained[use[2]] += T.HOARD_GAIN
        return gained

    def commit_problem(self, seat: int, cards: tuple, uses: tuple) -> str:
        available = self.commit_cards_available(seat)
        if len(set(cards)) != len(cards):
            return "a card is committed twice"
        for c in cards:
            if c not in available:
                return f"{self.names[c]} is not in seat {seat}'s hand, Clan Hall or Warehouse"
            if c in self.warehouse_cards(seat) and not T.IS_RESOURCE[self.kind[c]]:
                return f"{self.names[c]} cannot be committed from the Warehouse"
        return self._uses_valid(seat, cards, uses)

    def _commit_neighbours(self, seat: int) -> list[tuple]:
        bid = self.bid
        current = bid.commit[seat] or ((), ())
        cards, uses = current
        acts: list[tuple] = [(A_READY,)]
        stamp = self.nact
        used_cards = {u[2] if u[0] == 1 else u[1] for u in uses if u[0] != 0}
        for c in self.commit_cards_available(seat):
            if c not in cards and c not in used_cards:
                acts.append((A_BID, cards + (c,), uses, stamp))
        for i in range(len(cards)):
            acts.append((A_BID, cards[:i] + cards[i + 1 :], uses, stamp))
        # one more use at the end of the list
        kinds = self.kind
        candidates: list[tuple] = []
        for b in self._use_sources(seat):
            kind = kinds[b]
            if kind in T.PRODUCER:
                candidates.append((0, b, 0))
            elif kind in T.MULTIPLIER:
                res = T.MULTIPLIER[kind][0]
                candidates.extend((0, b, n) for n in range(1, self._uses_gained(seat, uses)[res] + 1))
            else:
                candidates.extend((1, b, c) for c in self.hand[seat] + self.warehouse_cards(seat) if T.IS_RESOURCE[kinds[c]])
        for c in self.hand[seat]:
            if kinds[c] == T.HOARD:
                candidates.extend((2, c, res) for res in (R, S, B))
        for use in candidates:
            new = uses + (use,)
            if not self._uses_valid(seat, cards, new):
                acts.append((A_BID, cards, new, stamp))
        for i in range(len(uses)):
            new = uses[:i] + uses[i + 1 :]
            if not self._uses_valid(seat, cards, new):
                acts.append((A_BID, cards, new, stamp))
        return list(dict.fromkeys(acts))

    def _trash_actions(self, seat: int) -> list[tuple]:
        bid = self.bid
        acts = []
        for t in self._trash_targets():
            if bid.loki.get(t, t) == seat and t not in bid.choices:
                acts.extend((A_TRASH, c, -1 if t == seat else t) for c in self.eligible(t))
        return acts

    def _choose_actions(self, seat: int) -> list[tuple]:
        d = self.pdata
        what = d[0]
        kinds = self.kind
        if what == C_BOAT:
            return [(A_CHOOSE, C_BOAT, c) for c in self.hand[seat]]
        if what == C_GOLEMS:
            return [(A_CHOOSE, C_GOLEMS, d[1], 0), (A_CHOOSE, C_GOLEMS, d[1], 1)]
        if what == C_DRAGON:
            acts = [(A_CHOOSE, C_DRAGON, 0, c) for c in self.dwarves_available(seat)]
            damaged = [(A_CHOOSE, C_DRAGON, 1, b) for b in self.town[seat] if self.prog.get(b, 0)]
            return acts + (damaged or [(A_CHOOSE, C_DRAGON, 1, -1)])
        if what == C_GOBLINS:
            return self._goblin_options(seat)
        if what == C_REORG_N:
            return [(A_CHOOSE, C_REORG_N, k) for k in range(4)]
        if what == C_REORG_PUT:
            from itertools import permutations

            k = min(d[1], len(self.hand[seat]))
            return [(A_CHOOSE, C_REORG_PUT, p) for p in permutations(self.hand[seat], k)]
        if what == C_CAV_RES:
            return [(A_CHOOSE, C_CAV_RES, T.RES_INDEX[r]) for r in T.CONSTANTS["cavern_d6"]["gain_choices"]]
        if what == C_CAV_BUILD:
            return [(A_CHOOSE, C_CAV_BUILD, b) for b in self.unfinished(seat)]
        if what == C_BALDUR:
            from itertools import permutations

            return [(A_CHOOSE, C_BALDUR, p) for p in permutations(self.private[seat]["xtop"])]
        if what == C_FORTRESS:
            cost = T.FORTRESS["capture_cost_booze"]
            return [(A_PASS,)] + [(A_CHOOSE, C_FORTRESS, src, self.nact) for src in self.payment_options(seat, B, cost)]
        if what == C_PARTY:
            return [(A_CHOOSE, C_PARTY), (A_PASS,)]
        raise _missing(f"choose prompt {what}")

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Any) -> None:
        if seat == CHANCE:
            self._apply_chance(action)
        else:
            self.nact += 1
            self._apply_action(seat, action)
        self._advance()
        if self.tie_mode and not self.over and self._single_leader():
            self._end()  # a check point with a single leader (§18.3, MH-66)

    def _apply_action(self, seat: int, a: tuple) -> None:
        pk = self.pk
        verb = a[0]
        if pk == P_ACTION:
            self._do_action(seat, a)
        elif pk == P_PICK:
            self.legend[seat] = a[1]
            self.stack.append((T_PICK, self.pdata[0] + 1))
            self.pk = P_NONE
        elif pk == P_COMMIT:
            bid = self.bid
            if verb == A_BID:
                bid.commit[seat] = (a[1], a[2])
                bid.ncommit[seat] += 1
            else:
                bid.ready[seat] = True
                if all(bid.ready):
                    self.stack.append((T_BID_REVEAL, 0, 0))
                    self.pk = P_NONE
        elif pk == P_TRASH:
            bid = self.bid
            target = seat if a[2] < 0 else a[2]
            bid.choices[target] = a[1]
            if all(t in bid.choices for t in self._trash_targets()):
                self._reveal_trash()
        elif pk == P_KARINA:
            self.pk = P_NONE
            if verb == A_REACT:
                self._remove_reaction_card(seat, a[1])
                actor = self.pdata[0]
                if self._lagertha_holder(actor):
                    self._prompt(P_LAGERTHA, actor, (1, None))  # N1
                else:
                    self._cancel_dwarf_use()
        elif pk == P_LAGERTHA:
            self.pk = P_NONE
            code = self.pdata[0]
            if verb == A_REACT:
                self._remove_reaction_card(seat, a[1])
                if code != 1:
                    self.stack.pop()  # the threatened effect does not apply to this seat
                    if self.pdata[1] is not None:
                        self.stack.append(self.pdata[1])
            elif code == 1:
                self._cancel_dwarf_use()
        elif pk == P_CHOOSE:
            self._apply_choose(seat, a)
        elif pk == P_ONBID:
            self._apply_onbid(seat, a)
        elif pk == P_CAVERN:
            self.pk = P_NONE
            if verb == A_CAVERN:
                self.take_from_hand_or_store(seat, a[1])
                self.cav.append(a[1])
                self.cav_owner.append(seat)
            self.stack.append((T_ACTION, seat))
            self.stack.append((T_CAVERN_ROLL, seat, tuple(c for c, o in zip(self.cav, self.cav_owner) if o == seat)))
        elif pk == P_HUT:
            self.pk = P_NONE
            if a[1]:
                self.stack.append((T_DRAW, seat, a[1], 1))
        elif pk == P_TRADE:
            self.pk = P_NONE
            if verb == A_TACCEPT:
                offerer, give = self.pdata[0], self.pdata[1]
                take = a[1]
                self.hand[offerer].remove(give)
                self._hand_left(offerer, give)
                self.hand[seat].remove(take)
                self._hand_left(seat, take)
                self.hand[seat].append(give)
                self.hknown[seat].append(give)
                self.hand[offerer].append(take)
                self.hknown[offerer].append(take)
                self.traded = True
        else:
            raise AssertionError(f"no player action is due at prompt {pk}")

    def _apply_choose(self, seat: int, a: tuple) -> None:
        d = self.pdata
        what = d[0]
        self.pk = P_NONE
        if a[0] == A_PASS:
            if what == C_FORTRESS:
                self.start_bid(BID_DWARF, d[1], seat)
            return
        if what == C_BOAT:
            card = a[2]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            self.disc[seat].append(card)
        elif what == C_GOLEMS:
            card = a[2]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            if a[3] == 0:
                self.trash.append(card)
                event = next(e for e in self.area if self.kind[e] == K_GOLEMS)
                self._add_counter(event, seat)
            else:
                self.disc[seat].append(card)
        elif what == C_DRAGON:
            if a[2] == 0:
                self.take_from_hand_or_store(seat, a[3])
                self.disc[seat].append(a[3])
                self._add_counter(d[1], seat)
            elif a[3] >= 0:
                self._threaten(seat, 10, (T_DAMAGE, seat, a[3]))  # MH-78
        elif what == C_GOBLINS:
            if a[2] == 0:
                self.tapped[a[3]] = True
            elif a[2] == 1:
                self.hand[seat].remove(a[3])
                self._hand_left(seat, a[3])
                self.disc[seat].append(a[3])
            else:
                self._pay_sources(seat, a[3])
        elif what == C_REORG_N:
            self.stack.append((T_REORG_PUT, seat, a[2]))
            self.stack.append((T_DRAW, seat, a[2]))
        elif what == C_REORG_PUT:
            order = a[2]
            # what the public can say: the cards came from the hand, i.e. not from a draw-pile block
            # whose candidates are exactly its cards
            exact = {c for cands, count in self.dblocks[seat] if len(cands) == count for c in cands}
            hidden = tuple(sorted(c for c in self.hand[seat] + self.draw[seat] if c not in exact))
            for c in order:
                self.hand[seat].remove(c)
            self.draw[seat].extend(reversed(order))
            self.dblocks[seat].append((hidden, len(order)))
            self.hknown[seat] = []
            self.private[seat]["top"] = tuple(order) + tuple(self.private[seat].get("top", ()))
        elif what == C_CAV_RES:
            self.apool[a[2]] += T.CONSTANTS["cavern_d6"]["gain_amount"]
        elif what == C_CAV_BUILD:
            self._complete_step(a[2])
        elif what == C_BALDUR:
            order = a[2]
            m = len(order)
            self.xp[-m:] = list(reversed(order))
            self._x_merge_top(m)
            self.private[seat]["xtop"] = tuple(order)
        elif what == C_FORTRESS:
            self._pay_sources(seat, a[2])
            self._unaside(d[1])
            self.fortress.append(d[1])
        elif what == C_PARTY:
            self.stack.append((T_EXPLORE, seat))
        else:
            raise _missing(f"choose prompt {what}")

    def _apply_chance(self, o: tuple) -> None:
        what = o[0]
        d = self.pdata
        self.pk = P_NONE
        if what == "assign":
            self.legend = list(o[1])
        elif what == "shuffle":
            pile, order = o[1], o[2]
            cands = tuple(sorted(order))
            if pile < PILE_EXPLORATION:
                self.draw[pile] = list(reversed(order))
                self.disc[pile] = []
                self.dblocks[pile] = [(cands, len(order))]
                self.private[pile].pop("top", None)
            elif pile == PILE_EXPLORATION:
                extras = d[1] or ()
                for c in extras:
                    self._unaside(c)
                self.xp = list(reversed(order))
                self._x_merge(extras)
            else:
                self.shop[:0] = list(reversed(order))
                self.sblocks.insert(0, (cands, len(order)))
        elif what == "select":
            self.selected[o[1]] = o[2]
        elif what == "insert":
            card, pos = o[1], o[2]
            self._unaside(card)
            self.xp.insert(len(self.xp) - pos, card)
            self._x_merge((card,))
        elif what == "roll":
            self._cavern_roll(o[1], o[2])
        elif what == "bottom":
            order = o[1]
            for c in order:
                self._unaside(c)
            self.xp[:0] = list(reversed(order))
            self.xblocks.insert(0, (tuple(sorted(order)), len(order)))
        elif what == "rtrash":
            seat, card = o[1], o[2]
            self.hand[seat].remove(card)
            self._hand_left(seat, card)
            self.trash.append(card)
        elif what == "deal":
            self._mishap_deal(o[1])
        else:
            raise AssertionError(f"unknown chance outcome {o!r}")

    # ------------------------------------------------------------------ chance (§21)

    def chance_cards(self) -> tuple[int, ...]:
        """The cards the pending chance event orders or picks from (in instance order)."""
        d = self.pdata
        what = d[0]
        if what == "shuffle":
            return d[2]
        if what == "xshuffle":
            if d[1] is None:
                return tuple(sorted(self.lay.explore_resources + [c for p in range(3) for c in self.selected[p]] + self.lay.fixed))
            return tuple(sorted(self.xp + list(d[1])))
        if what == "select":
            return d[2]
        if what in ("bottom", "deal"):
            return d[1]
        if what == "rtrash":
            return tuple(sorted(c for c in self.hand[d[1]] if not T.IS_DWARF[self.kind[c]]))
        return ()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.pk != P_CHANCE:
            return []
        d = self.pdata
        what = d[0]
        if what == "assign":
            from itertools import permutations

            outs = list(permutations(T.LEGENDARIES, self.n))
            return [(("assign", o), 1 / len(outs)) for o in outs]
        if what == "select":
            pool, k = d[2], d[3]
            total = comb(len(pool), k)
            if total > 5000:
                raise NotImplementedError("too many selections to list; use sample_chance")
            return [(("select", d[1], c), 1 / total) for c in combinations(pool, k)]
        if what == "insert":
            n = len(self.xp)
            return [(("insert", d[1], pos), 1 / (n + 1)) for pos in range(n + 1)]
        if what == "roll":
            return [(("roll", d[1], v), 1 / 6) for v in range(1, 7)]
        if what == "rtrash":
            cards = self.chance_cards()
            return [(("rtrash", d[1], c), 1 / len(cards)) for c in cards]
        cards = self.chance_cards()
        if len(cards) <= 1:
            return [(self._order_outcome(cards), 1.0)]
        raise NotImplementedError("a permutation's outcomes are not listed; use sample_chance")

    def _order_outcome(self, order: tuple) -> tuple:
        d = self.pdata
        what = d[0]
        if what == "shuffle":
            return ("shuffle", d[1], order)
        if what == "xshuffle":
            return ("shuffle", PILE_EXPLORATION, order)
        return (what, order)

    def sample_chance(self, rng: RandomSource) -> Any:
        d = self.pdata
        what = d[0]
        if what == "assign":
            perm = _fisher_yates(list(T.LEGENDARIES), rng)
            return ("assign", tuple(perm[: self.n]))
        if what == "select":
            perm = _fisher_yates(list(d[2]), rng)
            return ("select", d[1], tuple(sorted(perm[: d[3]])))
        if what == "insert":
            return ("insert", d[1], rng.randrange(len(self.xp) + 1))
        if what == "roll":
            return ("roll", d[1], 1 + rng.randrange(6))
        if what == "rtrash":
            cards = self.chance_cards()
            return ("rtrash", d[1], cards[rng.randrange(len(cards))])
        return self._order_outcome(tuple(_fisher_yates(list(self.chance_cards()), rng)))

    def check_chance(self, o: Any) -> None:
        if self.pk != P_CHANCE:
            raise IllegalActionError(f"chance event {o!r} is illegal: no chance event is due")
        d = self.pdata
        due = "shuffle" if d[0] == "xshuffle" else d[0]
        if not isinstance(o, tuple) or not o or o[0] != due:
            raise IllegalActionError(f"chance event {self._chance_name(o)} is illegal: a {self._due_name()} is due")
        what = d[0]
        if what == "assign":
            legal = len(o[1]) == self.n and len(set(o[1])) == self.n and all(k in T.LEGENDARIES for k in o[1])
            if not legal:
                raise IllegalActionError(f"assign_legendaries needs {self.n} distinct legendaries")
        elif what == "select":
            if o[1] != d[1] or len(o[2]) != d[3] or len(set(o[2])) != d[3] or not set(o[2]) <= set(d[2]):
                raise IllegalActionError(
                    f"select must pick {d[3]} distinct cards of the {POOLS[d[1]]} pool, not {self._chance_name(o)}"
                )
        elif what in ("shuffle", "xshuffle"):
            pile = d[1] if what == "shuffle" else PILE_EXPLORATION
            if o[1] != pile:
                raise IllegalActionError(f"the shuffle due is of pile {self._pile_name(pile)}, not {self._pile_name(o[1])}")
            if sorted(o[2]) != sorted(self.chance_cards()):
                raise IllegalActionError(f"shuffle of {self._pile_name(pile)} must order exactly its {len(self.chance_cards())} cards")
        elif what == "insert":
            if o[1] != d[1] or type(o[2]) is not int or not 0 <= o[2] <= len(self.xp):
                raise IllegalActionError(f"insert of {self.names[d[1]]} needs a position 0..{len(self.xp)}")
        elif what == "roll":
            if o[1] != d[1] or type(o[2]) is not int or not 1 <= o[2] <= 6:
                raise IllegalActionError(f"the roll due is a d6 for {self.names[d[1]]}")
        elif what == "rtrash":
            if o[1] != d[1] or o[2] not in self.chance_cards():
                raise IllegalActionError(f"random_trash must pick a non-dwarf card in seat {d[1]}'s hand")
        elif what in ("bottom", "deal"):
            if sorted(o[1]) != sorted(d[1]):
                raise IllegalActionError(f"{what} order must list exactly its {len(d[1])} cards")

    def _due_name(self) -> str:
        names = {"assign": "assign_legendaries", "xshuffle": "shuffle", "bottom": "bottom_order", "rtrash": "random_trash", "deal": "deal_order"}
        return names.get(self.pdata[0], self.pdata[0])

    def _chance_name(self, o: Any) -> str:
        try:
            return str(self.chance_to_json(o))
        except Exception:
            return repr(o)

    def _pile_name(self, pile: int) -> str:
        if pile < PILE_EXPLORATION:
            return f"draw:{pile}"
        if pile == PILE_EXPLORATION:
            return "exploration"
        return self.lay.shop_tier_names[pile - PILE_SHOP]

    # ------------------------------------------------------------------ checking

    def _validated(self, a: Any) -> bool:
        """Actions whose legal set is too large to list in full carry a stamp and a validator."""
        if not isinstance(a, tuple) or not a:
            return False
        verb = a[0]
        if verb == A_BID:
            return True
        if verb == A_PLAYACT and len(a) == 4:
            return True
        return verb == A_CHOOSE and len(a) > 2 and (a[1] == C_FORTRESS or (a[1] == C_GOBLINS and a[2] == 2))

    def check(self, seat: int, action: Any) -> None:
        if seat == CHANCE or not self._validated(action):
            super().check(seat, action)
            return
        from ...core import ChanceExpectedError, GameOverError, WrongSeatError

        player = self.current_player()
        if player == TERMINAL:
            raise GameOverError(f"{self.describe(seat, action)} is illegal: the game has ended")
        if player == CHANCE:
            raise ChanceExpectedError(f"{self.describe(seat, action)} is illegal: a chance event is due")
        if seat not in self.to_move():
            movers = " or ".join(f"seat {s}" for s in self.to_move())
            raise WrongSeatError(f"{self.describe(seat, action)} is illegal: it is {movers} to move")
        problem = self.why_illegal(seat, action)
        if problem:
            raise IllegalActionError(f"{self.describe(seat, action)} is illegal: {problem}")

    def why_illegal(self, seat: int, action: Any) -> str:
        if self._validated(action):
            if action[-1] != self.nact:
                return "it was made for an earlier position"
            verb = action[0]
            if verb == A_BID:
                if self.pk != P_COMMIT or len(action) != 4:
                    return "no sealed commitment is open"
                return self.commit_problem(seat, action[1], action[2])
            if verb == A_PLAYACT:
                if self.pk != P_ACTION or seat != self.pseat:
                    return "action cards are played in your own action step"
                return self.panda_problem(seat, action[1], action[2])
            if self.pk != P_CHOOSE or self.pdata[0] != action[1] or seat != self.pseat:
                return "that prompt is not open"
            if action[1] == C_GOBLINS:
                if self.pdata[0] != C_GOBLINS:
                    return "no Goblins prompt is open"
                return self.payment_problem(seat, B, 1, action[3])
            return self.payment_problem(seat, B, T.FORTRESS["capture_cost_booze"], action[2])
        if action in self.legal_actions(seat):
            return ""
        return f"it is not a legal {PROMPT_NAMES.get(self.pk, '?')} answer here"

    # ------------------------------------------------------------------ results (§18)

    def vp(self, seat: int) -> int:
        kinds = self.kind
        labourer_vp = self.options["labourer_vp"]
        total = self.tokens[seat]

        def card_vp(c: int) -> int:
            k = kinds[c]
            if T.KTYPE[k] == "labourer":
                return labourer_vp
            return T.KVP_FIXED[k]

        for zone in (self.draw[seat], self.hand[seat], self.disc[seat]):
            for c in zone:
                total += card_vp(c)
        for b in self.town[seat]:
            k = kinds[b]
            steps = self.prog.get(b, 0)
            done = steps >= len(T.KSTEPS[k])
            total += T.KVP_STEP[k] * steps
            if done:
                total += T.KVP_FINISHED[k]
                if k == K_PAWNSHOP and self.stored.get(b):
                    total += self.card_value(self.stored[b][0])
            for c in self.stored.get(b, ()):
                total += card_vp(c)
        for c, owner in zip(self.cav, self.cav_owner):
            if owner == seat:
                total += card_vp(c)
        for c, owner in zip(self.aside, self.aside_owner):
            if owner == seat:
                total += card_vp(c)
        if self.bid is not None:
            for c in self.bid.pool[seat]:
                total += card_vp(c)
        for bid in self.bid_stack:
            for c in bid.pool[seat]:
                total += card_vp(c)
        return total

    def scores(self) -> list[int]:
        return [self.vp(s) for s in range(self.n)]

    def ranking(self) -> list[int]:
        scores = self.scores()
        return [sum(1 for other in scores if other > mine) for mine in scores]

    # ------------------------------------------------------------------ what a seat sees of an event (ai/ismcts.py)

    def action_view(self, observer: int, seat: int, action: Any) -> Any:
        """What ``observer`` sees of ``seat`` doing ``action`` (``seat`` CHANCE: an outcome), before it is applied.

        The same split as :func:`_redact_event` (§20), on engine tuples: shuffle orders, pool selections,
        insert positions and Thorvald's bottom order are seen only as "that pile was shuffled"; another
        seat's ``commit_bid``, sealed ``trash`` choice, Reorganisation put-back and Baldur order only as
        "sealed"; a declined reaction window as nothing (one constant).  Everything else is public.
        What an event reveals *through its consequences* (cards drawn, the card explored) is not in
        the event: see :meth:`info_digest`.
        """
        if seat == CHANCE:
            what = action[0]
            if what == "shuffle":
                return ("shuffle", action[1])
            if what == "select":
                return ("select", action[1])
            if what == "insert":
                return ("insert", action[1])
            if what == "bottom":
                return ("bottom",)
            return action  # assign, roll, rtrash, deal: public
        if seat == observer:
            return action
        verb = action[0]
        if verb == A_BID or verb == A_TRASH:
            return ("sealed", verb)
        pk = self.pk
        if pk == P_KARINA or pk == P_LAGERTHA:
            return action if verb == A_REACT else ("sealed",)
        if verb == A_CHOOSE and pk == P_CHOOSE and (action[1] == C_REORG_PUT or action[1] == C_BALDUR):
            return ("sealed", A_CHOOSE, action[1])
        return action

    def info_digest(self, observer: int) -> tuple:
        """A cheap summary of what ``observer`` sees now (only parts of its observation).

        Used with :meth:`action_view` by ISMCTS to key nodes: after an event, this tells apart the
        outcomes the observer can tell apart through the event's consequences -- its own new hand
        after a draw, the explored card (discard piles, the set-aside cards, the shared area), shop
        refills, the trash, revealed bid pools and values.  Another seat's hand appears only as its
        size; a reaction window the observer is not asked about does not appear at all (§10.5).
        """
        pk = self.pk
        pseat = self.pseat
        if (pk == P_KARINA or pk == P_LAGERTHA) and pseat != observer:
            pk = pseat = -1
        bid = self.bid
        revealed = None
        if bid is not None and bid.stage >= 2:
            revealed = (tuple(map(tuple, bid.pool)), tuple(bid.values), bid.winner)
        trash = self.trash
        return (
            pk, pseat, tuple(sorted(self.hand[observer])), tuple(map(len, self.hand)), tuple(map(len, self.draw)),
            tuple(d[-1] if d else -1 for d in self.disc), tuple(map(len, self.disc)), tuple(self.slots),
            tuple(self.aside), tuple(self.area), len(trash), trash[-1] if trash else -1, len(self.xp),
            self.found, tuple(self.apool), revealed,
        )


def _fisher_yates(items: list, rng: RandomSource) -> list:
    """The documented shuffle: Fisher–Yates from the last position down (as engine.fair)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.randrange(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


_TASKS = {
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


def _codec(state: "MountainhomeState"):
    from .notation import Codec

    return Codec(state)


def _action_to_json(self: MountainhomeState, seat: int, action: Any) -> dict[str, Any]:
    return _codec(self).action_to_json(seat, action)


def _action_from_json(self: MountainhomeState, seat: int, data: Any) -> Any:
    return _codec(self).action_from_json(seat, data)


def _chance_to_json(self: MountainhomeState, outcome: Any) -> dict[str, Any]:
    return _codec(self).chance_to_json(outcome)


def _chance_from_json(self: MountainhomeState, data: Any) -> Any:
    return _codec(self).chance_from_json(data)


def _observation(self: MountainhomeState, seat: int | None) -> dict[str, Any]:
    from .view import observation

    return observation(self, seat)


MountainhomeState.action_to_json = _action_to_json  # type: ignore[method-assign]
MountainhomeState.action_from_json = _action_from_json  # type: ignore[method-assign]
MountainhomeState.chance_to_json = _chance_to_json  # type: ignore[method-assign]
MountainhomeState.chance_from_json = _chance_from_json  # type: ignore[method-assign]
MountainhomeState.observation = _observation  # type: ignore[method-assign]


def _redact_event(self: MountainhomeState, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """The record entry as ``viewer`` may see it (§20, §23.1); called on the state just before it.

    Hidden from everyone while the match runs: shuffle orders, pool selections, insert positions and
    Thorvald's bottom order.  Hidden from other seats: a seat's ``commit_bid`` (shown as
    ``{"do": "commit_bid", "sealed": true}``), its sealed ``trash`` choices, its Reorganisation
    put-back and Baldur order, and a declined reaction window (``{"sealed": true}``, no seat: the
    service should not list it at all, since others see nothing when a window is declined).
    """
    if "chance" in event:
        data = event["chance"]
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind in ("shuffle", "select", "bottom_order", "insert"):
            kept = {k: data[k] for k in ("kind", "pile", "pool", "card") if k in data}
            kept["sealed"] = True
            return {"chance": kept}
        return event
    seat = event.get("player")
    action = event.get("action")
    if seat == viewer or not isinstance(action, dict):
        return event
    verb = action.get("do")
    if verb in ("commit_bid", "trash"):
        return {"player": seat, "action": {"do": verb, "sealed": True}}
    if self.pk in (P_KARINA, P_LAGERTHA) and verb == "pass":
        return {"sealed": True}
    if verb == "choose" and self.pk == P_CHOOSE and self.pdata and self.pdata[0] in (C_REORG_PUT, C_BALDUR):
        return {"player": seat, "action": {"do": "choose", "sealed": True}}
    return event


MountainhomeState.redact_event = _redact_event  # type: ignore[attr-defined]
