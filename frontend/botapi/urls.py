from django.urls import path

from . import views

urlpatterns = [
    path("settings/api/", views.api_settings, name="api_settings"),
    path("settings/api/tokens/<id:token_id>/revoke/", views.revoke_token, name="api_token_revoke"),
]
