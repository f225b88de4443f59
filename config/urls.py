"""Top-level routes: the REST API under /api/, the pages at the root."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("", include("frontend.urls")),
]

handler500 = "games.api.errors.server_error"
