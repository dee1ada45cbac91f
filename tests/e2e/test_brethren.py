"""A Brethren of the Coast fleet action in three browsers (issue 12, "Done when"): the GM
starts it from the campaign with O'Toole commanding the English line and Bosworth the
French; the two players write their ships' orders for two turns; each sees only his own
orders until all are in, then everyone sees them revealed; the board is drawn and updated
live, and a tap on it steers."""

import pytest

from .test_battle import decide

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ARROW_ORDER = "Steer for the La Mouette, then fire as they bear"
GLOIRE_ORDER = "Steer for the HMS Pickle, then fire as they bear"


def _order(page, kind, choice):
    form = page.locator(f'form.decision[data-kind="{kind}"]')
    form.wait_for()
    decide(page, choice)


def test_two_players_and_the_gm_play_two_turns(demo_wargame):
    gm, otoole, bosworth, game = demo_wargame("brethren/fleet_action", "en", "fr", seed="1")
    assert gm.locator(".brethren-board svg .ship").count() == 6
    for page in (otoole, bosworth):
        page.goto(game)
        page.locator(".brethren-board svg").wait_for()
        assert "Turn 1 of 16" in page.inner_text("#battle-state")

    # A tap on the Islet steers the first English ship's orders for it.
    form = otoole.locator('form.decision[data-kind="orders:e1"]')
    otoole.locator('.brethren-board .island[data-mark="islet"]').click()
    assert form.locator("select[name=choice]").input_value().startswith("move:to:islet")

    _order(otoole, "orders:e1", "move:to:f3+fire")
    assert ARROW_ORDER in otoole.inner_text("#battle-state")
    # Bosworth's page learns that the order is in, not what it is; the GM sees it.
    bosworth.locator("text=given (hidden until all are in)").wait_for()
    assert ARROW_ORDER not in bosworth.content()
    gm.reload()
    assert ARROW_ORDER in gm.inner_text("#battle-state")

    _order(bosworth, "orders:f1", "move:to:e3+fire")
    otoole.locator("text=given (hidden until all are in)").wait_for()
    assert GLOIRE_ORDER not in otoole.content()
    for kind in ("orders:e2", "orders:e3"):
        _order(otoole, kind, "hold")
    assert ARROW_ORDER not in bosworth.content()
    _order(bosworth, "orders:f2", "hold")
    _order(bosworth, "orders:f3", "hold")

    # All in: revealed to everyone, and turn 2 begins on every page by itself.
    revealed = "HMS Arrow: steer for the La Mouette, then fire as they bear"
    for page in (otoole, bosworth, gm):
        page.locator(f"#event-log li[data-kind='orders.revealed']:has-text('{revealed}')"
                     ).wait_for()
        page.locator("#battle-state header:has-text('Turn 2 of 16')").wait_for()
    assert "La Gloire: steer for the HMS Pickle" in otoole.inner_text("#event-log")

    for ship in ("e1", "e2", "e3"):
        _order(otoole, f"orders:{ship}", "hold")
    assert "Turn 2 of 16" in bosworth.inner_text("#battle-state")
    for ship in ("f1", "f2", "f3"):
        _order(bosworth, f"orders:{ship}", "hold")
    for page in (otoole, bosworth, gm):
        page.locator("#battle-state header:has-text('Turn 3 of 16')").wait_for()
    otoole.set_viewport_size({"width": 390, "height": 844})
    width = otoole.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # On the phone: the board's labels are big enough to read (about 12 px on screen), the
    # ship's ~100 orders come under headings, and the log counts turns.
    label = otoole.evaluate("document.querySelector('.brethren-board .island text')"
                            ".getBoundingClientRect().height")
    assert label >= 10
    groups = otoole.locator('form.decision[data-kind="orders:e1"] select optgroup')
    assert groups.count() >= 5
    assert groups.first.get_attribute("label")
    assert "Turn 2" in otoole.inner_text("#event-log")
    assert "Round " not in otoole.inner_text("#event-log")
    # The GM commands no side here: the players' orders wait behind "Decide for a player",
    # closed, and his page has no decision form of its own.
    gm.reload()
    assert gm.locator("#decisions > form.decision").count() == 0
    section = gm.locator("details.decide-for-player")
    assert section.get_attribute("open") is None
    assert not section.locator("form.decision").first.is_visible()
    section.locator("summary").click()
    assert section.locator("form.decision").first.is_visible()


def test_the_board_is_legible_on_a_phone(demo_wargame):
    """At 390 px the ships are labelled by their keys, which do not overlap, and the legend
    names each ship by her key."""
    gm, otoole, _, game = demo_wargame("brethren/fleet_action", "en", "fr", seed="1")
    otoole.set_viewport_size({"width": 390, "height": 844})
    otoole.goto(game)
    otoole.locator(".brethren-board svg").wait_for()
    assert otoole.locator(".brethren-board .ship .label-full").first.is_hidden()
    keys = otoole.locator(".brethren-board .ship .label-key")
    boxes = [keys.nth(i).bounding_box() for i in range(keys.count())]
    assert len(boxes) == 6 and all(boxes)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (a, b)
    legend = otoole.inner_text(".brethren-board .board-legend")
    assert "1 HMS" in legend and "an island" in legend


def test_an_order_being_chosen_survives_the_other_players_order(demo_wargame):
    """Bosworth has picked La Gloire's order but not yet sent it when O'Toole sends one of
    his: the push refreshes Bosworth's decisions (out of band, with the new version), and
    his pick is still the one selected, not put back to the default (which he would then
    send without noticing)."""
    gm, otoole, bosworth, game = demo_wargame("brethren/fleet_action", "en", "fr", seed="1")
    for page in (otoole, bosworth):
        page.goto(game)
        page.locator(".brethren-board svg").wait_for()
    mine = bosworth.locator('form.decision[data-kind="orders:f1"]')
    version = mine.locator("input[name=version]").input_value()
    mine.locator("select[name=choice]").select_option("hold")
    _order(otoole, "orders:e1", "move:to:f3+fire")
    bosworth.wait_for_function(
        "v => document.querySelector('form.decision[data-kind=\"orders:f1\"] "
        "input[name=version]').value !== v", arg=version)
    bosworth.wait_for_timeout(500)
    assert mine.locator("select[name=choice]").input_value() == "hold"
