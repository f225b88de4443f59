"""Analysis fixtures: a small search budget (the service is under test, not the search) and finished matches."""

from __future__ import annotations

import pytest

from ai import analysis as core
from ai.analysis import Budget


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    for game_id in list(core.BUDGETS):
        monkeypatch.setitem(core.BUDGETS, game_id, Budget(decision=30, played=15, luck=6))


@pytest.fixture
def finished(alice, bob):
    from tests.service.helpers import finish_quickly, two_humans

    return finish_quickly(two_humans(alice, bob), seed=21)
