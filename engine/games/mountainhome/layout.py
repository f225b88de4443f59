"""Card instances of one game (§23.2): built once per (player count, shop profile).

Instances are ints.  ``kinds[i]`` is the card kind (an index into ``cards.CARDS``),
``names[i]`` the ``id#k`` spelling and ``kind_numbers[i]`` the ``k``.  The instances are
listed in the §23.2 creation order, except that the eight legendaries (one
copy each, always ``#1``) come first so that every seat's pick can be named
before the start decks exist.  Hoards and Hangovers made during play are
appended by the state (``State.new_instance``).
"""

from __future__ import annotations

from functools import cache

from .tables import (
    EXP,
    HALL_BY_SEAT,
    KID,
    KINDEX,
    LABOURER_BY_SEAT,
    LEGENDARIES,
    SHOP,
    START_DECK,
)


class Layout:
    __slots__ = (
        "players",
        "profile",
        "kinds",
        "names",
        "kind_numbers",
        "index",
        "deck",
        "legendary_inst",
        "explore_resources",
        "renowned",
        "named_labourers",
        "generic_labourers",
        "event_pool",
        "recurring_pool",
        "fixed",
        "shop_tiers",
        "shop_tier_names",
        "nbase",
        "counts",
    )

    def __init__(self, players: int, profile: str) -> None:
        self.players = players
        self.profile = profile
        kinds: list[int] = []
        counts: dict[int, int] = {}

        def make(kind: int) -> int:
            counts[kind] = counts.get(kind, 0) + 1
            kinds.append(kind)
            kind_numbers.append(counts[kind])
            return len(kinds) - 1

        kind_numbers: list[int] = []
        self.legendary_inst = {kind: make(kind) for kind in LEGENDARIES}
        # 1. start decks, seat by seat, in start-deck order (the legendary is added at the pick)
        self.deck: list[list[int]] = []
        labourers: dict[int, int] = {}
        for seat in range(players):
            cards = []
            for entry in START_DECK:
                if entry == "LEGENDARY":
                    continue
                if entry == "CLAN_HALL":
                    cards.append(make(HALL_BY_SEAT[seat]))
                elif entry == "LABOURER":
                    inst = make(LABOURER_BY_SEAT[seat])
                    labourers[seat] = inst
                    cards.append(inst)
                else:
                    cards.append(make(KINDEX[entry]))
            self.deck.append(cards)
        # 2. exploration resources
        self.explore_resources = [make(KINDEX[cid]) for cid in EXP["resources_per_player"] for _ in range(players)]
        # 3. dwarf pool: (unpicked legendaries are made above) renowned, unused named labourers, generic
        self.renowned = [make(KINDEX[cid]) for cid in EXP["dwarf_pool"]["renowned"]]
        self.named_labourers = [make(LABOURER_BY_SEAT[seat]) for seat in range(players, 4)]
        pool_size = (8 - players) + len(self.renowned) + len(self.named_labourers)
        need = EXP["dwarves"][str(players)]
        topup = KINDEX[EXP["dwarf_pool"]["topup_card"]]
        self.generic_labourers = [make(topup) for _ in range(max(0, need - pool_size))]
        # 4. event pool, 5. recurring pool, 6. fixed
        self.event_pool = [make(KINDEX[cid]) for cid, n in EXP["event_pool"].items() for _ in range(n)]
        self.recurring_pool = [make(KINDEX[cid]) for cid in EXP["recurring_pool"]]
        self.fixed = [make(KINDEX[cid]) for cid in EXP["fixed"]]
        # 7. shop, tier by tier (top tier first)
        self.shop_tiers: list[list[int]] = []
        tiers = SHOP["profiles"][profile]["tiers_top_to_bottom"]
        for tier in tiers:
            copies = tier.get("copies_per_player", 0) * players or tier.get("copies", 0)
            self.shop_tiers.append([make(KINDEX[cid]) for cid in tier["cards"] for _ in range(copies)])
        if profile == "seed":
            self.shop_tier_names = ["shop"]
        else:
            self.shop_tier_names = ["shop:basic", "shop:advanced", "shop:project"]
        self.kinds = tuple(kinds)
        self.kind_numbers = tuple(kind_numbers)
        self.names = tuple(f"{KID[k]}#{n}" for k, n in zip(kinds, kind_numbers))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.nbase = len(kinds)
        self.counts = dict(counts)

    def dwarf_pool(self, picked: list[int]) -> list[int]:
        """The dwarf pool once the legendaries are known, in instance order (§3.3, MH-4)."""
        unpicked = [inst for kind, inst in self.legendary_inst.items() if kind not in picked]
        return sorted(unpicked + self.renowned + self.named_labourers + self.generic_labourers)


@cache
def layout(players: int, profile: str) -> Layout:
    return Layout(players, profile)
