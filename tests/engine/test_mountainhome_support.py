"""Helpers (no tests) for Mountainhome scenario tests: games whose chance outcomes the test chooses.

Everything goes through the checked path (``apply_event``) with §23 record
notation, so the scenarios also exercise the notation.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from engine.core import CHANCE, TERMINAL
from engine.games.mountainhome import MissingRuleError, Mountainhome, tables
from engine.games.mountainhome.state import MountainhomeState

GAME = Mountainhome()


def ev(seat: int, do: str, **args: Any) -> dict[str, Any]:
    return {"player": seat, "action": {"do": do, **args}}


def act(state: MountainhomeState, seat: int, do: str, **args: Any) -> None:
    state.apply_event(ev(seat, do, **args))


def chance(state: MountainhomeState, data: dict[str, Any]) -> None:
    state.apply_event({"chance": data})


def _order_with_top(cards: list[str], top: Iterable[str]) -> list[str]:
    top = list(top)
    missing = [c for c in top if c not in cards]
    assert not missing, f"{missing} are not in the pile {cards}"
    return top + [c for c in cards if c not in top]


def new_game(
    players: int = 2,
    legends: list[str] | None = None,
    hands: dict[int, list[str]] | None = None,
    decks: dict[int, list[str]] | None = None,
    explore: list[str] | None = None,
    shop: list[str] | None = None,
    dwarves: list[str] | None = None,
    events: list[str] | None = None,
    recurring: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> MountainhomeState:
    """A game after setup with the given picks and pile tops.

    ``legends[s]`` is seat s's legendary; ``hands[s]`` the 6 opening cards (top of the
    shuffled deck); ``decks[s]`` a full top-first order; ``explore`` the top exploration
    cards; ``shop`` the top shop cards (slots 0, 1, 2 first); ``dwarves``/``events``/
    ``recurring`` instances that must be selected.
    """
    legends = legends or ["tapfa", "marg", "loki", "ori"][:players]
    state = GAME.new_initial_state(players, options or {})
    for seat in range(players - 1, -1, -1):
        act(state, seat, "choose_legendary", card=legends[seat])
    for seat in range(players):
        due = state.prompt_data
        cards = [state.names[c] for c in due[2]]
        if decks and seat in decks:
            order = _order_with_top(cards, decks[seat])
        else:
            order = _order_with_top(cards, (hands or {}).get(seat, []))
        chance(state, {"kind": "shuffle", "pile": f"draw:{seat}", "order": order})
    for pool, wanted in (("dwarves", dwarves), ("events", events), ("recurring", recurring)):
        due = state.prompt_data
        cards = [state.names[c] for c in due[2]]
        k = due[3]
        wanted = list(wanted or [])
        pick = wanted + [c for c in cards if c not in wanted][: k - len(wanted)]
        chance(state, {"kind": "select", "pool": pool, "cards": sorted(pick, key=state.layout.index.get)})
    cards = [state.names[c] for c in state.chance_cards()]
    chance(state, {"kind": "shuffle", "pile": "exploration", "order": _order_with_top(cards, explore or [])})
    while state.current_player() == CHANCE:
        due = state.prompt_data
        cards = [state.names[c] for c in state.chance_cards()]
        chance(state, {"kind": "shuffle", "pile": state._pile_name(due[1]), "order": _order_with_top(
            cards, [c for c in (shop or []) if c in cards])})
    return state


def settle(state: MountainhomeState) -> None:
    """Resolve pending reshuffles with the discard pile's own order (bottom card ends on top)."""
    while state.current_player() == CHANCE and state.prompt_data[0] == "shuffle":
        due = state.prompt_data
        chance(state, {"kind": "shuffle", "pile": state._pile_name(due[1]), "order": [state.names[c] for c in state.chance_cards()]})


def names(state: MountainhomeState, cards: Iterable[int]) -> list[str]:
    return [state.names[c] for c in cards]


def inst(state: MountainhomeState, name: str) -> int:
    return state.layout.index[name] if name in state.layout.index else state.names.index(name)


def play_random(state: MountainhomeState, rng: random.Random, max_events: int = 100_000) -> tuple[int, bool]:
    """Random legal play; (events applied, reached the end).  Stops at a MissingRuleError."""
    count = 0
    try:
        while state.current_player() != TERMINAL and count < max_events:
            if state.current_player() == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                seat = state.to_move()[0]
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.randrange(len(actions))])
            count += 1
    except MissingRuleError:
        return count, False
    return count, state.current_player() == TERMINAL


def give(state: MountainhomeState, seat: int, card: str, zone: str = "hand") -> int:
    """Test setup: move an existing instance into a zone of ``seat`` (from wherever it is)."""
    c = inst(state, card)
    for z in state.hand + state.draw + state.discard:
        if c in z:
            z.remove(c)
    if c in state.exploration:
        state.exploration.remove(c)
        state.exploration_blocks = [(None, len(state.exploration))]
    getattr(state, zone)[seat].append(c)
    for s in range(state.players):  # keep the public block knowledge of draw piles consistent
        draw = state.draw[s]
        state.draw_blocks[s] = [(tuple(sorted(draw)), len(draw))] if draw else []
    return c


def kind(card_id: str) -> int:
    return tables.KINDEX[card_id]


def put(state: MountainhomeState, name: str, zone: str, seat: int = 0, steps: int | None = None) -> int:
    """Test setup: move an instance (wherever it is, even out of the game) into a zone.

    zone: hand, draw (on top), discard, town (finished unless ``steps``), trash, area (the shared area),
    exploration (on top), fortress_dwarves, cavern (owner ``seat``).  Knowledge blocks are reset to plain ones.
    """
    c = inst(state, name)
    for z in state.hand + state.draw + state.discard + state.town + [state.exploration, state.shop_deck, state.trash, state.shared_area,
                                                                   state.fortress_dwarves, state.aside_cards]:
        while c in z:
            z.remove(c)
    for cards in state.stored.values():
        if c in cards:
            cards.remove(c)
    if c in state.shop_slots:
        state.shop_slots[state.shop_slots.index(c)] = -1
    if c in state.cavern_dwarves:
        i = state.cavern_dwarves.index(c)
        del state.cavern_dwarves[i]
        del state.cavern_owners[i]
    if zone in ("hand", "draw", "discard", "town"):
        getattr(state, zone)[seat].append(c)
        if zone == "town":
            total = len(tables.KSTEPS[state.kind[c]])
            state.steps_done[c] = total if steps is None else steps
            state.tapped[c] = steps is not None and steps < total
    elif zone == "area":
        state.shared_area.append(c)
        state.counters[c] = []
    elif zone == "cavern":
        state.cavern_dwarves.append(c)
        state.cavern_owners.append(seat)
    else:
        getattr(state, zone).append(c)
    for s in range(state.players):
        draw = state.draw[s]
        state.draw_blocks[s] = [(tuple(sorted(draw)), len(draw))] if draw else []
    state.exploration_blocks = [((), len(state.exploration))] if state.exploration else []
    return c


def store(state: MountainhomeState, building: str, card: str) -> None:
    b = inst(state, building)
    c = inst(state, card)
    for z in state.hand + state.draw + state.discard:
        if c in z:
            z.remove(c)
    state.stored.setdefault(b, []).append(c)


def at_action_step(players: int = 2, **kwargs: Any) -> MountainhomeState:
    """A fresh game at seat 0's first action step (see new_game for the arguments)."""
    return new_game(players, **kwargs)


def end_turn(state, seat: int) -> None:
    """``seat`` ends its action step, and every automatic step after it runs."""
    act(state, seat, "end_action_step")
    settle(state)
