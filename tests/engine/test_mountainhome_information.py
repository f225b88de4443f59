"""Mountainhome information (§20): observations hide exactly what they must.

The property test plays a random game to a random point, then builds a second
state that differs only in what ``viewer`` cannot know: another seat's hidden
cards (which of its hand ∪ draw cards are in hand, and the hand's order), the
order of unseen piles (every draw pile, the exploration pile, the shop deck,
within the public block structure), and which pool cards were selected into
the exploration pile but not seen yet.  The viewer's observation (and a
spectator's) must be identical for both states.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, TERMINAL, random_event
from engine.games.mountainhome import MissingRuleError
from engine.games.mountainhome.state import MountainhomeState

from .test_mountainhome_support import GAME


def advance_randomly(players: int, seed: int, steps: int) -> MountainhomeState:
    """Random play for ``steps`` events; stops (keeping a consistent state) before a missing rule."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(players, {"legendaries": "random"} if seed % 2 else {})
    for _ in range(steps):
        if state.current_player() == TERMINAL:
            break
        backup = state.clone()
        try:
            if state.current_player() == CHANCE:
                state.apply(CHANCE, state.sample_chance(rng))
            else:
                seat = state.to_move()[0]
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.randrange(len(actions))])
        except MissingRuleError:
            return backup
    return state


def _spans(blocks: list[tuple]) -> list[tuple[int, int, tuple | None]]:
    spans, start = [], 0
    for cands, count in blocks:
        spans.append((start, start + count, cands))
        start += count
    return spans


def _permute_spans(pile: list[int], blocks: list[tuple], rng: random.Random) -> None:
    for start, end, _ in _spans(blocks):
        part = pile[start:end]
        rng.shuffle(part)
        pile[start:end] = part


def perturb(state: MountainhomeState, viewer: int | None, rng: random.Random) -> MountainhomeState:
    """A state that differs from ``state`` only in what ``viewer`` cannot see."""
    other = state.clone()
    for j in range(other.players):
        draw = other.draw[j]
        _permute_spans(draw, other.draw_blocks[j], rng)  # no one sees a draw pile's order
        if j == viewer:
            continue
        hand = other.hand[j]
        for _ in range(3):  # swap hidden hand cards with draw cards their block allows
            free = [c for c in hand if c not in other.hand_known[j]]
            if not free or not draw:
                break
            h = rng.choice(free)
            spans = [s for s in _spans(other.draw_blocks[j]) if h in s[2]]
            if not spans:
                continue
            start, end, _ = rng.choice(spans)
            pos = rng.randrange(start, end)
            hand[hand.index(h)], draw[pos] = draw[pos], h
        rng.shuffle(hand)
    _permute_spans(other.exploration, other.exploration_blocks, rng)
    _permute_spans(other.shop_deck, other.shop_blocks, rng)
    # swap an unseen selected pool card in the exploration pile with an unselected one of its pool
    if len(other.selected) == 3 and other.exploration_blocks:
        located = {c for c in other.exploration}
        for z in other.hand + other.draw + other.discard + other.town:
            located.update(z)
        located.update(other.trash, other.shared_area, other.aside_cards, other.fortress_dwarves, other.cavern_dwarves)
        for b in other.stored.values():
            located.update(b)
        if other.bid is not None:
            for p in other.bid.pool:
                located.update(p)
        known = {c for k, _ in other.exploration_blocks for c in k}
        unknown_positions = [i for i, c in enumerate(other.exploration) if c not in known]
        lay = other.layout
        pools = {0: lay.dwarf_pool(other.legendaries), 1: lay.event_pool, 2: lay.recurring_pool}
        for pos in unknown_positions:
            card = other.exploration[pos]
            for p, members in pools.items():
                if card in members:
                    spare = [c for c in members if c not in located and c not in other.selected[p]]
                    if spare:
                        new = rng.choice(spare)
                        other.exploration[pos] = new
                        other.selected[p] = tuple(sorted((set(other.selected[p]) - {card}) | {new}))
                        located.add(new)
                    break
            else:
                continue
            break
    return other


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), steps=st.integers(0, 160), salt=st.integers(0, 1000))
def test_hidden_differences_give_identical_observations(players: int, seed: int, steps: int, salt: int) -> None:
    state = advance_randomly(players, seed, steps)
    rng = random.Random(salt)
    for viewer in [None, *range(players)]:
        other = perturb(state, viewer, rng)
        assert other.observation(viewer) == state.observation(viewer)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), steps=st.integers(0, 160), salt=st.integers(0, 1000))
def test_determinization_agrees_with_the_observation(players: int, seed: int, steps: int, salt: int) -> None:
    state = advance_randomly(players, seed, steps)
    for viewer in range(players):
        obs = state.observation(viewer)
        assert json.loads(json.dumps(obs)) == obs
        det = state.determinize(viewer, random.Random(salt))
        assert det.observation(viewer) == obs
        assert sorted(det.hand[viewer]) == sorted(state.hand[viewer])
        for j in range(players):
            assert sorted(det.hand[j] + det.draw[j]) == sorted(state.hand[j] + state.draw[j])
        assert sorted(det.exploration) != [] or not state.exploration


def test_the_perturbation_really_changes_hidden_things() -> None:
    """Guard against a vacuous property test: hidden parts do differ between the two states."""
    changed_hand = changed_pile = False
    for seed in range(20):
        state = advance_randomly(2, seed, 60)
        other = perturb(state, 0, random.Random(seed))
        changed_hand |= sorted(other.hand[1]) != sorted(state.hand[1])
        changed_pile |= other.exploration != state.exploration
    assert changed_hand and changed_pile


def test_an_observation_shows_only_the_viewers_hand() -> None:
    state = advance_randomly(3, 7, 40)
    for viewer in range(3):
        seats = state.observation(viewer)["seats"]
        for s, view in enumerate(seats):
            assert (view["hand"] is not None) == (s == viewer)
            assert view["hand_size"] == len(state.hand[s])
    spectator = state.observation(None)
    assert all(view["hand"] is None for view in spectator["seats"])
    assert spectator["engine"]["hand"] is None and spectator["engine"]["private"] is None


# ---------------------------------------------------------------- event listings (§23.1)


def _redacted_stream(players: int, seed: int, viewer):
    """Play a random game, returning (true events, redacted events for viewer)."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(players)
    events, shown = [], []
    while not state.is_terminal() and len(events) < 400:
        event = random_event(state, rng)
        shown.append(state.redact_event(event, viewer))
        events.append(event)
        state.apply_event(event)
    return events, shown


def test_event_listings_hide_orders_selections_and_other_seats_commitments() -> None:
    for seed in range(4):
        events, shown = _redacted_stream(2, seed, 0)
        kinds = set()
        for event, seen in zip(events, shown):
            if "chance" in event:
                kind = event["chance"]["kind"]
                kinds.add(kind)
                if kind in ("shuffle", "select", "bottom_order", "insert"):
                    assert seen["chance"]["sealed"] and "order" not in seen["chance"] and "cards" not in seen["chance"]
                    assert "position" not in seen["chance"]
                else:
                    assert seen == event
            elif event["player"] == 0:
                assert seen == event
            elif event["action"]["do"] in ("commit_bid", "trash"):
                assert seen == {"player": 1, "action": {"do": event["action"]["do"], "sealed": True}}
        assert {"shuffle", "select"} <= kinds


def test_a_spectator_sees_every_commitment_sealed() -> None:
    events, shown = _redacted_stream(3, 5, None)
    commits = [s for e, s in zip(events, shown) if "player" in e and e["action"]["do"] == "commit_bid"]
    assert commits and all(s["action"] == {"do": "commit_bid", "sealed": True} for s in commits)


def test_private_answers_are_sealed_in_other_seats_listings() -> None:
    from .test_mountainhome_support import act, new_game, put, settle

    state = new_game(2, explore=["shinies-2#3"], recurring=["reorg#1"])
    put(state, "reorg#1", "area")
    act(state, 0, "end_action_step")
    settle(state)
    act(state, 0, "choose", n=1)
    settle(state)
    put_back = {"player": 0, "action": {"do": "choose", "order": [state.names[state.hand[0][0]]]}}
    assert state.redact_event(put_back, 0) == put_back
    assert state.redact_event(put_back, 1) == {"player": 0, "action": {"do": "choose", "sealed": True}}
    assert state.redact_event(put_back, None) == {"player": 0, "action": {"do": "choose", "sealed": True}}


def test_a_declined_reaction_window_shows_nothing_about_who_declined() -> None:
    from .test_mountainhome_rules import e7_game
    from .test_mountainhome_support import act

    state = e7_game(lagertha=False)
    act(state, 1, "dwarf_ability", card="erik#1", res="rocks")
    declined = {"player": 0, "action": {"do": "pass"}}
    assert state.redact_event(declined, 1) == {"sealed": True}
    assert state.redact_event(declined, 0) == declined


# ---------------------------------------------------------------- what the search may see (ai/ismcts.py)

_SEALED_CHANCE = ("shuffle", "select", "insert", "bottom")


def _hidden_chance(state: MountainhomeState) -> bool:
    return state.prompt_data[0] in _SEALED_CHANCE or state.prompt_data[0] == "xshuffle"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), steps=st.integers(0, 200), salt=st.integers(0, 1000))
def test_two_determinizations_give_the_observer_the_same_views(players: int, seed: int, steps: int, salt: int) -> None:
    """``info_digest`` and ``action_view`` depend only on what the observer may know.

    Two determinizations of one observation (and a perturbed true state) differ in every hidden
    card; the digest must be equal, a hidden chance outcome must look the same whatever was drawn,
    and another seat's sealed choices must all look alike.
    """
    from engine.games.mountainhome.constants import A_BID, A_TRASH

    state = advance_randomly(players, seed, steps)
    for viewer in range(players):
        obs = state.observation(viewer)
        one = GAME.state_from_observation(obs, viewer, random.Random(salt))
        two = GAME.state_from_observation(obs, viewer, random.Random(salt + 1))
        other = perturb(state, viewer, random.Random(salt))
        digest = state.info_digest(viewer)
        assert one.info_digest(viewer) == two.info_digest(viewer) == other.info_digest(viewer) == digest
        player = state.current_player()
        if player == TERMINAL:
            continue
        if player == CHANCE:
            if _hidden_chance(state):
                views = {s.action_view(viewer, CHANCE, s.sample_chance(random.Random(salt + k)))
                         for k, s in enumerate((state, one, two, other))}
                assert len(views) == 1
            continue
        for seat in state.to_move():
            if seat == viewer:
                continue
            for det in (state, one, two, other):
                sealed = {det.action_view(viewer, seat, a) for a in det.legal_actions(seat) if a[0] in (A_BID, A_TRASH)}
                assert len(sealed) <= 1


def test_action_views_follow_the_event_listings() -> None:
    """An event is seen in full exactly when its listing for that seat is not redacted (§20, §23.1)."""
    from engine.games.mountainhome.constants import A_BID

    sealed_seen = public_seen = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.new_initial_state(3 if seed % 2 else 2)
        while not state.is_terminal() and state.actions_applied < 300:
            if state.current_player() == CHANCE:
                seat, action = CHANCE, state.sample_chance(rng)
                event = {"chance": state.chance_to_json(action)}
            else:
                seat = state.to_move()[0]
                actions = state.legal_actions(seat)
                action = actions[rng.randrange(len(actions))]
                event = {"player": seat, "action": state.action_to_json(seat, action)}
            for viewer in range(state.players):
                view = state.action_view(viewer, seat, action)
                if state.redact_event(event, viewer) == event:
                    assert view == action
                    public_seen += 1
                else:
                    assert view != action and len(view) <= 3
                    assert all(not isinstance(part, tuple) for part in view)  # no order, no commitment
                    sealed_seen += 1
                    if seat != CHANCE and action[0] == A_BID:
                        assert view == ("sealed", A_BID)
            state.apply(seat, action)
    assert sealed_seen and public_seen
