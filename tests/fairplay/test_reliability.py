"""Completion rates and escalating waits before rated play, read from the match events."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.errors import Forbidden
from games.fairplay import reliability
from games.ranking import challenges, matchmaking
from tests.ranking.helpers import everyone_moves, new_match
from tests.service.helpers import finish_quickly

from .conftest import leave, wait_out

pytestmark = pytest.mark.django_db


def aborts(user, opponent, count: int) -> None:
    for _ in range(count):
        match = new_match([user, opponent])
        services.abort(match_id=match.pk, user=user)


def test_three_aborts_in_a_row_start_a_wait_before_rated_play_with_its_reason_and_end(alice, bob, alice_api):
    aborts(alice, bob, 2)
    assert reliability.current_wait(alice) is None  # two are forgiven
    aborts(alice, bob, 1)
    wait = reliability.current_wait(alice)
    latest = reliability.offences(alice)[0].at
    assert wait.until == latest + timedelta(minutes=15)
    assert wait.reason == "3 matches you aborted in the last 24 hours"
    with pytest.raises(Forbidden, match="you may play rated again at .*: 3 matches you aborted") as refused:
        matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="5+10")
    assert refused.value.code == "playban"
    answer = alice_api.post("/api/ranking/queue/", {"game": "mountain-goats", "players": 2, "time_control": "5+10"},
                            format="json")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "playban"
    assert "you may play rated again at" in answer.json()["error"]["message"]
    with pytest.raises(Forbidden):
        challenges.create(user=alice, opponent="bob", game_id="nanga-parbat", rated=True, time_control="5+10")
    casual = matchmaking.join(user=alice, game_id="mountain-goats", players=2, time_control="5+10", rated=False)
    assert casual.status == "waiting"  # casual play stays open
    assert reliability.current_wait(bob) is None  # the one aborted on is not to blame
    # the wait ends by itself
    assert reliability.current_wait(alice, now=latest + timedelta(minutes=15, seconds=1)) is None


def test_each_further_offence_doubles_the_wait(alice, bob):
    aborts(alice, bob, 5)
    wait = reliability.current_wait(alice)
    assert wait.until == reliability.offences(alice)[0].at + timedelta(hours=1)  # 15 min, 30 min, 1 h


def test_no_first_move_and_walk_aways_are_offences_and_lower_the_completion_rate(alice, bob, carol, short_grace):
    finish_quickly(new_match([alice, bob]), seed=1)  # completed by both
    silent = new_match([alice, bob])  # whoever is to move first never does
    (first,) = services.selectors.load_state(services.selectors.get_match(silent.pk)).to_move()
    assert services.check_timeout(silent.pk, now=timezone.now() + timedelta(days=1)) == "aborted"
    walked = new_match([alice, carol])
    everyone_moves(walked.pk, [alice, carol])
    leave(walked.pk, 0)
    wait_out(short_grace)
    from games.fairplay import leavers

    leavers.claim(match_id=walked.pk, user=carol, result="win")
    kinds = sorted(o.kind for o in reliability.offences(alice))
    assert kinds == sorted(["walk_away"] + (["no_first_move"] if first == 0 else []))  # alice holds seat 0
    assert [o.kind for o in reliability.offences(bob)] == ([] if first == 0 else ["no_first_move"])
    rate = reliability.completion(alice)
    assert rate["started"] == 3 and rate["completed"] == 3 - len(kinds)
    assert reliability.completion(carol) == {"started": 1, "completed": 1, "rate": 1.0, "shown": "100%"}


def test_the_completion_rate_is_shown_on_the_profile_and_beside_challenges_and_the_wait_to_its_person(
    alice, bob, alice_api
):
    aborts(alice, bob, 3)
    finish_quickly(new_match([alice, bob]), seed=2)
    profile = Client().get("/users/alice/").content.decode()
    assert "Completion rate: <strong class=\"rk-completion\">25%</strong>" in profile
    assert "You may play rated again" not in profile  # not to others
    own = Client()
    own.force_login(alice)
    assert "You may play rated again" in own.get("/users/alice/").content.decode()
    panel = own.get("/play/panel/").content.decode()
    assert "You may play rated again" in panel and "3 matches you aborted" in panel and ">25%<" in panel
    body = alice_api.get("/api/ranking/users/alice/").json()
    assert body["completion"]["shown"] == "25%" and body["rated_wait"]["offences"] == 3
    assert "rated_wait" not in Client().get("/api/ranking/users/alice/").json()
    challenge = challenges.create(user=bob, opponent="alice", game_id="nanga-parbat", rated=False,
                                  time_control="5+10")
    assert challenges.as_json(challenge)["completion"] == {"from": "100%", "to": "25%"}
    bob_panel = Client()
    bob_panel.force_login(bob)
    assert '<span class="rk-completion muted small"' in bob_panel.get("/play/panel/").content.decode()
