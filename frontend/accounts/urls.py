"""Routes of the account and moderation pages, included into the ``frontend`` namespace by frontend/urls.py."""

from django.urls import path

from games.api import converters  # registers the "id" converter (1 to 2**63 - 1)

from . import moderation, views

urlpatterns = [
    path("settings/account/", views.account, name="account"),
    path("settings/account/email/", views.account_email, name="account_email"),
    path("settings/account/email/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("settings/account/export/", views.account_export, name="account_export"),
    path("settings/account/delete/", views.account_delete, name="account_delete"),
    path("password/change/", views.password_change, name="password_change"),
    path("password/change/done/", views.password_changed, name="password_changed"),
    path("password/reset/", views.password_reset, name="password_reset"),
    path("password/reset/sent/", views.password_reset_sent, name="password_reset_sent"),
    path("password/reset/done/", views.password_reset_complete, name="password_reset_complete"),
    path("password/reset/<uidb64>/<token>/", views.password_reset_confirm, name="password_reset_confirm"),
    path("moderation/", moderation.queue, name="moderation_queue"),
    path("moderation/messages/<id:message_id>/", moderation.report_detail, name="moderation_report"),
    path("moderation/act/", moderation.act, name="moderation_act"),
    path("moderation/log/", moderation.action_log, name="moderation_log"),
]
