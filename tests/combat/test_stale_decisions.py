"""A stale decision form (a second tab, a double submit) changes nothing, says so plainly,
and never makes the decision that is pending now in its place: a Viking sea fight, whose
next decision has another kind, and British vs Pirates, whose next one has the same kind.
A form from before another participant's decision is taken when its own decision did not
change meanwhile: the two sides' written orders in a Brethren fleet action."""

import re

import pytest
from django.urls import reverse

from combat.services import encounter_act
from combat.views import ALREADY_MADE_MESSAGE, MOVED_ON_MESSAGE
from combat.wargames import wargame_create
from rules.engine import get_engine

pytestmark = pytest.mark.django_db


def _messages(response) -> list[str]:
    return [m.strip() for m in re.findall(r'<p class="message [^"]*" role="status">([^<]*)</p>',
                                          response.content.decode())]


def _post(client, encounter, form):
    return client.post(reverse("combat:act", args=[encounter.pk]), form, follow=True)


def _snapshot(encounter):
    encounter.refresh_from_db()
    return encounter.version, encounter.state, encounter.events.count()


def _refused(client, encounter, form, message):
    """``form`` sent by ``client`` is refused with ``message`` and changes nothing."""
    before = _snapshot(encounter)
    assert _messages(_post(client, encounter, form)) == [message]
    assert _snapshot(encounter) == before


def test_a_viking_order_sent_again_from_a_stale_tab_is_refused_twice(
        campaign, gm, pc_a, pc_b, player_a_client, player_b_client):
    game = wargame_create(campaign=campaign, user=gm, scenario_key="viking/fleet_battle",
                          commanders={"norse": f"pc:{pc_a.pk}", "danes": f"pc:{pc_b.pk}"})
    a, b = f"pc:{pc_a.pk}", f"pc:{pc_b.pk}"
    for client, actor, side in ((player_a_client, a, "norse"), (player_b_client, b, "danes")):
        game.refresh_from_db()
        _post(client, game, {"actor": actor, "kind": f"wind:{side}", "choice": "keep",
                             "version": game.version})
    game.refresh_from_db()
    stale = {"actor": a, "kind": "orders:n1", "choice": "PACED@10", "version": game.version}
    first = _post(player_a_client, game, stale)  # the first tab
    assert first.status_code == 200 and _messages(first) == []
    game.refresh_from_db()
    assert game.state["orders"] == {"n1": "PACED@10"}
    before = _snapshot(game)
    for _ in range(2):  # the second tab's copy of the same form, sent twice
        page = _post(player_a_client, game, stale)
        assert _messages(page) == [ALREADY_MADE_MESSAGE]
        assert _snapshot(game) == before  # n2's orders, pending now, are not given
    assert 'value="orders:n2"' in page.content.decode()


def test_a_bvp_action_from_a_stale_tab_is_refused_and_the_turn_waits(
        campaign, gm, pc_a, pc_b, player_a_client):
    game = wargame_create(campaign=campaign, user=gm, scenario_key="bvp/first_broadside",
                          commanders={"british": f"pc:{pc_a.pk}", "pirates": f"pc:{pc_b.pk}"})
    a = f"pc:{pc_a.pk}"
    game.refresh_from_db()
    move = next(o["key"] for o in _turn_options(game) if o["key"].startswith("b1:move:"))
    stale = {"actor": a, "kind": "turn", "choice": move, "version": game.version}
    assert _messages(_post(player_a_client, game, stale)) == []
    before = _snapshot(game)
    assert before[1]["ships"]["b1"]["moved"]
    for _ in range(2):  # the same "turn" decision is pending again, for another action
        page = _post(player_a_client, game, stale)
        assert _messages(page) == [MOVED_ON_MESSAGE]
        assert _snapshot(game) == before


def _turn_options(game) -> list[dict]:
    decision = get_engine("bvp").pending(game.state)[0]
    assert decision.kind == "turn"
    return [o.as_dict() for o in decision.options]


def _brethren(campaign, gm, pc_a, pc_b, scenario="fleet_action", sides=("en", "fr")):
    """A Brethren game of ``pc_a``'s side against ``pc_b``'s: ``(game, a, b)``."""
    game = wargame_create(campaign=campaign, user=gm, scenario_key=f"brethren/{scenario}",
                          commanders={sides[0]: f"pc:{pc_a.pk}", sides[1]: f"pc:{pc_b.pk}"})
    game.refresh_from_db()
    return game, f"pc:{pc_a.pk}", f"pc:{pc_b.pk}"


def test_written_orders_sent_at_the_same_moment_are_both_taken(
        campaign, gm, pc_a, pc_b, player_a_client, player_b_client):
    """Both commanders write their orders at once: the one whose page showed the version
    before the other's order came in is not turned away (his decision did not change)."""
    game, a, b = _brethren(campaign, gm, pc_a, pc_b)
    seen = game.version  # both pages show this version; A's next shows the one after his
    for client, actor, ship, version in ((player_a_client, a, "e1", seen),
                                         (player_b_client, b, "f1", seen),
                                         (player_a_client, a, "e2", seen + 1)):
        page = _post(client, game, {"actor": actor, "kind": f"orders:{ship}",
                                    "choice": "hold", "version": version})
        assert _messages(page) == []
    game.refresh_from_db()
    assert game.version == seen + 3
    assert [c["kind"] for c in game.choices] == ["orders:e1", "orders:f1", "orders:e2"]


def test_an_order_from_a_past_turn_is_refused_where_the_same_ship_is_asked_again(
        campaign, gm, pc_a, pc_b, player_a_client, player_b_client):
    """The same decision asked again (the next turn's orders for the same ship) is a new
    one: a form from the turn before is refused, as is one sent again after it was taken."""
    game, a, b = _brethren(campaign, gm, pc_a, pc_b)
    first = game.version
    for client, actor, side in ((player_a_client, a, "e"), (player_b_client, b, "f")):
        for n in (1, 2, 3):
            game.refresh_from_db()
            _post(client, game, {"actor": actor, "kind": f"orders:{side}{n}",
                                 "choice": "hold", "version": game.version})
    game.refresh_from_db()
    assert "orders:e1" in {d.kind for d in get_engine("brethren").pending(game.state)}
    _refused(player_a_client, game, {"actor": a, "kind": "orders:e1", "choice": "hold",
                                     "version": first}, MOVED_ON_MESSAGE)
    _refused(player_b_client, game, {"actor": b, "kind": "orders:f3", "choice": "hold",
                                     "version": first + 5}, ALREADY_MADE_MESSAGE)


def test_through_the_api_both_orders_are_taken_and_one_sent_again_is_409(
        campaign, gm, pc_a, pc_b, player_a_client, player_b_client):
    game, a, b = _brethren(campaign, gm, pc_a, pc_b)
    seen = game.version
    url = reverse("api-encounter-act", args=[game.pk])
    for client, actor, ship in ((player_a_client, a, "e1"), (player_b_client, b, "f1")):
        response = client.post(url, {"actor": actor, "kind": f"orders:{ship}",
                                      "choice": "hold", "version": seen},
                               content_type="application/json")
        assert response.status_code == 200, response.content
    again = player_b_client.post(url, {"actor": b, "kind": "orders:f1", "choice": "hold",
                                       "version": seen}, content_type="application/json")
    assert again.status_code == 409 and again.json()["version"] == seen + 2


def test_a_form_sent_twice_is_not_taken_again_for_the_next_turns_same_decision(
        campaign, gm, pc_a, pc_b, player_a_client, player_b_client):
    """The decision just taken is a new one when it is asked again, even if it looks the
    same (Movin' On Up: the Fortune, holding, is asked the same orders next turn): the same
    form sent again (a double click, a second tab) is refused, not taken as next turn's
    orders, which the player has not seen the board for."""
    game, a, b = _brethren(campaign, gm, pc_a, pc_b, "movin_on_up", ("a", "b"))
    seen = game.version
    _post(player_a_client, game, {"actor": a, "kind": "orders:a1", "choice": "hold",
                                  "version": seen})
    form = {"actor": b, "kind": "orders:b1", "choice": "hold", "version": seen}
    assert _messages(_post(player_b_client, game, form)) == []  # the turn is played
    game.refresh_from_db()
    assert "orders:b1" in {d.kind for d in get_engine("brethren").pending(game.state)}
    _refused(player_b_client, game, form, MOVED_ON_MESSAGE)
    assert [c["kind"] for c in game.choices] == ["orders:a1", "orders:b1"]


def test_a_form_for_a_decision_the_timeout_took_is_not_taken_for_the_next_turn(
        campaign, gm, pc_a, pc_b, player_a_client, player_b_client):
    """The Fortune's orders taken by default when the time ran out: the page's form for them,
    sent late, is refused, not taken as next turn's orders (which look the same)."""
    from datetime import timedelta

    from combat.services import decision_sweep

    game, a, b = _brethren(campaign, gm, pc_a, pc_b, "movin_on_up", ("a", "b"))
    seen = game.version
    _post(player_a_client, game, {"actor": a, "kind": "orders:a1", "choice": "hold",
                                  "version": seen})
    game.refresh_from_db()
    game.decision_timeout = 30
    game.save(update_fields=["decision_timeout"])
    assert decision_sweep(now=game.updated_at + timedelta(seconds=31)) == [game.pk]
    game.refresh_from_db()
    assert "orders:b1" in {d.kind for d in get_engine("brethren").pending(game.state)}
    _refused(player_b_client, game, {"actor": b, "kind": "orders:b1", "choice": "hold",
                                     "version": seen}, MOVED_ON_MESSAGE)


def test_orders_of_a_hundred_options_offer_no_what_if_and_the_form_says_since_when(
        campaign, gm, gm_client, pc_a, pc_b, player_b_client):
    """A ship's Brethren orders (about a hundred options, 2,000 games each, past the most a
    simulation plays) offer no "What if…?", which would only be refused; the odds from here
    stay. Each decision form says since which version it is asked, unchanged by the other
    side's order (the page keeps a half-chosen order across a push by it)."""
    game, a, b = _brethren(campaign, gm, pc_a, pc_b)
    seen = game.version
    page = gm_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert "The odds from here" in page and "What if" not in page
    mine = player_b_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert f'data-kind="orders:f1" data-actor="{b}" data-since="{seen}"' in mine
    encounter_act(encounter=game, user=pc_a.owner, actor=a, decision_kind="orders:e1",
                  choice="hold", expected_version=seen)
    mine = player_b_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    assert f'data-kind="orders:f1" data-actor="{b}" data-since="{seen}"' in mine
