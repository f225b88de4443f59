"""Ranked-play fixtures: one more named player, and the instant random bot for forfeited seats
(helpers to play matches through the services are in helpers.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def dave(make_user):
    return make_user("dave")


@pytest.fixture(autouse=True)
def _random_replacement_bot(settings):
    """Forfeited seats are played by the instant random bot in tests."""
    settings.CAIRN_REPLACEMENT_BOT = "random"
