"""In the browser, on a phone: a new player joins by the invitation link, creates a
character from the first step to the GM's approval (the GM in a second browser), every draw
shown as cards, the ship chosen among the campaign's; the book's cards are stacked so the
steps are O'Toole's (BtQ L443-1144)."""

import json

import pytest

from characters.models import Character
from combat.models import Encounter
from rules.engine import get_engine

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-creation"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def newcomer(campaign, gm, django_user_model):
    gm.set_password(PASSWORD)
    gm.save()
    return django_user_model.objects.create_user("newcomer", password=PASSWORD)


def fill_step(page, choice: str):
    """Make one step on the wizard's page: a typed step's fields filled from the book's
    choice (a JSON object), or an option's button."""
    form = page.locator("#step form.decision").first
    if not choice.startswith("{"):
        with page.expect_navigation():
            form.locator(f"button[name=choice][value='{choice}']").click()
        return
    for name, value in json.loads(choice).items():
        field = form.locator(f"[name=f_{name}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    with page.expect_navigation():
        form.locator("button[type=submit]").click()


def widest(page) -> float:
    return page.evaluate("Math.max(...[...document.querySelectorAll('main *')].map("
                         "e => e.getBoundingClientRect().right))")


def test_a_new_player_creates_a_character_up_to_the_gms_approval(campaign, newcomer,
                                                                 new_context, login):
    from campaigns.services import campaign_invite_regenerate

    token = campaign_invite_regenerate(campaign=campaign, actor=campaign.memberships.get(
        role="gm").user)
    player = login(new_context(), "newcomer", PASSWORD)
    player.set_viewport_size(PHONE)
    player.goto(f"/join/{token}/")
    with player.expect_navigation():
        player.click("button:text('Join as a player')")
    with player.expect_navigation():
        player.click("#create-character")
    draft = Encounter.objects.get(engine="btq_creation")
    assert player.locator(".seed-hash").text_content() == draft.seed_hash
    assert draft.seed not in player.content()
    assert player.locator(".steps li").count() == 9
    assert player.locator(".steps li[aria-current=step]").text_content() == "1. Concept"
    scenario = get_engine("btq_creation").scenarios()["otoole"]
    testament = str(campaign.ships.get(name="HMS Testament").pk)
    draft.stacked_cards = scenario.cards.split()  # the book's deck, stacked by the GM
    draft.save(update_fields=["stacked_cards"])

    gm = login(new_context(), "gm", PASSWORD)
    gm.goto(f"/campaigns/{campaign.pk}/")
    gm.evaluate("window.notReloaded = true")

    draws = 0
    for c in scenario.choices:
        if c["actor"] == "gm":
            continue  # the rule-correct O'Toole (TV-01 a): no override
        if c["kind"] == "creation.review":
            break
        if c["kind"] == "creation.ship":  # the campaign's ship, offered by name
            ship = player.locator("#step select[name=f_ship]")
            assert ship.locator("option").all_text_contents() == ["HMS Testament"]
            fill_step(player, json.dumps({"ship": testament}))
        else:
            fill_step(player, c["choice"])
        assert player.locator("p.message.error").count() == 0, player.inner_text("main")
        if c["kind"] == "creation.draw":
            draws += 1
            cards = player.locator("#cards .card-face")
            assert cards.count() == 2  # the experience card and the booty card, as cards
        assert widest(player) <= PHONE["width"]
    assert draws == 5
    assert "Waiting for the GM's approval" in player.inner_text(".draft-status")

    # The GM's campaign page learnt of it by itself (pushed, not reloaded).
    gm.locator("#drafts mark:text('1 waiting for your approval')").wait_for()
    assert gm.evaluate("window.notReloaded === true")
    with gm.expect_navigation():
        gm.click(f"#drafts a[href$='/drafts/{draft.pk}/']")
    review = gm.locator("form.decision[data-kind='creation.review']")
    review.locator("[name=f_verdict]").select_option("approve")
    review.locator("[name=f_gm_notes]").fill("Keep an eye on his smuggling")
    with gm.expect_navigation():
        review.locator("button[type=submit]").click()
    character = Character.objects.get(campaign=campaign, owner=newcomer)
    assert character.name == "Gregory O'Toole" and character.wealth == 3
    assert str(character.ship.pk) == testament  # he serves on the ship he chose
    assert sum((character.guts, character.discipline, character.charm,
                character.influence)) == 13  # TV-09, rule-correct

    # The player's page follows without a reload: approved, the seed revealed.
    player.locator(".outcome").wait_for()
    draft.refresh_from_db()
    assert player.locator(".seed").text_content() == draft.seed
    assert "Keep an eye" not in player.content()
