"""A ship fights in one unfinished battle at a time (its end is written back to the ship), and
the GM may cancel a battle being prepared or running, which writes nothing back and frees its
ships."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from combat.models import Encounter
from combat.selectors import unfinished_encounter_for_ship
from combat.services import encounter_act, encounter_cancel, encounter_create, encounter_start
from rules.engine import get_engine
from ships.services import naval_setup

pytestmark = pytest.mark.django_db


def _create(campaign, gm, hermes, corsair, title="First"):
    return encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title=title,
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind",
                          start_distance=3),
        ships=[hermes, corsair],
    )


def test_a_ship_in_an_unfinished_battle_cannot_join_another(campaign, gm, hermes, corsair,
                                                            gm_client):
    first = _create(campaign, gm, hermes, corsair)
    assert unfinished_encounter_for_ship(hermes) == first
    assert set(first.ships.all()) == {hermes, corsair}
    with pytest.raises(ValidationError, match="already in the battle “First”"):
        _create(campaign, gm, hermes, corsair, title="Second")

    response = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind",
        "start_distance": "3"})
    assert response.status_code == 200
    assert "already in the battle" in response.content.decode()

    response = gm_client.post(reverse("api-encounter-list", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind"},
        content_type="application/json")
    assert response.status_code == 400
    assert "already in the battle" in response.json()["detail"]
    assert Encounter.objects.count() == 1


def test_a_battle_cannot_begin_while_its_ship_is_in_another(campaign, gm, hermes, corsair):
    first = _create(campaign, gm, hermes, corsair)
    # A battle from before battles knew their ships, linked to them afterwards.
    second = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Older",
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind"),
    )
    second.ships.set([hermes, corsair])
    with pytest.raises(ValidationError, match="already in the battle “Older” \\(being set up\\)"):
        encounter_start(encounter=first, user=gm, expected_version=first.version)
    first.refresh_from_db()
    assert first.status == Encounter.Status.SETUP and first.state is None
    encounter_cancel(encounter=second, user=gm, expected_version=second.version)
    assert encounter_start(encounter=first, user=gm, expected_version=first.version).state


def test_cancelling_a_running_battle_writes_nothing_back_and_frees_its_ships(
        campaign, gm, hermes, corsair, player_a, player_a_client):
    tracks_before = hermes.tracks
    first = _create(campaign, gm, hermes, corsair)
    first = encounter_start(encounter=first, user=gm, expected_version=first.version)
    with pytest.raises(PermissionDenied):
        encounter_cancel(encounter=first, user=player_a, expected_version=first.version)
    response = player_a_client.post(reverse("api-encounter-cancel", args=[first.pk]),
                                    {"version": first.version},
                                    content_type="application/json")
    assert response.status_code == 403

    first = encounter_cancel(encounter=first, user=gm, expected_version=first.version)
    assert first.status == Encounter.Status.CANCELLED and first.outcome is None
    assert unfinished_encounter_for_ship(hermes) is None
    hermes.refresh_from_db()
    assert hermes.tracks == tracks_before
    assert first.events.filter(kind="encounter.cancelled", visible_to__isnull=True).exists()
    assert campaign.log_entries.filter(kind="battle.cancelled").exists()
    page = player_a_client.get(reverse("combat:detail", args=[first.pk])).content.decode()
    assert "Cancelled" in page and "Cancel the battle" not in page

    decision = get_engine(first.engine).pending(first.state)[0]
    with pytest.raises(ValidationError, match="over"):
        encounter_act(encounter=first, user=gm, actor=decision.actor,
                      decision_kind=decision.kind, choice=decision.default,
                      expected_version=first.version)
    with pytest.raises(ValidationError, match="Only a battle being prepared or in progress"):
        encounter_cancel(encounter=first, user=gm, expected_version=first.version)
    assert _create(campaign, gm, hermes, corsair, title="Second").status == "setup"


def test_the_gm_cancels_a_prepared_battle_from_its_page(campaign, gm, hermes, corsair,
                                                        gm_client, player_a_client):
    first = _create(campaign, gm, hermes, corsair)
    assert "Cancel the battle" in gm_client.get(
        reverse("combat:detail", args=[first.pk])).content.decode()
    response = gm_client.post(reverse("combat:cancel", args=[first.pk]),
                              {"version": first.version}, follow=True)
    assert "Its ships are then free to fight again." in response.content.decode()
    first.refresh_from_db()
    assert first.status == Encounter.Status.CANCELLED
    assert player_a_client.get(reverse("combat:detail", args=[first.pk])).status_code == 404


def test_the_battle_list_shows_running_battles_first_then_the_newest(
        campaign, gm, hermes, corsair, gm_client):
    from combat.selectors import encounters_for_user

    others = campaign.ships.exclude(pk__in=[hermes.pk, corsair.pk])
    pc_ship, enemy_ship = others.get(side="pc"), others.get(side="enemy")

    old = _create(campaign, gm, hermes, corsair, title="Old")
    encounter_cancel(encounter=old, user=gm, expected_version=old.version)
    running = _create(campaign, gm, hermes, corsair, title="Running")
    encounter_start(encounter=running, user=gm, expected_version=running.version)
    newest = _create(campaign, gm, pc_ship, enemy_ship, title="Newest")
    assert list(encounters_for_user(gm, campaign)) == [running, newest, old]
    page = gm_client.get(reverse("combat:list", args=[campaign.pk])).content.decode()
    assert page.index("Running") < page.index("Newest") < page.index("Old")
