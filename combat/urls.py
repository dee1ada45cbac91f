"""Battle pages, under ``/combat/``."""

from django.urls import path

from combat import streams, views, wargames

app_name = "combat"

urlpatterns = [
    path("campaign/<int:campaign_id>/", views.encounter_list, name="list"),
    path("campaign/<int:campaign_id>/new/", views.encounter_new, name="new"),
    path("campaign/<int:campaign_id>/wargame/", wargames.wargame_new, name="wargame_new"),
    path("<int:pk>/", views.encounter_detail, name="detail"),
    path("campaign/<int:campaign_id>/events/", streams.campaign_stream, name="campaign_stream"),
    path("<int:pk>/poll/", views.encounter_poll, name="poll"),
    path("<int:pk>/events/", streams.battle_stream, name="stream"),
    path("<int:pk>/start/", views.encounter_start, name="start"),
    path("<int:pk>/cancel/", views.encounter_cancel, name="cancel"),
    path("<int:pk>/act/", views.encounter_act, name="act"),
    path("<int:pk>/resolve/", views.encounter_resolve_rest, name="resolve"),
]
