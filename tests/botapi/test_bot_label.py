"""A bot account's name carries "BOT" on the pages and "bot_account" in its profile; a person's does not."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.botapi import bots

pytestmark = pytest.mark.django_db(databases="__all__")

BADGE = 'class="bot-badge"'


@pytest.fixture
def robo(make_user):
    user = make_user("robo")
    bots.make_bot(user)
    return user


def test_the_profile_says_bot_for_a_bot_account_only(robo, alice):
    client = Client()
    assert BADGE in client.get(reverse("frontend:ranked_profile", args=["robo"])).content.decode()
    assert BADGE not in client.get(reverse("frontend:ranked_profile", args=["alice"])).content.decode()
    assert client.get("/api/ranking/users/robo/").json()["bot_account"] is True
    assert client.get("/api/ranking/users/alice/").json()["bot_account"] is False


def test_the_lobby_and_the_match_page_say_bot_after_the_bots_name(robo, alice):
    waiting = services.create_match(user=robo, game_id="mountain-goats", seats=[{"human": True}, {"human": True}])
    lobby = Client().get("/").content.decode()
    assert "robo" in lobby and BADGE in lobby
    services.join_match(match_id=waiting.pk, user=alice)
    page = Client().get(f"/matches/{waiting.pk}/").content.decode()
    legend = page[page.index('class="seat-legend"'):]
    legend = legend[:legend.index("</ul>")]
    assert legend.count(BADGE) == 1 and legend.index("robo") < legend.index(BADGE)
