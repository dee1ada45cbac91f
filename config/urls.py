"""Top-level URLs: pages of each app, the REST API under ``/api/``, the schema and docs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("campaigns.urls")),
    path("", include("campaigns.missions.urls")),
    path("", include("combat.card_tests.urls")),
    path("", include("combat.creation.urls")),
    path("characters/", include("characters.urls")),
    path("ships/", include("ships.urls")),
    path("combat/", include("combat.urls")),
    path("shipboard/", include("combat.shipboard.urls")),
    path("api/", include("campaigns.api")),
    path("api/", include("campaigns.missions.api")),
    path("api/", include("characters.api")),
    path("api/", include("ships.api")),
    path("api/", include("combat.api")),
    path("api/", include("combat.fights.api")),
    path("api/", include("combat.shipboard.api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

handler404 = "config.api.page_not_found"
