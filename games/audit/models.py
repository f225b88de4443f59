"""The public log of heads: leaves appended in order, and signed checkpoints over them.

Both tables only grow (the log's code never updates or deletes a row).  A leaf
is one match's head as it stood when a checkpoint was made; a checkpoint
appends a leaf for every match whose head moved since the previous one, so a
match's newest leaf is its head at the newest checkpoint.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LogLeaf(models.Model):
    index = models.PositiveBigIntegerField(primary_key=True, help_text="position in the log, from 0")
    match_id = models.PositiveBigIntegerField(db_index=True)
    seq = models.PositiveIntegerField()
    hash = models.CharField(max_length=64, help_text="the head's chain hash")
    leaf_hash = models.CharField(max_length=64, help_text="RFC 9162 leaf hash of the leaf's bytes, hex")

    class Meta:
        ordering = ["index"]
        indexes = [models.Index(fields=["match_id", "-index"])]


class Checkpoint(models.Model):
    size = models.PositiveBigIntegerField(unique=True, help_text="the number of leaves the tree covers")
    root = models.CharField(max_length=64, help_text="RFC 9162 tree head, hex")
    time = models.CharField(max_length=40, help_text="ISO 8601 UTC")
    key = models.CharField(max_length=16, help_text="receipt key id")
    signature = models.CharField(max_length=128)

    class Meta:
        ordering = ["size"]


class SeedOffer(models.Model):
    """A server seed committed to before the creator's contribution is known (docs/AUDIT.md).

    ``POST /api/matches/commitment`` draws the seed and answers its commitment; a match created with that
    commitment takes the seed (and the row goes).  The seed is secret like ``Match.seed``.
    """

    commitment = models.CharField(max_length=64, primary_key=True)
    seed = models.CharField(max_length=64, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
