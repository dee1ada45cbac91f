"""Special weapons on the sheet add to a fight by themselves (BtQ L1013: "+1 to a combat test
when using it"; a curio for a weapon, the Short-barrelled Carbine "+1 Musket tests", BtQ
L2693; a priceless item +2, BtQ L1017): the fight's pool names the item, a player sees his
own character's and never an NPC's, which stays the GM's."""

import pytest
from django.urls import reverse

from characters.models import Character, Item
from characters.services import character_create, item_create
from combat.fights.setups import fighter_of
from combat.models import Encounter
from rules.btq.characters import DamageState
from ships.services import combat_items, posting_set, ship_officers
from tests.combat.fights.test_fights import act, begin, seen_by

pytestmark = pytest.mark.django_db

NPC_ITEM = "Axe of the Secret Marker"


@pytest.fixture
def soldier(campaign, gm):
    return character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                            name="Soldat", rank="Corporal")


def test_only_items_for_a_weapon_of_the_fights_without_a_condition(pc_a, gm):
    """The sheet's weapon is read by name or label ("Sword", "muskets"); an item with a
    condition, one for a skill, or one for a weapon no fight has is left to the GM."""
    for kind, name, more in [
            (Item.Kind.SPECIAL_WEAPON, "Ornate Swordstick", {"weapon": "Sword"}),
            (Item.Kind.CURIO, "Short-barrelled Carbine", {"weapon": "muskets"}),
            (Item.Kind.PRICELESS_ITEM, "The Admiral's Pistol", {"weapon": "pistol"}),
            (Item.Kind.SPECIAL_WEAPON, "Night Blade", {"weapon": "knife",
                                                      "condition": "in the dark"}),
            (Item.Kind.SPECIAL_WEAPON, "Harpoon", {"weapon": "harpoon"}),
            (Item.Kind.CURIO, "Reef Map", {"skill": "seamanship"})]:
        item_create(character=pc_a, actor=gm, kind=kind, name=name, **more)
    assert combat_items(pc_a) == [
        {"name": "Ornate Swordstick", "weapon": "sword", "cards": 1},
        {"name": "Short-barrelled Carbine", "weapon": "musket", "cards": 1},
        {"name": "The Admiral's Pistol", "weapon": "pistol", "cards": 2}]
    assert fighter_of(pc_a, weapons=["sword"])["items"] == combat_items(pc_a)


def test_a_duel_adds_the_owner_s_special_weapon_and_hides_the_npc_s(
        gm_client, player_a_client, campaign, pc_a, soldier, gm):
    """Anne's sword (4) and her Ornate Swordstick (+1) turn five cards, the King of Hearts
    against the King of Spades, a Critical; the corporal's axe (4) and his own special axe
    (+1) five, the Queen of Spades, an Ordinary. Anne sees her swordstick in her pool and
    the corporal's five cards, not what makes them."""
    item_create(character=pc_a, actor=gm, kind=Item.Kind.SPECIAL_WEAPON,
                name="Ornate Swordstick", weapon="sword")
    item_create(character=soldier, actor=gm, kind=Item.Kind.SPECIAL_WEAPON, name=NPC_ITEM,
                weapon="axe")
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "duel"]), {
        "attacker": pc_a.pk, "attacker_weapons": ["sword", "pistol"], "defender": soldier.pk,
        "defender_weapons": ["axe"], "mode": "melee", "band": "melee", "wind": "light",
        "precipitation": "none"})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_personal_combat")
    Encounter.objects.filter(pk=encounter.pk).update(
        stacked_cards="KS KH 2D 3D 4D 5D QS 2C 3C 4C 5C".split())
    begin(gm_client, encounter)
    page = player_a_client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    assert "Sword (5 cards)" in page
    act(player_a_client, encounter, "sword")
    act(gm_client, encounter, "axe")
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    draw = encounter.events.get(kind="combat.draw")
    assert draw.data["pools"]["a"]["breakdown"] == {"Sword": 4, "Ornate Swordstick": 1}
    assert len(draw.data["pools"]["b"]["cards"]) == 5
    assert draw.gm_data["pools"]["b"]["breakdown"] == {"Axe": 4, NPC_ITEM: 1}
    pc_a.refresh_from_db(), soldier.refresh_from_db()
    assert (pc_a.health_state, soldier.health_state) == (DamageState.INJURED,
                                                         DamageState.MAIMED)
    seen = seen_by(player_a_client, encounter)
    assert "Ornate Swordstick" in seen and NPC_ITEM not in seen
    assert NPC_ITEM in seen_by(gm_client, encounter)


def test_a_skirmish_pc_and_a_boarding_officer_bring_their_items(
        gm_client, campaign, pc_a, pc_b, npc, soldier, pc_ship, gm):
    """The skirmish's PC and a ship's NPC officer (BtQ L2519-2528) fight with theirs."""
    item_create(character=pc_a, actor=gm, kind=Item.Kind.SPECIAL_WEAPON,
                name="Duelling Pistol", weapon="pistol")
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "skirmish"]), {
        "pcs": [pc_a.pk, pc_b.pk], "pc_weapons": ["pistol", "cutlass"], "foes": [soldier.pk],
        "foe_weapon": "musket", "foe_band": "normal", "opposing_commander": npc.pk,
        "wind": "light", "precipitation": "none"})
    assert response.status_code == 302, response.content.decode()[:2000]
    setup = Encounter.objects.get(engine="btq_skirmish").setup
    items = {p["id"]: p.get("items") for p in setup["pcs"]}
    assert items == {f"pc:{pc_a.pk}": [{"name": "Duelling Pistol", "weapon": "pistol",
                                        "cards": 1}], f"pc:{pc_b.pk}": None}
    item_create(character=soldier, actor=gm, kind=Item.Kind.SPECIAL_WEAPON,
                name="Boarding Axe", weapon="axe")
    posting_set(ship=pc_ship, character=soldier, station="lieutenant", actor=gm)
    officer = next(o for o in ship_officers(pc_ship) if o["id"] == f"npc:{soldier.pk}")
    assert officer["items"] == [{"name": "Boarding Axe", "weapon": "axe", "cards": 1}]
