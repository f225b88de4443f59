"""The one domain error hierarchy, shared by the REST API and the pages.

Each error carries an HTTP status and a short machine-readable ``code``; the
message is for people and always says what went wrong.  The API's exception
handler (games/api/errors.py) turns any of them into
``{"error": {"code": ..., "message": ...}}``.
"""

from __future__ import annotations

from typing import Any

# An error message quotes at most a short excerpt of what it was given: a 20 MB
# action must not come back in its 400 answer, nor fill a log.
MESSAGE_LIMIT = 400
EXCERPT_LIMIT = 80


def excerpt(value: Any, limit: int = EXCERPT_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters (with an ellipsis): how a message quotes input."""
    text = repr(value) if not isinstance(value, str) or len(value) <= limit * 4 else repr(value[: limit * 4])
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shorten(message: str, limit: int = MESSAGE_LIMIT) -> str:
    return message if len(message) <= limit else message[: limit - 1] + "…"


class DomainError(Exception):
    status = 400
    code = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        message = shorten(str(message))
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def as_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message}}


class BadRequest(DomainError):
    """Malformed or illegal input: 400."""

    status = 400
    code = "bad_request"


class Forbidden(DomainError):
    """Not allowed for this user (not your seat, not your turn): 403."""

    status = 403
    code = "forbidden"


class NotFound(DomainError):
    """No such match (or game): 404."""

    status = 404
    code = "not_found"


class Conflict(DomainError):
    """The match moved on (stale ``expected_seq``, seat taken, match over): 409."""

    status = 409
    code = "conflict"
