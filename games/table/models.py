"""Chat messages, mutes and reports, rematch offers and notification settings.

None of this is part of a match's event log: chat is not hashed, not in the
record, and never given to a bot.  ``ChatMessage`` is append-only like the
events (the database refuses ``UPDATE``, see migration 0002).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", "Players"
        SPECTATORS = "spectators", "Spectators"
        LOBBY = "lobby", "Lobby"

    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.PROTECT, related_name="chat")
    channel = models.CharField(max_length=16, choices=Channel.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["match", "channel", "id"]), models.Index(fields=["author", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(match__isnull=True) & Q(channel="lobby")) | (Q(match__isnull=False) & ~Q(channel="lobby")),
                name="chat_lobby_has_no_match",
            )
        ]

    def __str__(self) -> str:
        return f"chat {self.pk} ({self.channel}) by {self.author_id}"


class ChatMute(models.Model):
    """``user`` no longer sees ``muted``'s messages, anywhere."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once")]


class ChatReport(models.Model):
    """A message reported to the moderators (the Django admin lists them)."""

    message = models.ForeignKey(ChatMessage, on_delete=models.PROTECT, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]


class MatchChat(models.Model):
    """The players' chat of one match turned off (ranked play), by one of its players."""

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, primary_key=True, related_name="chat_state")
    disabled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    disabled_at = models.DateTimeField(auto_now=True)


class Rematch(models.Model):
    """An offer to play a finished match again: same seats, options and clock."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="rematch")
    proposer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    new_match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    created_at = models.DateTimeField(auto_now_add=True)


class RematchAnswer(models.Model):
    rematch = models.ForeignKey(Rematch, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted = models.BooleanField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rematch", "user"], name="rematch_answer_once")]


class NotificationSettings(models.Model):
    """A person's opt-ins: a sound and a browser notification on their turn, an email in correspondence matches."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="notification_settings")
    sound = models.BooleanField(default=False)
    browser = models.BooleanField(default=False)
    email_turn = models.BooleanField(default=False)


class TurnEmail(models.Model):
    """One "your turn" email sent: the unique key makes the task idempotent."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq", "user"], name="turn_email_once")]
