"""The admin's read-only lists of chat reports and moderation actions (the pages at /moderation/ act)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.table.models import ChatReport

from .models import ModerationAction


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnly):
    list_display = ("created_at", "moderator", "kind", "subject", "message", "until", "reason")
    list_filter = ("kind",)
    search_fields = ("subject__username", "moderator__username", "reason")


@admin.register(ChatReport)
class ChatReportAdmin(ReadOnly):
    list_display = ("created_at", "reporter", "message")
    search_fields = ("reporter__username", "message__author__username", "message__text")
