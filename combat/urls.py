"""Battle pages, under ``/combat/``."""

from django.urls import path

from combat import bvp_cards, replay_views, streams, views, wargames
from combat.fights import views as fights
from combat.odds import views as odds

app_name = "combat"

urlpatterns = [
    path("campaign/<int:campaign_id>/", views.encounter_list, name="list"),
    path("campaign/<int:campaign_id>/new/", views.encounter_new, name="new"),
    path("campaign/<int:campaign_id>/wargame/", wargames.wargame_new, name="wargame_new"),
    path("campaign/<int:campaign_id>/bvp-cards/", bvp_cards.card_set_page, name="bvp_cards"),
    path("<int:pk>/", views.encounter_detail, name="detail"),
    path("<int:pk>/open/", views.encounter_open, name="open"),
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
    path("scar/<int:pk>/", views.scar_draw, name="scar_draw"),
    path("repair/<int:pk>/", views.repair_test, name="repair_test"),
    path("campaign/<int:campaign_id>/odds/", odds.odds_new, name="odds_new"),
    path("<int:pk>/odds/", odds.odds_ask, name="odds_ask"),
    path("odds/<int:pk>/", odds.odds_detail, name="odds"),
    path("odds/<int:pk>/panel/", odds.odds_panel, name="odds_panel"),
    path("odds/<int:pk>/events/", odds.odds_stream, name="odds_stream"),
    path("odds/<int:pk>/cancel/", odds.odds_cancel, name="odds_cancel"),
    path("odds/<int:pk>/results.<str:fmt>", odds.odds_download, name="odds_download"),
]
