"""A skirmish and a duel played through the pages by the GM and two players (DESIGN.md,
"Roles and trust"): each player decides for his own character only, the NPCs' statistics
and the seed stay the GM's until the end, and the wounds land on the sheets; then the
step-through replay, forward and back, and its JSON export, which shows a player nothing of
the GM's."""

import json

import pytest
from django.urls import reverse

from characters.models import Character
from characters.services import character_create
from combat.models import Encounter
from rules.btq.characters import DamageState
from rules.engine import get_engine

pytestmark = pytest.mark.django_db

FOE_MARKER = "foe-secret-marker"


@pytest.fixture
def soldier(campaign, gm):
    return character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                            name="Soldat Secret", rank="Corporal", gm_notes=FOE_MARKER,
                            skills={"skullduggery": 13})


def act(client, encounter, choice, *, actor=None):
    """Make the pending decision of ``actor`` (default the first pending one) on the page."""
    encounter.refresh_from_db()
    decisions = get_engine(encounter.engine).pending(encounter.state)
    decision = next(d for d in decisions if actor in (None, d.actor))
    return client.post(reverse("combat:act", args=[encounter.pk]), {
        "version": encounter.version, "actor": actor or decision.actor, "kind": decision.kind,
        "choice": choice}, follow=True)


def begin(client, encounter):
    encounter.refresh_from_db()
    client.post(reverse("combat:start", args=[encounter.pk]), {"version": encounter.version})
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.ACTIVE


def play_defaults(encounter, gm, limit=200):
    """``encounter`` played on with each pending decision's default, made by the GM through
    the services, until it ends (at most ``limit`` decisions); refreshed."""
    from combat.services import encounter_act

    kernel = get_engine(encounter.engine)
    for _ in range(limit):
        encounter.refresh_from_db()
        if encounter.status != Encounter.Status.ACTIVE:
            return
        d = kernel.pending(encounter.state)[0]
        encounter_act(encounter=encounter, user=gm, actor=d.actor, decision_kind=d.kind,
                      choice=d.default, expected_version=encounter.version)
    encounter.refresh_from_db()


def seen_by(client, encounter) -> str:
    pk = encounter.pk
    return "".join(client.get(url).content.decode() for url in (
        reverse("combat:detail", args=[pk]), reverse("api-encounter-detail", args=[pk]),
        reverse("api-encounter-events", args=[pk])))


def prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier, **more):
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "skirmish"]), {
        "pcs": [pc_a.pk, pc_b.pk], "pc_weapons": ["pistol", "cutlass"], "foes": [soldier.pk],
        "foe_weapon": "musket", "foe_band": "normal", "opposing_commander": npc.pk,
        "wind": "light", "precipitation": "none", "stakes_win": "they escape",
        "stakes_lose": "they are taken", f"traits_{pc_b.pk}": "Duellist", **more})
    assert response.status_code == 302, response.content.decode()[:3000]
    return Encounter.objects.filter(engine="btq_skirmish").latest("pk")


def test_a_skirmish_through_the_pages(gm_client, player_a_client, player_b_client, campaign,
                                      pc_a, pc_b, npc, soldier):
    encounter = prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier)
    # The first tests' cards: Anne's pistol (3) hits, Ben's (3 + 2 + Duellist 1) misses and
    # the (Injured) soldier's musket wounds him; then the shuffled deck.
    Encounter.objects.filter(pk=encounter.pk).update(stacked_cards=(
        "7S 9S 2H 3D 8H 10D JC  8D 2C 3C 4C 5S 6S 7C  9D 2S").split())
    assert player_a_client.get(reverse("combat:detail", args=[encounter.pk])
                               ).status_code == 200  # "not begun" for a player
    begin(gm_client, encounter)
    foe = f"npc:{soldier.pk}"
    # Anne (seniority 2) commands: she gives both their orders, then Ben his cards.
    act(player_a_client, encounter, f"fight:{foe}")
    act(player_a_client, encounter, f"fight:{foe}")
    act(player_a_client, encounter, "2")
    # Anne fires; Ben may not fire for her, nor she for him.
    refused = act(player_b_client, encounter, "pistol", actor=f"pc:{pc_a.pk}")
    assert "only make decisions for your own character" in refused.content.decode()
    act(player_a_client, encounter, "pistol")
    assert "action.perform" == get_engine("btq_skirmish").pending(
        Encounter.objects.get(pk=encounter.pk).state)[0].kind
    hidden = [FOE_MARKER, "npc-secret", encounter.seed, '"full"', 'class="gm-data',
              '"command":5']
    gm_seen = seen_by(gm_client, encounter)
    assert all(secret in gm_seen for secret in hidden[3:]), "so that each check can fail"
    for client in (player_a_client, player_b_client):
        page = seen_by(client, encounter)
        for secret in hidden:
            assert secret not in page, secret
    act(player_a_client, encounter, "pistol", actor=f"pc:{pc_b.pk}")  # refused, as above
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.ACTIVE
    act(player_b_client, encounter, "pistol")
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    fighters = encounter.outcome["data"]["fighters"]
    assert fighters[f"pc:{pc_b.pk}"]["health"] == "injured"
    pc_a.refresh_from_db(), pc_b.refresh_from_db(), soldier.refresh_from_db()
    assert pc_b.health_state == DamageState.INJURED
    assert pc_a.health_state == DamageState.HEALTHY
    assert soldier.health_state == DamageState.INJURED
    assert soldier.revealed  # the NPCs of a fight are no secret once it begins
    log = campaign.log_entries.filter(kind="skirmish.finished").get()
    assert "Health: Healthy → Injured" in log.text
    # The seed is revealed at the end; the NPC's statistics stay the GM's.
    page = seen_by(player_b_client, encounter)
    assert encounter.seed in page and FOE_MARKER not in page and '"full"' not in page


def test_a_duel_of_two_players_each_choosing_his_own_weapon(
        gm_client, player_a_client, player_b_client, campaign, pc_a, pc_b):
    """Anne's sword (4 + Strong Swordarm 1) turns the King of Hearts against the King of
    Spades, a Critical; Ben's knife (3) the Queen of Spades, an Ordinary: Ben is Maimed,
    Anne Injured, at once (BtQ L1572-1573), and both sheets say so."""
    url = reverse("combat:fight_new", args=[campaign.pk, "duel"])
    form = {"attacker": pc_a.pk, "attacker_weapons": ["pistol", "sword"], "defender": pc_b.pk,
            "defender_weapons": ["pistol"], "mode": "melee", "band": "melee", "wind": "light",
            "precipitation": "none", f"traits_{pc_a.pk}": "Strong Swordarm"}
    refused = gm_client.post(url, form)
    assert "has no weapon to answer with" in refused.content.decode()
    response = gm_client.post(url, {**form, "defender_weapons": ["pistol", "knife"]})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_personal_combat")
    assert encounter.setup["fighters"][0]["traits"] == {"Strong Swordarm": 1}
    Encounter.objects.filter(pk=encounter.pk).update(
        stacked_cards="KS KH 2D 3D 4D 5D QS 2C 3C".split())
    begin(gm_client, encounter)
    act(player_a_client, encounter, "sword")
    # Ben's choice is his own: Anne's player cannot make it
    act(player_a_client, encounter, "knife", actor=f"pc:{pc_b.pk}")
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.ACTIVE
    act(player_b_client, encounter, "knife")
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    assert encounter.outcome["winner"] == f"pc:{pc_a.pk}"
    pc_a.refresh_from_db(), pc_b.refresh_from_db()
    assert (pc_a.health_state, pc_b.health_state) == (DamageState.INJURED, DamageState.MAIMED)
    assert campaign.log_entries.filter(kind="fight.finished").exists()


def test_players_may_not_prepare_a_fight(player_a_client, outsider_client, campaign):
    url = reverse("combat:fight_new", args=[campaign.pk, "skirmish"])
    assert player_a_client.get(url).status_code == 403
    assert outsider_client.get(url).status_code == 404


def _finished_skirmish(gm_client, player_a_client, player_b_client, campaign, pc_a, pc_b,
                       npc, soldier):
    encounter = prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier)
    begin(gm_client, encounter)
    for _ in range(40):
        encounter.refresh_from_db()
        if encounter.status != Encounter.Status.ACTIVE:
            break
        decision = get_engine(encounter.engine).pending(encounter.state)[0]
        client = {f"pc:{pc_a.pk}": player_a_client, f"pc:{pc_b.pk}": player_b_client}.get(
            decision.actor, gm_client)
        act(client, encounter, decision.default)
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    return encounter


def test_step_through_replay_forward_back_and_json(gm_client, player_a_client,
                                                   player_b_client, outsider_client,
                                                   campaign, pc_a, pc_b, npc, soldier):
    encounter = _finished_skirmish(gm_client, player_a_client, player_b_client, campaign,
                                   pc_a, pc_b, npc, soldier)
    url = reverse("combat:replay", args=[encounter.pk])
    first = player_a_client.get(url, {"step": 1}).content.decode()
    assert 'data-step="next"' in first and 'data-step="previous"' not in first
    assert 'data-seq="1"' in first  # the opening event: the seed's hash
    second = player_a_client.get(url, {"step": 3}).content.decode()
    assert 'href="?step=2"' in second and 'href="?step=4"' in second
    last = player_a_client.get(url).content.decode()
    assert 'data-step="next"' not in last and "encounter.end" in last
    count = encounter.events.count()
    # The state after each event comes from the kernel: before the orders, no orders.
    data = json.loads(player_a_client.get(reverse("combat:replay_json",
                                                  args=[encounter.pk])).content)
    assert data["matches"] is True and data["seed"] == encounter.seed
    assert [s["event"]["seq"] for s in data["steps"]] == list(range(1, count + 1))
    assert data["steps"][0]["view"]["actions"] == {}
    assert data["steps"][-1]["view"]["result"] == encounter.outcome["result"]
    player_json = json.dumps(data)
    for secret in (FOE_MARKER, '"gm_data"', '"full"', '"setup"', '"choices"', '"command": 5'):
        assert secret not in player_json, secret
    for page in (first, second, last):
        assert 'class="gm-data' not in page and FOE_MARKER not in page
    gm = json.loads(gm_client.get(reverse("combat:replay_json", args=[encounter.pk])).content)
    assert gm["setup"] == encounter.setup and gm["choices"] == encounter.choices
    assert "full" in gm["steps"][-1]["view"]
    assert outsider_client.get(url).status_code == 404


def test_no_replay_while_the_seed_is_secret(gm_client, player_a_client, campaign, pc_a, pc_b,
                                            npc, soldier):
    encounter = prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier)
    begin(gm_client, encounter)
    page = player_a_client.get(reverse("combat:replay", args=[encounter.pk]))
    assert page.status_code == 409 and encounter.seed not in page.content.decode()
    answer = player_a_client.get(reverse("combat:replay_json", args=[encounter.pk]))
    assert answer.status_code == 409 and "seed" in answer.json()["detail"]


def test_a_boarding_writes_the_crews_back(gm_client, campaign, pc_a, pc_b, pc_ship,
                                          enemy_ship, gm):
    from ships.services import posting_set

    captain = character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                               name="Le Capitaine", skills={"command": 2})
    posting_set(ship=enemy_ship, character=captain, station="captain", actor=gm)
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "boarding"]), {
        "attacker": pc_ship.pk, "defender": enemy_ship.pk, "pcs": [pc_a.pk, pc_b.pk],
        "pc_weapons": ["cutlass"], "officer_weapon": "cutlass", "attacker_crew_pool": 4,
        "defender_crew_pool": 3})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_boarding")
    assert set(encounter.ships.all()) == {pc_ship, enemy_ship}
    begin(gm_client, encounter)
    play_defaults(encounter, gm)
    page = gm_client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    assert 'data-track="' in page and "Le Capitaine" in page
    report = encounter.outcome["data"]
    pc_ship.refresh_from_db(), enemy_ship.refresh_from_db()
    assert pc_ship.crew_track == report["crew"][str(pc_ship.pk)]
    assert enemy_ship.crew_track == report["crew"][str(enemy_ship.pk)]
    assert encounter.outcome["result"] in ("taken", "repelled", "surrendered")


def test_the_computer_resolves_the_rest_of_a_skirmish(gm_client, campaign, pc_a, pc_b, npc,
                                                      soldier, gm):
    """"Resolve the rest" plays a fight to its end with the default choices, as a battle,
    and writes it back once."""
    from combat.services import encounter_resolve_rest, job_run

    encounter = prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier)
    begin(gm_client, encounter)
    job = job_run(job_id=encounter_resolve_rest(encounter=encounter, user=gm).pk)
    encounter.refresh_from_db()
    assert job.status == "done" and encounter.status == Encounter.Status.FINISHED
    assert campaign.log_entries.filter(kind="skirmish.finished").count() == 1
    for fid, final in encounter.outcome["data"]["fighters"].items():
        character = Character.objects.get(pk=int(fid.partition(":")[2]))
        assert character.health_state == DamageState[final["health"].upper()]


def test_the_new_boarding_form_takes_its_ships_from_the_address(gm_client, campaign, pc_ship,
                                                               enemy_ship):
    """A boarding fought on its own (BtQ L2512-2515; a boarding inside a battle is the
    battle's own): the form has both ships, the attacker as the address names him."""
    form = gm_client.get(reverse("combat:fight_new", args=[campaign.pk, "boarding"]),
                         {"attacker": enemy_ship.pk, "defender": pc_ship.pk}).content.decode()
    assert f'<option value="{enemy_ship.pk}" selected>' in form


def test_the_duel_page_lists_the_npc_s_weapons_not_his_traits(gm_client, player_a_client,
                                                              campaign, pc_a, soldier):
    """Face to face, each sees the other's arms; the NPC's traits stay the GM's."""
    url = reverse("combat:fight_new", args=[campaign.pk, "duel"])
    response = gm_client.post(url, {
        "attacker": pc_a.pk, "attacker_weapons": ["sword"], "defender": soldier.pk,
        "defender_weapons": ["axe", "pistol"], "mode": "melee", "band": "melee",
        "wind": "light", "precipitation": "none", f"traits_{soldier.pk}": "Duellist"})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_personal_combat")
    # the names with their ranks, as the sheets give them
    assert encounter.title == f"{pc_a.title} against Corporal Soldat Secret"
    assert pc_a.rank and pc_a.title.startswith(pc_a.rank)
    begin(gm_client, encounter)
    page = player_a_client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    assert "Weapons: Axe, Pistol" in page and "Duellist" not in page
    act(player_a_client, encounter, "sword")
    # the GM's prompt says whose weapon it asks for
    assert "Which weapon does Corporal Soldat Secret fight with?" in gm_client.get(
        reverse("combat:detail", args=[encounter.pk])).content.decode()
    assert "Duellist" in gm_client.get(reverse("combat:detail", args=[encounter.pk])
                                       ).content.decode()


def test_a_skirmish_says_who_commands_the_foes(gm_client, player_a_client, campaign, pc_a,
                                                pc_b, npc, soldier):
    """Without an NPC in command, the foes' commander is the one the GM names, else the
    first of the foes, never a bare "the enemy commander"."""
    named = prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier,
                             opposing_commander="", opposing_command=2,
                             opposing_commander_name="the sergeant of the guard")
    first = prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier,
                             opposing_commander="", opposing_command=2)
    assert named.setup["opposing_commander"] == {"name": "the sergeant of the guard",
                                                 "command": 2}
    assert first.setup["opposing_commander"]["name"] == "Corporal Soldat Secret"
    begin(gm_client, first)
    page = player_a_client.get(reverse("combat:detail", args=[first.pk])).content.decode()
    assert "Their commander: Corporal Soldat Secret" in page


def test_a_duel_with_a_dead_foe_is_refused_on_the_form(gm_client, campaign, pc_a, pc_b, gm):
    """A Dead character cannot fight (BtQ L1326-1328): the form says so beside the field,
    never a server error."""
    from characters.services import character_update

    pc_b.refresh_from_db()
    character_update(character=pc_b, actor=gm, version=pc_b.version,
                     health_state=DamageState.DEAD)
    url = reverse("combat:fight_new", args=[campaign.pk, "duel"])
    response = gm_client.post(url, {
        "attacker": pc_a.pk, "attacker_weapons": ["pistol", "sword"], "defender": pc_b.pk,
        "defender_weapons": ["pistol", "knife"], "mode": "melee", "band": "melee",
        "wind": "light", "precipitation": "none"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert not Encounter.objects.filter(engine="btq_personal_combat").exists()


def test_a_repelled_boarding_is_logged_in_words_with_its_ship_morale(
        gm_client, campaign, pc_a, pc_ship, enemy_ship, gm):
    """The Hermes, Injured, repelled and Maimed: the log says "Crew: Healthy → Dead" and
    "Ship Morale: Injured → Maimed", never the raw tracks, so a search for "Morale" finds
    it."""
    from combat.fights.services import fight_write_back
    from rules.engine import Outcome
    from ships.models import Ship

    Ship.objects.filter(pk=pc_ship.pk).update(morale_state=DamageState.INJURED)
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "boarding"]), {
        "attacker": pc_ship.pk, "defender": enemy_ship.pk, "pcs": [pc_a.pk],
        "pc_weapons": ["cutlass"], "officer_weapon": "cutlass", "attacker_crew_pool": 4,
        "defender_crew_pool": 3})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_boarding")
    crew = {str(pc_ship.pk): "xx|xx|xx", str(enemy_ship.pk): enemy_ship.tracks["crew"]}
    assert pc_ship.tracks["crew"] == "..|..|.." and "x" not in crew[str(enemy_ship.pk)]
    logged = fight_write_back(encounter=encounter, user=gm, outcome=Outcome(
        winner=None, result="repelled", summary="The boarders are repelled.",
        data={"crew": crew, "morale": {str(pc_ship.pk): "maimed",
                                       str(enemy_ship.pk): "healthy"}}))
    name = Ship.objects.get(pk=pc_ship.pk).display_name
    said = f"{name}'s Crew: Healthy → Dead. {name}'s Ship Morale: Injured → Maimed."
    assert logged["summary"] == f"The boarders are repelled. {said}"
    entry = campaign.log_entries.get(kind="ship.battle")
    assert entry.text.endswith(said) and "|" not in entry.text
    assert list(campaign.log_entries.filter(text__icontains="morale")) == [entry]


def test_in_a_boarding_the_player_chooses_his_own_character_s_weapon(
        gm_client, player_a_client, player_b_client, campaign, pc_a, pc_ship, enemy_ship):
    """A PC with two hand-to-hand weapons is asked which he fights with, by his own
    player, his best by default (BtQ L1572, L2517-2519)."""
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "boarding"]), {
        "attacker": pc_ship.pk, "defender": enemy_ship.pk, "pcs": [pc_a.pk],
        "pc_weapons": ["cutlass", "knife", "pistol"], "officer_weapon": "cutlass",
        "attacker_crew_pool": 4, "defender_crew_pool": 3})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_boarding")
    begin(gm_client, encounter)
    act(player_a_client, encounter, "melee")
    encounter.refresh_from_db()
    decision = get_engine("btq_boarding").pending(encounter.state)[0]
    assert (decision.kind, decision.actor, decision.default) == (
        "boarding.weapon", f"pc:{pc_a.pk}", "cutlass")
    url = reverse("combat:detail", args=[encounter.pk])
    prompt = f"Which weapon does {pc_a.title} fight with?"
    page = player_a_client.get(url).content.decode()
    assert prompt.replace("'", "&#x27;") in page and "Knives (3 cards)" in page
    assert 'name="choice"' not in player_b_client.get(url).content.decode()
    act(player_b_client, encounter, "knife")  # not his character's: refused
    encounter.refresh_from_db()
    assert get_engine("btq_boarding").pending(encounter.state)[0].kind == "boarding.weapon"
    page = act(player_a_client, encounter, "knife").content.decode()
    assert "fights with Knives (3 cards)." in page


def test_a_boarding_of_a_ship_whose_crew_is_dead_takes_her_at_once(
        gm_client, campaign, pc_a, pc_b, pc_ship, enemy_ship):
    """BtQ L2530-2531 ("If the Crew is Dead, the ship is taken"): the New boarding form
    accepts her and, begun, she is taken without a card turned; the Hermes's crew is
    unhurt. A ship whose Crew is Dead cannot board: the form says why."""
    from ships.models import Prize, Ship

    track = "|".join("x" * len(part) for part in enemy_ship.tracks["crew"].split("|"))
    Ship.objects.filter(pk=enemy_ship.pk).update(crew_track=track)
    url = reverse("combat:fight_new", args=[campaign.pk, "boarding"])
    fields = {"pcs": [pc_a.pk, pc_b.pk], "pc_weapons": ["cutlass"],
              "officer_weapon": "cutlass", "attacker_crew_pool": 4, "defender_crew_pool": 4}
    refused = gm_client.post(url, {"attacker": enemy_ship.pk, "defender": pc_ship.pk,
                                   **fields})
    assert refused.status_code == 200
    assert "cannot board: her Crew is Dead" in refused.content.decode()
    response = gm_client.post(url, {"attacker": pc_ship.pk, "defender": enemy_ship.pk,
                                    **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_boarding")
    encounter.refresh_from_db()
    gm_client.post(reverse("combat:start", args=[encounter.pk]), {"version": encounter.version})
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    assert encounter.outcome["result"] == "taken"
    assert not encounter.events.filter(kind__in=["boarding.draw", "boarding.crew"]).exists()
    pc_ship.refresh_from_db()
    assert "x" not in pc_ship.tracks["crew"]
    # Taken, she is the players' prize (BtQ L1769-1771), crewed by those who boarded her,
    # and no enemy to board again.
    prize = Prize.objects.get(ship=enemy_ship, status=Prize.Status.HELD)
    assert set(prize.crew.all()) == {pc_a, pc_b}
    again = gm_client.post(url, {"attacker": pc_ship.pk, "defender": enemy_ship.pk, **fields})
    assert again.status_code == 200 and "prize" in again.content.decode()


def test_a_boarding_keeps_the_enemy_s_ship_morale_the_gm_s(
        gm_client, player_a_client, player_b_client, player_a, player_b, campaign, pc_a,
        pc_ship, enemy_ship):
    """As the ship battle hides an enemy's Ship Morale from the players, so does a boarding
    fought on its own: the enemy's Maimed Ship Morale, and her fall to Dead when she is
    taken, are on the GM's page, events and log, not on a player's page, poll, API, event
    stream or campaign log; the players' own ship's Ship Morale they see."""
    from ships.models import Ship
    from tests.combat.test_hidden_at_the_table import received

    track = "|".join("x" * len(part) for part in enemy_ship.tracks["crew"].split("|"))
    Ship.objects.filter(pk=enemy_ship.pk).update(crew_track=track,
                                                 morale_state=DamageState.MAIMED)
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "boarding"]), {
        "attacker": pc_ship.pk, "defender": enemy_ship.pk, "pcs": [pc_a.pk],
        "pc_weapons": ["cutlass"], "officer_weapon": "cutlass", "attacker_crew_pool": 4,
        "defender_crew_pool": 4})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_boarding")
    gm_client.post(reverse("combat:start", args=[encounter.pk]), {"version": encounter.version})
    encounter.refresh_from_db()
    assert encounter.outcome["result"] == "taken"
    log = reverse("campaigns:log", args=[campaign.pk])
    secrets = ("Ship Morale Dead", "Ship Morale goes from Maimed to Dead",
               "Ship Morale: Maimed → Dead")
    gm_seen = seen_by(gm_client, encounter) + gm_client.get(log).content.decode()
    assert [secret for secret in secrets if secret not in gm_seen] == []
    for client, user in ((player_a_client, player_a), (player_b_client, player_b)):
        seen = {**received(client, user, encounter),
                "log": client.get(log).content.decode()}
        assert "Ship Morale Healthy" in seen["page"]  # the players' own ship's
        ships = client.get(reverse("api-encounter-detail", args=[encounter.pk])
                           ).json()["view"]["ships"]
        assert "morale" not in ships[str(enemy_ship.pk)]
        assert ships[str(pc_ship.pk)]["morale"] == "healthy"
        for where, text in seen.items():
            for secret in secrets:
                assert secret not in text, f"a player reads {secret!r} ({where})"


def test_the_players_see_their_ship_s_morale_in_a_boarding_without_pcs(
        gm_client, player_a_client, campaign, pc_ship, enemy_ship):
    """A boarding the GM fights without the PCs (her crew alone repels the enemy): the
    players' ship is theirs by her side, not by the PCs aboard, and so is her Ship Morale."""
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "boarding"]), {
        "attacker": enemy_ship.pk, "defender": pc_ship.pk, "pc_weapons": ["cutlass"],
        "officer_weapon": "cutlass", "attacker_crew_pool": 4, "defender_crew_pool": 4})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_boarding")
    begin(gm_client, encounter)
    ships = player_a_client.get(reverse("api-encounter-detail", args=[encounter.pk])
                                ).json()["view"]["ships"]
    assert ships[str(pc_ship.pk)]["morale"] == "healthy"
    assert "morale" not in ships[str(enemy_ship.pk)]


def test_a_duel_at_range_refuses_hand_to_hand_weapons_with_the_reason(gm_client, campaign,
                                                                        pc_a, pc_b):
    """An exchange of fire is fought with guns at a range (BtQ L1576, L1584-1618): the
    form opens on it with the pistol ticked; the sword and cutlass ticked too would be left
    out without a word, so the form refuses them, says why and what the modes use. Hand to
    hand, the same weapons make the duel."""
    url = reverse("combat:fight_new", args=[campaign.pk, "duel"])
    form = gm_client.get(url).content.decode()
    assert "Hand to hand is fought with a hand-to-hand weapon" in form
    fields = {"attacker": pc_a.pk, "attacker_weapons": ["pistol", "sword", "cutlass"],
              "defender": pc_b.pk, "defender_weapons": ["pistol", "cutlass"],
              "mode": "fire", "band": "normal", "wind": "light", "precipitation": "none"}
    refused = gm_client.post(url, fields)
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "Sword, Cutlass: hand-to-hand weapons, of no use in an exchange of fire" in page
    assert "Cutlass: a hand-to-hand weapon, of no use in an exchange of fire" in page
    assert not Encounter.objects.filter(engine="btq_personal_combat").exists()
    made = gm_client.post(url, {**fields, "mode": "melee", "band": "melee"})
    assert made.status_code == 302
    assert Encounter.objects.get(engine="btq_personal_combat").setup["mode"] == "melee"


def test_a_skirmish_s_fallen_opposing_commander_hands_over_to_the_cards_typed(
        gm_client, player_a_client, campaign, pc_a, pc_b, npc, soldier, gm):
    """The opposing commander (BtQ L1679-1686) is the Corporal, who fights among the foes
    and is Maimed: the final test is his second's, with the 3 cards the GM typed, and the
    GM's page shows that figure and why; a player's shows neither figure. A Dead NPC
    commands no one: the form says so."""
    from characters.services import character_update

    soldier.refresh_from_db()
    character_update(character=soldier, actor=gm, version=soldier.version,
                     health_state=DamageState.MAIMED)
    npc.refresh_from_db()
    character_update(character=npc, actor=gm, version=npc.version,
                     health_state=DamageState.DEAD)
    refused = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "skirmish"]), {
        "pcs": [pc_a.pk], "pc_weapons": ["cutlass"], "foes": [soldier.pk],
        "foe_weapon": "musket", "foe_band": "normal", "opposing_commander": npc.pk,
        "wind": "light", "precipitation": "none"})
    assert refused.status_code == 200
    assert "is Dead and commands no one" in refused.content.decode()
    encounter = prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier,
                                 opposing_commander=soldier.pk, opposing_command=3)
    assert encounter.setup["opposing_commander"] == {
        "name": "Corporal Soldat Secret", "command": 0, "id": f"npc:{soldier.pk}",
        "second": 3}
    begin(gm_client, encounter)
    play_defaults(encounter, gm)
    page = gm_client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    assert "Corporal Soldat Secret’s second" in page.replace("&#x27;", "’").replace("'", "’")
    assert "(GM: Command 3, the cards you gave his second: Corporal Soldat Secret is" in page
    theirs = player_a_client.get(reverse("combat:detail", args=[encounter.pk])
                                 ).content.decode()
    assert "his second leads the foes" in theirs and "GM: Command" not in theirs
