"""Access tokens (stored as SHA-256 of their secret), bot accounts and each player's "accept bots" choice."""

from __future__ import annotations

from django.conf import settings
from django.db import models

SCOPES = ("read", "play", "challenge", "chat", "bot")


class AccessToken(models.Model):
    """A named personal access token.  Its secret is shown once; only its SHA-256 is kept."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)  # SHA-256 hex of the secret
    prefix = models.CharField(max_length=12)  # the secret's first characters, to tell tokens apart
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_reason = models.CharField(max_length=80, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class BotAccount(models.Model):
    """The account is a bot's: labelled BOT wherever its name appears, with its own limits."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account")
    created_at = models.DateTimeField(auto_now_add=True)


class BotPreference(models.Model):
    """Whether a person accepts bots as opponents: rated (default no) and casual (default yes)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_preference")
    rated = models.BooleanField(default=False)
    casual = models.BooleanField(default=True)
