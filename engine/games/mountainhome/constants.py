"""Mountainhome's names for its numbers: prompt kinds, choices, verbs, tasks, piles and card kinds.

Every other module of the game imports its constants from here; this module imports only the
card tables.  The enums give each number a name (``Prompt.ACTION``, ``Task.BID_REVEAL``); the short
module-level aliases (``P_ACTION``, ``T_BID_REVEAL``) are the same objects, for the rules code.
"""

from __future__ import annotations

from enum import IntEnum

from . import tables

GAME_ID = "mountainhome"


class MissingRuleError(NotImplementedError):
    """Raised only by internal fall-throughs that no rule reaches (a bug guard, never a silent guess)."""


def missing_rule(what: str) -> MissingRuleError:
    return MissingRuleError(f"Mountainhome: {what} is not implemented yet")


# ------------------------------------------------------------------ prompt kinds (§23.5)

class Prompt(IntEnum):
    """Who decides next: the kind of the pending prompt (§23.5)."""

    NONE = 0
    CHANCE = 1
    PICK = 2
    CAVERN = 3
    ACTION = 4
    KARINA = 5
    LAGERTHA = 6
    TRADE = 7
    HUT = 8
    COMMIT = 9
    ONBID = 10
    TRASH = 11
    CHOOSE = 12
    OVER = 13


# Short aliases for the rules code (the hot paths read module globals).
(
    P_NONE, P_CHANCE, P_PICK, P_CAVERN, P_ACTION, P_KARINA, P_LAGERTHA, P_TRADE, P_HUT, P_COMMIT, P_ONBID,
    P_TRASH, P_CHOOSE, P_OVER,
) = Prompt

PROMPT_NAMES: dict[int, str] = {
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

class Choice(IntEnum):
    """What a ``choose`` prompt asks (the first item of its prompt data)."""

    BOAT = 1
    GOLEMS = 2
    DRAGON = 3
    GOBLINS = 4
    REORG_N = 5
    REORG_PUT = 6
    CAV_RES = 7
    CAV_BUILD = 8
    BALDUR = 9
    FORTRESS = 10
    PARTY = 11
    FOOLS = 12
    PILING = 13
    POLITICS = 14
    LOKI = 15
    MINECARTS = 16


# Short aliases for the rules code (the hot paths read module globals).
(
    C_BOAT, C_GOLEMS, C_DRAGON, C_GOBLINS, C_REORG_N, C_REORG_PUT, C_CAV_RES, C_CAV_BUILD, C_BALDUR,
    C_FORTRESS, C_PARTY, C_FOOLS, C_PILING, C_POLITICS, C_LOKI, C_MINECARTS,
) = Choice

# ------------------------------------------------------------------ action verbs (§23.4)

class Act(IntEnum):
    """The action verbs (§23.4), as the first item of an internal action tuple."""

    PICK = 0
    PLAY = 1
    DWARF = 2
    COMMIT = 3
    PLACE = 4
    TAP = 5
    DWELL = 6
    BUYBACK = 7
    HOARD = 8
    BUY = 9
    PLAYACT = 10
    LAIR = 11
    FREL = 12
    OFFER = 13
    END = 14
    CAVERN = 15
    PASS = 16
    REACT = 17
    TACCEPT = 18
    TDECLINE = 19
    HUT = 20
    BID = 21
    READY = 22
    TRASH = 23
    CHOOSE = 24


# Short aliases for the rules code (the hot paths read module globals).
(
    A_PICK, A_PLAY, A_DWARF, A_COMMIT, A_PLACE, A_TAP, A_DWELL, A_BUYBACK, A_HOARD, A_BUY, A_PLAYACT, A_LAIR,
    A_FREL, A_OFFER, A_END, A_CAVERN, A_PASS, A_REACT, A_TACCEPT, A_TDECLINE, A_HUT, A_BID, A_READY, A_TRASH,
    A_CHOOSE,
) = Act

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

class Task(IntEnum):
    """The tasks of the work stack (the first item of each task tuple)."""

    PICK = 0
    DECKS = 1
    SELECT = 2
    XSHUFFLE = 3
    SHOPSHUFFLE = 4
    OPENING = 5
    TURN = 6
    ACTION_START = 7
    ACTION = 8
    EXPLORE = 9
    PREPARE = 10
    AFTER_DRAW = 11
    END_TURN = 12
    DRAW = 13
    BID_DRAW = 14
    BID_COMMIT = 15
    BID_REVEAL = 16
    BID_TRASH = 17
    BID_WINNER = 18
    BID_CLEANUP = 19
    BID_PRIZE = 20
    DWARF_RESOLVE = 21
    FINISH_USE = 22
    BOAT_DISCARD = 23
    KARINA = 24
    INSERT = 25
    CHARITY = 26
    FORTRESS = 27
    CAVERN_ROLL = 28
    RESOLVE_CHECK = 29
    REORG_PUT = 30
    DAMAGE = 31
    HANGOVER = 32
    PARTY_EXPLORE = 33
    BID_END = 34
    HUT_TRASH = 35
    THREATEN = 36
    ONBID = 37
    ORI_TAKE = 38
    KEEP = 39
    CONV = 40
    LOKI = 41
    STEAL = 42
    PROTECT = 43
    NOP = 44
    WIZ_MOVE = 45
    PANDA_MOVE = 46


# Short aliases for the rules code (the hot paths read module globals).
(
    T_PICK, T_DECKS, T_SELECT, T_XSHUFFLE, T_SHOPSHUFFLE, T_OPENING, T_TURN, T_ACTION_START, T_ACTION,
    T_EXPLORE, T_PREPARE, T_AFTER_DRAW, T_END_TURN, T_DRAW, T_BID_DRAW, T_BID_COMMIT, T_BID_REVEAL,
    T_BID_TRASH, T_BID_WINNER, T_BID_CLEANUP, T_BID_PRIZE, T_DWARF_RESOLVE, T_FINISH_USE, T_BOAT_DISCARD,
    T_KARINA, T_INSERT, T_CHARITY, T_FORTRESS, T_CAVERN_ROLL, T_RESOLVE_CHECK, T_REORG_PUT, T_DAMAGE,
    T_HANGOVER, T_PARTY_EXPLORE, T_BID_END, T_HUT_TRASH, T_THREATEN, T_ONBID, T_ORI_TAKE, T_KEEP, T_CONV,
    T_LOKI, T_STEAL, T_PROTECT, T_NOP, T_WIZ_MOVE, T_PANDA_MOVE,
) = Task

# piles named in shuffle entries
PILE_EXPLORATION = 10
PILE_SHOP = 11  # + tier index for the tiered profile

# bid kinds
BID_DWARF, BID_PARTY, BID_WIZARD = 0, 1, 2
BID_KINDS = ("dwarf", "party", "wizard")

POOLS = ("dwarves", "events", "recurring")

# dwarf ability options
OPT_GAIN, OPT_DOUBLE = 0, 1

K = tables.KINDEX
K_KARINA = K["karina"]
K_LAGERTHA = K["lagertha"]
K_MARG = K["marg"]
K_ORI = K["ori"]
K_BALDUR = K["baldur"]
K_THORVALD = K["thorvald"]
K_HALL = frozenset(tables.HALL_BY_SEAT)
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
RECURRING = frozenset(k for k in range(tables.NK) if tables.KTYPE[k] in ("event_recurring", "location"))

ZERO = (0, 0, 0)

