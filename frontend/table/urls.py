"""Routes of the table plug-in (issue 16), included into the ``frontend`` namespace by frontend/urls.py."""

from django.urls import path

from . import views

urlpatterns = [
    path("matches/<int:match_id>/chat/", views.chat_post, name="chat_post"),
    path("matches/<int:match_id>/chat/toggle/", views.chat_toggle, name="chat_toggle"),
    path("lobby/chat/", views.chat_post, name="chat_post_lobby"),
    path("chat/mute/", views.chat_mute, name="chat_mute"),
    path("chat/<int:message_id>/report/", views.chat_report, name="chat_report"),
    path("matches/<int:match_id>/rematch/", views.rematch_offer, name="rematch_offer"),
    path("matches/<int:match_id>/rematch/<str:answer>/", views.rematch_answer, name="rematch_answer"),
    path("matches/<int:match_id>/again/", views.new_match_like, name="new_match_like"),
    path("watch/", views.watch_page, name="watch"),
    path("matches/<int:match_id>/spectators/", views.spectators, name="spectators"),
    path("help/<str:game_id>/", views.help_page, name="help"),
    path("settings/notifications/", views.notification_settings, name="notification_settings"),
]
