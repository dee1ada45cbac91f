"""In the browser: a ship battle with a second enemy ship comes to a boarding (BtQ
L2498-2533). HMS Testament (Anne in command, Ben aboard) closes on Le Secret, whose captain is
a named NPC, while the Vulture stands off; in the boarding each player, in a browser of his
own on a phone-sized page, makes his own character's choice (Anne goes for the captain, Ben
joins the Grand Melee), the pages follow each other without a reload, a player's page shows
nothing of the GM's (the captain's figures, the GM's cards before they turn, the seed), and
at the end the seed is revealed."""

import pytest

from characters.models import Character
from characters.services import character_create
from combat.models import Encounter
from combat.services import encounter_act, encounter_create, encounter_start
from rules.engine import GM, get_engine
from ships.models import Ship, ShipType
from ships.services import naval_setup, posting_set, ship_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-boarding-table"
PHONE = {"width": 390, "height": 844}
MARKER = "captain-gm-marker"
ENGINE = get_engine("btq_naval")


@pytest.fixture
def battle(campaign, gm, player_a, player_b, pc_a, pc_b, pc_ship, enemy_ship):
    for user in (gm, player_a, player_b):
        user.set_password(PASSWORD)
        user.save()
    black = character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                             name="Black", rank="Captain", skills={"command": 7},
                             gm_notes=MARKER)
    posting_set(ship=enemy_ship, character=black, station="captain", actor=gm)
    vulture = ship_create(campaign=campaign, actor=gm, name="Vulture", guns=None,
                          side=Ship.Side.ENEMY, ship_type=ShipType.objects.get(name="Cutter"),
                          crew={"awareness": 2, "seamanship": 2, "gunnery": 2, "command": 2})
    # The first Positioning (Testament against Le Secret): Card of Fate AS, Anne's first
    # card AS, a Perfect: she may close three, from 3 to 0 (BtQ L2427-2431).
    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Boarders away",
        setup=naval_setup(pc_ship=pc_ship, enemy_ship=enemy_ship, enemies=[vulture],
                          weather="good_wind", start_distance=3),
        stacked_cards="AS AS", ships=[pc_ship, enemy_ship, vulture])
    encounter = encounter_start(encounter=encounter, user=gm, expected_version=1)
    return encounter, black, vulture


def act_until_the_boarding(encounter, users, vulture):
    """Play the decisions before the boarding's first action through the services (the
    battle's own tests cover them): the Testament closes to Distance 0 on Le Secret, the
    Vulture pair is held off, every other decision its default."""
    for _ in range(60):
        encounter.refresh_from_db()
        decision = ENGINE.pending(encounter.state)[0]
        if decision.kind == "boarding.action":
            return decision
        choice = decision.default
        if decision.kind == "positioning.move":
            keys = [o.key for o in decision.options if o.key.isdigit()]
            low = 1 if str(vulture.pk) in encounter.state["await"]["pair"] else 0
            choice = min((k for k in keys if int(k) >= low), key=int)
        encounter_act(encounter=encounter, user=users[decision.actor], actor=decision.actor,
                      decision_kind=decision.kind, choice=choice,
                      expected_version=encounter.version)
    raise AssertionError("no boarding")


def decide(page, choice):
    form = page.locator("form.decision").first
    form.wait_for()
    form.locator(f'input[name=choice][value="{choice}"]').check()
    with page.expect_navigation():
        form.locator("button[type=submit]").click()


def test_two_players_and_the_gm_fight_a_boarding_with_a_second_enemy_ship(
        battle, new_context, login, gm, player_a, player_b, pc_a, pc_b, enemy_ship):
    encounter, black, vulture = battle
    users = {GM: gm, f"pc:{pc_a.pk}": player_a, f"pc:{pc_b.pk}": player_b}
    first = act_until_the_boarding(encounter, users, vulture)
    encounter.refresh_from_db()
    assert first.actor == f"pc:{pc_a.pk}" and encounter.state["boarding"]["defender"] == str(
        enemy_ship.pk)
    page = f"/combat/{encounter.pk}/"
    gm_page = login(new_context(), "gm", PASSWORD)
    gm_page.goto(page)
    assert "Boarding, round 1" in gm_page.content() and "Vulture" in gm_page.content()
    anne = login(new_context(), "player_a", PASSWORD)
    anne.set_viewport_size(PHONE)
    anne.goto(page)
    ben = login(new_context(), "player_b", PASSWORD)
    ben.set_viewport_size(PHONE)
    ben.goto(page)
    ben.evaluate("window.notReloaded = true")
    assert ben.locator("form.decision").count() == 0  # Anne chooses first, and only hers
    for who in (anne, ben):
        html = who.content()
        assert "Boarding, round 1" in html and "Captain Black" in html
        assert MARKER not in html and encounter.seed not in html and 'class="gm-data' not in html
        assert who.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    decide(anne, f"officers:npc:{black.pk}")  # Anne fights through to the captain
    ben.locator("form.decision[data-kind='boarding.action']").wait_for()
    assert ben.evaluate("window.notReloaded") is True
    assert anne.locator("form.decision[data-kind='boarding.action']").count() == 0
    decide(ben, "melee")  # Ben's own choice: the Grand Melee
    encounter.refresh_from_db()
    # With every fighter's choice made the round is played out: it ends in the Command test,
    # or sooner when a Crew is cut down in the fighting and its ship taken (BtQ L2528-2531).
    kinds = {e.kind for e in encounter.events.all()}
    assert "boarding.draw" in kinds and kinds & {"boarding.command", "boarding.end"}
    html = ben.content()
    assert MARKER not in html and 'class="gm-data' not in html
    # The GM (or the players) play on with the defaults to the end of the battle.
    for _ in range(300):
        encounter.refresh_from_db()
        if encounter.status != Encounter.Status.ACTIVE:
            break
        decision = ENGINE.pending(encounter.state)[0]
        encounter_act(encounter=encounter, user=users[decision.actor], actor=decision.actor,
                      decision_kind=decision.kind, choice=decision.default,
                      expected_version=encounter.version)
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    anne.locator(".seed").wait_for()  # pushed: the end reveals the seed on her page
    assert anne.locator(".seed").text_content() == encounter.seed
