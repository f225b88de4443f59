"""Chat: per match (a players' channel and a spectators' channel) and in the lobby.

Messages live in their own append-only table (:class:`ChatMessage`), never in a
match's event log, record or hash chain, and never reach a bot.  Who may write
where:

* ``players``: the humans seated in the match, unless a player turned it off
  (:func:`set_players_chat`, for ranked play).  Everyone who may open the
  match page may read it.
* ``spectators``: logged-in people without a seat.  Players may read it (or
  hide it in their page); spectators and players see it, nobody writes there
  for a seat.
* ``lobby``: every logged-in person.

After commit only ids travel over the channel layer (``{"type":
"table.message", "kind": "chat", "id": ...}`` to the match group, or to the
lobby group), and each receiving socket renders the message for its own user
(a muted author's message is never sent to the person who muted them).

A moderator's ``hide`` (games.accounts.moderation) is honoured by every reader
here (:func:`history`, :func:`visible_to`); its ``chat_hidden`` push removes the
message from the open pages.  A person a moderator muted cannot post.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.accounts import sanctions
from games.errors import BadRequest, Forbidden, NotFound
from games.models import Match, Seat

from . import push
from .models import ChatMessage, ChatMute, ChatReport, MatchChat

HISTORY = 50


def _require_user(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden("log in to chat", code="not_authenticated")


def _match(match_id: Any) -> Match:
    try:
        return Match.objects.get(pk=int(match_id))
    except (Match.DoesNotExist, TypeError, ValueError):
        raise NotFound(f"there is no match {match_id!r}", code="match_not_found") from None


def is_player(match: Match, user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Seat.objects.filter(match=match, user=user).exists()


def players_chat_enabled(match: Match) -> bool:
    return not MatchChat.objects.filter(match=match).exists()


def check_text(text: Any) -> str:
    """The message as stored: trimmed, non-empty, at most ``CAIRN_CHAT_MAX_LENGTH`` characters."""
    if not isinstance(text, str):
        raise BadRequest("the message must be text", code="bad_chat")
    text = text.strip()
    if not text:
        raise BadRequest("the message is empty", code="bad_chat")
    limit = settings.CAIRN_CHAT_MAX_LENGTH
    if len(text) > limit:
        raise BadRequest(f"the message is {len(text)} characters long; the limit is {limit}", code="chat_too_long")
    return str(text)


def _check_rate(user: Any) -> None:
    window = settings.CAIRN_CHAT_RATE_SECONDS
    since = timezone.now() - timedelta(seconds=window)
    sent = ChatMessage.objects.filter(author=user, created_at__gte=since).count()
    if sent >= settings.CAIRN_CHAT_RATE:
        raise BadRequest(
            f"slow down: at most {settings.CAIRN_CHAT_RATE} messages per {window} seconds", code="chat_rate_limited"
        )


def group_of(message: ChatMessage) -> str:
    return push.LOBBY_GROUP if message.match_id is None else push.match_group(message.match_id)


def post(*, user: Any, text: Any, match_id: Any = None, channel: str | None = None) -> ChatMessage:
    """Store one message and push it (after commit) to the match's or the lobby's sockets.

    ``match_id`` None: the lobby.  Otherwise ``channel`` defaults to the
    writer's own: ``players`` for a seated person, ``spectators`` for anyone else.
    """
    _require_user(user)
    sanctions.check_may_chat(user)  # a moderator's mute: 403 with the reason and the end
    text = check_text(text)
    if match_id is None:
        if channel not in (None, "lobby"):
            raise BadRequest(f"the lobby has one channel, 'lobby', not {channel!r}", code="bad_chat")
        match, channel = None, "lobby"
    else:
        match = _match(match_id)
        player = is_player(match, user)
        own = "players" if player else "spectators"
        channel = channel or own
        if channel not in ("players", "spectators"):
            raise BadRequest(f"a match's chat channel is 'players' or 'spectators', not {channel!r}", code="bad_chat")
        if channel != own:
            raise Forbidden(
                "only the players write in the players' chat" if channel == "players"
                else "players write in the players' chat, not the spectators'",
                code="wrong_chat_channel",
            )
        if channel == "players" and not players_chat_enabled(match):
            raise Forbidden("chat is turned off for this match", code="chat_off")
    with transaction.atomic():
        _check_rate(user)
        message = ChatMessage.objects.create(match=match, channel=channel, author=user, text=text)
        push.on_commit(group_of(message), "chat", id=message.pk)
    return message


def muted_ids(user: Any) -> set[int]:
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    return set(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def may_read(message: ChatMessage, user: Any) -> bool:
    """Everyone who may open a match page may read its chat; the lobby chat is for logged-in people."""
    if message.match_id is None:
        return bool(user is not None and getattr(user, "is_authenticated", False))
    return True


def visible_to(message: ChatMessage, user: Any) -> bool:
    """Readable by ``user``, not by an author they muted, and not hidden by a moderator."""
    return may_read(message, user) and message.author_id not in muted_ids(user) and not sanctions.is_hidden(message.pk)


def history(*, user: Any, match_id: Any = None, channel: str | None = None, limit: int = HISTORY) -> list[ChatMessage]:
    """The newest ``limit`` messages of a channel that ``user`` may see, oldest first (muted authors and hidden
    messages left out)."""
    if match_id is None:
        if user is None or not getattr(user, "is_authenticated", False):
            return []
        qs = ChatMessage.objects.filter(match__isnull=True, channel="lobby")
    else:
        match = _match(match_id)
        if channel not in ("players", "spectators"):
            raise BadRequest(f"a match's chat channel is 'players' or 'spectators', not {channel!r}", code="bad_chat")
        qs = ChatMessage.objects.filter(match=match, channel=channel)
    muted = muted_ids(user)
    if muted:
        qs = qs.exclude(author_id__in=muted)
    qs = sanctions.visible_messages(qs)  # a message a moderator hid is left out everywhere
    rows = list(qs.select_related("author").order_by("-id")[:limit])
    rows.reverse()
    return rows


def get_message(message_id: Any) -> ChatMessage:
    try:
        return ChatMessage.objects.select_related("author").get(pk=int(message_id))
    except (ChatMessage.DoesNotExist, TypeError, ValueError):
        raise NotFound(f"there is no chat message {message_id!r}", code="chat_not_found") from None


def mute(*, user: Any, username: str, muted: bool = True) -> None:
    """``user`` stops (or starts again) seeing ``username``'s messages."""
    from django.contrib.auth import get_user_model

    _require_user(user)
    try:
        other = get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist:
        raise NotFound(f"there is no user {username!r}", code="user_not_found") from None
    if other.pk == user.pk:
        raise BadRequest("you cannot mute yourself", code="bad_mute")
    if muted:
        ChatMute.objects.get_or_create(user=user, muted=other)
    else:
        ChatMute.objects.filter(user=user, muted=other).delete()


def report(*, user: Any, message_id: Any) -> ChatReport:
    """Report a message to the moderators (once per person and message)."""
    _require_user(user)
    message = get_message(message_id)
    if message.author_id == user.pk:
        raise BadRequest("you cannot report your own message", code="bad_report")
    if not may_read(message, user):
        raise NotFound(f"there is no chat message {message_id!r}", code="chat_not_found")
    try:
        with transaction.atomic():
            return ChatReport.objects.create(message=message, reporter=user)
    except IntegrityError:
        return ChatReport.objects.get(message=message, reporter=user)


def set_players_chat(*, user: Any, match_id: Any, enabled: bool) -> bool:
    """A player turns the players' chat of their match off (or back on, if they turned it off)."""
    _require_user(user)
    match = _match(match_id)
    if not is_player(match, user):
        raise Forbidden("only the players of this match can turn its chat off or on", code="not_a_player")
    state = MatchChat.objects.filter(match=match).first()
    if enabled:
        if state is not None:
            if state.disabled_by_id not in (None, user.pk):
                raise Forbidden("another player turned the chat off; only they can turn it on", code="chat_off")
            state.delete()
    elif state is None:
        MatchChat.objects.create(match=match, disabled_by=user)
    push.on_commit(push.match_group(match.pk), "chat_state", match_id=match.pk)
    return enabled
