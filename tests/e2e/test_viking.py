"""A Viking sea fight in three browsers (issue 14, "Done when"): the GM starts it from the
campaign's New wargame page with O'Toole commanding Hakon's longship and Bosworth Eirik's;
the two players answer the wind check and write their orders for two turns; each sees only
his own orders until both are in, then everyone sees them revealed; the board is drawn and
moves by itself, and the house-rule mark is on the page."""

import pytest

from .test_battle import decide

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HAKON_ORDER = "Go slow, 3 in, straight on"
EIRIK_ORDER = "Go dead in the water, 0.5 in, straight on"


def _decide(page, kind, choice):
    page.locator(f'form.decision[data-kind="{kind}"]').wait_for()
    decide(page, choice)


def test_two_players_fight_two_turns_with_orders_hidden_until_both_are_in(demo_wargame):
    gm, otoole, bosworth, game = demo_wargame("viking/single_combat", "north", "south",
                                              seed="1")
    assert gm.locator(".viking-board svg .vessel").count() == 2
    for page in (otoole, bosworth):
        page.goto(game)
        page.locator(".viking-board svg").wait_for()
        assert "Turn 1 of 12" in page.inner_text("#battle-state")
        assert "House rule (not in the source)" in page.inner_text(".house-rule-mark")

    _decide(otoole, "wind:north", "keep")
    _decide(bosworth, "wind:south", "keep")
    _decide(otoole, "orders:h", "SLOW@3")
    assert HAKON_ORDER in otoole.inner_text("#battle-state")
    # Bosworth's page learns that the order is in, not what it is; the GM sees it.
    bosworth.locator("text=given (hidden until all are in)").wait_for()
    for part in ("#battle-state", "#event-log"):
        assert HAKON_ORDER.lower()[3:] not in bosworth.inner_text(part).lower()
    gm.reload()
    assert HAKON_ORDER in gm.inner_text("#battle-state")

    _decide(bosworth, "orders:e", "DIW@0.5")
    revealed = "Hakon's Longship: go slow, 3 in, straight on"
    for page in (otoole, bosworth, gm):
        page.locator(f"#event-log li[data-kind='orders.revealed']:has-text(\"{revealed}\")"
                     ).wait_for()
        page.locator("#battle-state header:has-text('Turn 2 of 12')").wait_for()
    assert "Eirik's Longship: go dead in the water" in otoole.inner_text("#event-log")
    assert "slow" in otoole.text_content('.viking-board [data-vessel="h"] text.speed')

    _decide(bosworth, "wind:south", "keep")
    _decide(otoole, "wind:north", "keep")
    _decide(bosworth, "orders:e", "SLOW@3")
    otoole.locator("text=given (hidden until all are in)").wait_for()
    _decide(otoole, "orders:h", "PACED@8")
    for page in (otoole, bosworth, gm):
        page.locator("#battle-state header:has-text('Turn 3 of 12')").wait_for()
    assert "House rule (not in the source)" in gm.inner_text(".house-rule-mark")
    otoole.set_viewport_size({"width": 390, "height": 844})
    assert otoole.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_distance_typed_on_a_phone_is_judged_by_the_rules_and_given(demo_wargame):
    gm, otoole, bosworth, game = demo_wargame("viking/single_combat", "north", "south")
    otoole.set_viewport_size({"width": 390, "height": 844})
    for page in (otoole, bosworth):
        page.goto(game)
    _decide(otoole, "wind:north", "keep")
    _decide(bosworth, "wind:south", "keep")
    typed = otoole.locator('form.typed-decision[data-kind="orders:h"]')
    typed.wait_for()
    typed.locator("select[name=f_level]").select_option("PACED")
    typed.locator("input[name=f_distance]").fill("5")
    with otoole.expect_navigation():
        typed.locator("button[type=submit]").click()
    otoole.locator("text=At paced Hakon's Longship moves 3 to 4 in, or doubled, 6 to 8 in."
                   ).wait_for()
    typed = otoole.locator('form.typed-decision[data-kind="orders:h"]')
    typed.locator("select[name=f_level]").select_option("PACED")
    typed.locator("input[name=f_distance]").fill("3.5")
    typed.locator("input[name=f_facing]").fill("1")
    typed.locator("select[name=f_side]").select_option("L")
    with otoole.expect_navigation():
        typed.locator("button[type=submit]").click()
    assert "Go paced, 3.5 in, facing 1 in to the left" in otoole.inner_text("#battle-state")
    assert otoole.evaluate("document.documentElement.scrollWidth") <= 390
