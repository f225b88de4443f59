"""Matches, seats and the append-only event log.

The event log (:class:`Event`) is the truth.  ``Match`` and ``Seat`` hold what
is needed to find and list matches quickly (status, last ``seq``, who is to
move); every one of those columns is derived from the events and is rewritten
in the same transaction as the events it summarises.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"

    game_id = models.CharField(max_length=64)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING, db_index=True)
    seq = models.PositiveIntegerField(default=0, help_text="seq of the last event")
    last_hash = models.CharField(max_length=64, default="0" * 64)
    to_move = models.JSONField(default=list, help_text="seats to move now (derived)")
    bot_to_move = models.BooleanField(default=False, db_index=True, help_text="a bot seat is to move (derived)")
    result = models.JSONField(null=True, blank=True, help_text="{scores, winners, ranking} once finished (derived)")
    # The secret per-match seed (hex) is never sent to a client before the final event reveals it.
    seed = models.CharField(max_length=64, editable=False)
    commitment = models.CharField(max_length=64, editable=False, help_text="SHA-256 of the seed, hex; public")
    # The hash chain's version (engine.chain): 1 for the oldest matches, 2 (hiding) for every match made since it exists.
    chain_version = models.PositiveSmallIntegerField(default=2, editable=False, help_text="hash chain version (engine.chain)")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    # --- ranked play (games.ranking): derived from the created / final events like the columns above.
    rated = models.BooleanField(default=False, db_index=True, help_text="rated (every seat a different human) or casual")
    time_control = models.JSONField(null=True, blank=True, help_text="{kind: realtime, base, increment} | {kind: correspondence, days}")
    ending = models.CharField(max_length=16, blank=True, default="", help_text="'', normal, resigned, timeout or aborted")
    # --- end ranked play

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["status", "bot_to_move", "updated_at"])]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game_id}, {self.status}, seq {self.seq})"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot_level = models.CharField(max_length=32, blank=True, default="")
    # ranked play: a human who resigned or ran out of time in a 3-4 player match keeps the seat's
    # user (for ratings and history) while ``bot_level`` plays the rest of the match.
    replaced = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=Q(user__isnull=False), name="seat_one_per_user"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot_level="") | Q(replaced=True), name="seat_human_or_bot"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of match {self.match_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_open(self) -> bool:
        return not self.bot_level and self.user_id is None


class Event(models.Model):
    """One append-only entry of a match's log.  The database refuses UPDATE and DELETE.

    ``hash`` chains it to ``prev_hash`` as the match's ``chain_version`` says, see
    :mod:`engine.chain` and :func:`games.store.event_hash`.
    """

    class Type(models.TextChoices):
        CREATED = "created"
        JOINED = "joined"
        STARTED = "started"
        CHANCE = "chance"
        ACTION = "action"
        FINISHED = "finished"
        # ranked play: match-level endings (games.aggregate)
        RESIGNED = "resigned"
        TIMED_OUT = "timed_out"
        SEAT_REPLACED = "seat_replaced"
        ABORTED = "aborted"

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=16, choices=Type.choices)
    payload = models.JSONField()
    actor = models.CharField(max_length=64, help_text="user:<id>, bot:<level> or system")
    timestamp = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="event_unique_match_seq")]

    def __str__(self) -> str:
        return f"event {self.seq} ({self.type}) of match {self.match_id}"


class MatchClock(models.Model):
    """Derived from the match's events after every append: when the next clock runs out.

    The clocks themselves are folded from the events (:mod:`games.clocks`); this row only
    indexes the next deadline for the timeout sweep (:mod:`games.timeouts`).  The table keeps
    the name it had when it belonged to ranked play.
    """

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="clock", primary_key=True)
    seq = models.PositiveIntegerField()
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        db_table = "ranking_matchclock"

