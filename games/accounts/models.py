"""Verified addresses, deleted accounts and the moderators' append-only audit trail.

* :class:`VerifiedEmail`: an address its owner proved they read (the link in the
  verification mail).  ``user.email`` is the address a person typed; it counts as
  verified only while a row here holds the same address.
* :class:`DeletedAccount`: the user row of a deleted account is kept, anonymised and
  deactivated, because match events name seats by user id (``actor: user:<id>``) and
  the rating events of other people's rated matches point at it (docs/ACCOUNTS.md).
* :class:`ModerationAction`: who did what to whom and why.  Never updated (the
  database refuses ``UPDATE``, migration 0002): a hidden message is a ``hide`` row
  that every chat reader honours; a lifted sanction is one more row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class VerifiedEmail(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="verified_emails")
    email = models.EmailField(max_length=254)
    verified_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "email"], name="verified_email_once")]


class DeletedAccount(models.Model):
    """The account was deleted: its user row is shown as "deleted player <id>"."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, primary_key=True,
                                related_name="deletion")
    deleted_at = models.DateTimeField(auto_now_add=True)


class ModerationAction(models.Model):
    class Kind(models.TextChoices):
        HIDE = "hide", "Hide a message"
        WARN = "warn", "Warn"
        MUTE = "mute", "Mute in chat"
        UNMUTE = "unmute", "Lift a mute"
        SUSPEND = "suspend", "Suspend from rated play"
        UNSUSPEND = "unsuspend", "Lift a suspension"
        BAN = "ban", "Ban"
        UNBAN = "unban", "Lift a ban"
        DISMISS = "dismiss", "Dismiss a report"

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    subject = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    message = models.ForeignKey("table.ChatMessage", null=True, blank=True, on_delete=models.PROTECT,
                                related_name="moderation")
    reason = models.TextField()
    until = models.DateTimeField(null=True, blank=True, help_text="the end of a mute or suspension")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["subject", "kind", "id"]), models.Index(fields=["message", "kind"])]
        constraints = [
            models.CheckConstraint(condition=~Q(kind__in=["hide", "dismiss"]) | Q(message__isnull=False),
                                   name="moderation_hide_names_message"),
            models.CheckConstraint(condition=~Q(kind__in=["mute", "suspend"]) | Q(until__isnull=False),
                                   name="moderation_period_has_end"),
        ]
        permissions = [("moderate", "Can read chat reports and take moderation actions")]

    def __str__(self) -> str:
        return f"{self.kind} of user {self.subject_id} by {self.moderator_id}"
