"""Mountainhome words: paraphrased card effects (rules file §2), labels, prompts and the turn's steps.

Facts (names, costs, VP, values) come from the engine's card data through
``engine.games.mountainhome.facts``; only the wording lives here.
"""

from __future__ import annotations

# Paraphrased effects (rules file §2); facts like steps, VP and values are added from the data.
TEXT: dict[str, str] = {
    "hoard": "Trash it from your hand: draw 1 card and gain 3 resources of one type you name. Usable in your action step and in resource windows.",
    "labourer": "Put to work: gain 1 R, 1 S or 1 B.",
    "ymir": "Put to work: gain 3 B, or your Breweries produce double this turn.",
    "kartok": "Put to work: gain 3 R, or your Quarries produce double this turn.",
    "didi": "Put to work: gain 2 S, or your Mines produce double this turn.",
    "baldur": "Put to work: secretly look at the top 5 exploration cards and reorder them; or explore 5 times, then shuffle Baldur into the exploration pile.",
    "karina": "Reaction: when an opponent puts a dwarf to work, discard Karina (from hand or town) to cancel that use.",
    "lagertha": "Reaction: when a negative effect would hit you, discard Lagertha (from hand or town) to be spared.",
    "loki": "On Bid: name another player; you make their trash choices in this bid.",
    "marg": "Put to work: complete up to two construction steps (one building twice, or two buildings), paying both.",
    "ori": "Put to work: draw 2. On Bid: the top two cards of your draw pile join your bid pool.",
    "tapfa": "On Bid: your printed-Rocks cards count as Shinies of the same value in this bid.",
    "thorvald": "Put to work: turn over exploration cards until an Event shows; it goes back on top, the rest underneath in random order.",
    "clan_hall": "Tap: tuck any number of dwarves from your hand into the Hall. Dwarves there can be used as if in your hand.",
    "boat": "Tap: draw 1, then discard any 1 card from your hand.",
    "hut": "In a bid draw you may take 0–3 extra cards; after the bid, each extra card costs a random non-dwarf card from your hand, trashed.",
    "warehouse": "Tap: tuck at most one resource card from your hand into it. Cards there can be used as if in your hand.",
    "dungeon": "Tap and pay 2 S: put a card from your discard pile on top of your draw pile.",
    "pawnshop": "Tap and put a resource card in: gain its value in S (a card already inside goes to your discard). While upright, any player may buy the stored card in their action step for its value in S.",
    "cavern": "At the start of each action step, the player may place a dwarf here. Then roll for each of their dwarves here: 1–3 the dwarf goes home to the discard pile; 4–5 gain 4 S or 4 R; 6 one free construction step.",
    "fortress": "Mushroom Wine is worth 3 B. Whoever explores a dwarf may pay 5 B to lock it in here instead of bidding. In your action step, pay 3 B to move a dwarf from here onto the exploration pile.",
    "lair": "Once per turn in your action step: give up a dwarf from hand or Clan Hall (to your discard) to put a new Dragon Hoard on top of your draw pile.",
    "marketplace": "Once per turn in your action step: offer one card from your hand for one from another player's hand; they accept or decline.",
    "brewery": "Tap: gain 2 B.",
    "dwelling": "Tap and pay 1 B: store up to one dwarf from your hand (it holds one). Or discard the stored dwarf to complete a construction step, paying its cost (a dwarf use).",
    "mine": "Tap: gain 2 S.",
    "quarry": "Tap: gain 2 R.",
    "distillery": "+3 B to your bid value whenever booze counts. Tap and pay n B: gain 3n B.",
    "forge": "Tap and pay n S: gain 2n S.",
    "guild": "Tap and pay n R: gain 2n R.",
    "workshop": "Tap and pay 4 any: complete the next step of one of your unfinished buildings. Or tap: untap one of your other finished buildings.",
    "adventurers": "Unique project (at most one per player).",
    "garden": "Unique project (at most one per player): 1 VP per completed step, +2 when finished.",
    "tavern": "Unique project (at most one per player): 1 VP per completed step, +2 when finished.",
    "vault": "Unique project (at most one per player): 1 VP per completed step, +2 when finished.",
    "fools": "On Bid: pick one printed-Shinies card in any bid pool; it counts as Rocks in this bid.",
    "minecarts": "On Bid: every player cuts their bid down to at most three resource cards; the rest go back to their discard piles.",
    "mishap": "On Bid: after the bid, the non-dwarf cards left in the pools are dealt out at random among the discard piles. Dwarves go home.",
    "panda": "Play: rescue up to three cards from the trash (not actions or events) into any discard piles.",
    "piling": "Play: your next Rocks card this turn gives Shinies. On Bid: one printed-Rocks card in your pool counts as Shinies.",
    "politics": "On Bid: steal one non-dwarf card from an opponent's bid pool into yours for good. Trashed after the bid.",
    "wizard": "Play: pick a building in another town. Everyone bids Shinies for it (its owner gets +2); the winner takes it.",
    "ygg": "On Bid: no negative effect from another player affects you in this bid. Afterwards discarded if it stopped something, else trashed.",
    "charity": "Immediate: in turn order, each player reveals exploration cards until a resource card shows and takes it into hand; the rest go back and the pile is shuffled.",
    "party": "Immediate: a Booze bid. Each worst loser gains a Hangover; the winner may explore once.",
    "consultants": "While in play: when you buy a blueprint you may pay 4 S more to add a counter; the blueprint goes straight into your town with its first step done.",
    "dragon": "After each Prepare draw: discard a dwarf (adding a counter) or lose a completed construction step. On resolving, the Dragon Lair comes into play.",
    "goblins": "After each Prepare draw: add a counter, then tap a building, discard your best resource card, or pay 1 B.",
    "golems": "Whenever a player draws a printed-Rocks card, they trash it (adding a counter) or discard it.",
    "reorg": "After each Prepare draw: add a counter, draw up to 3, then put as many cards from your hand back on top of your draw pile.",
    "hangover": "No effect. −1 VP.",
}
for _kind in ("tobias", "erik", "alisa", "paulie"):
    TEXT[_kind] = TEXT["labourer"]
for _kind in ("ruby-hall", "emerald-hall", "amethyst-hall", "sapphire-hall"):
    TEXT[_kind] = TEXT["clan_hall"]

FAMILY_LABEL = {
    "treasure": "Treasure", "dwarf": "Dwarf", "building": "Building", "location": "Location",
    "action": "Action", "event": "Event", "status": "Status",
}
TYPE_LABEL = {
    "resource": "resource", "loot": "loot", "labourer": "labourer", "renowned": "renowned dwarf",
    "legendary": "legendary dwarf", "clan_hall": "Clan Hall", "unique_building": "unique building",
    "basic": "basic building", "advanced": "advanced building", "project": "unique project",
    "location": "Unique Location", "action": "action", "event_immediate": "immediate event",
    "event_recurring": "recurring event", "status": "status",
}

PROMPTS = {
    "setup_pick": "Pick your legendary dwarf: click its card.",
    "cavern_place": "You may place a dwarf in the Expansive Cavern: click it, or pass.",
    "action_step": "Your action step: click cards to play them, your buildings to build or tap, a shop card to buy; then end the action step.",
    "karina": "An opponent put a dwarf to work: click Karina to cancel it, or pass.",
    "lagertha": "A negative effect is about to hit you: click Lagertha to stop it, or pass.",
    "trade_answer": "A Marketplace offer: accept or decline.",
    "hut_draw": "Witch's Hut: how many extra cards do you draw for this bid?",
    "bid_commit": "Sealed bid: click the cards you commit, press Seal, then Ready.",
    "bid_trash": "Click the card to trash from your bid pool (sealed).",
    "waiting": "",
}
# The "you must …" line at the top of the board (board.must_line): what the viewer must do now, per
# prompt, and what a player being waited for is deciding (public: a reaction window never shows).
MUST = {
    "setup_pick": ("pick your legendary dwarf: click one of the highlighted cards",
                   "pick a legendary dwarf"),
    "cavern_place": ("decide whether a dwarf goes into the Expansive Cavern: click a highlighted dwarf, or pass",
                     "decide whether a dwarf goes into the Expansive Cavern"),
    "action_step": ("take your action step: play or use the highlighted cards (hand, buildings, shop), then end the action step",
                    "take their action step"),
    "karina": ("decide whether Karina cancels the dwarf an opponent put to work: click Karina, or pass", ""),
    "lagertha": ("decide whether Lagertha stops the negative effect about to hit you: click Lagertha, or pass", ""),
    "trade_answer": ("accept or decline the Marketplace offer", "answer a Marketplace offer"),
    "hut_draw": ("choose how many extra cards the Witch's Hut draws for this bid", "choose their Witch's Hut draw"),
    "bid_commit": ("commit cards to the sealed bid: click the highlighted cards, seal, then press Ready",
                   "commit cards to the sealed bid"),
    "bid_trash": ("trash one card from your bid pool (sealed): click it", "trash a card from their bid pool"),
}
CHOOSE_PROMPTS = {
    "boat": "Ferry Boat: discard one card from your hand.",
    "golems": "Rock Golems: trash the Rocks card you drew (adding a counter) or discard it.",
    "dragon": "Dragon Attack!: discard a dwarf or lose a construction step.",
    "goblins": "Goblin Raiding Party: tap a building, discard your best resource card, or pay 1 B.",
    "reorg_n": "Reorganisation: draw up to 3 cards.",
    "reorg_put": "Reorganisation: put cards back on top of your draw pile (first = top).",
    "cav_res": "Cavern roll 4–5: gain 4 Shinies or 4 Rocks.",
    "cav_build": "Cavern roll 6: choose the building that gets a free step.",
    "baldur": "Baldur: put the top exploration cards back in the order you like (first = top).",
    "fortress": "Dwarf Fortress: pay 5 B to lock the explored dwarf in the Fortress, or pass to bid for it.",
    "party": "Party: you won. Explore once?",
    "fools": "Fool's Gold: pick a Shinies card that counts as Rocks in this bid.",
    "piling": "Strategic Piling: pick a Rocks card in your pool that counts as Shinies.",
    "politics": "Cuttbeard Politics: steal a card from another bid pool.",
    "loki": "Loki: name the player whose trash choices you make.",
    "minecarts": "Faulty Minecarts: keep at most three resource cards in your bid pool.",
}
BID_KIND = {"dwarf": "Dwarf bid", "party": "Party (booze bid)", "wizard": "Wizard Auctioneer (shinies bid)"}

# Keys that make variants of one move (shown in a list); the rest name the move.
VARIANT_KEYS = ("pay", "sources", "want", "res", "n", "order", "keep", "cards", "steps", "moves",
                "consultants", "mode", "target", "give", "uses", "explore")
GROUP_LABEL = {
    "play_treasure": "Play", "dwarf_ability": "Put to work", "commit_dwarf": "Commit", "place_blueprint": "Place blueprint",
    "tap": "Tap", "dwelling_build": "Dwelling build", "pawn_buyback": "Buy back from", "hoard": "Use",
    "buy": "Buy", "play_action": "Play", "lair": "Dragon Lair: give up", "fortress_release": "Release from the Fortress",
    "trade_offer": "Offer", "end_action_step": "End the action step", "cavern_place": "Place in the Cavern",
    "choose_legendary": "Pick", "react": "React with", "pass": "Pass", "trade_accept": "Accept the trade",
    "trade_decline": "Decline the trade", "hut_draw": "Draw extra", "ready": "Ready", "trash": "Trash", "choose": "Choose",
    "commit_bid": "Commit",
}
SECTIONS = (
    ("Play cards", ("play_treasure", "hoard", "play_action")),
    ("Dwarves", ("dwarf_ability", "commit_dwarf", "dwelling_build", "lair", "cavern_place")),
    ("Buildings", ("tap", "place_blueprint", "pawn_buyback", "fortress_release")),
    ("Construction office", ("buy",)),
    ("Marketplace", ("trade_offer",)),
)



RES_SHORT = {"rocks": "R", "shinies": "S", "booze": "B", "any": "any"}
RES_NAME = {"rocks": "Rocks", "shinies": "Shinies", "booze": "Booze", "any": "any"}

# The turn (§4) and the bid (§9.2) as a step tracker; see board.tracker().
TURN_STEPS = (
    ("cavern", "Cavern", "Start of the action step: a dwarf may go into the Expansive Cavern, then its dice are rolled."),
    ("action", "Action step", "Play treasures for resources, put dwarves to work, build, tap buildings and buy one blueprint."),
    ("explore", "Explore", "The top card of the exploration pile is revealed: treasure to the explorer, an event happens, a dwarf is auctioned."),
    ("bid", "Bid", "A sealed auction: everyone draws 2, commits cards face down, all reveal, each bidder trashes one card, the highest value wins."),
    ("prepare", "Prepare", "The active player discards their hand and draws 6; recurring events hit after the draw."),
)
BID_STEPS = (
    ("draw", "Draw 2", "Every player draws 2 cards (Witch's Hut: up to 3 more)."),
    ("commit", "Seal", "Everyone secretly commits cards and resource uses, then declares Ready."),
    ("onbid", "Reveal & On Bid", "All commitments are revealed; On Bid texts resolve in turn order."),
    ("trash", "Trash", "Each bidder trashes one card from their pool, sealed; the trashed values break ties."),
    ("prize", "Prize", "The winner takes the prize; a Party's worst losers get Hangovers."),
)
CHOICE_STEP = {
    "boat": ("action", None), "baldur": ("action", None), "cav_res": ("cavern", None), "cav_build": ("cavern", None),
    "golems": (None, "draw"), "dragon": ("prepare", None), "goblins": ("prepare", None), "reorg_n": ("prepare", None),
    "reorg_put": ("prepare", None), "fortress": ("explore", None), "party": ("bid", "prize"), "fools": ("bid", "onbid"),
    "piling": ("bid", "onbid"), "politics": ("bid", "onbid"), "loki": ("bid", "onbid"), "minecarts": ("bid", "onbid"),
}
PROMPT_STEP = {
    "cavern_place": ("cavern", None), "action_step": ("action", None), "karina": ("action", None),
    "trade_answer": ("action", None), "hut_draw": ("bid", "draw"), "bid_commit": ("bid", "commit"),
    "on_bid_choice": ("bid", "onbid"), "bid_trash": ("bid", "trash"),
}

# Why a card cannot be used right now (shown on hover and focus).
BID_ONLY = "Works only when committed to a bid (its On Bid text); it cannot be played in the action step (MH-71)."
