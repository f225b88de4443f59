"""Tournaments, their entries, rounds and boards; seasons and their leaderboards.

The standings live on :class:`Entry` (points, games, wins, streak), folded one finished board at a
time (engine.tournament), never recomputed from every game.  A Swiss or round robin's tie-breaks are
computed once per closed round.  A :class:`Round` and all its boards and matches are created in one
transaction, so a crash while pairing leaves no half-created round.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from ..models import Match


class Tournament(models.Model):
    class Kind(models.TextChoices):
        ARENA = "arena"
        SWISS = "swiss"
        ROUND_ROBIN = "round_robin"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled"
        RUNNING = "running"
        FINISHED = "finished"

    name = models.CharField(max_length=80)
    game_id = models.CharField(max_length=64)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    table_size = models.PositiveSmallIntegerField()
    time_control = models.JSONField(null=True, blank=True)
    starts_at = models.DateTimeField(db_index=True)
    duration_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="arena: how long it runs")
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss and round robin")
    rated = models.BooleanField(default=False)
    min_rating = models.FloatField(null=True, blank=True)
    min_completion = models.FloatField(null=True, blank=True, help_text="0 to 1: the completion rate asked")
    bots_allowed = models.BooleanField(default=False)
    max_entrants = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=0, help_text="bumped at every change of the standings")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-id"]

    def __str__(self) -> str:
        return f"tournament {self.pk} ({self.kind}, {self.game_id}, {self.status})"


class Entry(models.Model):
    """One entrant: a person (``user``) or a house bot (``bot_level``), always labelled as such."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveIntegerField(help_text="1, 2, ... in the order of joining: the export's entry id")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    bot_level = models.CharField(max_length=32, blank=True, default="")
    is_bot_account = models.BooleanField(default=False, help_text="a bot account (games.botapi) playing as a user")
    name = models.CharField(max_length=150)
    rating = models.FloatField()
    joined_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_round = models.PositiveSmallIntegerField(null=True, blank=True)
    paused = models.BooleanField(default=False)
    berserk_next = models.BooleanField(default=False, help_text="arena: start the next game with half the clock")
    board = models.ForeignKey("Board", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                              help_text="the board being played now: never two at once")
    free_since = models.DateTimeField(null=True, blank=True, help_text="arena: waiting for a board since")
    # the standings, folded board by board
    points = models.FloatField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    buchholz = models.FloatField(default=0)
    sonneborn_berger = models.FloatField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_entry_number"),
            models.UniqueConstraint(fields=["tournament", "user"], condition=Q(user__isnull=False),
                                    name="tournament_entry_one_per_user"),
            models.CheckConstraint(condition=(Q(user__isnull=True) & ~Q(bot_level="")) | (Q(user__isnull=False) & Q(bot_level="")),
                                   name="tournament_entry_user_or_bot"),
        ]
        indexes = [models.Index(fields=["tournament", "-points"])]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level) or self.is_bot_account

    @property
    def label(self) -> str:
        return f"{self.name} (bot)" if self.is_bot else self.name


class Round(models.Model):
    """A Swiss or round-robin round, or one arena pairing pass."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_rows")
    number = models.PositiveIntegerField()
    byes = models.JSONField(default=list, help_text="entry numbers sitting out with a bye")
    created_at = models.DateTimeField(auto_now_add=True)
    closed = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_number")]


class Board(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="boards")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    table = models.PositiveSmallIntegerField()
    seats = models.JSONField(help_text="entry numbers in seat order")
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_board")
    places = models.JSONField(null=True, blank=True, help_text="the match's ranking once it has finished")
    berserk = models.JSONField(default=list)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table"]


class Season(models.Model):
    """Three months (by default) of one game's rated play; archived with its final standings."""

    game_id = models.CharField(max_length=64)
    number = models.PositiveIntegerField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    archived = models.BooleanField(default=False)
    final_standings = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "-number"]
        constraints = [models.UniqueConstraint(fields=["game_id", "number"], name="season_number")]


class SeasonLine(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="lines")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    points = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="season_line_user")]
        indexes = [models.Index(fields=["season", "-points"])]


class SeasonGame(models.Model):
    """A rated match counted in a season (the season it started in)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["-id"]
