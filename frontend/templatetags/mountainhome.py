"""The Mountainhome table's drawing helpers: a resource symbol with its count, a card's face, a card.

The boards (Jinja2 templates) call them as ``mh_res(r)``, ``mh_face(c)`` and ``mh_card(c)``
(frontend/jinja.py).  A function instead of an include: the table draws hundreds of symbols, and an include per
symbol made a late-game render several times slower.  The HTML is built with
``format_html`` (escaped), as ``boards/mountainhome/res.html`` did.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from . import memo


def mh_res(r: dict[str, Any]) -> SafeString:
    """One resource symbol with its count. ``r`` = ``{"res", "amt", "name"}`` (cards.res_list)."""
    tail = (mark_safe('<span class="mh-any"> any</span>') if r["res"] == "any"
            else format_html('<span class="visually-hidden"> {}</span>', r["name"]))
    return format_html(
        '<span class="mh-res res-{}" title="{} {}"><span class="mh-ico" aria-hidden="true"></span>'
        '<span class="mh-amt">{}</span>{}</span>', r["res"], r["amt"], r["name"], r["amt"], tail,
    )


def _join(parts: list[SafeString]) -> SafeString:
    return SafeString("".join(parts))


def mh_face(c: dict[str, Any]) -> SafeString:
    """The printed face of a card (``presenters.mountainhome.cards.card``): cost or value in resource
    symbols, VP, name, type, construction steps, effect text and the last-move mark."""
    if c.get("price"):
        cost = _join([mark_safe('<span class="mh-price-label">buy</span>'), *(mh_res(r) for r in c["price"])])
    else:
        cost = _join([mh_res(r) for r in c.get("value") or ()])
    vp = format_html('<span class="mh-vp" title="Victory points">{}</span>', c["vp"]) if c.get("vp") else ""
    state = ""
    if c.get("finished"):
        state = " · finished" + (" · tapped" if c.get("tapped") else "")
    elif c.get("of"):
        state = f" · {c['built']}/{c['of']} built"
    parts = [
        format_html('<span class="mh-top"><span class="mh-cost">{}</span>{}</span>', cost, vp),
        format_html('<span class="mh-name">{}</span><span class="mh-type">{}{}</span>', c["short"], c["type_label"], state),
    ]
    if c.get("steps"):
        steps = []
        for s in c["steps"]:
            css = " done" if s.get("done") else " next" if s.get("next") else ""
            steps.append(format_html(
                '<span class="mh-step{}" title="Step {}{}"><span class="mh-sn">{}</span>{}</span>', css, s["n"],
                " (built)" if s.get("done") else "", "✓" if s.get("done") else f"S{s['n']}",
                _join([mh_res(r) for r in s["cost"]]),
            ))
        parts.append(format_html('<span class="mh-steps">{}</span>', _join(steps)))
    if c.get("text"):
        parts.append(format_html(
            '<span class="mh-text"><span class="mh-text-short" aria-hidden="true">{}</span>'
            '<span class="mh-text-full">{}</span></span>', c["text_short"], c["text"],
        ))
    recent = c.get("recent")
    if recent:
        player = recent.get("player")
        parts.append(format_html(
            '<span class="mh-new seat-{}" title="Changed since your last turn{}">{} new</span>',
            player["colour"] if player else "x", f" ({player['name']})" if player else "", player["number"] if player else "•",
        ))
    return _join(parts)


CARD = "frontend/boards/mountainhome/card.html"


def _acts(c: dict[str, Any]) -> bool:
    """Whether ``c`` (or a card stored in it) carries a move form, which names the seq and the move URL."""
    return bool(c.get("single") or c.get("menu")) or any(_acts(s) for s in c.get("stored") or ())


def card(context: Any, c: dict[str, Any], mini: bool = False) -> str:
    """One card on the table (``boards/mountainhome/card.html``), rendered through ``memo``; the boards
    call it as ``mh_card(c, mini=...)`` (frontend/jinja.py), ``context`` being the board's.

    The card is rendered from its own data only; a card that can act also from the match's seq
    and the move URL (its forms name them), so a card nobody can act on keeps its HTML from
    move to move and from viewer to viewer.  Data with anything but plain values (a
    card marked as recently changed by a player) renders uncached.
    """
    values: dict[str, Any] = {"c": c, "mini": bool(mini)}
    if _acts(c):
        match = context.get("match") or {}
        values["match"] = {"seq": match.get("seq", "") if isinstance(match, dict) else getattr(match, "seq", "")}
        values["move_url"] = context.get("move_url", "")
    return memo.render(CARD, values)
