"""HFG losses and victory (``rules/hfg.md`` §12): vectors L1-L5 (L4 as errata F14 rewrites
it), defeated commands and the end of a battle."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.losses import (
    Unit,
    army_broken,
    battle_result,
    command_defeated,
    lost_ee,
    original_ee,
)


def army(destroyed_elite=0, destroyed=0, routing=0, supply="ok"):
    units = [Unit("HQ", command="c")]
    units += [Unit("BAY", "E", "c", "destroyed" if i < destroyed_elite else "ok")
              for i in range(2)]
    states = ["destroyed"] * destroyed + ["routing"] * routing
    units += [Unit("BAY", None, "c", states[i] if i < len(states) else "ok") for i in range(16)]
    return units + [Unit("SUP", command="c", state=supply)]


def test_L1_army_break_with_the_supply_base():
    assert original_ee(army()) == 26
    hurt = army(destroyed_elite=1, destroyed=5, routing=2)
    assert lost_ee(hurt) == 9 and not army_broken(hurt)
    lost_base = army(destroyed_elite=1, destroyed=5, routing=2, supply="destroyed")
    assert lost_ee(lost_base) == 23 and army_broken(lost_base)
    # just above half breaks; exactly half does not
    assert not army_broken(army(destroyed=13)) and army_broken(army(destroyed=14))
    assert army_broken(army(destroyed=7), settings={"hfg_army_break_fraction": 0.25})


def test_L2_spent_are_not_lost():
    assert lost_ee([Unit("HC", state="spent")] * 3 + [Unit("CP")]) == 0


def test_L3_command_defeat_at_a_third():
    nine = [Unit("MUS", command="w", state="destroyed" if i < 3 else "ok") for i in range(9)]
    assert command_defeated(nine, "w")
    ten = [Unit("MUS", command="w", state="destroyed" if i < 3 else "ok") for i in range(10)]
    assert not command_defeated(ten, "w")
    ten[3] = Unit("MUS", command="w", state="routing")
    assert command_defeated(ten, "w")


def test_L4_all_elements_gone_errata_F14():
    gone = [Unit("CP", command="k", state="destroyed")] + [
        Unit("HC", command="k", state="spent") for _ in range(5)]
    assert command_defeated(gone, "k")  # lost EE 1 of 6, but all lost or spent
    alive = [Unit("CP", command="k")] + [Unit("HC", command="k", state="spent")
                                          for _ in range(5)]
    assert not command_defeated(alive, "k")


def test_L5_rallied_routers_no_longer_count():
    assert lost_ee([Unit("MUS", state="routing")]) == 1
    assert lost_ee([Unit("MUS", state="ok")]) == 0


def test_transferred_elements_and_errors():
    units = [Unit("MUS", command="w", state="destroyed"), Unit("MUS", command="w"),
             Unit("MUS", command="w", transferred=True), Unit("MUS", command="w")]
    assert not command_defeated(units, "w")  # 1 of 4 with the transferred one
    with pytest.raises(IllegalAction, match="no elements in command"):
        command_defeated(units, "x")
    with pytest.raises(IllegalAction, match="state is one of"):
        Unit("MUS", state="fled")


def test_battle_results():
    ok, broken = army(), army(destroyed=14)
    assert battle_result({"a": ok, "b": ok}, defender="b") is None
    assert battle_result({"a": ok, "b": broken}, defender="b")["winner"] == "a"
    worse = army(destroyed=16)
    both = battle_result({"a": worse, "b": broken}, defender="b")
    assert both == {"winner": "b", "broken": ["a", "b"], "how": "break"}
    assert battle_result({"a": broken, "b": broken}, defender="b")["how"] == "draw"
    assert battle_result({"a": ok, "b": ok}, defender="b", timed_out=True) == {
        "winner": "b", "broken": [], "how": "time"}
