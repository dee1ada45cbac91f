"""Ship pages with the four personas: players see name, type and damage of an enemy, never
its crew skills, traits or notes; only GMs create and edit ships and postings."""

import pytest
from django.urls import reverse

from ships.forms import ShipForm
from ships.models import Ship, ShipTrait, ShipType
from ships.services import ship_update


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


def edit_data(ship, **changes):
    data = ShipForm.initial_for(ship)
    data["traits"] = [t.pk for t in data["traits"]]
    data["overrides"] = "{}" if not data["overrides"] else str(data["overrides"])
    data["guns"] = data["guns"] or ""
    data.update(changes)
    return data


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 200), ("outsider", 404),
])
@pytest.mark.parametrize("which", ["pc_ship", "enemy_ship"])
def test_ship_pages_are_for_members(request, persona, expected, which):
    ship = request.getfixturevalue(which)
    response = client_of(request, persona).get(reverse("ships:detail", args=[ship.pk]))
    assert response.status_code == expected


@pytest.mark.parametrize("persona", ["player_a", "player_b"])
def test_players_see_an_enemy_ships_name_type_and_damage_only(request, enemy_ship, gm, persona):
    ship_update(ship=enemy_ship, actor=gm, version=1,
                tracks={"hull": "x.|..|..", "guns": ".|x|.", "crew": ".|.|.", "rigging": ".|.|."})
    html = client_of(request, persona).get(
        reverse("ships:detail", args=[enemy_ship.pk])).content.decode()
    assert "Le Secret (14)" in html and "Cutter" in html
    assert "x.|..|.." in html and "Maimed" in html
    for hidden in ("enemy-secret", "Heart of Oak", "Crew skills", "Seamanship", "Broadside",
                   "Ship Morale"):
        assert hidden not in html


def test_the_gm_sees_everything_of_an_enemy_ship(gm_client, enemy_ship):
    html = gm_client.get(reverse("ships:detail", args=[enemy_ship.pk])).content.decode()
    for shown in ("enemy-secret", "Heart of Oak", "Crew skills", "Seamanship", "Edit"):
        assert shown in html


def test_players_see_their_own_ship_but_not_its_gm_notes(player_a_client, pc_ship, gm):
    ship_update(ship=pc_ship, actor=gm, version=1, gm_notes="the purser is a spy")
    html = player_a_client.get(reverse("ships:detail", args=[pc_ship.pk])).content.decode()
    assert "Expertly Coppered Hull" in html and "Lieutenant Anne Able" in html
    assert "Speed" in html and "the purser is a spy" not in html
    assert reverse("ships:edit", args=[pc_ship.pk]) not in html


@pytest.mark.parametrize("persona,expected", [
    ("player_a", 403), ("player_b", 403), ("outsider", 404),
])
@pytest.mark.parametrize("which", ["pc_ship", "enemy_ship"])
def test_only_gms_edit_ships(request, persona, expected, which):
    ship = request.getfixturevalue(which)
    c = client_of(request, persona)
    url = reverse("ships:edit", args=[ship.pk])
    assert c.get(url).status_code == expected
    assert c.post(url, edit_data(ship, name="Hijacked")).status_code == expected
    ship.refresh_from_db()
    assert ship.name != "Hijacked"


def test_the_gm_edits_a_ships_damage(gm_client, enemy_ship):
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]),
                              edit_data(enemy_ship, hull_track="xx|..|..", morale_state=1))
    assert response.status_code == 302
    enemy_ship.refresh_from_db()
    assert enemy_ship.hull_track == "xx|..|.." and enemy_ship.morale_state == 1
    assert enemy_ship.version == 2 and enemy_ship.gm_notes == "enemy-secret"


def test_moving_a_hidden_ship_to_the_players_side_asks_first(gm_client, enemy_ship,
                                                             player_a_client):
    """The players see the ships of their side in full: the GM moves an enemy there only
    once he says he means it, and her GM notes never show."""
    url = reverse("ships:edit", args=[enemy_ship.pk])
    assert "show her to them in full" in gm_client.get(url).content.decode()
    response = gm_client.post(url, edit_data(enemy_ship, side="pc"))
    assert response.status_code == 200
    assert "tick this to move her there" in response.content.decode()
    enemy_ship.refresh_from_db()
    assert enemy_ship.side == "enemy" and enemy_ship.version == 1
    response = gm_client.post(url, edit_data(enemy_ship, side="pc", show_in_full="on"))
    assert response.status_code == 302
    enemy_ship.refresh_from_db()
    assert enemy_ship.side == "pc"
    page = player_a_client.get(reverse("ships:detail", args=[enemy_ship.pk])).content.decode()
    assert "enemy-secret" not in page
    assert "show her to them in full" not in gm_client.get(url).content.decode()


def test_too_many_traits_get_a_message_beside_the_field(gm_client, enemy_ship):
    traits = list(ShipTrait.objects.filter(name__in=["Heart of Oak", "Weatherly"]))
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]),
                              edit_data(enemy_ship, traits=[t.pk for t in traits]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "may take 1 trait(s), not 2" in html and 'aria-invalid="true"' in html
    assert enemy_ship.traits.count() == 1


def test_a_bad_track_or_overrides_get_messages(gm_client, enemy_ship):
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]),
                              edit_data(enemy_ship, hull_track="x|y", overrides="{not json"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Enter a valid JSON" in html
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]),
                              edit_data(enemy_ship, hull_track="x|y"))
    assert "three segments" in response.content.decode()
    enemy_ship.refresh_from_db()
    assert enemy_ship.version == 1


def test_a_stale_edit_is_refused_and_the_input_kept(gm_client, enemy_ship, gm):
    data = edit_data(enemy_ship, name="Renamed")
    ship_update(ship=enemy_ship, actor=gm, version=1, gm_notes="changed")
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]), data)
    html = response.content.decode()
    assert response.status_code == 200 and "changed by someone else" in html
    assert 'value="Renamed"' in html
    enemy_ship.refresh_from_db()
    assert enemy_ship.name == "Le Secret" and enemy_ship.gm_notes == "changed"


def test_the_gm_adds_a_ship(gm_client, campaign):
    response = gm_client.post(reverse("ships:new", args=[campaign.pk]), {
        "name": "Minerve", "guns": 40, "ship_type": ShipType.objects.get(name="Fifth Rate").pk,
        "side": "enemy", "traits": [t.pk for t in ShipTrait.objects.filter(
            name__in=["Heart of Oak", "Sturdy Rigging"])],
        **{f"crew_{k}": v for k, v in {"awareness": 4, "command": 3, "first_aid": 4,
                                        "gunnery": 4, "maritime": 5, "seamanship": 5}.items()},
        "overrides": "", "gm_notes": "",
    })
    ship = Ship.objects.get(name="Minerve")  # BtQ L2859-2885, Guns 4/4/4 (N26)
    assert response.url == reverse("ships:detail", args=[ship.pk])
    assert ship.tracks == {"hull": ".....|.....|.....", "guns": "....|....|....",
                           "crew": "....|....|....", "rigging": ".....|.....|....."}
    assert ship.crew["maritime"] == 5


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_only_gms_add_ships(request, campaign, persona, expected):
    assert client_of(request, persona).get(
        reverse("ships:new", args=[campaign.pk])).status_code == expected


def test_the_gm_posts_and_unposts_a_character(gm_client, pc_ship, npc):
    gm_client.post(reverse("ships:posting_add", args=[pc_ship.pk]),
                   {"character": npc.pk, "station": "boatswain"})
    posting = pc_ship.postings.get(character=npc)
    assert posting.station == "boatswain"
    gm_client.post(reverse("ships:posting_remove", args=[pc_ship.pk, posting.pk]))
    assert not pc_ship.postings.filter(character=npc).exists()


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_only_gms_change_postings(request, pc_ship, pc_a, persona, expected):
    c = client_of(request, persona)
    posting = pc_ship.postings.get(character=pc_a)
    assert c.post(reverse("ships:posting_add", args=[pc_ship.pk]),
                  {"character": pc_a.pk, "station": "captain"}).status_code == expected
    assert c.post(reverse("ships:posting_remove",
                          args=[pc_ship.pk, posting.pk])).status_code == expected
    posting.refresh_from_db()
    assert posting.station == "lieutenant"
