"""Fair-play fixtures: a clean slate of presence keys, a one-second grace period, the instant bot."""

from __future__ import annotations

import time

import pytest


@pytest.fixture(autouse=True)
def _clean_presence():
    from games.fairplay import presence

    r = presence._redis()
    prefix = presence._prefix()
    for kind in ("presence", "seen", "pages", "pageseen", "presencewatch", "lag"):
        for key in r.scan_iter(f"{prefix}:{kind}:*"):
            r.delete(key)
    yield


@pytest.fixture
def short_grace(settings):
    """5+10's grace period of 60 s becomes 1 s."""
    settings.CAIRN_LEAVER_GRACE_FACTOR = 1 / 60
    settings.CAIRN_REPLACEMENT_BOT = "random"
    return 1


@pytest.fixture
def dave(make_user):
    return make_user("dave")


def leave(match_id: int, seat: int) -> None:
    """``seat``'s page was open, then closed."""
    from games.fairplay import presence

    presence.seat_here(match_id, seat, f"test-socket-{seat}")
    presence.seat_gone(match_id, seat, f"test-socket-{seat}")


def wait_out(grace: float) -> None:
    time.sleep(grace + 0.15)
