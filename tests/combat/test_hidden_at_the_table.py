"""What a player receives at the table carries none of the GM's hidden information (issue
10; DESIGN.md, "Roles and trust"): a squadron battle, a skirmish, a duel and a battle with a
boarding, each played to its end by the GM and two players, every decision made by the one
it belongs to. All along, each player's page, poll, lists, API and event stream are read
for the seed (until the end), the GM's stacked cards not yet turned, the GM's data, the
enemy officers' and NPCs' figures and the GM's notes; at the end the seed is there and the
figures and notes still are not."""

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from characters.services import character_create
from combat.models import Encounter
from combat.services import encounter_act, encounter_create, encounter_start
from rules.engine import GM, get_engine
from ships.models import Ship, ShipType
from ships.services import naval_setup, posting_set, ship_create
from tests.combat.fights.test_fights import begin, prepare_skirmish
from tests.combat.test_naval_boarding import boarding_battle, closest
from tests.combat.test_permissions import everything_seen
from tests.combat.test_streams import read

pytestmark = pytest.mark.django_db

MARKER = "hidden-at-the-table-marker"


def hidden(encounter, figures):
    """What no player may receive while ``encounter`` runs: ``figures`` are the NPCs' own
    (as a page and as JSON write them)."""
    found = {"seed": encounter.seed, "GM data (page)": 'class="gm-data',
             "GM data (API)": '"gm_data"', "GM notes": MARKER, **figures}
    if encounter.stacked_remaining:
        found["GM's cards before they turn"] = " ".join(encounter.stacked_remaining)
    return found


def received(client, user, encounter) -> dict[str, str]:
    """Everything a player's device is sent about ``encounter``: pages, poll, lists, API
    and the battle's event stream."""
    seen = everything_seen(client, encounter)
    status, seen["stream"], _ = read(user, reverse("combat:stream", args=[encounter.pk]),
                                     idle=0.2, limit=3.0)
    assert status == 200
    return seen


def play_watched(encounter, owner, players, figures, choose=None, every=9):
    """Play ``encounter`` to its end, each decision made by its owner (``owner(actor)``,
    the user), the choice ``choose(decision, state)`` or the default; every ``every``
    decisions and at the end, check what each of ``players`` (``[(client, user)]``)
    receives, and that the GM receives each of the secrets at some point (so that each
    check could fail). Returns the actors who decided."""
    engine = get_engine(encounter.engine)
    gm = owner(GM)
    gm_client = Client()
    gm_client.force_login(gm)
    actors, unseen_by_gm = set(), None
    for step in range(600):
        encounter.refresh_from_db()
        if encounter.status != Encounter.Status.ACTIVE:
            break
        if step % every == 0:
            secrets = hidden(encounter, figures)
            if unseen_by_gm is None:
                unseen_by_gm = set(figures)
            gm_seen = "".join(received(gm_client, gm, encounter).values())
            unseen_by_gm -= {name for name, secret in secrets.items() if secret in gm_seen}
            for client, user in players:
                for where, text in received(client, user, encounter).items():
                    for name, secret in secrets.items():
                        assert secret not in text, f"a player receives the {name} ({where})"
        decision = engine.pending(encounter.state)[0]
        actors.add(decision.actor)
        choice = (choose(decision, encounter.state) if choose else None) or decision.default
        encounter_act(encounter=encounter, user=owner(decision.actor), actor=decision.actor,
                      decision_kind=decision.kind, choice=choice,
                      expected_version=encounter.version)
    assert encounter.status == Encounter.Status.FINISHED
    assert not unseen_by_gm, f"the GM never receives {sorted(unseen_by_gm)}: a check in vain"
    for client, user in players:
        seen = received(client, user, encounter)
        assert encounter.seed in seen["page"] and encounter.seed in seen["stream"]
        for where, text in seen.items():
            for name, secret in {**figures, "GM notes": MARKER}.items():
                assert secret not in text, f"after the end a player receives the {name} ({where})"
    return actors


def owners(campaign, gm):
    def owner(actor):
        return gm if actor == GM else campaign.characters.get(pk=int(actor[3:])).owner
    return owner


@pytest.fixture
def players(player_a, player_b, player_a_client, player_b_client):
    return [(player_a_client, player_a), (player_b_client, player_b)]


@pytest.fixture
def vautour(campaign, gm):
    """A second enemy ship with a crew of her own and GM-only notes, revealed."""
    from ships.services import ship_reveal

    ship = ship_create(campaign=campaign, actor=gm, name="Le Vautour", guns=24,
                       side=Ship.Side.ENEMY, ship_type=ShipType.objects.get(name="Sixth Rate"),
                       crew={"awareness": 3, "command": 4, "first_aid": 2, "gunnery": 5,
                             "maritime": 3, "seamanship": 4}, gm_notes=MARKER)
    ship_reveal(ship=ship, actor=gm)
    return ship


def test_a_squadron_battle(campaign, gm, pc_a, pc_ship, enemy_ship, vautour, players):
    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Two against one",
        setup=naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, enemies=[vautour],
                          weather="good_wind", start_distance=3),
        stacked_cards="9D 2H 3H 4H 5H 6H 7H 8H 2D 3S 4S 5S 6S QC KC AC",
        ships=[pc_ship, enemy_ship, vautour])
    encounter = encounter_start(encounter=encounter, user=gm, expected_version=1)
    # (two skills whose keys are next to each other in PostgreSQL's order and SQLite's)
    figures = {"second enemy's crew": '"gunnery":5,"maritime":3',
               "first enemy's crew": '"gunnery":4,"maritime":2'}
    actors = play_watched(encounter, owners(campaign, gm), players, figures)
    assert GM in actors and f"pc:{pc_a.pk}" in actors


@pytest.fixture
def soldier(campaign, gm):
    return character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                            name="Soldat Secret", rank="Corporal", gm_notes=MARKER,
                            skills={"command": 2})


SOLDIER = {"the soldier's trait": "Strong Swordarm"}


def test_a_skirmish(campaign, gm, gm_client, pc_a, pc_b, npc, soldier, players):
    encounter = prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc, soldier,
                                 **{f"traits_{soldier.pk}": "Strong Swordarm"})
    Encounter.objects.filter(pk=encounter.pk).update(
        stacked_cards="7S 9S 2H 3D 8H 10D JC 8D 2C 3C 4C 5S 6S 7C".split())
    begin(gm_client, encounter)
    figures = {**SOLDIER, "their commander's Command (page)": "Command 5",
               "their commander's Command (JSON)": '"command":5'}
    actors = play_watched(encounter, owners(campaign, gm), players, figures, every=2)
    assert {f"pc:{pc_a.pk}", f"pc:{pc_b.pk}"} <= actors


def test_a_duel_with_an_npc(campaign, gm, gm_client, pc_a, soldier, players):
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "duel"]), {
        "attacker": pc_a.pk, "attacker_weapons": ["sword"], "defender": soldier.pk,
        "defender_weapons": ["axe", "pistol"], "mode": "melee", "band": "melee",
        "wind": "light", "precipitation": "none", f"traits_{soldier.pk}": "Strong Swordarm"})
    assert response.status_code == 302, response.content.decode()[:2000]
    encounter = Encounter.objects.get(engine="btq_personal_combat")
    Encounter.objects.filter(pk=encounter.pk).update(stacked_cards="KS 2D 3D 4D".split())
    begin(gm_client, encounter)
    actors = play_watched(encounter, owners(campaign, gm), players, SOLDIER, every=1)
    assert f"pc:{pc_a.pk}" in actors


def test_a_battle_with_a_boarding(campaign, gm, hermes, corsair, players):
    black = character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                             name="Black", rank="Captain", skills={"command": 7},
                             gm_notes=MARKER)
    posting_set(ship=corsair, character=black, station="captain", actor=gm)
    vulture = ship_create(campaign=campaign, actor=gm, name="Vulture", guns=None,
                          side=Ship.Side.ENEMY, ship_type=ShipType.objects.get(name="Cutter"),
                          crew={"awareness": 2, "seamanship": 2, "gunnery": 2, "command": 2})
    encounter = boarding_battle(campaign, gm, hermes, corsair, vulture)
    figures = {"the captain's Command (page)": "Command 7",
               "the captain's Command (JSON)": '"command":7',
               "the boarding's crew pools": "crew_pool"}
    boarded = []

    def choose(decision, state):
        if state["boarding"] is not None:
            boarded.append(decision.kind)
        return closest(decision, state, vulture)

    owner = owners(campaign, gm)
    actors = play_watched(encounter, owner, players, figures, choose, every=4)
    assert boarded and {owner(a) for a in actors} == {gm} | {user for _, user in players}
