"""The battle API: everything the battle page offers, with 4xx answers that say why."""

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from combat.forms import book_cards
from combat.models import Encounter

from .conftest import ROUND_1

pytestmark = pytest.mark.django_db


def post(client, url, data=None):
    return client.post(url, data or {}, content_type="application/json")


def test_create_begin_and_play_round_1_through_the_api(campaign, hermes, corsair, gm_client,
                                                       player_a_client):
    response = post(gm_client, reverse("api-encounter-list", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind",
        "stacked_cards": book_cards()})
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["status"] == "setup" and created["view"] is None
    pk = created["id"]
    response = post(gm_client, reverse("api-encounter-start", args=[pk]),
                    {"version": created["version"]})
    assert response.status_code == 200
    detail = response.json()
    assert detail["seed"] is None and len(detail["seed_hash"]) == 64
    seen = detail["last_seq"]
    assert seen == 3  # the seed's hash, the battle's start, the Awareness test
    for choice in ROUND_1:
        decision = detail["decisions"][0]
        response = post(gm_client, reverse("api-encounter-act", args=[pk]), {
            "actor": decision["actor"], "kind": decision["kind"], "choice": choice,
            "version": detail["version"]})
        assert response.status_code == 200, response.content
        acted = response.json()
        detail = gm_client.get(reverse("api-encounter-detail", args=[pk])).json()
        assert acted["version"] == detail["version"]
        events = gm_client.get(reverse("api-encounter-events", args=[pk]),
                               {"after": seen}).json()
        assert events == acted["events"]
        seen = events[-1]["seq"] if events else seen
    assert seen == detail["last_seq"]
    corsair_view = detail["view"]["ships"][str(corsair.pk)]
    assert corsair_view["tracks"]["hull"] == "xx|..|.."
    player = player_a_client.get(reverse("api-encounter-detail", args=[pk])).json()
    assert player["participants"] == sorted(player["participants"])
    assert len(player["participants"]) == 2  # O'Toole and Smith
    assert player["view"]["ships"][str(corsair.pk)]["tracks"]["guns"] == ".|x|."
    assert player["stacked_cards"] is None
    listing = player_a_client.get(reverse("api-encounter-list", args=[campaign.pk])).json()
    assert [e["id"] for e in listing] == [pk]


def test_resolve_rest_answers_202_with_the_job(book_battle, gm_client):
    response = post(gm_client, reverse("api-encounter-resolve", args=[book_battle.pk]))
    assert response.status_code == 202
    job = response.json()
    assert job["status"] == "queued" and job["encounter"] == book_battle.pk
    again = post(gm_client, reverse("api-encounter-resolve", args=[book_battle.pk]))
    assert again.status_code == 400 and "already" in again.json()["detail"]
    assert gm_client.get(reverse("api-job", args=[job["id"]])).json()["status"] == "queued"


def test_events_since_a_sequence_number(book_battle, gm_client):
    url = reverse("api-encounter-events", args=[book_battle.pk])
    every = gm_client.get(url).json()
    assert [e["seq"] for e in every] == list(range(1, len(every) + 1))
    assert gm_client.get(url, {"after": every[-1]["seq"]}).json() == []
    assert gm_client.get(url, {"after": "x"}).status_code == 400


def test_the_schema_builds_with_the_battle_api(tmp_path):
    out = tmp_path / "schema.json"
    call_command("spectacular", "--validate", "--format", "openapi-json", "--file", str(out))
    paths = json.loads(out.read_text())["paths"]
    for path in ("/api/campaigns/{campaign_id}/encounters/", "/api/encounters/{id}/act/",
                 "/api/encounters/{id}/events/", "/api/encounters/{id}/resolve-rest/",
                 "/api/jobs/{id}/"):
        assert path in paths
    assert Encounter.objects.count() == 0
