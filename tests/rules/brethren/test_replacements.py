"""Beware the Kraken (Brethren L112-L113; ``rules/brethren.md`` §9): "the only game where we
allow players to buy replacement ships and crew". A fleet that lost a ship buys one in its
place from the treasure at home, at 1 gold a point (A26) with the fewest crew she must
carry (L12); she lies at home and sails the next turn."""

import pytest

from rules.brethren import engine, missions
from rules.brethren.engine import ENGINE
from rules.engine import IllegalAction
from rules.random import SeededSource

from .conftest import make_table


def coins(*values):
    return [{"id": f"h{i}", "value": v, "special": None} for i, v in enumerate(values)]


def kraken_table(gold=(1, 2, 4), mission="beware_the_kraken"):
    """Side a: the Unicorn afloat, the Griffin sunk; side b: one sloop. Turn 1 begun."""
    st = make_table([
        {"id": "a1", "class": "schooner", "side": "a", "name": "Unicorn", "x": 12, "y": 12,
         "heading": 0, "crew": ["seaman"] * 3},
        {"id": "a2", "class": "brigantine", "side": "a", "name": "Griffin", "x": 16, "y": 12,
         "heading": 0, "crew": ["seaman"] * 4},
        {"id": "b1", "class": "sloop", "side": "b", "x": 30, "y": 30, "heading": 0,
         "crew": ["seaman"] * 2}],
        islands=[{"id": "home_a", "x": 5, "y": 5, "r": 1.5, "home_of": "a"},
                 {"id": "home_b", "x": 35, "y": 35, "r": 1.5, "home_of": "b"},
                 {"id": "rock", "x": 20, "y": 20, "r": 1.5,
                  "coins": [{"value": 3, "special": None}]}],
        mission=mission, goal={"kraken": "rock"} if mission == "beware_the_kraken" else {})
    st["ships"]["a2"]["sunk"] = True
    st["sides"]["a"]["home_coins"] = coins(*gold)
    source = SeededSource(5)
    engine._begin_turn(st, source, lambda *a, **k: None)
    return st, source


def test_a_replacement_costs_her_points_and_her_fewest_crew():
    assert missions.replacement_price("sloop") == 4 + 2  # 4 points, 2 seamen (L12)
    assert missions.replacement_price("frigate") == 12 + 6


def test_a_fleet_that_lost_a_ship_is_asked_first_and_offered_what_it_can_pay_for():
    st, _ = kraken_table(gold=(1, 2, 4))
    first, *others = ENGINE.pending(st)
    assert first.kind == "buy:a" and first.actor == "side:a" and first.default == "none"
    assert [o.key for o in first.options] == ["none", "buy:sloop"]  # 7 gold: a sloop (6)
    assert first.options[1].label == "Buy a Sloop for 6 gold (4 points and 2 seamen)"
    assert first.prompt == "Buy a ship in place of the Griffin?"
    assert [d.actor for d in others] == ["side:b"]  # b has lost nothing: its orders


def test_the_purchase_is_hidden_until_the_orders_are_revealed_then_she_lies_at_home():
    st, source = kraken_table(gold=(1, 2, 4))
    with pytest.raises(IllegalAction, match="not a ship the treasure at home can buy"):
        ENGINE.apply(st, "side:a", "buy:frigate", source)
    st, events = ENGINE.apply(st, "side:a", "buy:sloop", source)
    given = next(e for e in events if e.kind == "orders.given")
    assert given.visible_to == {"side:a"}  # side b learns only that the choice is in
    assert "a_r1" not in st["ships"]
    assert "buy:a" not in str(ENGINE.view(st, "side:b")["orders"])
    while ENGINE.pending(st) and st["round"] == 1:
        decision = ENGINE.pending(st)[0]
        st, more = ENGINE.apply(st, decision.actor, "hold", source)
        events += more
    bought = st["ships"]["a_r1"]
    assert bought["class"] == "sloop" and bought["name"] == "Griffin II"
    assert bought["crew"] == ["seaman", "seaman"] and bought["docked_at"] == "home_a"
    assert st["ships"]["a2"]["replaced"] == "a_r1" and bought["replaces"] == "a2"
    assert st["sides"]["a"]["home_coins"] == []  # 1 + 2 + 4 paid the 6; no change given
    event = next(e for e in events if e.kind == "ship.bought")
    assert "for 7 gold" in event.text and event.data["replaces"] == "a2"
    assert missions.replacement_options(st, "a") == []  # one ship in place of one lost
    assert st["result"] is None and st["round"] == 2
    assert "a_r1" in st["order"]  # she sails from the next turn


def test_no_purchase_without_the_gold_nor_outside_the_kraken():
    st, _ = kraken_table(gold=(1, 2))
    assert all(d.kind.startswith("orders:") for d in ENGINE.pending(st))
    st, _ = kraken_table(gold=(10, 10), mission="treasure_hunt")
    assert "buying" not in st and missions.replacement_options(st, "a") == []


def test_a_fleet_with_no_working_ship_that_can_buy_one_is_still_in_the_game():
    st, _ = kraken_table(gold=(6,))
    st["ships"]["a1"]["sunk"] = True
    assert missions.over(st) is None
    st["sides"]["a"]["home_coins"] = []
    assert missions.over(st)[0] == "fleet_lost"


def test_the_default_buys_nothing_and_the_fast_path_ends_where_play_out_does():
    from rules.engine import play_out

    st, _ = kraken_table(gold=(10, 10))
    assert ENGINE.default_choice(st, ENGINE.pending(st)[0]) == "none"
    slow, _ = play_out(ENGINE, st, SeededSource(8))
    quick = ENGINE.auto_play(st, SeededSource(8))
    assert quick == slow
