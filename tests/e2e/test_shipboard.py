"""In the browser, on a phone: a player opens her character's shipboard page from her
sheet, buys an Officer's Dress Uniform (cost 5 against her Wealth 4: a Wealth test against
the price list's 5 cards), turns the cards on the test's page, sees them, and sees her new
Wealth back on the shipboard page (the book's Lonsdale loses: Wealth Injured, TV-17)."""

import pytest

from characters.services import character_update
from combat.models import Encounter
from tests.combat.shipboard.conftest import stack

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-shipboard"
PHONE = {"width": 390, "height": 844}
CARDS = "2D  10C 3C 10H 3S  5D 10S QH AH 6C"
"""Lonsdale's cards (BtQ L1750-1751), with a fifth for the price list's five-card opposition."""


def test_a_player_buys_a_dress_uniform_with_a_wealth_test_on_a_phone(campaign, gm, player_a,
                                                                     pc_a, new_context, login):
    player_a.set_password(PASSWORD)
    player_a.save()
    character_update(character=pc_a, actor=gm, version=pc_a.version, wealth=4)
    page = login(new_context(), "player_a", PASSWORD)
    page.set_viewport_size(PHONE)
    page.goto(f"/characters/{pc_a.pk}/")
    with page.expect_navigation():
        page.click("#shipboard-link")
    assert page.locator("[data-wealth]").inner_text() == "4"
    page.select_option("select[name=buy-item]", "officers_dress_uniform")
    with page.expect_navigation():
        page.click("#buy-form button[type=submit]")
    test = Encounter.objects.get()
    assert page.url.endswith(f"/tests/{test.pk}/")
    assert "needs a Wealth test" in page.inner_text(".messages")
    stack(test, CARDS)
    with page.expect_navigation():
        page.click("button:text('Turn the cards')")
    assert page.locator("#cards [title='Card of Fate']").count() == 1
    assert page.locator(f"#cards .hand[data-who='pc:{pc_a.pk}'] .card-face").count() == 4
    assert page.locator("#cards .hand[data-who='difficulty'] .card-face").count() == 5
    assert "Injured" in page.inner_text("main")
    widest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('main *')].map("
        "e => e.getBoundingClientRect().right))")
    assert widest <= PHONE["width"]
    page.goto(f"/shipboard/character/{pc_a.pk}/")
    assert page.locator("[data-wealth]").inner_text() == "4"
    assert page.locator("[data-wealth-state]").inner_text() == "Injured"
    widest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('main *')].map("
        "e => e.getBoundingClientRect().right))")
    assert widest <= PHONE["width"]
