"""Ship Morale is the ship's (``rules/btq_characters.md`` A15, ``btq_naval.md`` N22): one
track per ship and crew, mirrored on the sheet of each character who serves aboard, and
changed on the ship alone."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from characters.services import character_update
from ships.services import posting_remove, posting_set, ship_update


def sheet(client, character) -> dict:
    return client.get(reverse("api-character-detail", args=[character.pk])).json()


def page(client, character) -> str:
    return client.get(reverse("characters:detail", args=[character.pk])).content.decode()


def test_every_sheet_of_the_crew_mirrors_the_ship(gm, gm_client, player_a_client,
                                                  player_b_client, pc_a, pc_b, pc_ship):
    ship_update(ship=pc_ship, actor=gm, version=pc_ship.version, morale_state=1)
    for client in (gm_client, player_a_client, player_b_client):
        assert sheet(client, pc_a)["ship_morale_state"] == 1
        assert sheet(client, pc_b)["ship_morale_state"] == 1
        assert ('Injured <small class="muted">(the ship\'s: <span class="name">'
                'HMS Testament (22)</span>)') in page(client, pc_b)
    listed = gm_client.get(reverse("api-campaign-characters", args=[pc_a.campaign_id])).json()
    assert {c["name"]: c.get("ship_morale_state") for c in listed}["Anne Able"] == 1


def test_a_character_who_serves_on_no_ship_has_no_ship_morale(gm, gm_client, pc_a):
    posting_remove(posting=pc_a.postings.get(), actor=gm)
    assert sheet(gm_client, pc_a)["ship_morale_state"] is None
    assert "serves on no ship" in page(gm_client, pc_a)


def test_players_never_see_the_ship_morale_of_a_ship_hidden_from_them(
        gm, gm_client, player_a_client, player_b_client, pc_a, enemy_ship):
    ship_update(ship=enemy_ship, actor=gm, version=enemy_ship.version, morale_state=2)
    posting_set(ship=enemy_ship, character=pc_a, station="rating", actor=gm)
    assert sheet(gm_client, pc_a)["ship_morale_state"] == 2
    for client in (player_a_client, player_b_client):
        assert sheet(client, pc_a)["ship_morale_state"] is None
        assert "Maimed" not in page(client, pc_a)
    assert "Maimed" in page(gm_client, pc_a)


def test_ship_morale_is_changed_on_the_ship_not_on_a_character(gm, gm_client, pc_a):
    response = gm_client.patch(reverse("api-character-detail", args=[pc_a.pk]),
                               {"version": 1, "ship_morale_state": 2},
                               content_type="application/json")
    assert response.status_code == 400 and "ship" in str(response.json()["ship_morale_state"])
    with pytest.raises(ValidationError, match="ship_morale_state"):
        character_update(character=pc_a, actor=gm, version=1, ship_morale_state=2)
    pc_a.refresh_from_db()
    assert pc_a.version == 1 and pc_a.ship_morale_state == 0


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_ship_the_worst_ship_morale_of_its_crew():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("characters", "0002_wealth_and_reputations"), ("ships", "0001_initial"),
              ("campaigns", "0002_card_tests_and_decks")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    campaign = apps.get_model("campaigns", "Campaign").objects.create(name="Old")
    ship_type = apps.get_model("ships", "ShipType").objects.create(
        name="Cutter", command="Lieutenant", broadside=0, speed=0, handling=0)
    Ship = apps.get_model("ships", "Ship")
    ours = Ship.objects.create(campaign=campaign, name="Ours", ship_type=ship_type,
                               morale_state=1)
    calm = Ship.objects.create(campaign=campaign, name="Calm", ship_type=ship_type,
                               morale_state=2)
    Character = apps.get_model("characters", "Character")
    Posting = apps.get_model("ships", "ShipPosting")
    for name, state, ship in (("A", 0, ours), ("B", 3, ours), ("C", 1, calm), ("D", 2, None)):
        character = Character.objects.create(campaign=campaign, name=name,
                                             ship_morale_state=state)
        if ship is not None:
            Posting.objects.create(ship=ship, character=character, station="rating")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    from ships.models import Ship as ShipNow

    assert ShipNow.objects.get(name="Ours").morale_state == 3  # B's Dead, the worst
    assert ShipNow.objects.get(name="Ours").version == 2
    assert ShipNow.objects.get(name="Calm").morale_state == 2  # the ship's own was worse
    assert ShipNow.objects.get(name="Calm").version == 1
