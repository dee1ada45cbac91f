"""The worked examples B1-B18 of ``british_vs_pirates.md`` §10, through the kernel with
scripted dice (the book's cannon and boarding examples [L148-L163] and the vectors derived
from its rules)."""

import pytest

from rules.bvp import combat, movement
from rules.bvp.engine import ENGINE
from rules.engine import IllegalAction
from rules.random import ScriptedSource

from .conftest import options, table


def _fire_table(**kw):
    # The attacker (a British frigate heading north-east) has the Pirate frigate 2 hexes
    # off her starboard beam; the Pirate heads north-west, her port side toward the shot.
    return table([("a1", "british_frigate", "a", (0, 0), 1),
                  ("b1", "pirates_frigate", "b", (2, 0), 2)], **kw)


def test_b1_the_books_cannon_example():
    st = _fire_table()
    assert st["ships"]["b1"]["dice"]["port"] == 5  # + port defence 6 = 11 [L150]
    assert "a1:fire:b1:port" in options(st)
    source = ScriptedSource(rolls=[11, 9])
    st, events = ENGINE.apply(st, "side:a", "a1:fire:b1:port", source)
    roll = next(e for e in events if e.kind == "cannon.roll")
    assert roll.data["dice"] == [11, 9] and roll.data["accuracy"] == 1
    assert roll.data["needed"] == 11 and roll.data["hits"] == 1
    assert st["ships"]["b1"]["dice"]["port"] == 4
    assert [str(d) for d in source.log] == ["d12 British Frigate cannons: 11 9"]


def test_b2_a_tie_goes_to_the_attacker():
    st = _fire_table()
    st, events = ENGINE.apply(st, "side:a", "a1:fire:b1:port", ScriptedSource(rolls=[10, 1]))
    assert next(e for e in events if e.kind == "cannon.roll").data["hits"] == 1
    assert combat.cannon_hits([10], 1, 11) == 1


def test_b3_a_natural_1_always_misses():
    assert combat.cannon_hits([1, 1, 2], 3, 4) == 1


def test_b4_the_18lb_exquisite_cannons_cannot_fire_at_4_hexes():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (4, 0), 2)])
    assert combat.profile(st, st["ships"]["a1"], 4) is None
    assert combat.profile(st, st["ships"]["a1"], 3) == (3, 3)
    assert not [k for k in options(st) if ":fire:" in k]


def test_b5_the_books_boarding_example():
    # Captain Valentine (Grapple 0) boards Captain Redne's ship (Repel 1) [L161-L163].
    st = table([("a1", "british_frigate", "a", (1, 0), 0),
                ("b1", "pirates_sloop", "b", (0, 0), 0)], first="b")
    st["ships"]["b1"]["morale"] = 5
    assert "b1:board:a1" in options(st)
    st, events = ENGINE.apply(st, "side:b", "b1:board:a1", ScriptedSource(rolls=[12, 10]))
    roll = next(e for e in events if e.kind == "boarding.roll")
    assert roll.data["totals"] == [17, 16] and roll.data["result"] == "attacker"
    assert st["ships"]["a1"]["dice"]["structure"] == 3  # 4 - 1 Structure damage
    assert st["ships"]["a1"]["morale"] == 1
    assert st["ships"]["b1"]["morale"] == 6  # Valentine's maximum


def test_b6_a_boarding_tie_goes_to_the_attacker():
    assert combat.boarding_result(5, 12, 7, 12) == "attacker"
    assert combat.boarding_result(5, 11, 7, 12) == "defender"


def test_b7_morale_recovers_one_at_the_start_of_a_turn_up_to_the_maximum():
    st = table([("a1", "british_frigate", "a", None, 0), ("b1", "pirates_frigate", "b", None, 3),
                ("b2", "pirates_sloop", "b", None, 3)])
    st["ships"]["b1"]["morale"] = 3  # maximum 5
    st["ships"]["b2"]["morale"] = 6  # Valentine's maximum
    st, _ = ENGINE.apply(st, "side:a", "end", ScriptedSource())
    assert st["active"] == "b"
    assert st["ships"]["b1"]["morale"] == 4 and st["ships"]["b2"]["morale"] == 6


def test_b8_a_hand_is_drawn_back_up_to_3_at_the_start_of_the_turn():
    st = table([("a1", "british_frigate", "a", None, 0), ("b1", "pirates_frigate", "b", None, 3)],
               decks=True)
    b = st["sides"]["b"]
    assert len(b["hand"]) == 3
    b["hand"] = b["hand"][:1]
    st, events = ENGINE.apply(st, "side:a", "end", ScriptedSource())
    assert len(st["sides"]["b"]["hand"]) == 3
    draw = next(e for e in events if e.kind == "cards.draw")
    assert draw.data == {"side": "b", "count": 2}


def test_b9_a_removed_side_exposes_the_structure_with_that_sides_defence():
    dice = {"bow": None, "starboard": 5, "stern": 4, "port": 5, "structure": 3}
    defence = {"bow": 4, "starboard": 6, "stern": 4, "port": 6}
    assert combat.target_number(dice, defence, "bow") == 7
    after, removed = combat.damage(dice, "bow", 1)
    assert after["structure"] == 2 and removed == []


def test_b10_the_last_structure_hit_sinks_the_ship():
    st = _fire_table()
    st["ships"]["b1"]["dice"].update(port=None, structure=1)
    st, events = ENGINE.apply(st, "side:a", "a1:fire:b1:port", ScriptedSource(rolls=[12, 2]))
    assert st["ships"]["b1"]["sunk"]
    assert ENGINE.outcome(st).winner == "Side A"
    assert [e.kind for e in events][-2:] == ["ship.damage", "game.over"]


def test_b11_a_removed_bow_leaves_speed_1():
    st = _fire_table()
    ship = st["ships"]["b1"]
    assert movement.speed(st, ship) > 1
    ship["dice"]["bow"] = None
    assert movement.speed(st, ship) == 1


def test_b12_the_movement_example():
    # Wind toward the east, the frigate heading east: the wind from dead astern, card 3, 2
    # pivots [L111] (valid once A9's reading is confirmed against a physical card, BV-4).
    # (Captain III's bonus is for a Small ship: the frigate sails with her card's values.)
    st = table([{"id": "a1", "card": "british_frigate", "captain": "british_3", "side": "a",
                 "at": (0, 0), "heading": 0}, ("b1", "pirates_frigate", "b", None, 3)])
    ship = st["ships"]["a1"]
    assert movement.speed(st, ship) == 3 and movement.max_pivots(st, ship) == 2
    plans = [k.split(":move:")[1] for k in options(st) if k.startswith("a1:move:")]
    assert "P::3" in plans and "P::4" not in plans
    assert "P:LL:1" in plans and "M:RR:3" in plans and "P:LLL:1" not in plans
    with pytest.raises(IllegalAction):
        ENGINE.apply(st, "side:a", "a1:move:P::4", ScriptedSource())


def _stealing(big, small, settings=None):
    st = table([("a1", small, "a", None, 0), ("b1", big, "b", None, 3)], wind=0,
               settings={"bvp_stealing_wind": True, **(settings or {})}, first="b")
    st["ships"]["b1"]["q"], st["ships"]["b1"]["r"] = (0, 0)
    st["ships"]["a1"]["q"], st["ships"]["a1"]["r"] = (2, 0)  # 2 hexes directly downwind
    st, events = ENGINE.apply(st, "side:b", "end", ScriptedSource())
    return st, events


def test_b13_a_sloop_downwind_of_a_frigate_has_its_wind_stolen():
    st, events = _stealing("pirates_frigate", "british_sloop")
    ship = st["ships"]["a1"]
    assert ship["stolen"] and "wind.stolen" in [e.kind for e in events]
    assert movement.speed(st, ship) == 1 and movement.max_pivots(st, ship) == 1


def test_b14_a_line_ship_downwind_of_a_frigate_keeps_its_wind():
    st, _ = _stealing("pirates_frigate", "british_line_ship")
    assert not st["ships"]["a1"]["stolen"]


def test_b15_minimum_movement_a_pivot_alone_is_a_move():
    st = table([("a1", "british_frigate", "a", (0, 0), 0), ("b1", "pirates_frigate", "b", None, 3)],
               settings={"bvp_minimum_movement": True})
    assert "end" not in options(st)
    st, _ = ENGINE.apply(st, "side:a", "a1:move:P:L:0", ScriptedSource())
    assert st["ships"]["a1"]["heading"] == 1 and "end" in options(st)


def test_b16_a_yellow_card_cannot_be_played_on_your_own_turn():
    st = table([("a1", "british_frigate", "a", None, 0), ("b1", "pirates_frigate", "b", None, 3)],
               decks=True)
    hand = st["sides"]["a"]["hand"]
    brace = next(k for k, v in st["card_of"].items() if v == "brace" and k not in hand)
    hand[0] = brace
    assert not [k for k in options(st) if brace in k and not k.startswith("discard")]
    with pytest.raises(IllegalAction):
        ENGINE.apply(st, "side:a", f"a1:card:{brace}", ScriptedSource())


def test_b17_a_ship_that_fired_may_not_board():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (1, 0), 2)])
    assert "a1:board:b1" in options(st) and "a1:fire:b1:port" in options(st)
    st, _ = ENGINE.apply(st, "side:a", "a1:fire:b1:port", ScriptedSource(rolls=[2, 2]))
    assert not [k for k in options(st) if k.startswith("a1:board") or k.startswith("a1:fire")]
    with pytest.raises(IllegalAction):
        ENGINE.apply(st, "side:a", "a1:board:b1", ScriptedSource(rolls=[5, 5]))


def test_b18_both_broadsides_in_one_turn():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (2, 0), 2),
                ("b2", "pirates_sloop", "b", (-2, 0), 2)])
    both = [k for k in options(st) if "+" in k]
    assert "a1:fire:b2:bow+b1:port" in both or any(k.startswith("a1:fire:b2:") for k in both)
    key = next(k for k in both if k.endswith("+b1:port"))
    st, events = ENGINE.apply(st, "side:a", key, ScriptedSource(rolls=[12, 12, 2, 2]))
    rolls = [e for e in events if e.kind == "cannon.roll"]
    assert [r.data["target"] for r in rolls] == ["b2", "b1"]
    assert all(len(r.data["dice"]) == 2 for r in rolls)
