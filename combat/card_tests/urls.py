"""Card test pages, under ``/campaigns/<pk>/tests/`` (the paths they have always had)."""

from django.urls import path

from combat import streams
from combat.card_tests import views

app_name = "card_tests"

urlpatterns = [
    path("campaigns/<int:pk>/tests/", views.card_tests, name="list"),
    path("campaigns/<int:pk>/tests/new/", views.card_test_new, name="new"),
    path("campaigns/<int:pk>/tests/preview/", views.card_test_preview, name="preview"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/", views.card_test_detail, name="detail"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/live/", views.card_test_live, name="live"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/events/", streams.card_test_stream,
         name="stream"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/accept/", views.card_test_accept,
         name="accept"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/<slug:action>/", views.card_test_step,
         name="step"),
]
