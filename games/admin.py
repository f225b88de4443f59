from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Event, Match, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ("index", "user", "bot_level")
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game_id", "players", "status", "seq", "updated_at")
    list_filter = ("game_id", "status")
    readonly_fields = [f.name for f in Match._meta.fields]
    exclude = ("seed",)
    inlines = [SeatInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in Match._meta.fields if f.name != "seed"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "type", "actor", "timestamp")
    list_filter = ("type",)
    readonly_fields = [f.name for f in Event._meta.fields]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
