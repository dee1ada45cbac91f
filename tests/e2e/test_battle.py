"""In the browser: the GM prepares and begins the book's battle (Hermes vs Corsair, with the
book's cards stacked), O'Toole's player makes his own decision, the GM plays the rest of
round 1 through the forms, and the player's page follows live, without a reload, showing
nothing that is the GM's alone."""

import pytest

from combat.demo import DEMO_PASSWORD, demo_load
from combat.models import Encounter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The GM's choices after O'Toole picks Distance 3 (tests/combat/conftest.py ROUND_1).
GM_CHOICES = ["1", "2", "1", "seamanship", "contested:seamanship", "gunnery", "static:3",
              "first_aid", "static:3", "roundshot", "roundshot", "continue", "continue"]


def decide(page, choice):
    """Make the first of the viewer's own decisions on ``page`` with ``choice`` and wait for
    the reload; when the GM has none of his own, the first player's decision, from the
    "Decide for a player" section he opens for it. Ending the turn (``end``) is the button
    of its own beside the list."""
    page.locator("#decisions form.decision").first.wait_for(state="attached")
    own = page.locator("#decisions > form.decision")
    if own.count():
        form = own.first
    else:
        section = page.locator("details.decide-for-player")
        if section.get_attribute("open") is None:
            section.locator("summary").click()
        form = section.locator("form.decision").first
    form.wait_for()
    closing = form.locator("xpath=following-sibling::form[1][@class='decision-close']")
    if closing.count() and closing.locator(f'button[value="{choice}"]').count():
        with page.expect_navigation():
            closing.locator("button").click()
        return
    if form.locator("select[name=choice]").count():
        form.locator("select[name=choice]").select_option(choice)
    else:
        form.locator(f'input[name=choice][value="{choice}"]').check()
    with page.expect_navigation():
        form.locator("button[type=submit]").click()


def test_round_1_at_the_table(new_context, login):
    campaign, _ = demo_load()
    gm = login(new_context(), "gm", DEMO_PASSWORD)
    gm.goto(f"/combat/campaign/{campaign.pk}/")
    gm.click("text=New battle")
    gm.select_option("select[name=pc_ship]", label="HMS Hermes (22): Healthy")
    gm.select_option("select[name=enemy_ship]", label="Corsair: Healthy")
    gm.select_option("select[name=weather]", "good_wind")
    gm.check("input[name=book_cards]")
    with gm.expect_navigation():
        gm.click("text=Prepare the battle")
    with gm.expect_navigation():
        gm.click("text=Begin the battle")
    encounter = Encounter.objects.get()
    assert encounter.status == Encounter.Status.ACTIVE
    battle = f"/combat/{encounter.pk}/"
    assert gm.locator(".seed-hash").text_content() == encounter.seed_hash

    player = login(new_context(), "otoole", DEMO_PASSWORD)
    player.goto(battle)
    decide(player, "3")  # O'Toole's own decision: the starting distance
    player.evaluate("window.notReloaded = true")
    assert player.locator('#event-log li[data-kind="start.distance"]').count() == 1

    gm.goto(battle)
    for choice in GM_CHOICES:
        decide(gm, choice)
    assert [gm.locator('tr[data-area="hull"] td.track .damage-track').nth(i)
            .get_attribute("data-track") for i in range(2)] == ["x.|..|..", "xx|..|.."]

    # The player's page caught up by itself: the Broadside!, the new tracks, round 2.
    player.locator('#event-log li[data-kind="broadside.damage"]').first.wait_for()
    player.locator('section.ship td.track .damage-track[data-track="xx|..|.."]').wait_for()
    assert player.evaluate("window.notReloaded") is True
    assert player.locator("#event-log .card-face.fate").count() >= 3
    assert player.locator("#event-log .card-face.success-3").count() >= 1  # the Joker
    shown = player.content()
    encounter.refresh_from_db()
    assert encounter.seed not in shown
    assert encounter.seed_hash in shown
    for gm_only in ("gm-data", 'class="stacked"', "Contested: the Corsair", "Resolve the rest"):
        assert gm_only not in shown


def test_battle_pages_fit_a_phone(new_context, login):
    """At 390 px wide, the battle list, a finished and a running battle's pages, the
    campaign page, O'Toole's sheet (his seven reputations), a ship, the tests and the log do
    not scroll sideways (long seed hashes and summaries wrap, tables keep to the width)."""
    from django.contrib.auth import get_user_model

    from combat.forms import book_cards, book_choices
    from combat.services import encounter_create, encounter_resolve_rest, encounter_start, job_run
    from ships.models import Ship, ShipType
    from ships.services import naval_setup, ship_create

    campaign, _ = demo_load()
    gm_user = get_user_model().objects.get(username="gm")
    hermes = campaign.ships.get(name="HMS Hermes")
    corsair = campaign.ships.get(name="Corsair")

    def battle(title, enemy):
        encounter = encounter_create(
            campaign=campaign, user=gm_user, engine="btq_naval", title=title,
            setup=naval_setup(pc_ship=hermes, enemy_ship=enemy, weather="good_wind"),
            stacked_cards=book_cards(), stacked_choices=book_choices(hermes),
            ships=[hermes, enemy])
        return encounter_start(encounter=encounter, user=gm_user, expected_version=1)

    finished = battle("The book's battle, resolved by the computer to its very end", corsair)
    job_run(job_id=encounter_resolve_rest(encounter=finished, user=gm_user).pk)
    hermes.refresh_from_db()
    frigate = ship_create(campaign=campaign, actor=gm_user, name="La Vengeance", guns=None,
                          side=Ship.Side.ENEMY, ship_type=ShipType.objects.get(name="Cutter"),
                          crew={"awareness": 3, "seamanship": 3, "gunnery": 3, "command": 3})
    running = battle("A second battle, still running", frigate)
    otoole = campaign.characters.get(owner__username="otoole")
    pages = [f"/combat/campaign/{campaign.pk}/", f"/combat/{finished.pk}/",
             f"/combat/{running.pk}/", f"/campaigns/{campaign.pk}/",
             f"/characters/{otoole.pk}/", f"/ships/{hermes.pk}/",
             f"/campaigns/{campaign.pk}/tests/", f"/campaigns/{campaign.pk}/log/"]
    for username in ("gm", "otoole"):
        context = new_context()
        page = login(context, username, DEMO_PASSWORD)
        page.set_viewport_size({"width": 390, "height": 844})
        for url in pages:
            page.goto(url)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{url} as {username} is {width} px wide"
            # Nor does a table scroll sideways inside its box, nor the page run on below
            # its footer (a hidden text escaping a scrolling log once stretched it).
            boxed = page.evaluate("[...document.querySelectorAll('.overflow-auto')]"
                                  ".filter(e => e.scrollWidth > e.clientWidth + 1).length")
            assert boxed == 0, f"{url} as {username}: {boxed} table(s) scroll sideways"
            below = page.evaluate(
                "document.documentElement.scrollHeight - Math.max(window.innerHeight, "
                "document.querySelector('footer').getBoundingClientRect().bottom"
                " + window.scrollY)")
            assert below < 80, f"{url} as {username} runs on {below} px below its footer"
