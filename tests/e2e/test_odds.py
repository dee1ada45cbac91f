"""In the browser, with a real Celery worker on Redis and PostgreSQL (issue 11): the GM asks
"What are the odds?" on the new-battle page, watches the progress bar move as the worker
plays, and reads the chart and the table of outcomes; at a decision of a running battle he
asks "What if…?" and the odds of each option appear beside it, the best marked (or the
leading options said to be too close to call); a player without the campaign's setting sees
no odds anywhere on his page, and the odds' own pages answer him 404."""

import pytest

from combat.demo import DEMO_PASSWORD, demo_load
from combat.models import Simulation
from combat.services import encounter_create, encounter_start
from ships.services import naval_setup
from tests.combat.test_worker import Worker, real_services  # noqa: F401  (autouse: skips)

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WAIT_MS = 180_000
"""10,000 battles on one worker process: some seconds, a few minutes on a two-core machine
other work keeps busy."""


def test_the_gm_asks_the_odds_and_what_if_and_a_player_sees_none(new_context, login):
    campaign, _ = demo_load()
    gm = login(new_context(), "gm", DEMO_PASSWORD)
    with Worker():
        gm.goto(f"/combat/campaign/{campaign.pk}/new/")
        gm.select_option("select[name=pc_ship]", label="HMS Hermes (22): Healthy")
        gm.select_option("select[name=enemy_ship]", label="Corsair: Healthy")
        with gm.expect_navigation():
            gm.click("button:has-text('What are the odds?')")
        simulation = Simulation.objects.get()
        assert gm.url.endswith(f"/combat/odds/{simulation.pk}/")
        assert gm.locator(".seed-hash").text_content() == simulation.seed_hash
        # the progress bar moves while the worker plays, pushed to the page
        gm.wait_for_function(
            "() => { const p = document.querySelector('#odds-results progress');"
            " return p && p.value > 0 && p.value < p.max; }", timeout=WAIT_MS)
        gm.locator("#odds-results .seed").wait_for(timeout=WAIT_MS)  # revealed at the end
        assert gm.locator("#odds-results progress").count() == 0
        assert gm.locator("#odds-results figure.odds-chart svg").count() == 2  # odds, rounds
        simulation.refresh_from_db()
        assert simulation.status == Simulation.Status.DONE
        assert simulation.games_done == 10_000
        rows = gm.locator("table.odds-outcomes tbody tr")
        assert rows.count() == len(simulation.results[""]["outcomes"])
        assert "Won by HMS Hermes (22): struck" in gm.locator("table.odds-outcomes").inner_text()
        assert gm.locator(".seed").text_content() == simulation.seed
        assert campaign.encounters.count() == 0  # asking the odds prepares no battle
        gm.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing scrolls sideways
        assert gm.evaluate("document.documentElement.scrollWidth") <= 390
        gm.set_viewport_size({"width": 1280, "height": 900})

        hermes, corsair = campaign.ships.get(side="pc"), campaign.ships.get(side="enemy")
        battle = encounter_create(
            campaign=campaign, user=simulation.created_by, engine="btq_naval",
            title="Hermes v Corsair",
            setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="steady_breeze",
                              start_distance=None),
            ships=[hermes, corsair])
        battle = encounter_start(encounter=battle, user=simulation.created_by,
                                 expected_version=battle.version)
        gm.goto(f"/combat/{battle.pk}/")
        with gm.expect_navigation():
            gm.locator("form.what-if button").first.click()
        what_if = Simulation.objects.exclude(pk=simulation.pk).get()
        panel = gm.locator(f"#sim-{what_if.pk}")
        panel.wait_for()
        # the best marked, or (its interval overlapping the runner-up's) none
        panel.locator(".best-mark, .odds-too-close").first.wait_for(timeout=WAIT_MS)
        options = panel.locator("table.odds-options tbody tr")
        assert options.count() == len(what_if.decision["options"]) >= 2
        marked = panel.locator(".best-mark").count()
        assert panel.locator("tr.best").count() == marked == 1 - panel.locator(
            ".odds-too-close").count()

    player = login(new_context(), "otoole", DEMO_PASSWORD)
    player.goto(f"/combat/{battle.pk}/")
    shown = player.content()
    assert "What if" not in shown and "odds-beside" not in shown
    assert "The odds from here" not in shown
    for url in (f"/combat/odds/{what_if.pk}/", f"/combat/odds/{simulation.pk}/",
                f"/combat/odds/{what_if.pk}/results.json"):
        assert player.request.get(url).status == 404, url
