"""``{{ name|bot_badge }}``: " BOT" after the name of a bot account (games.botapi), nothing otherwise."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.botapi.bots import bot_usernames

register = template.Library()

BADGE = ' <span class="bot-badge" title="a bot account: a program plays it">BOT</span>'


def badge(name: object) -> SafeString:
    return mark_safe(BADGE) if isinstance(name, str) and name in bot_usernames() else SafeString("")


register.filter("bot_badge", badge)
