"""drf-spectacular hooks."""

from __future__ import annotations

from typing import Any

Endpoint = tuple[str, str, str, Any]


def drop_slash_aliases(endpoints: list[Endpoint], **kwargs: Any) -> list[Endpoint]:
    """Each API route is also served with/without its trailing slash (games/api/urls.py);
    the schema lists only the spelling the API documents (the first one registered)."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for path, path_regex, method, callback in endpoints:
        key = (path.rstrip("/"), method)
        if key in seen:
            continue
        seen.add(key)
        kept.append((path, path_regex, method, callback))
    return kept
