"""In the browser, on a phone: the GM gives a trait on the sheet and calls the healing test
of an Injured Health; the player turns the cards on her phone; the sheet reads Healthy, and
the sheet, its history and its printable form keep to 390 px."""

import pytest

from characters.services import character_update
from combat.models import Encounter
from tests.conftest import stack

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-sheet-table"
PHONE = {"width": 390, "height": 844}


def _fits(page, url):
    page.goto(url)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{url} is {width} px wide"


def test_a_heal_on_the_phone(campaign, gm, player_a, pc_a, new_context, login):
    for user in (gm, player_a):
        user.set_password(PASSWORD)
        user.save()
    character_update(character=pc_a, actor=gm, version=pc_a.version, health_state=1,
                     skills={"first_aid": 2})
    sheet = f"/characters/{pc_a.pk}/"

    master = login(new_context(), "gm", PASSWORD)
    master.set_viewport_size(PHONE)
    master.goto(sheet)
    master.click("#traits summary")
    master.select_option("#traits select[name=trait]", "physician")
    with master.expect_navigation():
        master.click("#traits button:text('Add the trait')")
    assert "Physician" in master.inner_text("#traits")
    with master.expect_navigation():
        master.click("#healing button:text('Call the healing test')")
    test = Encounter.objects.get(engine="btq_test")
    assert test.terms["heal"]["area"] == "health"
    assert "First Aid 2 + Physician 1 = 3" in master.inner_text("main")
    stack(test, "9C  2C 3H 4H")

    player = login(new_context(), "player_a", PASSWORD)
    player.set_viewport_size(PHONE)
    player.goto(f"/campaigns/{campaign.pk}/tests/{test.pk}/")
    with player.expect_navigation():
        player.click("button:text('Turn the cards')")
    player.goto(sheet)
    assert "Healing" not in player.inner_text("main")  # nothing left to heal
    pc_a.refresh_from_db()
    assert pc_a.health_state == 0
    for url in (sheet, f"{sheet}history/", f"{sheet}print/"):
        _fits(player, url)
        _fits(master, url)
    assert "Physician" in player.inner_text("main")  # the printable sheet lists the trait


def test_a_name_of_a_hundred_letters_keeps_the_pages_to_a_phone(
        campaign, gm, pc_a, pc_ship, new_context, login):
    """A name with no space in it (a player's joke, a paste gone wrong) breaks where it
    must, in a heading, a list, a form's choices or a table's cell, and no page is wider
    than the phone."""
    from characters.models import Character
    from ships.models import Ship
    from ships.services import posting_set

    gm.set_password(PASSWORD)
    gm.save()
    Character.objects.filter(pk=pc_a.pk).update(name="Bartholomew" * 9)
    Ship.objects.filter(pk=pc_ship.pk).update(name="Indefatigable" * 7)
    posting_set(ship=pc_ship, character=pc_a, station="master", actor=gm)
    master = login(new_context(), "gm", PASSWORD)
    master.set_viewport_size(PHONE)
    sheet = f"/characters/{pc_a.pk}/"
    for url in (sheet, f"{sheet}print/", f"{sheet}edit/", f"{sheet}missions/",
                f"/ships/{pc_ship.pk}/", f"/campaigns/{campaign.pk}/tests/new/",
                f"/campaigns/{campaign.pk}/missions/new/"):
        _fits(master, url)
