"""A wargame's orders on its page, through the Django test client: HFG's long list of orders
grouped under each element (with its command), ending the bound a button of its own beside
the list and never the list's pre-selected order; the same for a BvP turn."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from combat.wargames import wargame_create
from rules.hfg.engine import ENGINE

pytestmark = pytest.mark.django_db


class Forms(HTMLParser):
    """The page's decision forms: for each ``<form>``, its class, its groups (``<optgroup>``
    labels with their options' values), its options (a list's or radio buttons' values), the
    pre-selected value and its buttons' values."""

    def __init__(self):
        super().__init__()
        self.forms, self.group = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"class": a.get("class"), "groups": {}, "selected": None,
                               "buttons": [], "options": []})
        elif not self.forms:
            return
        elif tag == "optgroup":
            self.group = a["label"]
            self.forms[-1]["groups"][self.group] = []
        elif tag == "option":
            form = self.forms[-1]
            form["options"].append(a["value"])
            if self.group is not None:
                form["groups"][self.group].append(a["value"])
            if "selected" in a:
                form["selected"] = a["value"]
        elif tag == "input" and a.get("type") == "radio":
            self.forms[-1]["options"].append(a["value"])
            if "checked" in a:
                self.forms[-1]["selected"] = a["value"]
        elif tag == "button":
            self.forms[-1]["buttons"].append(a.get("value"))

    def handle_endtag(self, tag):
        if tag == "optgroup":
            self.group = None


def forms(page: str) -> list[dict]:
    parser = Forms()
    parser.feed(page)
    return [f for f in parser.forms if f["class"] in ("decision", "decision-close")]


@pytest.fixture
def manassas(campaign, gm, pc_a, monkeypatch):
    """First Manassas, the Union army (the attacker, first to move) commanded by pc_a, on a
    known seed (on about one in twelve the opening PIPs leave the left of the line without
    an order)."""
    monkeypatch.setattr("combat.services.new_seed", lambda: "1")
    return wargame_create(campaign=campaign, user=gm, scenario_key="hfg/first_manassas",
                          commanders={"u": f"pc:{pc_a.pk}"})


def test_hfg_orders_are_grouped_by_command_and_element(manassas, player_a_client):
    page = player_a_client.get(reverse("combat:detail", args=[manassas.pk])).content.decode()
    orders, close = forms(page)
    assert orders["class"] == "decision" and close["class"] == "decision-close"
    groups = orders["groups"]
    # each under its command's name, not its id
    assert "McDowell's army: Inferior Minie (u1)" in groups
    assert "McDowell's army: Army HQ (mcdowell)" in groups
    assert len(groups) >= 10  # one heading per element that has an order, not one long list
    for label, keys in groups.items():
        element = label.split("(")[-1].rstrip(")")
        assert keys and all(k.split(":")[1] == element for k in keys), label
    assert sum(map(len, groups.values())) == len(orders["options"])  # every order under one
    assert "end" not in orders["options"]
    assert close["buttons"] == ["end"] and "End this bound&#x27;s moves" in page
    default = ENGINE.pending(manassas.state)[0].default
    assert orders["selected"] == (default if default != "end" else orders["options"][0])


def test_ending_the_bound_by_its_own_button(manassas, player_a_client, pc_a):
    act = reverse("combat:act", args=[manassas.pk])
    response = player_a_client.post(act, {"actor": f"pc:{pc_a.pk}", "kind": "hfg.orders",
                                          "choice": "end", "version": manassas.version})
    assert response.status_code == 302
    manassas.refresh_from_db()
    assert manassas.state["phasing"] == "c"  # the Confederates' bound now
    page = player_a_client.get(reverse("combat:detail", args=[manassas.pk])).content.decode()
    assert not [f for f in forms(page) if f["class"] == "decision-close"]  # not his bound
    assert "Johnston&#x27;s command is not yet" not in page  # hidden from the Union


def test_the_list_preselects_an_order_when_the_default_is_to_end_the_turn():
    from combat.templatetags.decisions import choice_layout

    options = [{"key": "end", "label": "End the turn"}, {"key": "a:move", "label": "Move"},
               {"key": "a:fire", "label": "Fire"}]
    layout = choice_layout({"options": options, "default": "end"})
    assert layout["closing"]["key"] == "end" and layout["selected"] == "a:move"
    assert [o["key"] for o in layout["listed"]] == ["a:move", "a:fire"]
    assert choice_layout({"options": options, "default": "a:fire"})["selected"] == "a:fire"
    alone = choice_layout({"options": options[:1], "default": "end"})
    assert alone == {"listed": options[:1], "closing": None, "selected": "end"}


def test_the_list_never_preselects_spending_a_card_in_place_of_ending_the_turn():
    """BvP: a card discarded or played is gone until the side's next turn (BvP L57), so
    where the default is to end the turn the list pre-selects an order that keeps the hand,
    and where there is none, "End the turn" itself, in the list."""
    from combat.templatetags.decisions import choice_layout
    from rules.bvp.engine import SKILL_CARD

    end = {"key": "end", "label": "End the turn"}
    spend = [{"key": "b1:card:k3", "label": "The British Frigate: play Rally the Crew",
              "spends": SKILL_CARD},
             {"key": "discard:k3", "label": "Discard Rally the Crew", "spends": SKILL_CARD},
             {"key": "discard:k11", "label": "Discard Repel Boarders", "spends": SKILL_CARD}]
    move = {"key": "b1:move:P::3", "label": "The British Frigate: sail 3 hexes"}
    layout = choice_layout({"options": [*spend, move, end], "default": "end"})
    assert layout["selected"] == move["key"] and layout["closing"] == end
    layout = choice_layout({"options": [*spend, end], "default": "end"})
    assert layout == {"listed": [*spend, end], "closing": None, "selected": "end"}
    # the default policy's own choice stands, a card's too
    assert choice_layout({"options": [*spend, end], "default": "b1:card:k3"})[
        "selected"] == "b1:card:k3"


def test_bvp_when_every_ship_has_acted_the_page_preselects_ending_the_turn(
        campaign, gm, pc_a, pc_b, player_a_client, monkeypatch):
    """A tester's finding: with his ships moved and fired, a player who just confirmed the
    turn's list discarded a skill card, then the next, emptying his hand. Now the list's
    choice is "End the turn": confirming it passes the turn with the hand kept. (A known
    seed: on some, a card the frigate may still play is offered too.)"""
    from combat.services import encounter_act
    from rules.engine import get_engine

    monkeypatch.setattr("combat.services.new_seed", lambda: "1")
    game = wargame_create(campaign=campaign, user=gm, scenario_key="bvp/first_broadside",
                          commanders={"british": f"pc:{pc_a.pk}", "pirates": f"pc:{pc_b.pk}"})
    kernel = get_engine("bvp")
    while True:  # the British frigate moves and fires; no card is played in the attack
        decision = kernel.pending(game.state)[0]
        orders = [o.key for o in decision.options if o.key != "end"
                  and not o.key.startswith("discard:") and ":card:" not in o.key]
        if decision.kind == "turn" and not orders:
            break
        choice = orders[0] if decision.kind == "turn" else "none"
        encounter_act(encounter=game, user=gm, actor=decision.actor,
                      decision_kind=decision.kind, choice=choice,
                      expected_version=game.version)
        game.refresh_from_db()
    hand = list(game.state["sides"]["british"]["hand"])
    assert hand and game.state["active"] == "british"
    page = player_a_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    (turn,) = forms(page)  # no button of its own for ending the turn: it is the list's
    assert turn["options"] == [f"discard:{c}" for c in hand] + ["end"]
    assert turn["selected"] == "end"
    response = player_a_client.post(reverse("combat:act", args=[game.pk]), {
        "actor": f"pc:{pc_a.pk}", "kind": "turn", "choice": turn["selected"],
        "version": game.version})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.state["active"] == "pirates"
    assert game.state["sides"]["british"]["hand"] == hand


def test_bvp_says_where_the_wind_comes_from_and_ends_the_turn_by_its_own_button(
        campaign, gm, pc_a, pc_b, player_a_client):
    from rules.bvp.hexes import DIRECTION_NAMES

    game = wargame_create(campaign=campaign, user=gm, scenario_key="bvp/first_broadside",
                          commanders={"british": f"pc:{pc_a.pk}", "pirates": f"pc:{pc_b.pk}"})
    page = player_a_client.get(reverse("combat:detail", args=[game.pk])).content.decode()
    toward = game.state["wind"]  # the engine's wind: the direction it blows toward
    assert toward is not None
    words = (f"from the {DIRECTION_NAMES[(toward + 3) % 6]}, blowing toward the "
             f"{DIRECTION_NAMES[toward]}")
    assert f'Wind: <strong class="wind-now">{words}</strong>' in page
    turn = [f for f in forms(page) if f["class"] in ("decision", "decision-close")]
    assert [f["class"] for f in turn] == ["decision", "decision-close"]
    assert "end" not in turn[0]["options"] and turn[1]["buttons"] == ["end"]


def test_the_apis_setup_notes_name_no_source_file(campaign, gm, pc_a, gm_client):
    """What the players read of a scenario (its notes, in the API's setup) says how the
    battle is made in plain words, never where in the code."""
    import json
    import re

    for key in ("hfg/landing_party", "hfg/first_manassas"):
        encounter = wargame_create(campaign=campaign, user=gm, scenario_key=key,
                                   commanders={})
        body = gm_client.get(reverse("api-encounter-detail", args=[encounter.pk])).json()
        notes = json.dumps(body).split('"notes": ')[1].split('", "')[0]
        assert len(notes) > 100 and not re.search(r"\w+\.(py|md|json)\b|rules/", notes)
