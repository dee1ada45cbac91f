"""Cheat Death! (BtQ L1084-1085, D11; A18: one use per take, per session) used inside a fight
is spent on the sheet too, and a fight, a boarding or a ship battle brings in only the uses
the sheet has left (``ships.services.combat_traits``, ``combat.fights.services``)."""

import re

import pytest
from django.urls import reverse

from campaigns.missions import services as missions
from characters.services import character_damage_set, trait_add, trait_use, trait_uses
from combat.fights.services import boarding_health_write_back
from combat.models import Encounter
from combat.services import encounter_create
from rules.btq.characters import DamageState
from rules.engine import Outcome, get_engine
from ships.services import naval_setup, posting_set

pytestmark = pytest.mark.django_db


def left(character):
    character.refresh_from_db()
    return next(u["left"] for u in trait_uses(character) if u["key"] == "cheat_death")


def act(client, encounter, choice):
    encounter.refresh_from_db()
    decision = get_engine(encounter.engine).pending(encounter.state)[0]
    return client.post(reverse("combat:act", args=[encounter.pk]), {
        "version": encounter.version, "actor": decision.actor, "kind": decision.kind,
        "choice": choice}, follow=True)


def traits_input(gm_client, campaign, character) -> str:
    """The duel form's combat traits field of ``character``, as the page gives it."""
    page = gm_client.get(reverse("combat:fight_new", args=[campaign.pk, "duel"]))
    return re.search(rf'<input[^>]*name="traits_{character.pk}"[^>]*>',
                     page.content.decode())[0]


def duel(gm_client, campaign, pc_a, pc_b, **more):
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "duel"]), {
        "attacker": pc_a.pk, "attacker_weapons": ["sword"], "defender": pc_b.pk,
        "defender_weapons": ["knife"], "mode": "melee", "band": "melee", "wind": "light",
        "precipitation": "none", **more})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Encounter.objects.filter(engine="btq_personal_combat").latest("pk")


def test_cheat_death_used_in_a_duel_is_spent_on_the_sheet_and_not_brought_into_the_next(
        gm_client, player_a_client, player_b_client, campaign, gm, pc_a, pc_b):
    """Ben, Injured, with Cheat Death! once, in a session: Anne's sword turns the King of
    Hearts against the King of Spades, a Critical that would take him from Injured to Dead;
    he cheats death and stays Injured (D11). His sheet has the use spent (0 of 1 left), and
    the next duel's form no longer gives him the trait."""
    missions.session_create(campaign=campaign, actor=gm, title="An evening")
    trait_add(character=pc_b, actor=gm, trait="cheat_death")
    pc_b.refresh_from_db()
    character_damage_set(character=pc_b, area="health", state=DamageState.INJURED, actor=gm)
    assert 'value="Cheat Death!"' in traits_input(gm_client, campaign, pc_b)
    encounter = duel(gm_client, campaign, pc_a, pc_b,
                     **{f"traits_{pc_b.pk}": "Cheat Death!"})
    assert encounter.setup["fighters"][1]["traits"] == {"Cheat Death!": 1}
    Encounter.objects.filter(pk=encounter.pk).update(
        stacked_cards="KS KH 2D 3D 4D 5D QS 2C 3C".split())
    encounter.refresh_from_db()
    gm_client.post(reverse("combat:start", args=[encounter.pk]), {"version": encounter.version})
    act(player_a_client, encounter, "sword")
    act(player_b_client, encounter, "knife")
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    assert encounter.outcome["data"]["fighters"][f"pc:{pc_b.pk}"]["cheat_death"] == 0
    pc_b.refresh_from_db()
    assert pc_b.health_state == DamageState.INJURED  # the wound was ignored
    assert left(pc_b) == 0
    entry = campaign.log_entries.filter(kind="fight.finished").latest("pk")
    assert "uses of Cheat Death! left: 1 → 0" in entry.text
    used = campaign.log_entries.get(kind="character.trait_used")
    assert "Cheat Death!" in used.text and encounter.title in used.text
    assert "value=" not in traits_input(gm_client, campaign, pc_b)


def test_a_fight_given_more_uses_than_the_sheet_has_spends_only_what_is_left(
        campaign, gm, pc_a, hermes, corsair):
    """The GM may give a fight Cheat Death! the sheet has spent; the write-back takes off the
    sheet only what it had left, and writes nothing when it had none."""
    otoole = campaign.characters.get(name="Gregory O'Toole")
    trait_add(character=otoole, actor=gm, trait="cheat_death", times=2)
    otoole.refresh_from_db()
    trait_use(character=otoole, actor=gm, trait="cheat_death", version=otoole.version)
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind")
    pc = next(p for p in setup["pcs"] if p["id"] == str(otoole.pk))
    assert pc["combat_traits"]["Cheat Death!"] == 1  # the one left, not the two taken
    pc["combat_traits"]["Cheat Death!"] = 2
    encounter = encounter_create(campaign=campaign, user=gm, engine="btq_naval", setup=setup,
                                 title="Hermes boards the Corsair")
    outcome = Outcome("pc", "boarded", "The Corsair is taken.", data={"boardings": [
        {"fighters": {f"pc:{otoole.pk}": {"health": "maimed", "scratch": False,
                                          "cheat_death": 0}}}]})
    changes = boarding_health_write_back(encounter=encounter, outcome=outcome)
    assert {"who": otoole.title, "area": "uses of Cheat Death! left", "from": 1, "to": 0} \
        in changes
    assert left(otoole) == 0
    assert not any("Cheat Death" in c["area"]
                   for c in boarding_health_write_back(encounter=encounter, outcome=outcome))


def test_an_enemy_officer_spent_cheat_death_boards_without_it(campaign, gm, hermes, corsair):
    """An NPC posted aboard brings his sheet's uses left into the boarding: none once spent,
    so the kernel's fighter has no Cheat Death! to use."""
    from characters.models import Character
    from characters.services import character_create

    black = character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                             name="Black", rank="Captain", skills={"command": 4})
    posting_set(ship=corsair, character=black, station="captain", actor=gm)
    trait_add(character=black, actor=gm, trait="cheat_death")
    assert naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind")[
        "ships"][1]["officers"][0]["traits"] == {"Cheat Death!": 1}
    black.refresh_from_db()
    trait_use(character=black, actor=gm, trait="cheat_death", version=black.version)
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind")
    [captain] = setup["ships"][1]["officers"]
    assert captain["traits"] == {}
    assert get_engine("btq_naval").validate_setup(setup)["ships"][1]["officers"][0][
        "cheat_death"] == 0
