"""Fair play's one table: takeback offers to another person (the takeback itself is a match event)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TakebackOffer(models.Model):
    """A player asks the other player of a casual match to let them take back their last action(s).

    Valid only while the match is at ``seq``: any new event makes it stale.  One pending offer per
    match (a partial unique constraint)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="takeback_offers")
    seat = models.PositiveSmallIntegerField(help_text="the seat that asks")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField(help_text="the match's seq when offered")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match"], condition=models.Q(status="pending"),
                                    name="takeback_one_pending_per_match"),
        ]

    def __str__(self) -> str:
        return f"takeback offer by seat {self.seat} in match {self.match_id} at seq {self.seq} ({self.status})"


class QueueFilter(models.Model):
    """A queue entry's choice: pair me only with people whose completion rate is at least ``min_completion``
    percent (games.fairplay.reliability).  No row: anybody."""

    entry = models.OneToOneField("ranking.QueueEntry", on_delete=models.CASCADE, primary_key=True,
                                 related_name="completion_filter")
    min_completion = models.PositiveSmallIntegerField(help_text="percent, 1 to 100")

    def __str__(self) -> str:
        return f"queue entry {self.entry_id}: completion at least {self.min_completion}%"


class ReminderSetting(models.Model):
    """A person's opt-in to the reminder email of correspondence matches (half the time for a move left)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="fairplay_reminders")
    correspondence_reminder = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"reminders of user {self.user_id}: {self.correspondence_reminder}"


class CorrespondenceReminder(models.Model):
    """One reminder sent: to ``user``, in ``match``, for the turn that began at ``seq``.  The unique key makes
    the beat task idempotent (once per turn)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq", "user"], name="correspondence_reminder_once")]

    def __str__(self) -> str:
        return f"reminder to user {self.user_id} in match {self.match_id} at seq {self.seq}"
