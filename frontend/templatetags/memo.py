"""``memo("template.html", name=value, ...)``: an include rendered once per distinct data.

The boards (Jinja2 templates, frontend/jinja.py) call it; the templates it renders are Jinja2 templates.

A board is mostly parts that the last move left as they were (five of Mountain
Goats' six mountains, say) and parts every viewer sees alike.  ``memo``
renders its template with *only* the values it is given, in a fresh context
(no request, no user, no context processors, nothing else of the page), so
its HTML is a function of those values alone; it keeps that HTML in a
bounded, process-local LRU keyed by the template's name and the values
serialised by :mod:`marshal` in its version 2 (C code, about six times
cheaper than canonical JSON, which took about 5% of a web process's time under
live play; later versions mark objects for back-references by their reference
counts, so equal data could give other bytes).  Equal
data then costs one render, however many moves, viewers and processes' renders
ask for it again.

Nothing hidden can cross between viewers through it: a viewer gets cached
HTML only for data equal to their own view's, and that HTML was made from
that data alone.  Two keys are equal only for equal data: :mod:`marshal`'s
bytes load back to the values they were made from, and they tell apart what
JSON would not (``1`` and ``"1"`` as dict keys, a tuple and a list).  Dicts
are keyed in their order, so equal data built in another order is a miss,
never a wrong hit.  Values must be plain data (dicts, lists, tuples, exact
strings, numbers, booleans, None); anything else, a string marked safe
(``mark_safe``, a ``str`` subclass) included, renders uncached.
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.template.loader import get_template


class _Renders:
    def __init__(self, size: int) -> None:
        self.size = size
        self.html: OrderedDict[tuple[str, bytes], str] = OrderedDict()
        self.lock = threading.Lock()  # renders run in several threads of a process (frontend.fanout's pool)
        self.stats = {"hits": 0, "misses": 0, "uncached": 0}

    def get(self, key: tuple[str, bytes]) -> str | None:
        with self.lock:
            html = self.html.get(key)
            if html is not None:
                self.html.move_to_end(key)
                self.stats["hits"] += 1
            return html

    def put(self, key: tuple[str, bytes], html: str) -> None:
        with self.lock:
            self.stats["misses"] += 1
            self.html[key] = html
            while len(self.html) > self.size:
                self.html.popitem(last=False)

    def uncached(self) -> None:
        with self.lock:
            self.stats["uncached"] += 1

    def clear(self) -> None:
        with self.lock:
            self.html.clear()
            self.stats = dict.fromkeys(self.stats, 0)


renders = _Renders(int(getattr(settings, "CAIRN_MEMO_RENDERS", 20000)))


def key_of(name: str, values: dict[str, Any]) -> tuple[str, bytes] | None:
    """The cache key of ``name`` rendered with ``values``, or None when a value is not plain data."""
    try:
        return name, marshal.dumps(values, 2)  # version 2: no back-references, whose flags follow refcounts
    except ValueError:  # marshal's "unmarshallable object": a class instance, a str subclass, ...
        return None


def render(name: str, values: dict[str, Any]) -> str:
    """Template ``name`` rendered with ``values`` only, from the cache when the same values were rendered."""
    key = key_of(name, values)
    if key is not None:
        html = renders.get(key)
        if html is not None:
            return html
    html = get_template(name, using="jinja2").render(values)  # a fresh context of these values only
    if key is None:
        renders.uncached()
    else:
        renders.put(key, html)
    return html
