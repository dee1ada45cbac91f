"""The fights' API: the GM prepares a skirmish, a duel or a boarding with the checks of the
pages (a reason per field, never a 500), a player may not; a finished fight's replay as JSON,
409 while its seed is secret, and a player's replay without the GM's data."""

import pytest
from django.urls import reverse

from characters.models import Character
from characters.services import character_create, trait_add
from combat.models import Encounter

pytestmark = pytest.mark.django_db


@pytest.fixture
def foe(campaign, gm):
    return character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                            name="Soldat", gm_notes="api-foe-marker")


def test_the_gm_prepares_a_skirmish_and_a_player_may_not(gm_client, player_a_client, campaign,
                                                         pc_a, pc_b, npc, foe):
    url = reverse("api-skirmish-create", args=[campaign.pk])
    body = {"pcs": [pc_a.pk, pc_b.pk], "pc_weapons": ["pistol"], "foes": [foe.pk],
            "opposing_commander": npc.pk, "traits": {str(pc_a.pk): "Duellist (2)"}}
    assert player_a_client.post(url, body, content_type="application/json").status_code == 403
    answer = gm_client.post(url, body, content_type="application/json")
    assert answer.status_code == 201, answer.content
    encounter = Encounter.objects.get(pk=answer.json()["id"])
    assert encounter.engine == "btq_skirmish" and encounter.status == "setup"
    assert encounter.setup["pcs"][0]["traits"] == {"Duellist": 2}


@pytest.mark.parametrize(("body", "field"), [
    ({"pcs": [], "pc_weapons": ["pistol"]}, "pcs"),
    ({"pcs": [1], "pc_weapons": ["cannon"]}, "pc_weapons"),
    ({"pcs": "1", "pc_weapons": ["pistol"]}, "pcs"),
    ({"pcs": [999999], "pc_weapons": ["pistol"]}, "pcs"),
])
def test_bad_skirmish_input_is_a_400_with_the_field(gm_client, campaign, body, field):
    answer = gm_client.post(reverse("api-skirmish-create", args=[campaign.pk]), body,
                            content_type="application/json")
    assert answer.status_code == 400 and field in answer.json()
    assert not Encounter.objects.exists()


def test_a_bad_trait_and_a_duel_the_rules_refuse(gm_client, campaign, pc_a, pc_b):
    url = reverse("api-duel-create", args=[campaign.pk])
    body = {"attacker": pc_a.pk, "attacker_weapons": ["cutlass"], "defender": pc_b.pk,
            "defender_weapons": ["pistol"], "mode": "melee",
            "traits": {str(pc_a.pk): "Flying"}}
    answer = gm_client.post(url, body, content_type="application/json")
    assert answer.status_code == 400
    assert "is not a trait" in answer.json()["traits"][str(pc_a.pk)][0]
    body["traits"] = {}
    answer = gm_client.post(url, body, content_type="application/json")
    assert answer.status_code == 400
    assert "no weapon to answer with" in answer.json()["setup"][0]
    body["defender_weapons"] = ["knife"]
    assert gm_client.post(url, body, content_type="application/json").status_code == 201


def test_a_boarding_through_the_api(gm_client, campaign, pc_a, pc_ship, enemy_ship):
    answer = gm_client.post(reverse("api-boarding-create", args=[campaign.pk]), {
        "attacker": enemy_ship.pk, "defender": pc_ship.pk, "pcs": [pc_a.pk]},
        content_type="application/json")
    assert answer.status_code == 201, answer.content
    encounter = Encounter.objects.get(pk=answer.json()["id"])
    assert encounter.setup["attacker"] == str(enemy_ship.pk)


def test_the_replay_api(gm_client, player_a_client, campaign, pc_a, pc_b, gm):
    from combat.services import encounter_resolve_rest, encounter_start, job_run

    answer = gm_client.post(reverse("api-duel-create", args=[campaign.pk]), {
        "attacker": pc_a.pk, "attacker_weapons": ["pistol"], "defender": pc_b.pk,
        "defender_weapons": ["pistol"], "mode": "fire", "band": "normal"},
        content_type="application/json")
    encounter = Encounter.objects.get(pk=answer.json()["id"])
    encounter = encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)
    url = reverse("api-encounter-replay", args=[encounter.pk])
    refused = player_a_client.get(url)
    assert refused.status_code == 409 and encounter.seed not in refused.content.decode()
    job_run(job_id=encounter_resolve_rest(encounter=encounter, user=gm).pk)
    mine = player_a_client.get(url).json()
    assert mine["matches"] and "setup" not in mine and '"gm_data"' not in str(mine)
    assert gm_client.get(url).json()["setup"]["mode"] == "fire"


def test_a_fight_takes_the_traits_on_the_sheet_unless_told_otherwise(gm_client, campaign, pc_a,
                                                                     pc_b, npc, foe, gm):
    """The combat traits a PC took (BtQ L1086-1101) fill his fight's traits by themselves:
    on the page's form as its starting text, and in an API call that names none for him;
    what the GM writes for this fight (even nothing) wins."""
    trait_add(character=pc_a, actor=gm, trait="duellist", times=2)
    trait_add(character=pc_a, actor=gm, trait="strong_swordarm")
    page = gm_client.get(reverse("combat:fight_new", args=[campaign.pk, "skirmish"]))
    assert "Duellist (2), Strong Swordarm" in page.content.decode()
    url = reverse("api-skirmish-create", args=[campaign.pk])
    body = {"pcs": [pc_a.pk, pc_b.pk], "pc_weapons": ["pistol"], "foes": [foe.pk],
            "opposing_commander": npc.pk}
    answer = gm_client.post(url, body, content_type="application/json")
    assert answer.status_code == 201, answer.content
    setup = Encounter.objects.get(pk=answer.json()["id"]).setup
    assert setup["pcs"][0]["traits"] == {"Duellist": 2, "Strong Swordarm": 1}
    told = gm_client.post(url, {**body, "traits": {str(pc_a.pk): ""}},
                          content_type="application/json")
    assert Encounter.objects.get(pk=told.json()["id"]).setup["pcs"][0]["traits"] == {}
