"""Per-ship overrides stay within sane ranges (ships.services.OVERRIDE_RANGES): the form and
the API go through the one check, and a refused figure leaves the ship as it was."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ships.models import ShipType
from ships.services import ship_create, ship_stats_of, ship_update
from tests.ships.test_pages import edit_data

BAD = [
    ({"handling": 100000}, "handling must be a whole number from -5 to 10"),
    ({"broadside": 11}, "broadside must be a whole number from 0 to 10"),
    ({"broadside": -1}, "from 0 to 10"),
    ({"speed": 9}, "speed must be a whole number from 0 to 8"),
    ({"speed": 2.5}, "from 0 to 8"),
    ({"handling": True}, "from -5 to 10"),
    ({"hull": 13}, "hull: boxes per segment"),
    ({"hull": [1, 2, 0]}, "from 1 to 12"),
    ({"hull": [1, 2]}, "from 1 to 12"),
    ({"wings": 2}, "not a figure you can override"),
]


@pytest.mark.parametrize("overrides,message", BAD)
def test_out_of_range_overrides_are_refused_with_the_range(enemy_ship, gm, overrides,
                                                            message):
    with pytest.raises(ValidationError, match=message):
        ship_update(ship=enemy_ship, actor=gm, version=1, overrides=overrides)
    enemy_ship.refresh_from_db()
    assert enemy_ship.version == 1 and enemy_ship.overrides == {}


def test_the_extremes_are_accepted(enemy_ship, gm, campaign):
    ship = ship_update(ship=enemy_ship, actor=gm, version=1,
                       overrides={"broadside": 10, "speed": 0, "handling": -5,
                                  "hull": [1, 12, 12]})
    stats = ship_stats_of(ship)
    assert (stats.broadside, stats.speed, stats.handling) == (10, 0, -5)
    with pytest.raises(ValidationError, match="handling"):
        ship_create(campaign=campaign, actor=gm, name="Absurd",
                    ship_type=ShipType.objects.get(name="Cutter"),
                    overrides={"handling": 100000})


def test_the_api_refuses_an_absurd_override_with_a_400(gm_client, campaign, enemy_ship):
    response = gm_client.post(f"/api/campaigns/{campaign.pk}/ships/",
                              {"name": "Absurd", "ship_type": "Cutter",
                               "overrides": {"handling": 100000}}, content_type="application/json")
    assert response.status_code == 400
    assert "from -5 to 10" in str(response.json()["overrides"])
    response = gm_client.patch(f"/api/ships/{enemy_ship.pk}/",
                               {"version": 1, "overrides": {"speed": 50}},
                               content_type="application/json")
    assert response.status_code == 400 and "from 0 to 8" in str(response.json())


def test_the_edit_form_shows_the_range(gm_client, enemy_ship):
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]),
                              edit_data(enemy_ship, overrides='{"handling": 100000}'))
    assert response.status_code == 200
    assert "from -5 to 10" in response.content.decode()
    enemy_ship.refresh_from_db()
    assert enemy_ship.version == 1
