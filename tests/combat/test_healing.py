"""Healing at the table (BtQ L1361-1366, L2409-2416; ``rules/btq_characters.md`` §5.4; D4,
D12): the heal test is a card test; a damaged ship is repaired or refitted and fights the
next battle."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaigns.models import CampaignLogEntry
from characters.services import (
    character_heal,
    character_heal_unlock,
    character_update,
    trait_add,
)
from combat.card_tests.services import card_test_call
from combat.healing import heal_call, ship_repair_call
from combat.models import Encounter
from combat.services import encounter_create, encounter_start
from rules.btq.characters import DamageState
from rules.btq.tests import Pool
from ships.services import naval_setup, ship_refit, ship_update
from tests.combat.conftest import ROUND_1, ROUNDS_2_3

pytestmark = pytest.mark.django_db

H, INJURED, MAIMED, DEAD = DamageState


def _injure(pc, gm, **fields):
    pc.refresh_from_db()
    character_update(character=pc, actor=gm, version=pc.version, **fields)
    pc.refresh_from_db()
    return pc


def test_an_injured_health_heals_by_a_first_aid_card_test(campaign, gm, pc_a, player_a, turn):
    pc = _injure(pc_a, gm, health_state=INJURED, skills={"first_aid": 2})
    test = heal_call(character=pc, area="health", actor=gm)
    assert test.engine == "btq_test" and test.setup["kind"] == "simple"
    assert test.setup["sides"][0]["pool"]["skill"] == "first_aid"
    assert test.seed_hash and test.terms["heal"]["area"] == "health"
    turn(test, player_a, "9C  2C 5H")  # 2C: an Ordinary success
    pc.refresh_from_db()
    assert pc.health_state == H
    assert CampaignLogEntry.objects.filter(kind="character.healed").exists()
    assert pc.history.filter(changes__has_key="Health").exists()


def test_a_failed_heal_locks_the_area_until_another_challenge(campaign, gm, pc_a, player_a,
                                                              turn):
    pc = _injure(pc_a, gm, wealth_state=INJURED, skills={"diplomacy": 2})
    turn(heal_call(character=pc, area="wealth", actor=gm), player_a, "9C  2H 5H")
    pc.refresh_from_db()
    assert (pc.wealth_state, pc.heal_locks) == (INJURED, ["wealth"])
    with pytest.raises(ValidationError, match="completed another challenge"):
        heal_call(character=pc, area="wealth", actor=gm)
    character_heal_unlock(character=pc, actor=gm)
    assert heal_call(character=pc, area="wealth", actor=gm).setup["sides"][0]["pool"][
        "skill"] == "diplomacy"


def test_the_surgeon_heals_another_and_a_physician_patient_adds_the_crew_s_card(
        campaign, gm, pc_a, pc_b, player_b, turn):
    pc = _injure(pc_a, gm, health_state=INJURED)
    trait_add(character=pc, actor=gm, trait="physician")
    _injure(pc_b, gm, skills={"first_aid": 1})
    test = heal_call(character=pc, area="health", actor=gm, healer=pc_b)
    pool = test.setup["sides"][0]["pool"]
    assert pool["modifiers"] == [{"source": "Physician in the scene", "cards": 1}]
    turn(test, player_b, "9C  2C 5H")
    pc.refresh_from_db()
    assert pc.health_state == H


def test_maimed_heals_through_a_challenge_dead_through_a_mission_health_dead_never(
        campaign, gm, pc_a, player_a):
    pc = _injure(pc_a, gm, health_state=MAIMED, wealth_state=DEAD)
    with pytest.raises(ValidationError, match="successful challenge"):
        heal_call(character=pc, area="health", actor=gm)
    with pytest.raises(PermissionDenied):
        character_heal(character=pc, area="health", actor=player_a, how="challenge")
    assert character_heal(character=pc, area="health", actor=gm, how="challenge") == INJURED
    assert character_heal(character=pc, area="wealth", actor=gm, how="mission") == MAIMED
    pc = _injure(pc, gm, health_state=DEAD)
    with pytest.raises(ValidationError, match="back from the dead"):
        character_heal(character=pc, area="health", actor=gm, how="mission")


def test_a_player_cannot_call_a_heal(campaign, pc_a, gm, player_a, player_a_client):
    _injure(pc_a, gm, health_state=INJURED)
    with pytest.raises(PermissionDenied):
        heal_call(character=pc_a, area="health", actor=player_a)
    response = player_a_client.post(reverse("api-heal-test", args=[pc_a.pk]),
                                    {"area": "health"}, content_type="application/json")
    assert response.status_code == 403


def test_d12_is_but_a_scratch_on_the_sheet(campaign, gm, pc_a, player_a, jones, turn):
    """D12 through a card test: a lost contest's Ordinary wound only scratches, the next is
    real."""
    trait_add(character=pc_a, actor=gm, trait="is_but_a_scratch")

    def lose():
        test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk,
                              skill="seamanship", opposition="npc", opponent=jones.pk,
                              opponent_skill="seamanship", intent="a brawl", at_risk="health")
        # CoF 4S; Anne's four cards miss, Jones's 7S is an Ordinary success.
        turn(test, player_a, "4S  2H 3H 5H 6H  7S 2D 3D 5D")
        pc_a.refresh_from_db()

    lose()
    assert (pc_a.health_state, pc_a.scratched) == (H, True)
    assert "Is But A Scratch" in CampaignLogEntry.objects.filter(
        kind="test.finished").latest("pk").text
    lose()
    assert (pc_a.health_state, pc_a.scratched) == (INJURED, False)


@pytest.mark.parametrize("setting", ["on_heal", "session_end", "both"])
def test_setting_scratch_resets_on_the_sheet(campaign, gm, pc_a, player_a, jones, turn,
                                             setting):
    """A17: O'Toole's scratch, used by a lost brawl and then wounded past, comes back when
    his Health heals to Healthy (the default), at the session's end, or at either."""
    from campaigns.missions.services import session_create, session_end
    from campaigns.services import campaign_update

    campaign_update(campaign=campaign, actor=gm, version=campaign.version,
                    settings={"scratch_resets": setting})
    trait_add(character=pc_a, actor=gm, trait="is_but_a_scratch")
    session = session_create(campaign=campaign, actor=gm, title="The brawl")
    for _ in range(2):  # the scratch, then a real wound
        test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk,
                              skill="seamanship", opposition="npc", opponent=jones.pk,
                              opponent_skill="seamanship", intent="a brawl", at_risk="health")
        turn(test, player_a, "4S  2H 3H 5H 6H  7S 2D 3D 5D")
    pc_a.refresh_from_db()
    assert pc_a.health_state == INJURED
    character_heal(character=pc_a, area="health", actor=gm, how="test")
    pc_a.refresh_from_db()
    assert (pc_a.health_state, pc_a.scratched) == (H, setting == "session_end")
    session_end(session=session, actor=gm, version=session.version)
    pc_a.refresh_from_db()
    assert pc_a.scratched is False
    said = campaign.log_entries.filter(text__contains="Is But A Scratch, Sir! is ready again")
    assert said.count() == (1 if setting == "session_end" else 0)


def test_crusty_old_seadog_on_the_sheet_adds_its_card(campaign, gm, pc_a, jones):
    """TV-10: the trait's card comes from the sheet, Maritime by default (A4)."""
    trait_add(character=pc_a, actor=gm, trait="crusty_old_seadog", reputations=[
        {"descriptor": "Trusted by", "subject": "a"}, {"descriptor": "Trusted by",
                                                       "subject": "b"}])
    _injure(pc_a, gm, skills={"maritime": 2})
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="maritime",
                          opposition="difficulty", difficulty="routine", intent="knots")
    assert test.setup["sides"][0]["pool"]["modifiers"] == [
        {"source": "Crusty Old Seadog", "cards": 1}]
    stated = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="maritime",
                            opposition="difficulty", difficulty="routine", intent="knots",
                            modifiers=[{"source": "Crusty Old Seadog", "cards": 1}])
    assert Pool.from_dict(stated.setup["sides"][0]["pool"]).size() == 3  # counted once


def test_a_ship_that_lost_a_battle_is_refitted_and_repaired_and_fights_the_next(
        book_battle, play, hermes, corsair, smith, campaign, gm, gm_client, player_a_client):
    """The book's battle played to the end through the services: the Corsair loses with her
    Crew Dead and is the players' prize; retaken by the enemy she still cannot fight with her
    Crew Dead; the GM refits her in port (logged); the next battle begins."""
    from ships.models import Prize
    from ships.prizes import prize_resolve

    def new_battle():
        return encounter_create(campaign=campaign, user=gm, engine="btq_naval", title="Again",
                                setup=naval_setup(pc_ship=hermes, enemy_ship=corsair,
                                                  weather="good_wind", start_distance=3),
                                ships=[hermes, corsair])

    encounter = play(book_battle, ROUND_1 + [c.format(smith=smith.pk) for c in ROUNDS_2_3])
    assert encounter.status == Encounter.Status.FINISHED
    corsair.refresh_from_db()
    hermes.refresh_from_db()
    assert corsair.tracks["crew"] == "x|x|x"
    with pytest.raises(ValidationError, match="prize"):
        new_battle()
    prize = Prize.objects.get(ship=corsair, status=Prize.Status.HELD)
    prize_resolve(prize=prize, actor=gm, version=prize.version, status="recaptured")
    with pytest.raises(ValidationError, match="Dead cannot fight"):
        new_battle()

    assert player_a_client.post(reverse("api-ship-refit", args=[corsair.pk]),
                                {"version": corsair.version},
                                content_type="application/json").status_code == 403
    page = gm_client.get(reverse("ships:refit", args=[corsair.pk]))
    assert page.status_code == 200 and "Refit" in page.content.decode()
    corsair = ship_refit(ship=corsair, actor=gm, version=corsair.version)
    assert set(corsair.tracks.values()) <= {".|.|.", "..|..|..", "...|...|..."}
    assert CampaignLogEntry.objects.filter(kind="ship.refit", data__ship=corsair.pk).exists()

    again = new_battle()
    again = encounter_start(encounter=again, user=gm, expected_version=again.version)
    assert again.status == Encounter.Status.ACTIVE
    assert again.setup["ships"][1]["tracks"] == corsair.tracks


def test_between_battles_a_pc_aboard_mends_a_box_and_the_captain_heals_the_crew(
        campaign, gm, pc_ship, pc_a, player_a, turn):
    """The Repair step's test between battles (BtQ L2409-2416): Anne's Seamanship 4 against a
    lone Card of Fate; her Critical may clear a box up to Maimed, and clears the Injured one
    that leaves the Hull Healthy. Ship Morale Injured heals by a Command test (BtQ L1385)."""
    pc_ship.refresh_from_db()
    pc_ship = ship_update(ship=pc_ship, actor=gm, version=pc_ship.version, morale_state=1,
                          tracks={**pc_ship.tracks, "hull": "xx|x.|.."})
    test = ship_repair_call(ship=pc_ship, area="hull", character=pc_a, actor=gm)
    assert test.setup["sides"][0]["pool"]["skill"] == "seamanship"
    turn(test, player_a, "9C  9H 2D 3D 4D")
    pc_ship.refresh_from_db()
    assert pc_ship.hull_track == "x.|x.|.."
    assert CampaignLogEntry.objects.filter(kind="ship.repaired").exists()
    _injure(pc_a, gm, skills={"command": 2})
    turn(heal_call(character=pc_a, area="ship_morale", actor=gm), player_a, "9C  2C 3D")
    pc_ship.refresh_from_db()
    assert pc_ship.morale_state == 0


def test_a_repair_needs_damage_and_a_pc_aboard(campaign, gm, pc_ship, pc_a, npc):
    with pytest.raises(ValidationError, match="no damage to repair"):
        ship_repair_call(ship=pc_ship, area="hull", character=pc_a, actor=gm)
    with pytest.raises(ValidationError, match="player character"):
        ship_repair_call(ship=pc_ship, area="hull", character=npc, actor=gm)


def test_tv16_overcoming_great_hardship_lifts_the_penalty_for_the_challenge(
        campaign, gm, pc_a, player_a):
    """TV-16 on the sheet (BtQ L1415-1426): with the optional rule, Anne (Guts 3, Health
    Maimed) spends a point of Guts: her test with Health at risk has no -3 and no Guts gate,
    and her Guts is 2 until the Naval Mission ends; once the challenge is over the penalty
    is back."""
    from campaigns.services import campaign_update
    from characters.services import character_hardship_end, character_hardship_spend
    from combat.card_tests import table

    pc = _injure(pc_a, gm, health_state=MAIMED, guts=3)

    def pool_and_gates():
        test = card_test_call(campaign=campaign, actor=gm, character=pc.pk, skill="seamanship",
                              opposition="difficulty", difficulty="routine", intent="climb",
                              at_risk="health")
        setup = table.Setup.of(campaign, test.terms)
        return Pool.from_dict(test.setup["sides"][0]["pool"]).size(), table.gates(setup)

    with pytest.raises(ValidationError, match="does not use the optional rule"):
        character_hardship_spend(character=pc, measure="guts", actor=player_a)
    assert pool_and_gates() == (1, ["Health is Maimed: first a Guts test"])
    campaign.refresh_from_db()
    campaign_update(campaign=campaign, actor=gm, version=campaign.version,
                    settings={"great_hardship": True})
    assert character_hardship_spend(character=pc, measure="guts", actor=player_a) == 2
    pc.refresh_from_db()
    assert (pc.current_measure("guts"), pc.overcoming) == (2, ["health"])
    assert pool_and_gates() == (4, [])
    character_heal_unlock(character=pc, actor=gm)  # the challenge is over
    pc.refresh_from_db()
    assert pool_and_gates() == (1, ["Health is Maimed: first a Guts test"])
    assert pc.current_measure("guts") == 2
    character_hardship_end(character=pc, actor=gm)
    pc.refresh_from_db()
    assert pc.current_measure("guts") == 3
