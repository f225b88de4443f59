"""``POST /api/matches/{id}/claim``: the error shape for every refusal, the typed answer, the schema."""

from __future__ import annotations

import pytest

from games.models import Match
from tests.ranking.helpers import everyone_moves, new_match

from .conftest import leave, wait_out

pytestmark = pytest.mark.django_db


def claim(client, match_id, body):
    return client.post(f"/api/matches/{match_id}/claim", body, format="json")


def test_the_claim_route_refuses_with_the_reason_and_then_claims(alice, bob, alice_api, carol_api, anon_api,
                                                                 short_grace):
    match = new_match([alice, bob])
    everyone_moves(match.pk, [alice, bob])
    leave(match.pk, 1)

    early = claim(alice_api, match.pk, {"result": "win"})
    assert early.status_code == 409 and early.json()["error"]["code"] == "claim_too_early"
    assert "you may claim once they have been gone for 1 s" in early.json()["error"]["message"]
    wait_out(short_grace)
    for body in ({"result": "everything"}, {}, ["win"]):
        bad = claim(alice_api, match.pk, body)
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_result"
    stranger = claim(carol_api, match.pk, {"result": "win"})
    assert stranger.status_code == 403 and stranger.json()["error"]["code"] == "not_a_player"
    assert claim(anon_api, match.pk, {"result": "win"}).status_code in (401, 403)
    assert claim(alice_api, 987654321, {"result": "win"}).status_code == 404
    assert Match.objects.get(pk=match.pk).status == "active"

    won = claim(alice_api, match.pk, {"result": "win"})
    assert won.status_code == 200, won.content
    body = won.json()
    assert body["match"] == match.pk and body["status"] == "finished" and body["ending"] == "claimed_win"
    assert body["result"]["winners"] == [0] and body["seq"] == Match.objects.get(pk=match.pk).seq
    again = claim(alice_api, match.pk, {"result": "draw"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "match_finished"


def test_the_claim_route_is_in_the_openapi_schema_with_a_typed_answer(anon_api):
    schema = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    route = schema["paths"]["/api/matches/{match_id}/claim"]["post"]
    assert set(route["responses"]) >= {"200", "400", "403", "404", "409", "503"}
    answer = route["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(schema["components"]["schemas"][answer]["properties"]) == {"match", "status", "ending", "seq", "result"}
