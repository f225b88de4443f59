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
