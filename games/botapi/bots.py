"""Bot accounts: who may become one, whom they may meet, and their daily game cap.

* A person turns a fresh account (no rated game played) into a bot account; it cannot be undone.
* A bot meets a person only if the person accepts bots (:class:`BotPreference`): by default in casual
  games and not in rated ones.  The matchmaking queue pairs people only: a bot plays by challenge.
* A bot starts at most ``BOT_DAILY_GAMES`` matches in a rolling 24 hours.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from .. import db
from ..errors import BadRequest, Conflict, DomainError, Forbidden
from ..models import Seat
from .models import BotAccount, BotPreference


class DailyCapReached(DomainError):
    status = 429
    code = "bot_daily_cap"


def is_bot(user: Any) -> bool:
    if user is None or not getattr(user, "pk", None):
        return False
    return BotAccount.objects.filter(user_id=user.pk).exists()


def bot_ids(user_ids: Any) -> set[int]:
    """Which of ``user_ids`` are bot accounts (one query)."""
    ids = [i for i in user_ids if i is not None]
    return set(BotAccount.objects.filter(user_id__in=ids).values_list("user_id", flat=True)) if ids else set()


def make_bot(user: Any) -> BotAccount:
    if Seat.objects.filter(user=user, match__rated=True).exists():
        raise Conflict("only a fresh account (no rated game played) can become a bot account", code="not_fresh")
    try:
        with transaction.atomic(using=db.alias()):
            account = BotAccount.objects.create(user=user)
    except IntegrityError:
        raise Conflict("this account is a bot account already", code="already_bot") from None
    forget_names()
    return account


def preference(user: Any) -> BotPreference:
    found = BotPreference.objects.filter(user_id=user.pk).first()
    return found if found is not None else BotPreference(user_id=user.pk)


def set_preference(user: Any, *, rated: Any = None, casual: Any = None) -> BotPreference:
    pref = preference(user)
    for name, value in (("rated", rated), ("casual", casual)):
        if value is not None:
            if not isinstance(value, bool):
                raise BadRequest(f"'{name}' must be true or false", code="bad_preference")
            setattr(pref, name, value)
    pref.save()
    return pref


def check_may_meet(challenger: Any, target: Any, *, rated: bool) -> None:
    """Refuse a challenge between a bot and a person who does not accept bots in such games."""
    bots = bot_ids([challenger.pk, target.pk])
    if not bots or len(bots) == 2:
        return
    person = target if challenger.pk in bots else challenger
    pref = preference(person)
    if not (pref.rated if rated else pref.casual):
        kind = "rated" if rated else "casual"
        raise Forbidden(f"{person.username} does not accept bots in {kind} games", code="bots_not_accepted")


def check_daily_cap(user: Any) -> None:
    """A bot account over its daily number of matches gets ``429 bot_daily_cap``."""
    if not is_bot(user):
        return
    cap = settings.CAIRN_BOT_DAILY_GAMES
    since = timezone.now() - timedelta(days=1)
    if Seat.objects.filter(user=user, match__created_at__gte=since).count() >= cap:
        raise DailyCapReached(f"{user.username} is a bot account and has started its {cap} matches of the "
                              "last 24 hours", code="bot_daily_cap")


def check_may_queue(user: Any) -> None:
    if is_bot(user):
        raise Forbidden("bot accounts play by challenge, not through the matchmaking queue", code="bot_not_queued")


_NAMES_TTL = 10.0  # seconds a process keeps the bot accounts' names (a new bot's label shows within them)
_names: tuple[float, frozenset[str]] = (0.0, frozenset())


def bot_usernames() -> frozenset[str]:
    """The bot accounts' usernames (few), read at most once every ``_NAMES_TTL`` seconds per process."""
    global _names
    now = time.monotonic()
    if now - _names[0] >= _NAMES_TTL:
        _names = (now, frozenset(BotAccount.objects.values_list("user__username", flat=True)))
    return _names[1]


def forget_names() -> None:
    """Read the names again at the next :func:`bot_usernames` (a new bot account, a test)."""
    global _names
    _names = (0.0, frozenset())


def check_may_join(match: Any, user: Any) -> None:
    """A bot account takes an open seat only beside people who accept bots in such a match, within its cap."""
    if not is_bot(user):
        return
    check_daily_cap(user)
    for seat in match.seats.all():
        if seat.user_id is not None and seat.user_id != user.pk:
            check_may_meet(user, seat.user, rated=bool(match.rated))
