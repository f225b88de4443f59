"""Takebacks: appended events that rewind the fold, never across a roll or another person's action."""

from __future__ import annotations

import random

import pytest

from engine.record import audit
from games import selectors, services
from games.errors import Conflict, Forbidden
from games.fairplay import takebacks
from games.models import Event, Match
from games.verify import verify_match
from tests.service.helpers import finish_quickly

pytestmark = pytest.mark.django_db


def play(match_id: int, user, seed: int = 0) -> None:
    """``user`` plays one random legal action (it must be their turn)."""
    match = selectors.get_match(match_id)
    state = selectors.load_state(match)
    seat = selectors.seat_of(match, user)
    actions = state.legal_actions(seat)
    action = state.action_to_json(seat, actions[random.Random(seed).randrange(len(actions))])
    services.submit_action(match_id=match_id, user=user, action=action, expected_seq=match.seq)


def bots_play(match_id: int) -> None:
    for _ in range(50):
        match = selectors.get_match(match_id)
        if services.play_bot_turn(match_id=match_id, seq=match.seq) != "played":
            return


def against_bot(user, game_id: str) -> Match:
    match = services.create_match(user=user, game_id=game_id, seats=[{"human": True}, {"bot": "random"}])
    bots_play(match.pk)
    return selectors.get_match(match.pk)


def state_json(match: Match) -> dict:
    return selectors.match_view(selectors.get_match(match.pk), None)["view"]


def test_against_a_bot_a_takeback_rewinds_to_before_your_action_and_verifies(alice):
    match = against_bot(alice, "nanga-parbat")
    before = state_json(match)
    seq = match.seq
    play(match.pk, alice)
    bots_play(match.pk)
    takebacks.take_back(match_id=match.pk, user=alice)
    match = selectors.get_match(match.pk)
    assert state_json(match) == before  # the position before the action
    taken = Event.objects.get(match=match, type="takeback")
    assert taken.payload == {"seat": 0, "from": seq + 1, "accepted_by": None}
    assert Event.objects.filter(match=match, seq__gt=seq, seq__lt=taken.seq).exists()  # nothing removed
    assert verify_match(match).ok
    play(match.pk, alice, seed=5)  # and play on from there
    finished = finish_quickly(selectors.get_match(match.pk), seed=2)
    assert verify_match(finished).ok
    verdict = audit(selectors.record(finished, alice))
    assert verdict["ok"], verdict


def test_a_takeback_across_a_die_roll_is_refused_and_changes_nothing(alice):
    match = against_bot(alice, "mountain-goats")  # every climb is followed by the next roll
    if 0 not in selectors.load_state(match).to_move():
        pytest.skip("the bot moves first in this seed")
    play(match.pk, alice)
    before = selectors.get_match(match.pk).seq
    with pytest.raises(Conflict, match="die roll") as refused:
        takebacks.take_back(match_id=match.pk, user=alice)
    assert refused.value.code == "takeback_across_chance"
    assert selectors.get_match(match.pk).seq == before


def test_rated_matches_and_hidden_information_have_no_takebacks(alice, bob):
    hidden = against_bot(alice, "mountainhome")
    with pytest.raises(Conflict, match="hidden information"):
        takebacks.take_back(match_id=hidden.pk, user=alice)
    rated = services.create_match(user=alice, game_id="nanga-parbat", seats=[{"human": True}] * 2, rated=True,
                                  time_control="5+10")
    services.join_match(match_id=rated.pk, user=bob)
    with pytest.raises(Conflict, match="rated") as refused:
        takebacks.offer(match_id=rated.pk, user=alice)
    assert refused.value.code == "takeback_not_allowed"


def casual_pair(alice, bob) -> tuple[Match, object, object]:
    match = services.create_match(user=alice, game_id="nanga-parbat", seats=[{"human": True}] * 2)
    match = services.join_match(match_id=match.pk, user=bob)
    (first,) = selectors.load_state(match).to_move()
    mover, other = (alice, bob) if first == selectors.seat_of(match, alice) else (bob, alice)
    return match, mover, other


def test_against_a_person_the_opponent_must_accept(alice, bob, carol):
    match, mover, other = casual_pair(alice, bob)
    before = state_json(match)
    play(match.pk, mover)
    with pytest.raises(Conflict) as direct:
        takebacks.take_back(match_id=match.pk, user=mover)
    assert direct.value.code == "takeback_needs_acceptance"
    offer = takebacks.offer(match_id=match.pk, user=mover)
    with pytest.raises(Conflict) as twice:
        takebacks.offer(match_id=match.pk, user=mover)
    assert twice.value.code == "takeback_pending"
    with pytest.raises(Forbidden):
        takebacks.answer(match_id=match.pk, user=mover, accept=True)  # not your own offer
    with pytest.raises(Forbidden):
        takebacks.answer(match_id=match.pk, user=carol, accept=True)  # a spectator
    answered = takebacks.answer(match_id=match.pk, user=other, accept=True)
    assert answered.pk == offer.pk and answered.status == "accepted"
    match = selectors.get_match(match.pk)
    assert state_json(match) == before
    taken = Event.objects.get(match=match, type="takeback")
    assert taken.payload["accepted_by"] == selectors.seat_of(match, other)
    assert taken.actor == f"user:{other.pk}"
    assert verify_match(match).ok


def test_a_declined_or_lapsed_offer_takes_nothing_back(alice, bob):
    match, mover, other = casual_pair(alice, bob)
    play(match.pk, mover)
    takebacks.offer(match_id=match.pk, user=mover)
    assert takebacks.answer(match_id=match.pk, user=other, accept=False).status == "declined"
    assert not Event.objects.filter(match=match, type="takeback").exists()
    takebacks.offer(match_id=match.pk, user=mover)
    match = selectors.get_match(match.pk)
    state = selectors.load_state(match)
    if selectors.seat_of(match, mover) in state.to_move():  # the mover moves on: the offer lapses
        play(match.pk, mover, seed=3)
        with pytest.raises(Conflict) as lapsed:
            takebacks.answer(match_id=match.pk, user=other, accept=True)
        assert lapsed.value.code in ("takeback_lapsed", "takeback_across_player")


def test_a_takeback_across_another_persons_action_is_refused(alice, bob):
    match, mover, other = casual_pair(alice, bob)
    for step in range(40):  # play until the other person has acted after the mover
        match = selectors.get_match(match.pk)
        (seat,) = selectors.load_state(match).to_move()
        play(match.pk, mover if seat == selectors.seat_of(match, mover) else other, seed=step)
        if seat == selectors.seat_of(match, other):
            break
    with pytest.raises(Conflict) as refused:
        takebacks.offer(match_id=match.pk, user=mover)
    assert refused.value.code == "takeback_across_player"


def test_the_takeback_routes_answer_in_the_api_shape_and_are_in_the_schema(alice, bob, alice_api, bob_api, anon_api):
    match = against_bot(alice, "nanga-parbat")
    play(match.pk, alice)
    taken = alice_api.post(f"/api/matches/{match.pk}/takeback", format="json")
    assert taken.status_code == 200 and taken.json()["status"] == "taken_back"
    again = alice_api.post(f"/api/matches/{match.pk}/takeback", format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] in ("nothing_to_take_back", "takeback_across_chance")

    pair, mover, other = casual_pair(alice, bob)
    play(pair.pk, mover)
    mover_api, other_api = (alice_api, bob_api) if mover == alice else (bob_api, alice_api)
    offered = mover_api.post(f"/api/matches/{pair.pk}/takeback", format="json")
    assert offered.status_code == 201 and offered.json()["status"] == "pending"
    assert mover_api.post(f"/api/matches/{pair.pk}/takeback/accept").json()["error"]["code"] == "own_takeback_offer"
    accepted = other_api.post(f"/api/matches/{pair.pk}/takeback/accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert other_api.post(f"/api/matches/{pair.pk}/takeback/decline").status_code == 404
    assert anon_api.post(f"/api/matches/{pair.pk}/takeback").status_code in (401, 403)

    schema = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("takeback", "takeback/accept", "takeback/decline"):
        assert set(schema["paths"][f"/api/matches/{{match_id}}/{path}"]["post"]["responses"]) >= {"200", "409"}


def test_the_board_offers_a_takeback_and_says_why_one_is_refused(alice, bob):
    from django.test import Client

    client = Client()
    client.force_login(alice)
    goats = against_bot(alice, "mountain-goats")
    assert 'data-takeback="ask"' in client.get(f"/matches/{goats.pk}/presence/").content.decode()
    if 0 in selectors.load_state(goats).to_move():
        play(goats.pk, alice)
        refused = client.post(f"/matches/{goats.pk}/takeback/", HTTP_HX_REQUEST="true").content.decode()
        assert "die roll" in refused and 'class="field-error presence-error"' in refused
    pair, mover, other = casual_pair(alice, bob)
    play(pair.pk, mover)
    asker, answerer = Client(), Client()
    asker.force_login(mover)
    answerer.force_login(other)
    assert "Ask to take back" in asker.get(f"/matches/{pair.pk}/presence/").content.decode()
    assert "waiting for your opponent" in asker.post(f"/matches/{pair.pk}/takeback/").content.decode()
    panel = answerer.get(f"/matches/{pair.pk}/presence/").content.decode()
    assert f"{mover.username}</strong> asks to take back" in panel and 'data-takeback="accept"' in panel
    answerer.post(f"/matches/{pair.pk}/takeback/accept/")
    assert Event.objects.filter(match=pair, type="takeback").count() == 1
    assert "Takeback" not in Client().get(f"/matches/{pair.pk}/presence/").content.decode()  # spectators: none


def test_the_verifier_refuses_a_takeback_across_a_roll_or_another_persons_action(alice, bob):
    from types import SimpleNamespace

    from games.verify import _Failure, _verify_takeback

    match, mover, other = casual_pair(alice, bob)
    seat = selectors.seat_of(match, mover)
    state = selectors.load_state(match)

    def row(seq: int, type_: str, actor: str, **payload) -> SimpleNamespace:
        return SimpleNamespace(seq=seq, type=type_, actor=actor, payload=payload)

    own = row(1, "action", f"user:{mover.pk}", player=seat, action={})
    takeback = row(3, "takeback", f"user:{other.pk}", seat=seat, **{"from": 1, "accepted_by": 1 - seat})
    for between in (row(2, "chance", "system", chance=[1]), row(2, "action", f"user:{other.pk}", player=1 - seat)):
        with pytest.raises(_Failure, match="is never taken back"):
            _verify_takeback(takeback, [own, between, takeback], match, state)
    bot_reply = row(2, "action", "bot:easy", player=1 - seat)
    _verify_takeback(takeback, [own, bot_reply, takeback], match, state)  # (the rule; seats aside)
    unaccepted = row(3, "takeback", f"user:{mover.pk}", seat=seat, **{"from": 1, "accepted_by": None})
    with pytest.raises(_Failure, match="needs that person's acceptance"):
        _verify_takeback(unaccepted, [own, bot_reply, unaccepted], match, state)
