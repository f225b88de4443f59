"""The Jinja2 environment of the live match fragment.

The match fragment (``frontend/jinja2/frontend/match_live.html``), the boards and
their parts are rendered on every move for every seat, so they are Jinja2
templates, through Django's own ``Jinja2`` backend (settings ``TEMPLATES``):
both seats' renders of a position took 0.43-0.63 of the time of the same
templates in Django's language (docs/PERFORMANCE.md).  The pages around them stay Django templates
and include them with ``{% jinja "name" %}`` (``frontend/templatetags/jinja.py``).

The templates only format: they get the same plain data as before
(``frontend.live.match_context``, the presenters).  What Django's tags and
filters did is here as globals and filters:

* ``url(name, *args)``, ``static(path)``;
* ``memo(name, **values)``: a part rendered once per distinct data (``frontend/templatetags/memo.py``);
* ``mh_card``, ``mh_face``, ``mh_res``: the Mountainhome card tags;
* ``ranking_match_panel(match)``, ``clock_text(seconds)``: ranked play's panel;
* ``table_rematch(match)``: the rematch card (a Django template: it is drawn only
  when a match is over);
* filters ``add``, ``pluralize``, ``floatformat``, ``capfirst``, ``truncatewords`` (Django's own).

Missing values render as nothing, as in Django's templates (``ChainableUndefined``);
autoescaping is on (Django's backend turns it on), and values Django marked safe stay safe.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.template import TemplateDoesNotExist, defaultfilters, engines
from django.template.defaultfilters import capfirst, floatformat, pluralize, truncatewords
from django.templatetags.static import static
from django.urls import reverse
from jinja2 import ChainableUndefined, Environment, Undefined, pass_context
from markupsafe import Markup

from .templatetags import memo as memo_parts
from .templatetags import mountainhome
from .templatetags.bots import badge as bot_badge


class CairnEnvironment(Environment):
    """Jinja2 with Django's order of lookup for ``a.b``: a dict's key first, then an attribute.

    Jinja2 tries the attribute first, so ``card.items`` would be the dict's method, and it pays for
    an ``AttributeError`` on every key of the presenters' plain data."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def add(value: Any, arg: Any) -> Any:
    """Django's ``add``: whole numbers (``20.0|add(10)`` is 30), else ``+``, else nothing; a missing
    value is nothing, as in Django's templates."""
    return defaultfilters.add("" if isinstance(value, Undefined) else value, "" if isinstance(arg, Undefined) else arg)


@functools.lru_cache(maxsize=4096)
def url(name: str, *args: Any) -> str:
    """``{% url name *args %}``; remembered, as a board names the same few URLs on every render."""
    return reverse(name, args=args)


def memo(name: str, **values: Any) -> Markup:
    return Markup(memo_parts.render(name, values))


@pass_context
def mh_card(context: Any, c: dict[str, Any], mini: bool = False) -> Markup:
    return Markup(mountainhome.card(context, c, mini))


@pass_context
def ranking_match_panel(context: Any, view: dict[str, Any]) -> Markup:
    from .templatetags import ranking

    data = ranking.match_panel_context(context.get("ranked"), view, context.get("csrf_token"))
    # Through memo: a seat's panel is as it was after most moves (no clock, or none running for it).
    return Markup(memo_parts.render(ranking.MATCH_PANEL, data))


def clock_text(seconds: float | None) -> str:
    from .templatetags import ranking

    return ranking.clock_text(seconds)


@pass_context
def table_rematch(context: Any, view: dict[str, Any]) -> Markup:
    from django.template.loader import render_to_string

    from .templatetags import table

    data = table.rematch_data(view, context.get("csrf_token"))
    return Markup(render_to_string(table.REMATCH, data)) if data else Markup("")


def select_template(name: str | list[str]) -> Any:
    """The first of the named templates that exists (Django's ``select_template``, of this engine only)."""
    engine = engines["jinja2"]
    names = [name] if isinstance(name, str) else list(name)
    for candidate in names[:-1]:
        try:
            return engine.get_template(candidate)
        except TemplateDoesNotExist:
            continue
    return engine.get_template(names[-1])


def environment(**options: Any) -> Environment:
    options["undefined"] = ChainableUndefined  # Django's backend would pick Undefined (DebugUndefined under DEBUG)
    env = CairnEnvironment(keep_trailing_newline=True, **options)
    env.globals.update({
        "url": url,
        "static": static,
        "memo": memo,
        "mh_card": mh_card,
        "mh_face": mountainhome.mh_face,  # SafeString: Jinja2 does not escape it again
        "mh_res": mountainhome.mh_res,
        "ranking_match_panel": ranking_match_panel,
        "clock_text": clock_text,
        "table_rematch": table_rematch,
        "deployment": settings.CAIRN_DEPLOYMENT,  # on every live fragment: a page takes only its own
    })
    env.filters.update({
        "add": add,  # not "+": Django's add makes whole numbers of floats
        "pluralize": pluralize,
        "floatformat": floatformat,
        "capfirst": capfirst,
        "truncatewords": truncatewords,
        "bot_badge": bot_badge,  # " BOT" after a bot account's name
    })
    return env
