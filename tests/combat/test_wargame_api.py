"""Starting a wargame through the API (``/api/campaigns/<id>/wargames/``), with the New
wargame page's permissions and checks: personas GM, player A, outsider; every bad input a
400 naming the field and the reason, with nothing written."""

import pytest
from django.urls import reverse

from combat.models import Encounter

pytestmark = pytest.mark.django_db

SCENARIO = "brethren/fleet_action"


def _url(campaign):
    return reverse("api-wargame-list", args=[campaign.pk])


def _post(client, campaign, body):
    return client.post(_url(campaign), body, content_type="application/json")


def test_the_gm_lists_the_scenarios_and_their_sides(campaign, gm_client):
    rows = {r["key"]: r for r in gm_client.get(_url(campaign)).json()}
    assert rows[SCENARIO]["engine"] == "brethren" and rows[SCENARIO]["title"] == "Fleet Action"
    assert [s["id"] for s in rows[SCENARIO]["sides"]] == ["en", "fr"]
    assert "brethren/beware_the_kraken" in rows


def test_the_gm_starts_a_wargame(campaign, gm_client, pc_a, pc_b):
    response = _post(gm_client, campaign, {
        "scenario": SCENARIO, "title": "The line at dawn",
        "commanders": {"en": f"pc:{pc_a.pk}", "fr": "gm"}})
    assert response.status_code == 201, response.content
    body = response.json()
    encounter = Encounter.objects.get(pk=body["id"])
    assert encounter.status == "active" and encounter.title == "The line at dawn"
    assert body["engine"] == "brethren" and body["view"]["round"] == 1
    sides = {s["id"]: s["commander"] for s in encounter.setup["sides"]}
    assert sides == {"en": f"pc:{pc_a.pk}", "fr": "side:fr"}
    assert encounter.setup["settings"]["brethren_sea_wolves_share"] == "0.75"
    # the GM's own side's orders are his; the player's are marked as a player's
    assert {d["actor"]: d["for_player"] for d in body["decisions"]} == {
        "side:fr": False, f"pc:{pc_a.pk}": True}
    # commanders left out: every side is the GM's, the title the scenario's
    response = _post(gm_client, campaign, {"scenario": "brethren/first_broadside"})
    assert response.status_code == 201
    assert response.json()["title"] == "Example: a first broadside at short range"


@pytest.mark.parametrize("body, field, reason", [
    ({}, "scenario", "required"),
    ({"scenario": "brethren/no_such"}, "scenario", "Choose one of the scenarios offered"),
    ({"scenario": "btq_naval/hermes_vs_corsair"}, "scenario", "Choose one of the scenarios"),
    ({"scenario": SCENARIO, "commanders": {"xx": "gm"}}, "side_xx", "no such side"),
    ({"scenario": SCENARIO, "commanders": {"en": "pc:999999"}}, "side_en",
     "Choose the GM or one of the campaign's player characters"),
    ({"scenario": SCENARIO, "commanders": {"en": "the cook"}}, "side_en", "Choose the GM"),
    ({"scenario": SCENARIO, "commanders": ["en", "gm"]}, "commanders", ""),
    ({"scenario": SCENARIO, "commanders": {"en": 7}}, "commanders", ""),
    ({"scenario": SCENARIO, "title": "x" * 201}, "title", "200"),
    ({"scenario": SCENARIO, "challenge": 999999}, "challenge", ""),
    ({"scenario": 12}, "scenario", ""),
])
def test_bad_input_is_refused_with_the_reason(campaign, gm_client, body, field, reason):
    response = _post(gm_client, campaign, body)
    assert response.status_code == 400, response.content
    errors = response.json()
    assert field in errors, errors
    assert reason in str(errors[field])
    assert not Encounter.objects.exists()


def test_a_character_commands_one_side_only(campaign, gm_client, pc_a):
    response = _post(gm_client, campaign, {
        "scenario": SCENARIO, "commanders": {"en": f"pc:{pc_a.pk}", "fr": f"pc:{pc_a.pk}"}})
    assert response.status_code == 400
    assert "commands one side only" in str(response.json())
    assert not Encounter.objects.exists()


def test_a_pc_of_another_campaign_is_refused(campaign, gm, gm_client):
    from campaigns.services import campaign_create
    from characters.services import character_create
    other = campaign_create(name="Elsewhere", gm=gm)
    stranger = character_create(campaign=other, actor=gm, owner=gm, name="Stranger")
    response = _post(gm_client, campaign, {"scenario": SCENARIO,
                                           "commanders": {"en": f"pc:{stranger.pk}"}})
    assert response.status_code == 400 and "side_en" in response.json()
    assert not Encounter.objects.exists()


def test_only_the_gm_starts_one(campaign, player_a_client, outsider_client):
    body = {"scenario": SCENARIO}
    assert _post(player_a_client, campaign, body).status_code == 403
    assert player_a_client.get(_url(campaign)).status_code == 403
    assert _post(outsider_client, campaign, body).status_code == 404
    assert outsider_client.get(_url(campaign)).status_code == 404
    assert not Encounter.objects.exists()


def test_it_is_in_the_api_schema(client):
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()
    path = schema["paths"]["/api/campaigns/{campaign_id}/wargames/"]
    assert {"get", "post"} <= set(path)
    assert "201" in path["post"]["responses"]
