from django.apps import AppConfig


class BotApiConfig(AppConfig):
    """Personal access tokens with scopes, the account and match streams, and bot accounts.

    A user saved with a new password hash, or whose legacy API token is deleted (the password changed,
    the account closed: games.accounts), has every access token revoked.
    """

    name = "games.botapi"
    label = "botapi"
    verbose_name = "Open API: tokens, streams and bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save, pre_save
        from rest_framework.authtoken.models import Token

        from . import schema  # noqa: F401 - registers the Bearer scheme with drf-spectacular
        from .tokens import revoke_on_legacy_token_deleted, revoke_on_password_change

        post_delete.connect(revoke_on_legacy_token_deleted, sender=Token, dispatch_uid="games.botapi.revoke")
        from .bots import forget_names
        from .models import BotAccount

        post_save.connect(lambda **kwargs: forget_names(), sender=BotAccount, weak=False, dispatch_uid="games.botapi.names")
        post_delete.connect(lambda **kwargs: forget_names(), sender=BotAccount, weak=False,
                            dispatch_uid="games.botapi.names-gone")
        pre_save.connect(revoke_on_password_change, sender=settings.AUTH_USER_MODEL,
                         dispatch_uid="games.botapi.revoke-on-password")
