from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """A person's account beyond Django's user: verified addresses, deletion, export, moderation."""

    name = "games.accounts"
    label = "accounts"
    verbose_name = "Accounts and moderation"
    default_auto_field = "django.db.models.BigAutoField"
