from django.apps import AppConfig


class BotApiConfig(AppConfig):
    """Personal access tokens with scopes, the account and match streams, and bot accounts.

    A legacy API token is deleted when its owner's password changes or the account closes
    (games.accounts); this app revokes the owner's access tokens on the same deletion.
    """

    name = "games.botapi"
    label = "botapi"
    verbose_name = "Open API: tokens, streams and bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete
        from rest_framework.authtoken.models import Token

        from . import schema  # noqa: F401 - registers the Bearer scheme with drf-spectacular
        from .tokens import revoke_on_legacy_token_deleted

        post_delete.connect(revoke_on_legacy_token_deleted, sender=Token, dispatch_uid="games.botapi.revoke")
