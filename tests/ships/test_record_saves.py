"""A ship saved as it was writes nothing and keeps its version; a stale save is refused with
the typed values beside the saved ones and the new version, so that a second save puts
them in place deliberately (two of the GM's tabs, or two GMs)."""

from html import unescape

import pytest
from django.urls import reverse

from campaigns.models import CampaignLogEntry
from ships.services import ship_update
from tests.conftest import form_as_sent

pytestmark = pytest.mark.django_db


def opened(client, ship) -> dict:
    page = client.get(reverse("ships:edit", args=[ship.pk]))
    assert page.status_code == 200
    return form_as_sent(page.content.decode())


@pytest.mark.parametrize("which", ["pc_ship", "enemy_ship"])
def test_a_ship_saved_as_it_was_writes_nothing(request, gm, gm_client, which):
    ship = request.getfixturevalue(which)
    ship.refresh_from_db()
    ship = ship_update(ship=ship, actor=gm, version=ship.version,
                       gm_notes="Fast.\nCarries dispatches.")
    version, logged = ship.version, CampaignLogEntry.objects.count()
    response = gm_client.post(reverse("ships:edit", args=[ship.pk]), opened(gm_client, ship),
                              follow=True)
    assert "Nothing to save: no field changed." in response.content.decode()
    ship.refresh_from_db()
    assert ship.version == version and CampaignLogEntry.objects.count() == logged


def test_the_service_keeps_the_version_of_a_change_to_the_same_values(enemy_ship, gm):
    enemy_ship.refresh_from_db()
    version = enemy_ship.version
    same = ship_update(ship=enemy_ship, actor=gm, version=version, name="Le Secret",
                       traits=["Heart of Oak"], guns=14)
    assert same.version == version


def test_a_stale_ship_save_shows_both_values_and_a_second_save_applies_the_typed_ones(
        gm_client, enemy_ship):
    enemy_ship.refresh_from_db()
    first = opened(gm_client, enemy_ship)
    gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]),
                   {**opened(gm_client, enemy_ship), "guns": "16"})
    enemy_ship.refresh_from_db()
    now = enemy_ship.version
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]),
                              {**first, "name": "Le Fantôme"})
    assert response.status_code == 200
    page = unescape(response.content.decode())
    assert "<th scope=\"row\">Name</th><td>Le Fantôme</td><td>Le Secret</td>" in page
    assert "<th scope=\"row\">Guns</th><td>14</td><td>16</td>" in page
    again = form_as_sent(response.content.decode())
    assert again["version"] == str(now)
    gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]), again)
    enemy_ship.refresh_from_db()
    assert (enemy_ship.name, enemy_ship.guns, enemy_ship.version) == ("Le Fantôme", 14, now + 1)
