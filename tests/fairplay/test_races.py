"""Claims racing each other and moves, on real database connections: one append wins, none is lost."""

from __future__ import annotations

import random

import pytest

from games import selectors, services
from games.errors import Conflict
from games.fairplay import leavers
from games.models import Event, Match
from games.verify import verify_match
from tests.ranking.helpers import everyone_moves, move_once, new_match
from tests.service.test_concurrency import run_in_threads

from .conftest import leave, wait_out

pytestmark = pytest.mark.django_db(databases="__all__", transaction=True)


def contiguous(match: Match) -> bool:
    seqs = list(Event.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    return seqs == list(range(1, match.seq + 1))


def test_ten_claims_at_once_land_exactly_one(alice, bob, short_grace):
    match = new_match([alice, bob])
    everyone_moves(match.pk, [alice, bob])
    leave(match.pk, 1)
    wait_out(short_grace)
    outcomes = run_in_threads(
        10, lambda i: leavers.claim(match_id=match.pk, user=alice, result="win" if i % 2 else "draw").pk)
    assert [o for o in outcomes if o[0] == "error"] == []
    assert len([o for o in outcomes if o[0] == "ok"]) == 1
    refused = [o for o in outcomes if o[0] == "conflict"]  # the match is over, or moved on under them
    assert len(refused) == 9 and {code for _, code in refused} <= {"match_finished", "stale_seq"}
    match = Match.objects.get(pk=match.pk)
    assert Event.objects.filter(match=match, type="claimed").count() == 1
    assert contiguous(match) and verify_match(match).ok


def test_a_claim_and_the_absent_players_move_at_once_never_lose_or_double_an_event(alice, bob, short_grace):
    match = new_match([alice, bob])
    everyone_moves(match.pk, [alice, bob])
    rng = random.Random(7)
    while 1 not in selectors.load_state(selectors.get_match(match.pk)).to_move():
        move_once(match.pk, [alice, bob], rng)  # bob's turn
    leave(match.pk, 1)
    wait_out(short_grace)
    match = selectors.get_match(match.pk)
    state = selectors.load_state(match)
    action = state.action_to_json(1, state.legal_actions(1)[0])
    seq = match.seq

    def either(i: int) -> str:
        if i == 0:
            leavers.claim(match_id=match.pk, user=alice, result="win")
            return "claim"
        services.submit_action(match_id=match.pk, user=bob, action=action, expected_seq=seq)
        return "move"

    outcomes = run_in_threads(2, either)
    assert [o for o in outcomes if o[0] == "error"] == []
    landed = [o[1] for o in outcomes if o[0] == "ok"]
    assert len(landed) == 1
    refused = [o[1] for o in outcomes if o[0] == "conflict"]
    match = Match.objects.get(pk=match.pk)
    assert contiguous(match) and verify_match(match).ok
    if landed == ["claim"]:
        assert refused in (["match_finished"], ["stale_seq"])
        assert Event.objects.filter(match=match, type="claimed").count() == 1 and match.seq == seq + 2
    else:  # bob moved first: the claim was decided on a stale position, or finds him back
        assert refused in (["claim_too_early"], ["stale_seq"])
        with pytest.raises(Conflict, match="you may claim once"):
            leavers.claim(match_id=match.pk, user=alice, result="win")
        assert not Event.objects.filter(match=match, type="claimed").exists()
        assert Event.objects.get(match=match, seq=seq + 1).actor == f"user:{bob.pk}"
