"""At the table, in three browsers (issue 7, "Done when"): the GM begins a battle and the
players' campaign pages show it without a reload; the player whose decision waits sees
"Your turn"; a decision made in one browser appears in the others; a browser taken offline
and back catches up, every event once and in order."""

import time

import pytest

from combat.demo import DEMO_PASSWORD, demo_load

from .test_battle import GM_CHOICES, decide

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_seqs(page) -> list[int]:
    return [int(s) for s in page.locator("#event-log li.event").evaluate_all(
        "items => items.map(li => li.dataset.seq)")]


def wait_for_seq(page, seq: int, timeout: float = 10.0) -> None:
    page.locator(f'#event-log li[data-seq="{seq}"]').wait_for(timeout=timeout * 1000)


def test_three_browsers_at_the_table(new_context, login):
    campaign, _ = demo_load()
    home = f"/campaigns/{campaign.pk}/"
    gm = login(new_context(), "gm", DEMO_PASSWORD)
    otoole_context, bosworth_context = new_context(), new_context()
    otoole = login(otoole_context, "otoole", DEMO_PASSWORD)
    bosworth = login(bosworth_context, "bosworth", DEMO_PASSWORD)
    for player in (otoole, bosworth):
        player.goto(home)
        player.evaluate("window.notReloaded = true")
        assert "No battles yet" in player.inner_text("#battles")

    gm.goto(f"/combat/campaign/{campaign.pk}/")
    gm.click("text=New battle")
    gm.select_option("select[name=pc_ship]", label="HMS Hermes (22): Healthy")
    gm.select_option("select[name=enemy_ship]", label="Corsair: Healthy")
    gm.select_option("select[name=weather]", "good_wind")
    gm.check("input[name=book_cards]")
    gm.fill("input[name=title]", "The Corsair off Ushant")
    with gm.expect_navigation():
        gm.click("text=Prepare the battle")
    battle = gm.url
    # Prepared, not begun: a player opening it is told so (no 404, nothing of it shown).
    early = otoole_context.new_page()
    early.goto(battle)
    assert "has not begun" in early.inner_text("main")
    assert "Corsair off Ushant" not in early.content()
    with gm.expect_navigation():
        gm.click("text=Begin the battle")

    # The players' campaign pages show it by themselves, with a way in.
    for player in (otoole, bosworth):
        player.locator("#battles a:text('The Corsair off Ushant')").wait_for()
        assert player.evaluate("window.notReloaded") is True
    early.wait_for_url(battle)  # the "not begun" page opened the battle by itself
    early.locator("form.decision").first.wait_for()
    early.close()

    for player in (otoole, bosworth):
        player.click("#battles a:text('The Corsair off Ushant')")
        player.locator("#event-log li.event").first.wait_for()
    # The starting distance is O'Toole's to choose: his banner and title say so.
    assert otoole.locator("#your-turn .your-turn").is_visible()
    assert otoole.title().startswith("Your turn")
    assert bosworth.locator("#your-turn .your-turn").count() == 0
    assert not bosworth.title().startswith("Your turn")
    bosworth.evaluate("window.notReloaded = true")
    gm.evaluate("window.notReloaded = true")

    decide(otoole, "3")  # in O'Toole's browser; the others see it without a reload
    for page in (gm, bosworth):
        page.locator('#event-log li[data-kind="start.distance"]').wait_for()
        assert page.evaluate("window.notReloaded") is True

    # Bosworth's browser goes offline while the GM plays on, then comes back.
    bosworth_context.set_offline(True)
    gm.goto(battle)
    for choice in GM_CHOICES[:5]:  # up to Bosworth's own decision
        decide(gm, choice)
    time.sleep(1.5)
    bosworth_context.set_offline(False)
    expected = log_seqs(gm)
    wait_for_seq(bosworth, max(expected))
    time.sleep(1.0)  # a late duplicate would have arrived by now
    seqs = log_seqs(bosworth)
    assert seqs == expected  # every event once, newest first, as the GM's page has them
    assert len(set(seqs)) == len(seqs)
    assert bosworth.evaluate("window.notReloaded") is True
    # Bosworth's own decision (How Will You Fight?) now waits: his banner says so.
    bosworth.locator("#your-turn .your-turn").wait_for()
    assert bosworth.title().startswith("Your turn")
