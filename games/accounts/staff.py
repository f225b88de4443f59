"""The "moderator" group: the moderation permission and read-only access to chat, reports and actions."""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, Permission

GROUP = "moderator"
PERMISSIONS = [
    ("accounts", "moderate"),
    ("accounts", "view_moderationaction"),
    ("table", "view_chatreport"),
    ("table", "view_chatmessage"),
]


def ensure_moderator_group() -> Group:
    for label in {label for label, _ in PERMISSIONS}:
        create_permissions(apps.get_app_config(label), verbosity=0)
    group, _ = Group.objects.get_or_create(name=GROUP)
    wanted = [Permission.objects.get(content_type__app_label=label, codename=codename) for label, codename in PERMISSIONS]
    group.permissions.set(wanted)
    return group
