"""The API's one body parser: JSON, and only JSON a database and the services can hold.

Refused with a 400 (``malformed_json``), without echoing the body:

* nesting deeper than ``CAIRN_API_MAX_JSON_DEPTH`` (Python's parser raised
  ``RecursionError`` at some thousands of levels: a 500, even on
  ``/api/auth/register``);
* NUL characters (``\\u0000``) and lone surrogates (``\\ud800``) in any string or
  key: PostgreSQL refuses both in text and ``jsonb`` (a ``DataError``);
* ``NaN`` and ``Infinity``, which are not JSON (the event store's canonical
  JSON refuses them).

The body's size is limited before it is read (:mod:`games.api.middleware`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class MalformedJSON(ParseError):
    default_code = "malformed_json"


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def bad_text(text: str) -> str | None:
    """Why ``text`` cannot be stored as text, or None."""
    if "\x00" in text:
        return "contains a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "contains a lone surrogate (not valid Unicode)"
    return None


def check_tree(data: Any, max_depth: int) -> None:
    """Depth and text of parsed JSON, without recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth > max_depth:
                raise MalformedJSON(f"JSON nested deeper than {max_depth} levels")
            if isinstance(node, dict):
                for key, value in node.items():
                    problem = bad_text(key)
                    if problem:
                        raise MalformedJSON(f"a JSON key {problem}")
                    stack.append((value, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in node)
        elif isinstance(node, str):
            problem = bad_text(node)
            if problem:
                raise MalformedJSON(f"a JSON string {problem}")


class StrictJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            raw = stream.read() if stream is not None else b""
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            raise MalformedJSON(f"the body is not valid {encoding} text") from None
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except RecursionError:
            raise MalformedJSON(f"JSON nested deeper than {settings.CAIRN_API_MAX_JSON_DEPTH} levels") from None
        except ValueError as exc:
            raise MalformedJSON(f"the body is not JSON: {str(exc)[:120]}") from None
        check_tree(data, settings.CAIRN_API_MAX_JSON_DEPTH)
        return data
