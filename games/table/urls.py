"""API route of chat, mounted at /api/chat/ by config/urls.py."""

from django.urls import path

from .api import ChatView

urlpatterns = [path("", ChatView.as_view(), name="api-chat")]
