"""``{% fairplay_presence match %}``: the presence panel of the match page (frontend/fairplay)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.models import Match

from ..fairplay import render_presence

register = template.Library()


@register.simple_tag(takes_context=True)
def fairplay_presence(context: template.Context, view: dict[str, Any]) -> SafeString:
    match = Match.objects.filter(pk=view["id"]).first()
    if match is None:
        return mark_safe("")
    return mark_safe(render_presence(match, context.get("user")))  # rendered by a template: autoescaped
