"""Numbers no database column holds, and numbers out of the rules' range, are bad input:
a 400 (or a form error) with the reason, never a 500."""

import pytest
from django.urls import reverse

from combat.models import Encounter

pytestmark = pytest.mark.django_db

HUGE = 10**30


@pytest.mark.parametrize("field", ["pc_ship", "enemy_ship"])
@pytest.mark.parametrize("value", [HUGE, 0, -1, 2**63])
def test_an_out_of_range_ship_id_is_a_400(campaign, hermes, corsair, gm_client, field, value):
    data = {"pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "storm", field: value}
    response = gm_client.post(reverse("api-encounter-list", args=[campaign.pk]), data,
                              content_type="application/json")
    assert response.status_code == 400
    assert field in response.json()
    assert not Encounter.objects.exists()


@pytest.mark.parametrize("distance", [0, -1, 2, 6, 99, HUGE])
def test_a_start_distance_outside_3_to_5_is_a_400(campaign, hermes, corsair, gm_client,
                                                  distance):
    response = gm_client.post(reverse("api-encounter-list", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "storm",
        "start_distance": distance}, content_type="application/json")
    assert response.status_code == 400
    assert "start_distance" in response.json()
    assert not Encounter.objects.exists()


def test_huge_versions_and_event_numbers_are_a_400(book_battle, gm_client):
    pk = book_battle.pk
    for name in ("api-encounter-start", "api-encounter-cancel", "api-encounter-act"):
        response = gm_client.post(reverse(name, args=[pk]), {
            "actor": "gm", "kind": "x", "choice": "3", "version": HUGE},
            content_type="application/json")
        assert response.status_code == 400 and "version" in response.json()
    response = gm_client.get(reverse("api-encounter-events", args=[pk]), {"after": HUGE})
    assert response.status_code == 400 and "after" in response.json()


def test_huge_ids_in_the_url_are_a_404(gm_client):
    assert gm_client.get(f"/api/encounters/{HUGE}/").status_code == 404
    assert gm_client.get(f"/api/jobs/{HUGE}/").status_code == 404
    assert gm_client.get(f"/combat/{HUGE}/").status_code == 404


def test_the_new_battle_form_refuses_huge_ids(campaign, hermes, corsair, gm_client):
    response = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": HUGE, "enemy_ship": corsair.pk, "weather": "storm", "start_distance": ""})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    response = gm_client.post(reverse("combat:start", args=[1]), {"version": HUGE})
    assert response.status_code in (302, 404)
    assert not Encounter.objects.exists()
