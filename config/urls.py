"""Top-level routes: the REST API under /api/, the pages at the root, and the operator's probes."""

from django.contrib import admin
from django.urls import include, path

from games.accounts import urls as accounts_urls
from games.ops import health, metrics

urlpatterns = [
    # Probes and metrics for the balancer and Prometheus (docs/OPERATIONS.md).
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics.metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/chat/", include("games.table.urls")),  # chat
    path("api/account/", include(accounts_urls.account)),  # accounts: email, password, export, deletion
    path("api/moderation/", include(accounts_urls.moderation)),
    path("api/", include("games.api.urls")),
    path("", include("frontend.urls")),
]

handler404 = "frontend.errors.page_not_found"  # styled pages; the API keeps its JSON errors
handler500 = "frontend.errors.server_error"
