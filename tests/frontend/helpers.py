"""Small helpers for the page and consumer tests."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.test import Client

from games import selectors, services
from games.models import Match

MG = "mountain-goats"


def client_for(user: Any) -> Client:
    """A test client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def two_player_match(alice: Any, bob: Any) -> Match:
    """An active Mountain Goats match between two people (alice created it, bob joined)."""
    match = services.create_match(user=alice, game_id=MG, seats=[{"human": True}, {"human": True}], options={})
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == "active"
    return match


def mover(match: Match, *users: Any) -> Any:
    """The user (among ``users``) whose seat is to move."""
    match.refresh_from_db()
    view = selectors.match_view(match, users[0])
    (seat,) = view["to_move"]
    for user in users:
        if selectors.seat_of(match, user) == seat:
            return user
    raise AssertionError(f"nobody of {users} holds seat {seat}")


def play_until(match: Match, users: tuple[Any, ...], done: Callable[[dict], bool], limit: int = 400) -> dict:
    """Climb nothing turn after turn until ``done(view of the player to move)`` holds."""
    for _ in range(limit):
        user = mover(match, *users)
        view = selectors.match_view(match, user)
        if done(view):
            return view
        services.submit_action(match_id=match.pk, user=user, action={"climb": []}, expected_seq=view["seq"])
    raise AssertionError("the wanted position did not come up")


def data_seq(html: str) -> int:
    found = re.search(r'id="match-live"[^>]*data-seq="(\d+)"', html)
    assert found, "no #match-live fragment with a data-seq"
    return int(found.group(1))


def climb_buttons(html: str) -> list[str]:
    """The JSON actions offered as climb buttons in a fragment."""
    return re.findall(r'name="action" value="([^"]*)"', html)
