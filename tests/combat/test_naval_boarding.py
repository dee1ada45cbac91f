"""A boarding fought inside a ship battle at the table (BtQ L2512-2533), with a second
enemy ship in it: the Hermes against the Corsair, whose captain is a named NPC, and the
Vulture. Each player makes his own characters' choices in the boarding, the GM the NPCs';
a player never sees the enemy officer's figures; the finished battle replays event for
event (``combat.replay``)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from characters.models import Character
from characters.services import character_create
from combat.models import Encounter
from combat.replay import replay_for
from combat.services import encounter_act, encounter_create, encounter_replay, encounter_start
from rules.btq.characters import DamageState
from rules.engine import GM, get_engine
from ships.models import Ship, ShipType
from ships.services import naval_setup, posting_set, ship_create

pytestmark = pytest.mark.django_db

ENGINE = get_engine("btq_naval")


@pytest.fixture
def captain_black(campaign, gm, corsair):
    black = character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                             name="Black", rank="Captain", skills={"command": 7},
                             gm_notes="black-secret-marker")
    posting_set(ship=corsair, character=black, station="captain", actor=gm)
    return black


@pytest.fixture
def vulture(campaign, gm):
    return ship_create(campaign=campaign, actor=gm, name="Vulture", guns=None,
                       side=Ship.Side.ENEMY, ship_type=ShipType.objects.get(name="Cutter"),
                       crew={"awareness": 2, "seamanship": 2, "gunnery": 2, "command": 2})


def boarding_battle(campaign, gm, hermes, corsair, vulture):
    """The battle at Distance 3, its first cards stacked: the Card of Fate of the first
    Positioning (the Hermes against the Corsair) is the AS, and so is O'Toole's first card,
    a Perfect: the Hermes may close three, to Distance 0 (BtQ L2427-2431); then the seed."""
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, enemies=[vulture],
                        weather="good_wind", start_distance=3)
    encounter = encounter_create(campaign=campaign, user=gm, engine="btq_naval",
                                 title="Boarding", setup=setup, stacked_cards="AS AS",
                                 ships=[hermes, corsair, vulture])
    return encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)


def closest(decision, state, vulture):
    """Close on the Corsair to board her (Distance 0 when offered), on the Vulture to
    Distance 1; continue; else the default."""
    keys = [o.key for o in decision.options]
    if decision.kind == "positioning.move":
        low = 1 if str(vulture.pk) in state["await"]["pair"].split("|") else 0
        return min((k for k in keys if k.isdigit() and int(k) >= low), key=int)
    if decision.kind == "continue.orders":
        return "continue"
    if decision.kind == "boarding.action":  # go for the captain (BtQ L2519-2524)
        return next((k for k in keys if k.startswith(("duel:", "officers:"))),
                    decision.default)
    return decision.default


def test_a_boarding_with_a_second_enemy_ship_played_by_each_player(
        campaign, gm, player_a, player_b, hermes, corsair, vulture, captain_black):
    encounter = boarding_battle(campaign, gm, hermes, corsair, vulture)
    assert encounter.setup["ships"][1]["officers"][0]["id"] == f"npc:{captain_black.pk}"
    owners = {f"pc:{c.pk}": c.owner for c in campaign.characters.filter(
        kind=Character.Kind.PC, postings__ship=hermes)}
    boarded, asked = False, set()
    for _ in range(400):
        encounter.refresh_from_db()
        if encounter.status != Encounter.Status.ACTIVE:
            break
        decision = ENGINE.pending(encounter.state)[0]
        user = gm if decision.actor == GM else owners[decision.actor]
        if decision.kind.startswith("boarding.") and decision.actor != GM:
            asked.add(decision.actor)
            other = player_b if user == player_a else player_a
            with pytest.raises(PermissionDenied):  # nobody decides another's character
                encounter_act(encounter=encounter, user=other, actor=decision.actor,
                              decision_kind=decision.kind, choice=decision.default,
                              expected_version=encounter.version)
        if encounter.state["boarding"] is not None:
            boarded = True
            view = ENGINE.view(encounter.state, "pc:" + next(iter(owners))[3:])
            [black] = view["boarding_view"]["ships"][str(corsair.pk)][
                "officers"]
            assert "weapons" not in black and "command" not in black
            assert "full" not in view["boarding_view"]
        encounter_act(encounter=encounter, user=user, actor=decision.actor,
                      decision_kind=decision.kind,
                      choice=closest(decision, encounter.state, vulture),
                      expected_version=encounter.version)
    assert boarded and encounter.status == Encounter.Status.FINISHED
    # every PC aboard made his own boarding choices
    assert asked and asked <= set(owners)
    [boarding] = encounter.outcome["data"]["boardings"]
    assert encounter_replay(encounter=encounter)["matches"]
    # the step-through replay (combat.replay): event by event as played, the boarding in
    # its views; a player's shows nothing of the GM's
    replay = replay_for(encounter, [GM])
    assert replay["matches"] and len(replay["steps"]) == encounter.events.count()
    assert any(s["view"].get("boarding_view") for s in replay["steps"])
    owner = next(iter(owners.values()))
    client = Client()
    client.force_login(owner)
    exported = client.get(reverse("combat:replay_json", args=[encounter.pk])).content.decode()
    assert "black-secret-marker" not in exported and '"gm_data"' not in exported
    assert '"crew_pool"' not in exported and "Boarding, round 1" in exported
    # the wounds of the fight with the captain are on the sheets (BtQ L2522-2524)
    for fid, fought in boarding["fighters"].items():
        character = Character.objects.get(pk=int(fid.partition(":")[2]))
        assert character.health_state == DamageState[fought["health"].upper()]
    assert boarding["result"] in ("taken", "repelled", "surrendered", "broken_off")


def test_the_player_s_pages_keep_the_officer_and_the_seed_hidden(
        campaign, gm, player_a, hermes, corsair, vulture, captain_black, player_a_client,
        gm_client):
    encounter = boarding_battle(campaign, gm, hermes, corsair, vulture)
    owners = {f"pc:{c.pk}": c.owner for c in campaign.characters.filter(
        kind=Character.Kind.PC, postings__ship=hermes)}
    for _ in range(400):
        encounter.refresh_from_db()
        if encounter.state["boarding"] is not None:
            break
        decision = ENGINE.pending(encounter.state)[0]
        user = gm if decision.actor == GM else owners[decision.actor]
        encounter_act(encounter=encounter, user=user, actor=decision.actor,
                      decision_kind=decision.kind,
                      choice=closest(decision, encounter.state, vulture),
                      expected_version=encounter.version)
    board = encounter.state["boarding"]
    assert (board["attacker"], board["defender"], encounter.state["round"]) == (
        str(hermes.pk), str(corsair.pk), 1)
    pk = encounter.pk
    seen = "".join(player_a_client.get(url).content.decode() for url in (
        reverse("combat:detail", args=[pk]), reverse("api-encounter-detail", args=[pk]),
        reverse("api-encounter-events", args=[pk])))
    assert "Captain Black" in seen and "Boarding, round 1" in seen  # his name is no secret
    gm_page = gm_client.get(reverse("combat:detail", args=[pk])).content.decode()
    assert "Boarding, round 1" in gm_page and "crew 4 cards" in gm_page
    assert "black-secret-marker" not in seen and encounter.seed not in seen
    assert '"command":7' not in seen and "crew_pool" not in seen
    assert '"command":7' in gm_client.get(reverse("api-encounter-detail", args=[pk])
                                          ).content.decode()


def test_the_sample_captain_and_the_pcs_bring_their_combat_traits(campaign, gm, hermes,
                                                                 corsair):
    """A sample NPC posted as the enemy's captain fights a boarding with his sheet's
    traits of personal combat (Fournier: Cheat Death!, Duellist 2, Strong Swordarm 3; BtQ
    L2891-2907), and so does a PC."""
    from characters.samples import sample_npcs_load
    from characters.services import trait_add

    sample_npcs_load(campaign=campaign, actor=gm)
    fournier = campaign.characters.get(name="André Fournier")
    posting_set(ship=corsair, character=fournier, station="captain", actor=gm)
    otoole = campaign.characters.get(name="Gregory O'Toole")
    trait_add(character=otoole, actor=gm, trait="ferocious_boarder")
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind")
    [captain] = setup["ships"][1]["officers"]
    assert (captain["name"], captain["post"], captain["command"]) == (
        "Chef de Division André Fournier", "captain", 6)
    assert captain["traits"] == {"Cheat Death!": 1, "Duellist": 2, "Strong Swordarm": 3}
    pc = next(p for p in setup["pcs"] if p["id"] == str(otoole.pk))
    assert pc["combat_traits"] == {"Ferocious Boarder": 1}
    assert ENGINE.validate_setup(setup)["ships"][1]["officers"][0]["cheat_death"] == 1


def test_special_weapons_on_the_sheets_are_carried_into_the_boarding(campaign, gm, hermes,
                                                                     corsair):
    """A special weapon adds +1 to a combat test with it (BtQ L1013): Fournier's Ornate
    Swordstick (+1 sword tests, BtQ L2904) and a PC's own come aboard with them, from the
    battle's setup into the boarding's fighters; a PC without one brings none."""
    from characters.samples import sample_npcs_load
    from characters.services import item_create
    from rules.btq import boarding
    from rules.random import SeededSource

    sample_npcs_load(campaign=campaign, actor=gm)
    fournier = campaign.characters.get(name="André Fournier")
    posting_set(ship=corsair, character=fournier, station="captain", actor=gm)
    otoole = campaign.characters.get(name="Gregory O'Toole")
    item_create(character=otoole, actor=gm, kind="special_weapon", name="Boarding Axe",
                weapon="axe")
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind")
    swordstick = [{"name": "Ornate Swordstick", "weapon": "sword", "cards": 1}]
    assert setup["ships"][1]["officers"][0]["items"] == swordstick
    battle, _ = ENGINE.start(setup, SeededSource(10))
    state, _ = boarding.begin(boarding.from_naval(battle, attacker=str(hermes.pk)))
    fighters = state["fighters"]
    assert fighters[f"pc:{otoole.pk}"]["items"] == [
        {"name": "Boarding Axe", "weapon": "axe", "cards": 1}]
    assert fighters[f"npc:{fournier.pk}"]["items"] == swordstick
    others = [f for k, f in fighters.items() if k.startswith("pc:") and k != f"pc:{otoole.pk}"]
    assert others and all("items" not in f for f in others)


def test_is_but_a_scratch_spent_on_a_sheet_is_carried_into_the_boarding(campaign, gm, hermes,
                                                                        corsair):
    """D12 (BtQ L1049-1050): a PC and an enemy officer whose sheets have Is But A Scratch,
    Sir!'s extra level spent board without it; a PC who has not spent his, with it."""
    from characters.services import character_damage_set, trait_add
    from rules.btq import boarding
    from rules.random import SeededSource

    black = character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                             name="Black", rank="Captain", skills={"command": 4})
    posting_set(ship=corsair, character=black, station="captain", actor=gm)
    otoole = campaign.characters.get(name="Gregory O'Toole")
    for who in (black, otoole):
        trait_add(character=who, actor=gm, trait="is_but_a_scratch")
    for who in (black, otoole):
        who.refresh_from_db()
        character_damage_set(character=who, area="health", state=DamageState.HEALTHY,
                             actor=gm, scratched=True)
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind")
    [captain] = setup["ships"][1]["officers"]
    assert captain["scratch"] is False
    scratched = {p["name"]: p["scratched"] for p in setup["pcs"]}
    assert scratched[otoole.title] is True and list(scratched.values()).count(True) == 1
    battle, _ = ENGINE.start(setup, SeededSource(10))
    state, _ = boarding.begin(boarding.from_naval(battle, attacker=str(hermes.pk)))
    fighters = state["fighters"]
    assert fighters[f"pc:{otoole.pk}"]["scratch"] is False
    assert fighters[f"npc:{black.pk}"]["scratch"] is False


def test_is_but_a_scratch_spent_in_a_boarding_is_spent_on_the_sheet(campaign, gm, hermes,
                                                                    corsair):
    """D12: a PC whose extra wound level a boarding used up (he ends it Healthy, his scratch
    gone) has it spent on his sheet after the battle, once."""
    from characters.services import trait_add
    from combat.fights.services import boarding_health_write_back
    from rules.engine import Outcome

    otoole = campaign.characters.get(name="Gregory O'Toole")
    trait_add(character=otoole, actor=gm, trait="is_but_a_scratch")
    setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind")
    encounter = encounter_create(campaign=campaign, user=gm, engine="btq_naval", setup=setup,
                                 title="Hermes boards the Corsair")
    outcome = Outcome("pc", "boarded", "The Corsair is taken.", data={"boardings": [
        {"fighters": {f"pc:{otoole.pk}": {"health": "healthy", "scratch": False}}}]})
    changes = boarding_health_write_back(encounter=encounter, outcome=outcome)
    otoole.refresh_from_db()
    assert otoole.scratched is True
    assert otoole.health_state == DamageState.HEALTHY
    assert changes == [{"who": otoole.title, "area": "Is But A Scratch, Sir!",
                        "from": "unspent", "to": "spent"}]
    assert boarding_health_write_back(encounter=encounter, outcome=outcome) == []
