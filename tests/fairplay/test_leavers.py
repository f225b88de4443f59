"""3-4 player leavers (a bot plays on), queue entries of closed pages, and which rated games rate."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from django.utils import timezone

from games import selectors, services
from games.fairplay import leavers, presence
from games.models import Event, Match, Seat
from games.ranking import matchmaking
from games.ranking.models import QueueEntry, RatingChange
from games.verify import _Failure, _verify_leaver, verify_match
from tests.ranking.helpers import everyone_moves, move_once, new_match
from tests.service.helpers import finish_quickly

from .conftest import leave, wait_out

pytestmark = pytest.mark.django_db


def test_a_three_player_leaver_is_played_on_by_a_bot_ranks_last_and_everyone_is_rated(alice, bob, carol, short_grace):
    users = [alice, bob, carol]
    match = new_match(users)
    everyone_moves(match.pk, users)
    for seat in (0, 1):
        presence.seat_here(match.pk, seat, f"socket-{seat}")
    leave(match.pk, 2)
    assert leavers.abandon_absent(match.pk) == []  # not yet: within the grace period
    wait_out(short_grace)
    assert leavers.sweep()["seats_handed_to_bots"] == 1
    seat = Seat.objects.get(match=match, index=2)
    assert seat.replaced and seat.bot_level == "random" and seat.user_id == carol.pk
    types = list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))
    assert types[-2:] == ["abandoned", "seat_replaced"]
    assert Event.objects.get(match=match, type="abandoned").actor == "system"
    assert leavers.abandon_absent(match.pk) == []  # once only
    match = finish_quickly(selectors.get_match(match.pk), seed=5)
    assert match.result["ranking"][2] == 2 and match.result["forfeits"] == [2]
    assert verify_match(match).ok
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert len(changes) == 3 and changes[carol.pk].place == 2


def test_a_three_player_match_by_correspondence_never_hands_a_seat_over(alice, bob, carol, short_grace):
    users = [alice, bob, carol]
    match = new_match(users, time_control="3d")
    everyone_moves(match.pk, users)
    leave(match.pk, 2)
    wait_out(short_grace)
    assert leavers.abandon_absent(match.pk) == []
    assert not Seat.objects.get(match=match, index=2).replaced


def test_a_three_player_leaver_before_everyone_moved_aborts_the_match(alice, bob, carol, short_grace):
    match = new_match([alice, bob, carol])
    for seat in (0, 1):
        presence.seat_here(match.pk, seat, f"socket-{seat}")
    wait_out(short_grace)  # carol never came
    leavers.abandon_absent(match.pk)
    match = Match.objects.get(pk=match.pk)
    assert match.ending == "aborted" and match.result is None and verify_match(match).ok


def test_the_verifier_refuses_an_abandonment_inside_the_grace_period():
    started = timezone.now()
    before = [SimpleNamespace(type="started", payload={"players": 3}, timestamp=started)]
    row = SimpleNamespace(seq=9, type="abandoned", payload={"seat": 2, "grace": 60}, actor="system",
                          timestamp=started + timezone.timedelta(seconds=30))
    match = SimpleNamespace(players=3, time_control={"kind": "realtime", "base": 300, "increment": 10})
    state = SimpleNamespace(is_terminal=lambda: False)
    with pytest.raises(_Failure, match="acted less than 60 s before it"):
        _verify_leaver(row, before, state, [], match)
    row.timestamp = started + timezone.timedelta(seconds=61)
    forfeits: list[int] = []
    assert _verify_leaver(row, before, state, forfeits, match) is False and forfeits == [2]
    claim = SimpleNamespace(seq=9, type="claimed", payload={"seat": 0, "absent": 1, "result": "win", "grace": 60},
                            actor="system", timestamp=row.timestamp)
    with pytest.raises(_Failure, match="a claim is a win or a draw of one seat of a 2-player match"):
        _verify_leaver(claim, before, state, [], match)


def test_a_queued_person_whose_last_page_closed_is_never_paired(alice, bob, carol, settings):
    settings.CAIRN_QUEUE_LEAVE_GRACE_SECONDS = 0
    presence.page_here(alice.pk, "alice-lobby")
    matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="5+10")
    presence.page_gone(alice.pk, "alice-lobby")
    wait_out(0)
    entry = matchmaking.join(user=bob, game_id="mountain-goats", players=2, time_control="5+10")
    assert entry.status == "waiting" and entry.match_id is None
    assert QueueEntry.objects.get(user=alice).status == "cancelled"
    # Somebody whose page closed before they joined (an API client now) is paired as before.
    presence.page_here(carol.pk, "carol-yesterday")
    presence.page_gone(carol.pk, "carol-yesterday")
    wait_out(0)
    assert matchmaking.join(user=carol, game_id="mountain-goats", players=2, time_control="5+10").match_id


def test_a_closed_page_ends_its_queue_entry_after_the_grace_period_unless_another_page_is_open(alice, bob, settings):
    settings.CAIRN_QUEUE_LEAVE_GRACE_SECONDS = 1
    for user in (alice, bob):
        presence.page_here(user.pk, f"{user.username}-lobby")
    presence.page_here(bob.pk, "bob-second-tab")
    matchmaking.join(user=alice, game_id="nanga-parbat", players=2, time_control="5+10", rated=False)
    matchmaking.join(user=bob, game_id="mountain-goats", players=2, time_control="5+10", rated=False)
    presence.page_gone(alice.pk, "alice-lobby")
    presence.page_gone(bob.pk, "bob-lobby")
    assert leavers.end_absent_queue_entries() == 0  # within the grace period
    wait_out(1)
    assert leavers.sweep()["queue_entries_ended"] == 1
    assert QueueEntry.objects.get(user=alice).status == "cancelled"
    assert QueueEntry.objects.get(user=bob).status == "waiting"


def test_a_rated_match_ended_while_a_seat_has_made_fewer_than_two_moves_changes_no_rating(alice, bob):
    match = new_match([alice, bob])
    everyone_moves(match.pk, [alice, bob], times=1)
    services.resign(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    assert match.ending == "resigned" and match.result["winners"] == [1]
    assert RatingChange.objects.filter(match=match).count() == 0


def test_a_seat_played_by_a_bot_does_not_count_its_moves_toward_the_two(alice, bob, carol, dave):
    users = [alice, bob, carol, dave]
    match = new_match(users)
    rng = random.Random(3)
    for _ in range(3):  # seats 0-2 move once, dave none yet
        move_once(match.pk, users, rng)
    everyone_moves(match.pk, users, times=1)
    services.resign(match_id=match.pk, user=dave)  # his seat's moves from now on are the bot's
    match = finish_quickly(selectors.get_match(match.pk), seed=1)
    assert match.status == "finished" and match.ending == "normal"
    assert RatingChange.objects.filter(match=match).count() == 0
