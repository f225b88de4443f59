"""Tournament fixtures: named players, and helpers that play every open board of a tournament to its end."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def players(make_user):
    """Eight people: p1 ... p8."""
    return [make_user(f"p{n}") for n in range(1, 9)]


@pytest.fixture(autouse=True)
def _random_replacement_bot(settings):
    settings.CAIRN_REPLACEMENT_BOT = "random"


def play_open_boards(tournament: Any, *, seed: int = 0) -> int:
    """Finish every board in play with random moves (bots' moves too); how many were finished."""
    from games.tournaments.models import Board
    from tests.service.helpers import finish_quickly

    done = 0
    for board in Board.objects.filter(tournament=tournament, finished_at__isnull=True, match__isnull=False):
        finish_quickly(board.match, seed=seed + board.pk)
        done += 1
    return done
