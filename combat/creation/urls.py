"""Character creation pages, under ``/campaigns/<pk>/drafts/``."""

from django.urls import path

from combat.creation import views

app_name = "creation"

urlpatterns = [
    path("campaigns/<int:pk>/drafts/new/", views.draft_start, name="start"),
    path("campaigns/<int:pk>/drafts/ship/", views.ship_start, name="ship"),
    path("campaigns/<int:pk>/drafts/reference/", views.reference_load, name="reference"),
    path("campaigns/<int:pk>/drafts/<int:draft_pk>/", views.draft_detail, name="detail"),
    path("campaigns/<int:pk>/drafts/<int:draft_pk>/live/", views.draft_live, name="live"),
    path("campaigns/<int:pk>/drafts/<int:draft_pk>/events/", views.draft_stream,
         name="stream"),
    path("campaigns/<int:pk>/drafts/<int:draft_pk>/act/", views.draft_act, name="act"),
]
