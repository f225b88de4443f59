"""Routes of the table plug-in, included into the ``frontend`` namespace by frontend/urls.py."""

from django.urls import path

from games.api import converters  # registers the "id" converter (1 to 2**63 - 1)

from . import views

urlpatterns = [
    path("matches/<id:match_id>/chat/", views.chat_post, name="chat_post"),
    path("matches/<id:match_id>/chat/toggle/", views.chat_toggle, name="chat_toggle"),
    path("lobby/chat/", views.chat_post, name="chat_post_lobby"),
    path("chat/mute/", views.chat_mute, name="chat_mute"),
    path("chat/<id:message_id>/report/", views.chat_report, name="chat_report"),
    path("matches/<id:match_id>/rematch/", views.rematch_offer, name="rematch_offer"),
    path("matches/<id:match_id>/rematch/<str:answer>/", views.rematch_answer, name="rematch_answer"),
    path("matches/<id:match_id>/again/", views.new_match_like, name="new_match_like"),
    path("watch/", views.watch_page, name="watch"),
    path("matches/<id:match_id>/spectators/", views.spectators, name="spectators"),
    path("help/<str:game_id>/", views.help_page, name="help"),
    path("settings/notifications/", views.notification_settings, name="notification_settings"),
]
