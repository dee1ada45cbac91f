"""Battle pages, under ``/combat/``."""

from django.urls import path

from combat import replay_views, streams, views
from combat.fights import views as fights

app_name = "combat"

urlpatterns = [
    path("campaign/<int:campaign_id>/", views.encounter_list, name="list"),
    path("campaign/<int:campaign_id>/new/", views.encounter_new, name="new"),
    path("<int:pk>/", views.encounter_detail, name="detail"),
    path("campaign/<int:campaign_id>/events/", streams.campaign_stream, name="campaign_stream"),
    path("<int:pk>/poll/", views.encounter_poll, name="poll"),
    path("<int:pk>/events/", streams.battle_stream, name="stream"),
    path("<int:pk>/start/", views.encounter_start, name="start"),
    path("<int:pk>/cancel/", views.encounter_cancel, name="cancel"),
    path("<int:pk>/act/", views.encounter_act, name="act"),
    path("<int:pk>/resolve/", views.encounter_resolve_rest, name="resolve"),
    path("campaign/<int:campaign_id>/new/<slug:kind>/", fights.fight_new, name="fight_new"),
    path("<int:pk>/replay/", replay_views.encounter_replay_page, name="replay"),
    path("<int:pk>/replay.json", replay_views.encounter_replay_json, name="replay_json"),
    path("heal/<int:pk>/", views.heal_test, name="heal_test"),
    path("repair/<int:pk>/", views.repair_test, name="repair_test"),
]
