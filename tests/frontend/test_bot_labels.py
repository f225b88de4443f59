"""A bot has one clear label on a match page: its level, "bot", and its published rating for the game in view."""

from __future__ import annotations

import re

import pytest

import ai
from games import services

from .helpers import client_for

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("game", ["mountain-goats", "nanga-parbat", "mountainhome"])
def test_a_bot_shows_as_its_level_and_its_rating_for_the_game_in_view(alice, game):
    match = services.create_match(user=alice, game_id=game, seats=[{"human": True}, {"bot": "easy"}], options={})
    text = text_of(client_for(alice).get(f"/matches/{match.pk}/").content.decode())
    rating = ai.LEVELS["easy"]["rating"][game]
    assert f"Easy bot · {rating}" in text
    others = {r for g, r in ai.LEVELS["easy"]["rating"].items() if g != game}
    assert not any(f"Easy bot · {r}" in text for r in others)
    for muddle in ("(fixed)", "bot Easy ·", "Bot 2", "BOT", "(easy)"):
        assert muddle not in text, muddle


def test_two_bots_of_one_level_are_told_apart_by_their_seat(alice):
    match = services.create_match(user=alice, game_id="mountain-goats",
                                  seats=[{"human": True}, {"bot": "random"}, {"bot": "random"}], options={})
    text = text_of(client_for(alice).get(f"/matches/{match.pk}/").content.decode())
    assert "Random bot 2" in text and "Random bot 3" in text


def test_the_lobby_labels_each_level_with_the_chosen_games_rating(alice):
    content = client_for(alice).post("/matches/new/", {"game": "nanga-parbat", "players": "2", "seat_1": "nonsense"})
    text = content.content.decode()
    assert f">Easy bot · {ai.LEVELS['easy']['rating']['nanga-parbat']}</option>" in text
