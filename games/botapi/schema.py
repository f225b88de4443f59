"""The streams in the OpenAPI schema: plain Django async views, which drf-spectacular does not see by itself."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

_LINE = {"type": "object", "description": "one JSON object a line; an empty line is the keep-alive",
         "additionalProperties": True}
_ERROR = {"description": "refused", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
_AUTH: list[dict[str, list[str]]] = [{"tokenAuth": []}, {"cookieAuth": []}, {"bearerAuth": []}]


def _stream(summary: str, description: str, parameters: list[dict[str, Any]], codes: tuple[int, ...]) -> dict[str, Any]:
    return {"get": {
        "operationId": summary.replace(" ", "_"), "summary": summary, "description": description, "tags": ["stream"],
        "parameters": parameters, "security": _AUTH,
        "responses": {"200": {"description": "an NDJSON stream", "content": {"application/x-ndjson": {"schema": _LINE}}},
                      **{str(code): _ERROR for code in codes}},
    }}


def add_streams(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Add ``/api/stream/event`` and ``/api/stream/match/{match_id}``, and the Bearer scheme."""
    paths = result.setdefault("paths", {})
    paths["/api/stream/event"] = _stream(
        "stream events", "The account's events: challenge_received, challenge_cancelled, challenge_declined, "
        "challenge_expired, challenge_accepted, match_started, your_turn, match_finished, rematch_offered.",
        [], (401, 403, 429))
    paths["/api/stream/match/{match_id}"] = _stream(
        "stream match", "The match as the viewer may see it (the body of GET /api/matches/{id}/), then one line per "
        "change: {type: events, match, seq, status, to_move, legal_actions, clock, result, events}. Ends when the match ends.",
        [{"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}},
         {"name": "after", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0},
          "description": "resume: the events after this seq come next"}],
        (400, 401, 403, 404, 429))
    return result


class BearerScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # drf-spectacular's __init_subclass__
    """``Authorization: Bearer <token>`` in the schema's security schemes."""

    target_class = "games.botapi.tokens.BearerAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer",
                "description": "a personal access token (POST /api/account/tokens), held to its scopes"}
