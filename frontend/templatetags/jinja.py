"""``{% jinja "name" %}``: a Jinja2 template (frontend/jinja.py) drawn inside a Django page.

The match page and the replay page are Django templates (they extend ``base.html``); the
match fragment, the boards and their parts are Jinja2 templates, rendered on every move.
``{% jinja name %}`` renders the named template (or the first that exists of a
list of names) with the page's whole context and its request, as ``{% include %}`` would.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from ..jinja import select_template

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja(context: template.Context, name: str | list[str]) -> SafeString:
    return SafeString(select_template(name).render(context.flatten(), request=getattr(context, "request", None)))
