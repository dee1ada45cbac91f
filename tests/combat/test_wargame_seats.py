"""A GM who also commands a wargame side is a player while his orders are due (fairness):
he sees the table as that side's commander until they are in, and only then as the referee.
And on every encounter page the GM's own decisions stand apart from the players' decisions
he may make for them ("Decide for a player", closed), so that he does not take a player's
turn by mistake. Personas: the GM, player A, player B, an outsider."""

import json

import pytest
from django.urls import reverse

from combat.wargames import wargame_create

pytestmark = pytest.mark.django_db

SCENARIO = "brethren/fleet_action"
SECRETS = ("Orders for the HMS Arrow", '"e1": "move:to:f3+fire"', 'data-ship="e1">Steer for')
"""How player A's order for the HMS Arrow would show: its event, the API's view, the page's
list of this turn's orders (the decisions' options list every order, given or not)."""


def _sees(text: str) -> list[bool]:
    return [secret in text for secret in SECRETS]


@pytest.fixture
def gm_plays_france(campaign, gm, pc_a):
    """Fleet Action: player A's PC commands the English line, the GM the French."""
    return wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                          commanders={"en": f"pc:{pc_a.pk}", "fr": "gm"})


def _order(client, encounter, actor, ship, choice="hold"):
    encounter.refresh_from_db()
    response = client.post(reverse("combat:act", args=[encounter.pk]), {
        "actor": actor, "kind": f"orders:{ship}", "choice": choice,
        "version": encounter.version})
    assert response.status_code == 302
    encounter.refresh_from_db()


def _everything(client, encounter) -> str:
    """The page, its live part and the API's detail and events, as one text."""
    page = client.get(reverse("combat:detail", args=[encounter.pk])).content.decode()
    poll = client.get(reverse("combat:poll", args=[encounter.pk]),
                      {"after": 0, "token": "x"}).content.decode()
    api = client.get(reverse("api-encounter-detail", args=[encounter.pk])).json()
    return page + poll + json.dumps(api)


def _split(page: str) -> tuple[str, str]:
    """The page's decisions panel: the GM's own and its "Decide for a player" section."""
    panel = page.split('<section id="decisions">', 1)[1].split("</section>", 1)[0]
    own, _, theirs = panel.partition('<details class="decide-for-player">')
    return own, theirs


def test_a_gm_who_commands_a_side_does_not_see_the_players_orders_before_giving_his(
        gm_plays_france, gm_client, player_a_client, player_b_client, outsider_client, pc_a):
    game = gm_plays_france
    _order(player_a_client, game, f"pc:{pc_a.pk}", "e1", "move:to:f3+fire")
    seen = _everything(gm_client, game)
    assert _sees(seen) == [False, False, False]
    assert "given (hidden until all are in)" in seen
    # player B commands nothing here and sees no more than the GM does
    page_b = player_b_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert _sees(page_b) == [False, False, False]
    assert outsider_client.get(reverse("combat:detail", args=[game.pk])).status_code == 404
    # the GM gives all his French orders: now he is the referee again and sees everything
    for ship in ("f1", "f2", "f3"):
        _order(gm_client, game, "side:fr", ship)
    assert game.state["round"] == 1 and game.state["orders"]["e1"] == "move:to:f3+fire"
    seen = _everything(gm_client, game)
    assert _sees(seen) == [True, True, True]
    # and the player still does not see the GM's
    page_a = player_a_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert "La Gloire: <em>given" in page_a or "given (hidden until all are in)" in page_a


def test_a_gm_who_commands_no_side_is_the_referee_throughout(campaign, gm, gm_client,
                                                            player_a_client, pc_a, pc_b):
    game = wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIO,
                          commanders={"en": f"pc:{pc_a.pk}", "fr": f"pc:{pc_b.pk}"})
    _order(player_a_client, game, f"pc:{pc_a.pk}", "e1", "move:to:f3+fire")
    assert _sees(_everything(gm_client, game)) == [True, True, True]


def test_the_players_decisions_sit_apart_on_the_gms_wargame_page(gm_plays_france, gm_client,
                                                                player_a_client, pc_a):
    game = gm_plays_france
    page = gm_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    own, theirs = _split(page)
    assert 'data-kind="orders:f1"' in own and 'data-kind="orders:e1"' not in own
    assert 'data-kind="orders:e1"' in theirs and "Decide for a player (1 waiting)" in page
    assert "<details open" not in page  # closed until the GM opens it
    assert f"Decide for {game.state['sides']['en']['name']}" in theirs
    assert "Waiting for" in own  # the GM is told whom the game waits for
    # the player's own page has no such section: his decision is his own
    page_a = player_a_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert "decide-for-player" not in page_a and 'data-kind="orders:e1"' in page_a
    # the GM deciding for the player from that section is still allowed, and marked
    _order(gm_client, game, f"pc:{pc_a.pk}", "e1")
    assert game.state["orders"]["e1"] == "hold"
    assert game.events.filter(data__decided_by="gm").exists()


def test_the_orders_are_grouped_for_a_phone(gm_plays_france, player_a_client):
    page = player_a_client.get(reverse("combat:detail", args=[gm_plays_france.pk])
                               ).content.decode()
    form = page[page.index('data-kind="orders:e1"'):]
    form = form[:form.index("</form>")]
    assert form.count("<option ") > 60
    for group in ("Sail a heading", "Sail a heading, then fire", "Fire, then sail a heading",
                  "Steer for a mark", "Hold, turn, repair or explore"):
        assert f'<optgroup label="{group}">' in form
    assert '<svg viewBox="0 0 32 26" style="--phone-label: 1.07px"' in page


def test_the_log_of_a_wargame_counts_turns(gm_plays_france, gm_client, player_a_client, pc_a):
    game = gm_plays_france
    for ship in ("f1", "f2", "f3"):
        _order(gm_client, game, "side:fr", ship)
    for ship in ("e1", "e2", "e3"):
        _order(player_a_client, game, f"pc:{pc_a.pk}", ship)
    page = gm_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert '<small class="muted">Turn 1</small>' in page
    assert '<small class="muted">Round' not in page


def test_the_players_decisions_sit_apart_on_the_gms_battle_page(book_battle, gm_client,
                                                               player_a_client):
    """A BtQ battle: the start distance is O'Toole's, his player's decision."""
    page = gm_client.get(reverse("combat:detail", args=[book_battle.pk])).content.decode()
    own, theirs = _split(page)
    assert "<form" not in own
    assert '<form method="post"' in theirs and "Decide for" in theirs
    assert "Nothing to decide" not in own and "Waiting for" in own
    page_a = player_a_client.get(reverse("combat:detail", args=[book_battle.pk])
                                 ).content.decode()
    assert "decide-for-player" not in page_a and '<form method="post"' in page_a


def test_a_gm_waiting_to_give_orders_may_not_ask_the_odds(gm_plays_france, gm, gm_client,
                                                          player_a_client, pc_a):
    """The games of the odds would be played with the players' hidden orders."""
    from combat.odds.services import may_ask_odds

    game = gm_plays_france
    _order(player_a_client, game, f"pc:{pc_a.pk}", "e1", "move:to:f3+fire")
    page = gm_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert not may_ask_odds(gm, game)
    response = gm_client.post(reverse("combat:odds_ask", args=[game.pk]), {}, follow=True)
    assert not game.simulations.exists()
    assert "The odds wait until you have given your side" in \
        response.content.decode()
    assert "What if" not in page and "The odds from here" not in page
    for ship in ("f1", "f2", "f3"):
        _order(gm_client, game, "side:fr", ship)
    page = gm_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert "The odds from here" in page
