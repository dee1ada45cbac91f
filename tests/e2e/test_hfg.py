"""A Horse, Foot and Guns landing party in two browsers (issue 13, "Done when"): the GM
starts it from the campaign with O'Toole commanding the landing party and keeps the shore
defenders himself; they fight three bounds, each giving his orders on the page, and both
see the battlefield and the log updated."""

import re

import pytest

from characters.models import Character
from combat.demo import DEMO_PASSWORD, demo_load

from .test_battle import decide

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_gm_and_a_player_fight_three_bounds(new_context, login):
    campaign, _ = demo_load()
    otoole_pc = Character.objects.get(campaign=campaign, name="Gregory O'Toole")
    gm = login(new_context(), "gm", DEMO_PASSWORD)
    otoole = login(new_context(), "otoole", DEMO_PASSWORD)

    gm.goto(f"/combat/campaign/{campaign.pk}/")
    gm.click("text=New wargame")
    gm.set_viewport_size({"width": 390, "height": 844})  # the scenarios by book, on a phone
    assert gm.locator("fieldset[data-book='Horse, Foot and Guns: a land battle']").is_visible()
    assert gm.evaluate("document.documentElement.scrollWidth") <= 390
    gm.check("input[name=scenario][value='hfg/landing_party']")
    with gm.expect_navigation():
        gm.click("text=Choose the commanders")
    gm.select_option("select[name=side_a]", f"pc:{otoole_pc.pk}")
    with gm.expect_navigation():
        gm.click("text=Begin the wargame")
    game = gm.url
    assert gm.locator(".hfg-board svg .element").count() == 12
    otoole.goto(game)
    otoole.locator(".hfg-board svg").wait_for()
    assert "Bound 1" in otoole.inner_text("#battle-state")

    # Bound 1: the landing party's marines advance, then the bound's moves end.
    decide(otoole, "advance:marines")
    otoole.locator("#event-log li:has-text('Elite Bayonets (marines) advances')").wait_for()
    decide(otoole, "end")
    for page in (otoole, gm):
        page.locator("#battle-state header:has-text('Bound 2')").wait_for()
    # Bound 2: the GM's shore defenders hold; bound 3: O'Toole again.
    decide(gm, "end")
    for page in (otoole, gm):
        page.locator("#battle-state header:has-text('Bound 3')").wait_for()
    decide(otoole, "end")
    for page in (otoole, gm):
        page.locator("#battle-state header:has-text('Bound 4')").wait_for()
    gm.locator("#event-log li:has-text('Elite Bayonets (marines) advances')").wait_for()
    assert gm.locator("#event-log li[data-kind='bound.start']").count() == 4
    otoole.set_viewport_size({"width": 390, "height": 844})
    assert otoole.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_element_tapped_on_the_board_offers_its_orders_on_a_phone(demo_wargame):
    gm, otoole, _, game = demo_wargame("hfg/landing_party", "a", "b", seed="3")
    otoole.set_viewport_size({"width": 390, "height": 844})
    otoole.goto(game)
    legend = otoole.locator(".hfg-legend")
    assert "Bayonets" in legend.inner_text() and "Built-up area" in legend.inner_text()
    # at 390px no element's label runs into another's, and the PIPs go by command name
    overlaps = otoole.evaluate("""() => {
        const boxes = [...document.querySelectorAll('.hfg-board .element text')]
            .map(t => t.getBoundingClientRect());
        let n = 0;
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                n += 1;
        }));
        return [boxes.length, n];
    }""")
    assert overlaps == [12, 0]
    assert "PIPs left: The landing party" in otoole.inner_text("#battle-state header")
    # The list's pre-selected order is an order; ending the bound is its own button.
    form = otoole.locator('#decisions > form.decision[data-kind="hfg.orders"]')
    assert form.locator("select[name=choice]").input_value() != "end"
    assert form.locator("optgroup").count() >= 2
    otoole.locator(".hfg-board [data-element='marines']").click()
    picks = otoole.locator("#hfg-picks")
    picks.locator("text=Elite Bayonets (marines): choose an order.").wait_for()
    labels = picks.locator("button").all_inner_texts()
    assert any(t.startswith("Advances (") for t in labels)
    assert all("(marines)" not in t for t in labels)  # its name is the line above
    # Zoomed in, the board scrolls in its frame and the page stays phone-wide.
    otoole.locator(".hfg-zoom button[data-zoom='2']").click()
    field = otoole.locator(".hfg-field")
    assert field.evaluate("f => f.scrollWidth > f.clientWidth")
    assert otoole.evaluate("document.documentElement.scrollWidth") <= 390
    otoole.screenshot(path="/tmp/hfgux-phone-zoom.png", full_page=True)
    with otoole.expect_navigation():
        picks.get_by_role("button", name=re.compile(r"^Advances \(")).click()
    otoole.locator("#event-log li:has-text('Elite Bayonets (marines) advances')").wait_for()
    with otoole.expect_navigation():
        otoole.locator("form.decision-close button:has-text(\"End this bound's moves\")").click()
    otoole.locator("#battle-state header:has-text('Bound 2')").wait_for()
    otoole.screenshot(path="/tmp/hfgux-phone-bound2.png", full_page=True)
