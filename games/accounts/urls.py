"""API routes of accounts and moderation, mounted at /api/account/ and /api/moderation/ by config/urls.py."""

from django.urls import path

from . import api

account = [
    path("", api.AccountView.as_view(), name="api-account"),
    path("email", api.EmailView.as_view(), name="api-account-email"),
    path("email/resend", api.ResendView.as_view(), name="api-account-email-resend"),
    path("email/verify", api.VerifyView.as_view(), name="api-account-email-verify"),
    path("password/change", api.PasswordChangeView.as_view(), name="api-password-change"),
    path("password/reset", api.ResetView.as_view(), name="api-password-reset"),
    path("password/reset/confirm", api.ResetConfirmView.as_view(), name="api-password-reset-confirm"),
    path("export", api.ExportView.as_view(), name="api-account-export"),
    path("delete", api.DeleteView.as_view(), name="api-account-delete"),
]
moderation = [
    path("reports", api.ReportsView.as_view(), name="api-moderation-reports"),
    path("actions", api.ActionsView.as_view(), name="api-moderation-actions"),
]
