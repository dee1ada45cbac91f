"""The ships API with the four personas: players receive only name, type and damage of an
enemy ship; only GMs change ships; 409 on a stale version; 400 with the reason."""

import pytest
from django.urls import reverse

from rules.btq.ships import SHIP_TYPES
from ships.services import ship_update

PUBLIC = {"id", "campaign", "name", "guns", "display_name", "side", "type", "tracks", "damage"}


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


def patch(c, ship, data):
    return c.patch(reverse("api-ship-detail", args=[ship.pk]), data,
                   content_type="application/json")


def test_reference_data_is_listed(player_a_client, reference_data):
    types = player_a_client.get(reverse("api-ship-types")).json()
    assert [t["name"] for t in types] == list(SHIP_TYPES)
    traits = player_a_client.get(reverse("api-ship-traits")).json()
    assert len(traits) == 10


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 200), ("outsider", 404),
])
def test_reads_are_for_members(request, campaign, enemy_ship, persona, expected):
    c = client_of(request, persona)
    assert c.get(reverse("api-campaign-ships", args=[campaign.pk])).status_code == expected
    assert c.get(reverse("api-ship-detail", args=[enemy_ship.pk])).status_code == expected


@pytest.mark.parametrize("persona", ["player_a", "player_b"])
def test_players_receive_an_enemys_name_type_and_damage_only(request, campaign, enemy_ship,
                                                             gm, persona):
    ship_update(ship=enemy_ship, actor=gm, version=1,
                tracks={"hull": "xx|..|..", "guns": ".|.|.", "crew": ".|.|.", "rigging": ".|.|."})
    c = client_of(request, persona)
    data = c.get(reverse("api-ship-detail", args=[enemy_ship.pk])).json()
    assert set(data) == PUBLIC
    assert data["type"] == "Cutter" and data["tracks"]["hull"] == "xx|..|.."
    assert data["damage"]["hull"] == "Injured"
    listed = c.get(reverse("api-campaign-ships", args=[campaign.pk])).json()
    enemy = next(s for s in listed if s["side"] == "enemy")
    assert set(enemy) == PUBLIC
    assert "enemy-secret" not in str(listed) and "Heart of Oak" not in str(listed)


def test_players_receive_their_own_ship_without_gm_fields(player_a_client, pc_ship):
    data = player_a_client.get(reverse("api-ship-detail", args=[pc_ship.pk])).json()
    assert data["traits"] == ["Expertly Coppered Hull"]
    assert data["stats"] == {"broadside": 1, "speed": 4, "handling": 3,
                             "boxes": {a: [2, 2, 2] for a in ("hull", "guns", "crew", "rigging")}}
    assert [p["station"] for p in data["postings"]] == ["lieutenant", "midshipman"]
    assert "gm_notes" not in data and "overrides" not in data


def test_the_gm_receives_enemy_crew_and_notes(gm_client, enemy_ship):
    data = gm_client.get(reverse("api-ship-detail", args=[enemy_ship.pk])).json()
    assert data["crew"]["gunnery"] == 4 and data["gm_notes"] == "enemy-secret"
    assert data["traits"] == ["Heart of Oak"]


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 403), ("player_b", 403), ("outsider", 404),
])
def test_only_gms_change_ships(request, pc_ship, persona, expected):
    response = patch(client_of(request, persona), pc_ship, {"version": 1, "name": "Renamed"})
    assert response.status_code == expected
    pc_ship.refresh_from_db()
    assert (pc_ship.name == "Renamed") == (expected == 200)


def test_a_stale_change_is_a_409_and_nothing_is_lost(gm_client, enemy_ship, gm):
    ship_update(ship=enemy_ship, actor=gm, version=1, gm_notes="other gm")
    response = patch(gm_client, enemy_ship, {"version": 1, "morale_state": 2})
    assert response.status_code == 409 and response.json()["version"] == 2
    enemy_ship.refresh_from_db()
    assert enemy_ship.morale_state == 0 and enemy_ship.gm_notes == "other gm"


@pytest.mark.parametrize("data,field", [
    ({"traits": ["Heart of Oak", "Weatherly"]}, "traits"),
    ({"traits": ["Golden Hull"]}, "traits"),
    ({"tracks": {"hull": "x|.|."}}, "tracks"),
    ({"tracks": {"hull": "x.|..|..", "guns": "z|.|.", "crew": ".|.|.", "rigging": ".|.|."}},
     "guns_track"),
    ({"crew": {"gunnery": -2}}, "crew"),
    ({"morale_state": 7}, "morale_state"),
    ({"guns": 40}, "guns"),
    ({"ship_type": "Galleon"}, "ship_type"),
    ({"overrides": {"speed": "fast"}}, "overrides"),
])
def test_bad_input_is_a_400_with_the_reason(gm_client, enemy_ship, data, field):
    response = patch(gm_client, enemy_ship, {"version": 1, **data})
    assert response.status_code == 400
    assert field in response.json()
    enemy_ship.refresh_from_db()
    assert enemy_ship.version == 1


def test_the_gm_adds_a_ship(gm_client, campaign):
    response = gm_client.post(
        reverse("api-campaign-ships", args=[campaign.pk]),
        {"name": "Peregrina", "guns": 36, "ship_type": "Fifth Rate", "side": "enemy",
         "traits": ["Heart of Oak", "Sturdy Rigging"], "crew": {"gunnery": 4}},
        content_type="application/json")
    assert response.status_code == 201
    data = response.json()
    assert data["display_name"] == "Peregrina (36)"
    assert data["tracks"]["hull"] == ".....|.....|....." and data["crew"]["gunnery"] == 4


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_only_gms_add_ships(request, campaign, persona, expected):
    response = client_of(request, persona).post(
        reverse("api-campaign-ships", args=[campaign.pk]),
        {"name": "Sneaky", "ship_type": "Cutter"}, content_type="application/json")
    assert response.status_code == expected
