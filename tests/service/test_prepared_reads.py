"""The compiled hot reads (games/reads.py) give what Django's querysets give, on every backend."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.errors import NotFound
from games.models import Match, Seat
from games.reads import PreparedRead

pytestmark = pytest.mark.django_db(databases="__all__")


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.fixture
def ranked_match(backend):
    alice = User.objects.create_user("alice", password="pw-alice-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    match = services.create_match(
        user=alice, game_id="mountain-goats", seats=[{"human": True}, {"human": True}, {"bot": "easy"}],
        rated=False, time_control="5+10",
    )
    services.join_match(match_id=match.pk, user=bob)
    return match


def test_get_match_is_the_querysets_match(backend, ranked_match):
    want = Match.objects.select_related("created_by").get(pk=ranked_match.pk)
    want_seats = list(Seat.objects.select_related("user").filter(match=want).order_by("index"))
    with CaptureQueriesContext(connections[backend]) as queries:
        got = selectors.get_match(ranked_match.pk)
        seats = selectors.seats_of(got)
        creator = got.created_by
        users = [seat.user for seat in seats]
    assert len(queries) == 1
    assert _fields(got) == _fields(want)
    # JSON and time fields come converted, as Django's queryset converts them.
    assert isinstance(got.options, dict) and isinstance(got.to_move, list) and got.created_at.tzinfo is not None
    assert got.time_control == want.time_control and got.time_control  # a dict, not its JSON text
    assert _fields(creator) == _fields(want.created_by)
    assert [_fields(s) for s in seats] == [_fields(s) for s in want_seats]
    assert [u and _fields(u) for u in users] == [s.user and _fields(s.user) for s in want_seats]  # the bot: None
    assert all(seat.match is got for seat in seats)
    assert got._state.db == backend and not got._state.adding


def test_get_match_for_write_is_the_querysets(backend, ranked_match):
    match, seats = selectors.get_match_for_write(ranked_match.pk)
    want = list(Seat.objects.select_related("match", "user").filter(match_id=ranked_match.pk).order_by("index"))
    assert _fields(match) == _fields(want[0].match)
    assert [_fields(s) for s in seats] == [_fields(s) for s in want]
    assert all(seat.match is match for seat in seats)


def test_the_key_is_the_only_thing_that_changes(backend, ranked_match):
    other = services.create_match(user=ranked_match.created_by, game_id="nanga-parbat",
                                  seats=[{"human": True}, {"bot": "easy"}])
    assert selectors.get_match(other.pk).game_id == "nanga-parbat"
    assert selectors.get_match(ranked_match.pk).game_id == "mountain-goats"
    with pytest.raises(NotFound):
        selectors.get_match(other.pk + 1000)


def test_a_prefetch_or_a_second_parameter_is_refused(backend):
    with pytest.raises(ValueError):
        PreparedRead(lambda pk: Match.objects.prefetch_related("seats").filter(pk=pk)).rows(1, backend)
    with pytest.raises(ValueError):
        PreparedRead(lambda pk: Seat.objects.filter(match_id=pk) | Seat.objects.filter(match__created_by_id=pk)).rows(
            1, backend
        )
