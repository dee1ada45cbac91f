"""A British vs Pirates battle in three browsers (issue 14, "Done when"): the GM starts it
from the campaign's New wargame page with O'Toole commanding the British and Bosworth the
Pirates; the two players play two turns each, firing at each other; the cards each writes
for an attack stay hidden from the other until both are in, then the dice are rolled and
every page shows them; the board is drawn and follows the game live."""

import pytest

from .test_battle import decide

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _form(page, kind):
    form = page.locator(f'form.decision[data-kind="{kind}"]')
    form.wait_for()
    return form


def _fire(page, ship):
    """Fire ``ship``'s guns: the first fire option of the turn's list."""
    select = _form(page, "turn").locator("select[name=choice]")
    key = next(v for v in select.locator("option").evaluate_all("os => os.map(o => o.value)")
               if v.startswith(f"{ship}:fire:"))
    decide(page, key)


def _play_a_card(page, kind):
    """Choose the first card offered for the attack (``none`` if there is none); returns
    the chosen card's label."""
    form = _form(page, kind)
    radios = form.locator("input[name=choice]")
    pick = radios.nth(1) if radios.count() > 1 else radios.nth(0)
    label = form.locator("label").nth(1 if radios.count() > 1 else 0).inner_text().strip()
    value = pick.get_attribute("value")
    decide(page, value)
    return label


def test_two_players_fire_for_two_turns_their_cards_hidden_until_both_are_in(demo_wargame):
    # On a secret seed, one game in ten sees the British first shot silence the Pirate's
    # broadside, and the Pirate has nothing to fire back with: this seed lets both fire twice.
    gm, otoole, bosworth, game = demo_wargame("bvp/first_broadside", "british", "pirates",
                                              seed="1")
    assert gm.locator(".bvp-board svg .ship").count() == 2
    assert "provisional card data" in gm.inner_text("#battle-state")
    for page in (otoole, bosworth):
        page.goto(game)
        page.locator(".bvp-board svg").wait_for()
        assert "Round 1" in page.inner_text("#battle-state")

    for rnd in (1, 2):
        for shooter, target, ship in ((otoole, bosworth, "b1"), (bosworth, otoole, "p1")):
            _fire(shooter, ship)
            card = _play_a_card(shooter, "cards:attack")
            # The other side learns that a card is chosen, not which; the GM sees it.
            target.locator("text=attacker: chosen (hidden until both are in)").wait_for()
            if card != "Play no card":
                assert card not in target.content()
            gm.reload()
            assert gm.locator(".cards-status").count() == 1
            _play_a_card(target, "cards:defend")
            # Both in: the dice roll, on every page, by itself.
            for page in (otoole, bosworth, gm):
                page.locator("#event-log li[data-kind='cannon.roll']").nth(
                    2 * (rnd - 1) + (0 if ship == "b1" else 1)).wait_for()
            decide(shooter, "end")
        for page in (otoole, bosworth, gm):
            page.locator(f"#battle-state header:has-text('Round {rnd + 1}')").wait_for()

    otoole.set_viewport_size({"width": 390, "height": 844})
    assert otoole.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_ship_tapped_on_the_board_offers_her_actions_and_one_is_given(demo_wargame):
    gm, otoole, _, game = demo_wargame("bvp/first_broadside", "british", "pirates")
    otoole.set_viewport_size({"width": 390, "height": 844})
    otoole.goto(game)
    otoole.locator(".bvp-board [data-ship='b1']").click()
    picks = otoole.locator("#bvp-picks")
    picks.locator("text=The British Frigate: choose an action.").wait_for()
    assert picks.locator("button").count() > 1
    # then the enemy: only the frigate's shots and boardings at her
    otoole.locator(".bvp-board [data-ship='p1']").focus()
    otoole.keyboard.press("Enter")
    picks.locator("text=The British Frigate against the Pirate Frigate").wait_for()
    labels = picks.locator("button").all_inner_texts()
    assert labels and all("Pirate Frigate" in label for label in labels)
    with otoole.expect_navigation():
        picks.locator("button").first.click()
    otoole.locator("#event-log li[data-kind='ship.fire']").wait_for()
    assert otoole.evaluate("document.documentElement.scrollWidth") <= 390


PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 900}

FITS = """(selector) => Array.from(document.querySelectorAll(selector)).map(el => {
    const box = el.tagName === 'TABLE' ? el.parentElement : el;
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
    return {what: el.className, fits: el.scrollWidth <= box.clientWidth + 1,
            scrolls: scrolls, right: box.getBoundingClientRect().right,
            width: Math.round(el.getBoundingClientRect().width)};
})"""
"""For each element of ``selector``: whether it fits its box (a table's box is its parent),
whether that box scrolls sideways, the box's right edge and the element's own width."""


def _in_their_boxes(page, selector, width):
    """Every ``selector`` on ``page`` shows whole or scrolls inside its own box, the box
    within the screen, and the page itself does not scroll sideways."""
    found = page.evaluate(FITS, selector)
    assert found, selector
    for el in found:
        assert el["fits"] or el["scrolls"], el
        assert el["right"] <= width, el
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    return found


def test_every_column_of_the_ship_tables_shows_on_a_phone_and_a_laptop(demo_wargame):
    """A tester's finding: at 390 px the ship tables' last columns were cut off. Three
    ships a side (Merchant Escort), each side's table shows every column, phone and
    laptop, before the first round as well as after it."""
    gm, otoole, _, game = demo_wargame("bvp/merchant_escort", "british", "pirates", seed="1")
    for size in (PHONE, LAPTOP):
        for page in (otoole, gm):
            page.set_viewport_size(size)
            page.goto(game)
            tables = _in_their_boxes(page, "table.bvp-ships", size["width"])
            assert len(tables) == 2 and all(t["fits"] for t in tables), tables
            header = page.locator("#battle-state .bvp header").inner_text()
            assert "Before the first round" in header and "Round 0" not in header
    # the captain's crew morale is in his ship's cell
    assert "Redne, morale 5/5" in otoole.locator("table.bvp-ships").first.inner_text()


def test_the_odds_of_a_game_keep_their_charts_readable_on_a_phone(demo_wargame, settings):
    """"The odds" of a BvP game and a what if of its first decision, played here (a few
    games: the layout is the point). At 390 px every table shows or scrolls in its box and
    each chart keeps a readable width, scrolling inside its own box rather than shrinking
    its words; on a laptop each chart fits its column."""
    from combat.models import Encounter
    from combat.odds.services import simulation_create_from_encounter, simulation_run
    from rules.engine import get_engine

    settings.JOB_SLICE_SECONDS = 600
    gm, _, _, game = demo_wargame("bvp/annihilation_duel", "british", "pirates", seed="1")
    encounter = Encounter.objects.get()
    decision = get_engine("bvp").pending(encounter.state)[0]
    simulations = [
        simulation_create_from_encounter(encounter=encounter, user=encounter.created_by,
                                         games=20),
        simulation_create_from_encounter(encounter=encounter, user=encounter.created_by,
                                         actor=decision.actor, decision_kind=decision.kind,
                                         games=10)]
    for simulation in simulations:
        simulation_run(simulation_id=simulation.pk)
    for simulation in simulations:
        gm.goto(f"/combat/odds/{simulation.pk}/")
        gm.locator("#odds-results figure.odds-chart svg").first.wait_for()
        for size in (PHONE, LAPTOP):
            gm.set_viewport_size(size)
            _in_their_boxes(gm, "#odds-results table", size["width"])
            charts = _in_their_boxes(gm, "#odds-results figure.odds-chart", size["width"])
            widths = gm.evaluate("Array.from(document.querySelectorAll("
                                 "'#odds-results figure.odds-chart svg')).map("
                                 "s => s.getBoundingClientRect().width)")
            assert all(w >= 560 for w in widths), (size, widths)  # 13 px type at 640
            if size is LAPTOP:
                assert all(c["fits"] for c in charts), charts
    gm.set_viewport_size(PHONE)
    gm.goto(game)  # the battle page's odds panels
    _in_their_boxes(gm, "#odds table", PHONE["width"])
