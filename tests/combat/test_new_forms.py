"""The GM's forms that start a battle or a wargame read well: New battle shows the damage each
ship brings into it and puts every "More ships" checkbox with its ship's name; New wargame
offers its scenarios under their rule book."""

import pytest
from django.test.html import parse_html
from django.urls import reverse

from rules.btq.characters import DamageState
from rules.btq.ships import DamageTrack
from ships.services import ship_record_battle

pytestmark = pytest.mark.django_db


def _marked(text: str, segments: int, extra: int = 0) -> str:
    """``text``'s track with its first ``segments`` segments crossed and ``extra`` boxes of
    the next."""
    sizes = DamageTrack.parse(text).sizes
    return "|".join("x" * size if i < segments else "x" * extra + "." * (size - extra)
                    if i == segments else "." * size for i, size in enumerate(sizes))


def test_new_battle_shows_each_ships_damage_in_words(campaign, gm_client, pc_ship,
                                                     enemy_ship, hidden_ship):
    ship_record_battle(ship=enemy_ship, tracks={**enemy_ship.tracks,
                                                "crew": _marked(enemy_ship.crew_track, 2),
                                                "hull": _marked(enemy_ship.hull_track, 0, 1)},
                       morale=DamageState.INJURED, note="an earlier fight")
    page = gm_client.get(reverse("combat:new", args=[campaign.pk])).content.decode()
    picker = page.split('name="enemy_ship"')[1].split("</select>")[0]
    assert (f'<option value="{enemy_ship.pk}">{enemy_ship.display_name}: Hull 1 box marked, '
            "Crew Maimed, Ship Morale Injured</option>") in picker
    assert f"{hidden_ship.display_name}: Healthy</option>" in picker
    ours = page.split('name="pc_ship"')[1].split("</select>")[0]
    assert f"{pc_ship.display_name}: Healthy</option>" in ours


def test_each_more_ships_checkbox_sits_with_its_ships_name(campaign, gm_client, pc_ship,
                                                           enemy_ship, hidden_ship, sparrow):
    url = reverse("combat:new", args=[campaign.pk])
    page = parse_html(gm_client.get(url).content.decode())
    # the ships by name: HMS Sparrow before HMS Testament, La Sombra before Le Secret
    # each box names its side's main-ship select, for static/js/moreships.js
    for field, label, ships, main in (
            ("allies", "More ships on the players&#x27; side", [sparrow, pc_ship], "pc_ship"),
            ("more_enemies", "More enemy ships", [hidden_ship, enemy_ship], "enemy_ship")):
        boxes = "".join(
            f'<label><input type="checkbox" name="{field}" value="{ship.pk}" '
            f'data-main-ship="{main}" id="id_{field}_{i}"> {ship.display_name}: Healthy</label>'
            for i, ship in enumerate(ships))
        assert parse_html(f'<fieldset data-field="{field}"><legend>{label}</legend>{boxes}'
                          "</fieldset>") in page


def test_a_side_of_one_ship_has_no_more_ships_picker(campaign, gm_client, pc_ship,
                                                     enemy_ship, hidden_ship):
    """The players have only HMS Testament, the one chosen as their ship: there is no other
    to offer them, so the picker is not shown; the enemy's, with two ships, is."""
    page = gm_client.get(reverse("combat:new", args=[campaign.pk])).content.decode()
    assert 'data-field="more_enemies"' in page and 'name="more_enemies"' in page
    assert 'data-field="allies"' not in page and 'name="allies"' not in page
    assert "More ships on the players" not in page


def test_new_wargame_offers_its_scenarios_under_their_rule_book(campaign, gm_client):
    url = reverse("combat:wargame_new", args=[campaign.pk])
    page = gm_client.get(url).content.decode()
    books = [part.split("</strong>")[0] for part in page.split("<legend><strong>")[1:]]
    assert books == ["Brethren of the Coast: a fleet action",
                     "British vs Pirates: a battle on the sea tiles",
                     "Horse, Foot and Guns: a land battle", "Viking sea fight"]
    brethren, bvp = page.split("<legend><strong>")[1:3]
    assert "Example: a first broadside at short range" in brethren
    assert 'value="bvp/first_broadside"' in bvp and "First broadside: two frigates" in bvp
    assert 'value="bvp/' not in brethren
    # once chosen, the list folds away under the scenario's name and book
    page = gm_client.get(url, {"scenario": "bvp/first_broadside"}).content.decode()
    assert ("<summary>Scenario: First broadside: two frigates within range (British vs "
            "Pirates: a battle on the sea tiles)</summary>") in page
    assert 'value="bvp/first_broadside" id="id_scenario_' in page and " checked>" in page
