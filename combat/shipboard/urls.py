"""Shipboard pages, under ``/shipboard/``."""

from django.urls import path

from combat.shipboard import views

app_name = "shipboard"

urlpatterns = [
    path("character/<int:pk>/", views.shipboard_character, name="character"),
    path("character/<int:pk>/<slug:action>/", views.shipboard_act, name="act"),
    path("prize-share/<int:pk>/spent/", views.shipboard_share_spent, name="share_spent"),
    path("prize/<int:pk>/", views.shipboard_prize_resolve, name="prize_resolve"),
    path("campaign/<int:campaign_pk>/session-end/", views.shipboard_session_end,
         name="session_end"),
]
