"""Database ids from untrusted text: 1 to 2**63 - 1, or nothing.

An id out of that range used to reach the database and fail there
(``OverflowError`` on SQLite, ``DataError`` on PostgreSQL: a 500 where the
answer is a 404).
"""

from __future__ import annotations

MAX_ID = 2**63 - 1


def valid_id(value: object) -> int | None:
    """``value`` as a database id (1 to 2**63 - 1), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and not (0 < len(value) <= 19 and value.isascii() and value.isdigit()):
        return None
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return None
    return number if 1 <= number <= MAX_ID else None
