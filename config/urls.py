"""Top-level routes: the REST API under /api/, the pages at the root."""

from django.contrib import admin
from django.urls import include, path

from games.accounts import urls as accounts_urls

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/chat/", include("games.table.urls")),  # chat (issue 16)
    path("api/account/", include(accounts_urls.account)),  # accounts: email, password, export, deletion
    path("api/moderation/", include(accounts_urls.moderation)),
    path("api/", include("games.api.urls")),
    path("", include("frontend.urls")),
]

handler404 = "frontend.errors.page_not_found"  # styled pages; the API keeps its JSON errors
handler500 = "frontend.errors.server_error"
