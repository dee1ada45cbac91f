"""In the browser: the GM prepares a short skirmish from the campaign's characters and
begins it; two players on phone-sized pages, in browsers of their own, each make their own
character's choices (Anne, in command, gives the orders and her Discipline cards; Ben picks
his own weapon), the pages follow each other's moves without a reload, a player's page shows
nothing of the GM's, and at the end the seed is revealed and the replay steps back and
forth."""

import pytest

from characters.models import Character
from characters.services import character_create
from combat.models import Encounter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-skirmish-table"
PHONE = {"width": 390, "height": 844}
MARKER = "soldier-gm-marker"


@pytest.fixture
def table(campaign, gm, player_a, player_b):
    for user in (gm, player_a, player_b):
        user.set_password(PASSWORD)
        user.save()
    for name in ("Soldat", "Caporal"):
        character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC, name=name,
                         gm_notes=MARKER, skills={"command": 2})
    return campaign


def decide(page, choice=None):
    """Make the first decision on ``page`` (its default unless ``choice``) and wait for the
    page to come back."""
    form = page.locator("form.decision").first
    form.wait_for()
    if choice is not None:
        if form.locator("select[name=choice]").count():
            form.locator("select[name=choice]").select_option(choice)
        else:
            form.locator(f'input[name=choice][value="{choice}"]').check()
    with page.expect_navigation():
        form.locator("button[type=submit]").click()


def test_gm_and_two_players_fight_a_short_skirmish(table, new_context, login, pc_a, pc_b):
    soldier = table.characters.get(name="Soldat")
    corporal = table.characters.get(name="Caporal")
    gm = login(new_context(), "gm", PASSWORD)
    gm.goto(f"/combat/campaign/{table.pk}/")
    gm.click("text=New skirmish")
    gm.check(f"input[name=pcs][value='{pc_a.pk}']")
    gm.check(f"input[name=pcs][value='{pc_b.pk}']")
    gm.check(f"input[name=foes][value='{soldier.pk}']")
    gm.check(f"input[name=foes][value='{corporal.pk}']")
    gm.select_option("select[name=foe_band]", "melee")
    gm.select_option("select[name=foe_weapon]", "cutlass")
    gm.select_option("select[name=opposing_commander]", str(soldier.pk))
    with gm.expect_navigation():
        gm.click("text=Prepare it")
    encounter = Encounter.objects.get(engine="btq_skirmish")
    with gm.expect_navigation():
        gm.click("text=Begin the skirmish")
    battle = f"/combat/{encounter.pk}/"

    anne = login(new_context(), "player_a", PASSWORD)
    anne.set_viewport_size(PHONE)
    anne.goto(battle)
    ben = login(new_context(), "player_b", PASSWORD)
    ben.set_viewport_size(PHONE)
    ben.goto(battle)
    ben.evaluate("window.notReloaded = true")
    assert ben.locator("form.decision").count() == 0  # Anne gives the orders
    decide(anne, f"fight:npc:{soldier.pk}")   # Anne's own orders
    decide(anne, f"fight:npc:{corporal.pk}")  # Ben's orders: the other foe
    decide(anne, "2")          # two of her three Discipline cards to Ben
    decide(anne, "cutlass")    # Anne's own weapon
    # Ben's page learnt of it by itself and now asks him for his weapon: his foe stands
    ben.locator("form.decision[data-kind='action.perform']").wait_for()
    assert ben.evaluate("window.notReloaded") is True
    assert "Your turn" in ben.title()
    for page in (anne, ben):
        html = page.content()
        assert MARKER not in html and encounter.seed not in html and 'class="gm-data' not in html
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    decide(ben, "cutlass")     # Ben's own choice
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    gm.goto(battle)
    assert gm.locator(".seed").text_content() == encounter.seed
    anne.locator(".seed").wait_for()  # pushed: the end reveals the seed on her page too
    assert anne.locator(".seed").text_content() == encounter.seed
    pc_b.refresh_from_db()
    assert pc_b.health_state == ["healthy", "injured", "maimed", "dead"].index(
        encounter.outcome["data"]["fighters"][f"pc:{pc_b.pk}"]["health"])

    with ben.expect_navigation():
        ben.click("text=Step through the replay")
    last = int(ben.locator(".step-number strong").text_content())
    with ben.expect_navigation():
        ben.click("[data-step=previous]")
    assert int(ben.locator(".step-number strong").text_content()) == last - 1
    with ben.expect_navigation():
        ben.click("[data-step=next]")
    assert int(ben.locator(".step-number strong").text_content()) == last
    assert MARKER not in ben.content() and 'class="gm-data' not in ben.content()
