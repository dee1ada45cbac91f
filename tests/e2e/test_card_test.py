"""In the browser: the GM calls a test with the odds before them, the player confirms it on
a phone-sized page in a second browser, both see the cards turn over (the GM's page
without a reload), the seed's hash before the draw and the seed after, and the log entry;
an unskilled test offers one card only."""

import pytest

from combat.card_tests.selectors import card_test_status
from combat.models import Encounter

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-card-table"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def table(campaign, gm, player_a, player_b):
    """The personas' campaign with known passwords."""
    for user in (gm, player_a, player_b):
        user.set_password(PASSWORD)
        user.save()
    return campaign


def name_any_joker(page):
    """Whenever the player's Joker turns up (again, on a retest), name it (the default: the
    Card of Fate)."""
    while page.locator("form.joker").count():
        with page.expect_navigation():
            page.click("form.joker button[type=submit]")


def test_the_gm_calls_a_test_and_the_player_turns_the_cards(table, new_context, login, pc_a,
                                                            npc):
    gm = login(new_context(), "gm", PASSWORD)
    gm.goto(f"/campaigns/{table.pk}/")
    gm.click("#tests-link")
    gm.click("text=Call a test")
    gm.click(f"a[href='?character={pc_a.pk}']")
    gm.select_option("select[name=skill]", "seamanship")
    gm.fill("textarea[name=modifiers]", "Crusty Old Seadog +1")
    gm.check("input[name=opposition][value=npc]")
    gm.select_option("select[name=opponent]", str(npc.pk))
    gm.select_option("select[name=opponent_skill]", "command")
    gm.fill("input[name=intent]", "outsail the Nobody's frigate to Portsmouth")
    gm.fill("input[name=stakes_win]", "she testifies first")
    gm.fill("input[name=stakes_lose]", "he does")
    gm.select_option("select[name=at_risk]", "health")
    gm.locator("#odds-preview [data-odds='win']").wait_for()  # the odds, before calling
    assert "Command 5 = 5" in gm.inner_text("#odds-preview")
    with gm.expect_navigation():
        gm.click("button:text('Call the test')")
    test = Encounter.objects.get()
    assert card_test_status(test) == "awaiting_confirmation"
    assert gm.locator("[data-odds='win']").count() == 1
    gm.evaluate("window.notReloaded = true")

    player = login(new_context(), "player_a", PASSWORD)
    player.set_viewport_size(PHONE)
    player.goto(f"/campaigns/{table.pk}/tests/{test.pk}/")
    assert "Command" not in player.content()
    assert player.locator("[data-level='perfect']").count() == 1  # her own pool's odds
    assert player.locator(".seed-hash").text_content() == test.seed_hash  # before the draw
    assert test.seed not in player.content()
    with player.expect_navigation():
        player.click("button:text('Turn the cards')")
    name_any_joker(player)
    test.refresh_from_db()
    assert card_test_status(test) == "done"
    assert player.locator(".seed").text_content() == test.seed  # revealed once it is over
    assert player.locator("#cards [title='Card of Fate']").count() >= 1
    assert player.locator(f"#cards .hand[data-who='pc:{pc_a.pk}'] .card-face").count() >= 5
    # The test's page fits a phone: nothing in it is wider than the screen.
    widest = player.evaluate(
        "Math.max(...[...document.querySelectorAll('main *')].map("
        "e => e.getBoundingClientRect().right))")
    assert widest <= PHONE["width"]

    # The GM's page turned the cards over by itself.
    gm.locator("#cards [title='Card of Fate']").first.wait_for()
    assert gm.evaluate("window.notReloaded") is True
    assert gm.locator(".outcome").inner_text() == player.locator(".outcome").inner_text()

    for page in (gm, player):
        page.goto(f"/campaigns/{table.pk}/log/")
        entry = page.locator(f".log-cards[data-card-test='{test.pk}']")
        assert entry.locator("[title='Card of Fate']").count() >= 1
    assert "Command" not in player.content()


def test_an_unskilled_test_offers_one_card_only(table, new_context, login, pc_b):
    gm = login(new_context(), "gm", PASSWORD)
    gm.goto(f"/campaigns/{table.pk}/tests/new/?character={pc_b.pk}")
    gm.select_option("select[name=skill]", "intrigue")  # Ben Baker has no Intrigue
    gm.check("input[name=opposition][value=difficulty]")
    gm.select_option("select[name=difficulty]", "easy")
    gm.fill("input[name=intent]", "lay the ground work against the accusations")
    gm.locator("#odds-preview [data-odds='win']").wait_for()
    assert "one card" in gm.inner_text("#odds-preview")
    with gm.expect_navigation():
        gm.click("button:text('Call the test')")
    test = Encounter.objects.get()

    player = login(new_context(), "player_b", PASSWORD)
    player.set_viewport_size(PHONE)
    player.goto(f"/campaigns/{table.pk}/tests/{test.pk}/")
    assert "unskilled: one card" in player.inner_text("#pools")
    with player.expect_navigation():
        player.click("button:text('Turn the cards')")
    name_any_joker(player)
    hands = player.locator(f"#cards .hand[data-who='pc:{pc_b.pk}']")
    assert hands.count() >= 1  # one per draw: a mutual failure is drawn again (D3)
    assert [hand.locator(".card-face").count() for hand in hands.all()] == [1] * hands.count()
    # An unskilled success counts as Ordinary at best (the difficulty's cards may do better:
    # each test draws from its own seed, so they differ from run to run).
    pc_cards = f"#cards .hand[data-who='pc:{pc_b.pk}'] .card-face"
    assert player.locator(f"{pc_cards}.success-2, {pc_cards}.success-3").count() == 0
