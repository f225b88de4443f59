"""Mountainhome through the service: each viewer gets only their own view (§20), bots play every decision.

The leak tests build a real match, drive it to a position with hidden
information in play (opening hands, a sealed bid commitment), and compare what
the API detail, the event listing, the record export and the live fragment
give one seat (or a spectator) against the *true* state's hidden cards.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

import ai
from engine import get_game
from frontend.live import render_match_fragment
from games import projection, selectors, services, store
from games.models import Match

pytestmark = pytest.mark.django_db(databases="__all__")

MH = "mountainhome"
SEED = bytes(range(32))


@pytest.fixture
def fixed_seed(monkeypatch):
    """Matches get a fixed seed, so the shuffles (and the positions the tests look for) repeat."""
    monkeypatch.setattr(services.secrets, "token_bytes", lambda n: SEED[:n])


@pytest.fixture
def db_alias(request):
    """The whole-match bot tests run on the default database only (they are long); the rest on every backend."""
    if "backend" in request.fixturenames:
        return request.getfixturevalue("backend")
    return "default"


def mh_match(users: list[Any], bots: tuple[str, ...] = ()) -> Match:
    seats = [{"human": True} for _ in users] + [{"bot": level} for level in bots]
    match = services.create_match(user=users[0], game_id=MH, seats=seats, options={})
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    return match


def _submit_random(match: Match, users: dict[int, Any], rng: random.Random, *, prefer=None) -> None:
    state = selectors.load_state(match)
    seat = sorted(state.to_move())[0]
    actions = [state.action_to_json(seat, a) for a in state.legal_actions(seat)]
    chosen = prefer(state, seat, actions) if prefer else None
    action = chosen if chosen is not None else actions[rng.randrange(len(actions))]
    services.submit_action(match_id=match.pk, user=users[seat], action=action, expected_seq=match.seq)
    match.refresh_from_db()


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def publicly_named(match: Match, secret_owner: int) -> set[str]:
    """Every card name some public event names: everything but sealed chance entries and the owner's sealed acts."""
    named: set[str] = set()
    for row in store.load_rows(match.pk):
        payload = row.payload
        if row.type == "chance":
            if payload["chance"].get("kind") in ("shuffle", "select", "insert", "bottom_order"):
                continue
            named |= strings_in(payload)
        elif row.type == "action":
            if payload["player"] == secret_owner and payload["action"].get("do") in ("commit_bid", "trash", "choose"):
                continue
            named |= strings_in(payload)
    return named


def viewer_outputs(match: Match, user: Any, client: Any) -> dict[str, str]:
    """Everything the service sends this viewer about the match, as text."""
    base = f"/api/matches/{match.pk}"
    out = {}
    for name, url in (("detail", f"{base}/"), ("events", f"{base}/events/"), ("record", f"{base}/record")):
        response = client.get(url)
        assert response.status_code == 200, response.content
        out[name] = json.dumps(response.json())
    out["fragment"] = render_match_fragment(match, user)
    return out


def assert_none_shown(outputs: dict[str, str], secrets_: set[str], who: str) -> None:
    assert secrets_, "the test position holds no hidden card to look for"
    for name, text in outputs.items():
        for card in secrets_:
            # a card id is followed by a non-digit (so "booze-2#1" does not match inside "booze-2#10")
            pattern = f'{card}"'
            assert pattern not in text and f"{card}<" not in text and f"{card} " not in text, (
                f"{who}'s {name} shows the hidden card {card}"
            )


def test_opening_hands_reach_only_their_owner_in_detail_events_record_and_fragment(
    backend, fixed_seed, alice, bob, alice_api, bob_api, anon_api
):
    match = mh_match([alice, bob])
    users = {0: alice, 1: bob}
    rng = random.Random(1)
    while selectors.load_state(match).observation(None)["prompt"] == "setup_pick":
        _submit_random(match, users, rng)
    state = selectors.load_state(match)
    hands = {s: {state.names[c] for c in state.hand[s]} for s in (0, 1)}
    draws = {s: {state.names[c] for c in state.draw[s]} for s in (0, 1)}
    assert len(hands[0]) == len(hands[1]) == 6
    # Seat 0 sees its own hand, never seat 1's hand nor either draw pile's cards.
    alice_out = viewer_outputs(match, alice, alice_api)
    assert all(f'"{card}"' in alice_out["detail"] for card in hands[0])
    assert_none_shown(alice_out, hands[1] | draws[1] | draws[0], "seat 0")
    # ... and the same the other way round, and for a spectator.
    assert_none_shown(viewer_outputs(match, bob, bob_api), hands[0] | draws[0] | draws[1], "seat 1")
    from django.contrib.auth.models import AnonymousUser

    assert_none_shown(viewer_outputs(match, AnonymousUser(), anon_api), hands[0] | hands[1], "a spectator")
    # The setup shuffles are sealed in every listing while the match runs.
    for client in (alice_api, bob_api, anon_api):
        events = client.get(f"/api/matches/{match.pk}/events/").json()["events"]
        shuffles = [e["payload"]["chance"] for e in events if e["type"] == "chance"]
        assert shuffles and all("order" not in c and "cards" not in c for c in shuffles)


def _commit_something(state, seat, actions):
    """In a bid: commit one card (never 'ready' first), so a sealed commitment is pending."""
    if state.observation(seat)["prompt"] == "bid_commit":
        mine = state.observation(seat)["bid"]["my_commit"]
        if mine is None:
            return next((a for a in actions if a["do"] == "commit_bid" and a["cards"]), None)
        return {"do": "ready"} if seat == 0 else None
    return None


def test_a_sealed_commitment_shows_only_as_a_ready_flag_to_the_others(
    backend, fixed_seed, alice, bob, alice_api, bob_api, anon_api
):
    match = mh_match([alice, bob])
    users = {0: alice, 1: bob}
    rng = random.Random(7)
    for _ in range(3000):
        state = selectors.load_state(match)
        bid = state.bid
        if bid is not None and state.observation(None)["prompt"] == "bid_commit" and bid.commit[1] and bid.commit[1][0]:
            break
        _submit_random(match, users, rng, prefer=_commit_something)
    else:
        raise AssertionError("no bid with a sealed commitment by seat 1 came up")
    state = selectors.load_state(match)
    committed = {state.names[c] for c in state.bid.commit[1][0]}
    hidden = committed | {state.names[c] for c in state.hand[1]}
    hidden -= publicly_named(match, 1)
    hidden -= set(state.observation(None)["seats"][1]["hand_known"])
    alice_out = viewer_outputs(match, alice, alice_api)
    assert_none_shown(alice_out, hidden, "seat 0")
    detail = json.loads(alice_out["detail"])
    bid_view = detail["view"]["bid"]
    assert bid_view["pools"] is None and bid_view["values"] is None
    assert detail["view"]["engine"]["bid"]["commit"][1] is None
    # Who has committed is public, what is not: seat 1's entry is sealed in seat 0's listing.
    events = json.loads(alice_out["events"])["events"]
    commits = [e["payload"] for e in events if e["type"] == "action" and e["payload"]["player"] == 1
               and e["payload"]["action"]["do"] == "commit_bid"]
    assert commits and all(c["action"] == {"do": "commit_bid", "sealed": True} for c in commits)
    assert "ready" in alice_out["fragment"].lower()
    # The owner sees their own commitment.
    bob_detail = bob_api.get(f"/api/matches/{match.pk}/").json()
    assert set(bob_detail["view"]["bid"]["my_commit"]["cards"]) == committed
    from django.contrib.auth.models import AnonymousUser

    spectator = viewer_outputs(match, AnonymousUser(), anon_api)
    assert_none_shown(spectator, committed - publicly_named(match, 1), "a spectator")


def test_a_declined_reaction_window_is_left_out_of_the_other_seats_listings(backend, fixed_seed, alice, bob):
    match = mh_match([alice, bob])
    users = {0: alice, 1: bob}
    rng = random.Random(3)

    def karina_for_bob(state, seat, actions):
        if any(a["do"] == "choose_legendary" for a in actions):
            wanted = "karina" if seat == 1 else "marg"
            return next((a for a in actions if a.get("card") == wanted), None)
        if any(a["do"] == "react" for a in actions):
            return {"do": "pass"}
        if seat == 0:  # put dwarves to work whenever possible, so that Karina may answer
            return next((a for a in actions if a["do"] in ("dwarf_ability", "commit_dwarf")), None)
        return None

    declined_at = None
    for _ in range(4000):
        state = selectors.load_state(match)
        assert not state.is_terminal(), "the game ended before a reaction window came up"
        before = match.seq
        asked = state.observation(1)["prompt"] in ("karina", "lagertha")
        if asked:  # while the window is open, only bob's own view says he is to move
            assert selectors.match_view(match, bob)["to_move"] == [1]
            assert selectors.match_view(match, alice)["to_move"] == []
            assert selectors.match_view(match, AnonymousUser())["to_move"] == []
            assert selectors.match_summary(match, alice)["to_move"] == []
        _submit_random(match, users, rng, prefer=karina_for_bob)
        if asked:
            declined_at = before + 1
            break
    assert declined_at is not None, "no reaction window came up"
    seat0 = {e["seq"]: e for e in selectors.visible_events(match, alice)}
    seat1 = {e["seq"]: e for e in selectors.visible_events(match, bob)}
    assert seat1[declined_at]["payload"] == {"player": 1, "action": {"do": "pass"}}
    assert declined_at not in seat0  # §10.5: the others see nothing at all
    # ... but its link in the hash chain, so seat 0 still checks the chain link by link
    from .helpers import check_chain_as_a_viewer

    listing = selectors.visible_events(match, alice)
    links = check_chain_as_a_viewer(listing, match.pk)
    skipped = [link["seq"] for e in listing for link in e.get("skipped", [])]
    if skipped:  # the link comes with the next event seat 0 sees
        assert skipped == [declined_at] and links == match.seq
    else:  # nothing has followed the declined window yet
        assert declined_at == match.seq and links == match.seq - 1
    assert {"sealed": True} not in selectors.record(match, alice)["events"]


# ---------------------------------------------------------------------- bots


@pytest.mark.parametrize("players", [2, 4])  # whole 3-player games: tests/engine/test_mountainhome_conformance.py
def test_random_bots_play_whole_matches_through_the_service(fixed_seed, alice, monkeypatch, players):
    """Seat 0 plays the random bot's moves from its own view; every other seat is a bot run by play_bot_turn."""
    match = mh_match([alice], bots=("random",) * (players - 1))
    seen: list[tuple[int, dict]] = []
    real_choose = ai.choose_move

    def spy(game_id, observation, seat, **kwargs):
        seen.append((seat, observation))
        return real_choose(game_id, observation, seat, **kwargs)

    monkeypatch.setattr(ai, "choose_move", spy)
    rng = random.Random(players)
    several_bots_in_one_bid = False
    for _step in range(20000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        if len([s for s in match.to_move if s != 0]) >= 2:
            several_bots_in_one_bid = True
        if match.bot_to_move:
            assert services.play_bot_turn(match_id=match.pk, seq=match.seq) == "played"
        else:
            view = selectors.match_view(match, alice)
            assert view["to_move"] == [0]
            move = real_choose(MH, view["view"], 0, level="random", seed=rng.randrange(1 << 30))
            services.submit_action(match_id=match.pk, user=alice, action=move, expected_seq=match.seq)
    else:
        raise AssertionError("the match did not end")
    verbs = {row.payload["action"]["do"] for row in store.load_rows(match.pk) if row.type == "action"}
    assert {"commit_bid", "ready", "end_action_step"} <= verbs
    assert match.result and len(match.result["ranking"]) == players
    if players >= 3:
        assert several_bots_in_one_bid  # SIMULTANEOUS with several bots: each was played in turn
    # Bots only ever got their own seat's observation: no hand but theirs, no other sealed commitment.
    assert seen
    for seat, observation in seen:
        assert observation["viewer"] == seat
        for other in observation["seats"]:
            if other["seat"] != seat:
                assert other["hand"] is None
        bid = observation["engine"]["bid"]
        if bid is not None and bid["stage"] < 2:
            assert all(c is None for s, c in enumerate(bid["commit"]) if s != seat)


def test_a_bot_in_a_bid_never_sees_the_humans_sealed_commitment(fixed_seed, alice, monkeypatch):
    match = mh_match([alice], bots=("random",))
    seen: list[dict] = []
    real_choose = ai.choose_move

    def spy(game_id, observation, seat, **kwargs):
        seen.append(observation)
        return real_choose(game_id, observation, seat, **kwargs)

    monkeypatch.setattr(ai, "choose_move", spy)
    rng = random.Random(11)
    for _ in range(5000):
        match.refresh_from_db()
        state = selectors.load_state(match)
        assert match.status == Match.Status.ACTIVE, "no bid with both seats to commit came up"
        if state.observation(None)["prompt"] == "bid_commit" and set(state.to_move()) == {0, 1}:
            break
        if match.bot_to_move:
            services.play_bot_turn(match_id=match.pk, seq=match.seq)
        else:
            view = selectors.match_view(match, alice)
            move = real_choose(MH, view["view"], 0, level="random", seed=rng.randrange(1 << 30))
            services.submit_action(match_id=match.pk, user=alice, action=move, expected_seq=match.seq)
    # The human commits first (both seats are to move; the human's commitment is sealed).
    view = selectors.match_view(match, alice)
    commit = next(a for a in view["legal_actions"] if a["do"] == "commit_bid" and a["cards"])
    services.submit_action(match_id=match.pk, user=alice, action=commit, expected_seq=match.seq)
    match.refresh_from_db()
    seen.clear()
    assert match.bot_to_move
    assert services.play_bot_turn(match_id=match.pk, seq=match.seq) == "played"
    (observation,) = seen
    assert observation["viewer"] == 1
    assert observation["engine"]["bid"]["commit"][0] is None
    assert observation["bid"]["my_commit"] is None or observation["bid"]["my_commit"]["cards"] != commit["cards"]
    text = json.dumps(observation)
    assert all(f'"{card}"' not in text for card in commit["cards"]), "the human's committed cards reached the bot"


def test_redact_event_is_applied_in_the_aggregates_fold_only(fixed_seed, alice, bob, monkeypatch):
    """Redaction is decided in one place: the aggregate's fold asks every viewer once per engine event, and
    projecting the events for a viewer asks none again."""
    from games.aggregate import MatchAggregate

    match = mh_match([alice, bob])
    state_class = type(get_game(MH).new_initial_state(2, match.options))
    calls: list[int | None] = []
    real = state_class.redact_event

    def counting(self, event, viewer):
        calls.append(viewer)
        return real(self, event, viewer)

    monkeypatch.setattr(state_class, "redact_event", counting)
    rows = store.load_rows(match.pk)
    engine_rows = [r for r in rows if r.type in ("chance", "action")]
    aggregate = MatchAggregate.replay(match.pk, MH, 2, match.options, rows)
    assert calls == [None, 0, 1] * len(engine_rows)
    calls.clear()
    projection.project_events(MH, rows, 1, redaction=aggregate.shown)
    assert calls == []
    with pytest.raises(ValueError):
        projection.project_events(MH, rows, 1)  # no redactions given: refused, never replayed
