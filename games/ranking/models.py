"""Ranked play: rating events, the ladder projection, the queue, challenges and clock deadlines.

* :class:`RatingChange` is the rating event: one row per player of a rated
  match, derived from the match's final event, numbered per game
  (``ladder_seq``) in the order the server applied the results.  Written once,
  never updated.
* :class:`Rating` is the ladder: a projection of the rating events that
  ``python manage.py rebuild_ladders`` deletes and rebuilds from the match
  events, in ladder order, to the same numbers.
* :class:`QueueEntry` and :class:`Challenge` hold the matchmaking state in the
  database, so any number of web processes and workers share it (row locks).
* :class:`MatchClock` is derived: the next clock deadline of an active timed
  match, for the timeout sweep.  The truth is the event times (clocks.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

PROVISIONAL_DEVIATION = 110.0


class LadderHead(models.Model):
    """Per game: the last ``ladder_seq`` given out.  Locked while a result is applied."""

    game_id = models.CharField(max_length=64, unique=True)
    seq = models.PositiveIntegerField(default=0)


class Rating(models.Model):
    """One player's rating on one game's ladder (a projection; see module docs)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game_id = models.CharField(max_length=64)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)
    ladder_seq = models.PositiveIntegerField(default=0, help_text="the last rating event applied")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game_id"], name="rating_one_per_user_game")]
        indexes = [models.Index(fields=["game_id", "-rating"])]

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION


class RatingChange(models.Model):
    """The rating event of one player in one rated match."""

    game_id = models.CharField(max_length=64)
    ladder_seq = models.PositiveIntegerField(help_text="order of application on the game's ladder")
    match = models.ForeignKey("games.Match", on_delete=models.PROTECT, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    system = models.CharField(max_length=16, help_text="glicko2 or openskill-pl")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    at = models.DateTimeField(help_text="the time of the match's final event")

    class Meta:
        ordering = ["game_id", "ladder_seq", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="rating_change_once_per_match_user")]
        indexes = [models.Index(fields=["game_id", "ladder_seq"]), models.Index(fields=["user", "game_id", "ladder_seq"])]


class QueueEntry(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"
        MATCHED = "matched"
        CANCELLED = "cancelled"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entries")
    game_id = models.CharField(max_length=64)
    players = models.PositiveSmallIntegerField()
    time_control = models.JSONField()
    tc_key = models.CharField(max_length=16, help_text="e.g. 5+10 or 3d")
    rated = models.BooleanField()
    rating = models.FloatField(help_text="the player's rating when they joined (pairing)")
    deviation = models.FloatField()
    joined_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # Nobody waits in two queues: a second join is refused by the database, not only in Python.
            models.UniqueConstraint(fields=["user"], condition=Q(status="waiting"), name="queue_one_waiting_entry"),
        ]
        indexes = [models.Index(fields=["status", "game_id", "players", "tc_key", "rated"])]


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"
        EXPIRED = "expired"

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    game_id = models.CharField(max_length=64)
    options = models.JSONField(default=dict)
    rated = models.BooleanField(default=False)
    time_control = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(challenger=models.F("challenged")), name="challenge_not_self"),
        ]
