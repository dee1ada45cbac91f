"""The worked examples V1-V28 of ``rules/viking.md`` §8, through the kernel (the tables and
the engine), with scripted dice where a die is rolled."""

import pytest

from rules.engine import IllegalAction
from rules.viking import movement as mv
from rules.viking import orders as od
from rules.viking.data import DIW, FULL, HEAVY, MODERATE, PACED, SLOW, ZERO
from rules.viking.engine import ENGINE

from .conftest import make_game, play_turn, to_orders, vessel


def _keys(state, vid):
    return od.options(state, state["vessels"][vid])


def test_v1_accelerates_a_level_a_turn_to_the_top_and_back_to_a_stop():
    state, source = make_game([vessel("a1", x=36, y=4), vessel("b1", side="b", x=40, y=116,
                                                                 heading=180)], board=(72, 120))
    seen = []
    for level in ("SLOW", "PACED", "FULL", "PACED", "SLOW", "DIW"):
        state = to_orders(state, source)
        v = state["vessels"]["a1"]
        key = next(k for k in _keys(state, "a1") if k.startswith(f"{level}@") and "/" not in k)
        state, _ = ENGINE.apply(state, "side:a", key, source)
        state, _ = ENGINE.apply(state, "side:b", "DIW@0", source)
        seen.append(state["vessels"]["a1"]["level"])
        assert v["level"] != state["vessels"]["a1"]["level"] or level == "DIW"
    assert seen == [SLOW, PACED, FULL, PACED, SLOW, DIW]


def test_v2_a_karfi_at_slow_cannot_declare_full():
    with pytest.raises(mv.MoveError, match="most it can reach is paced"):
        mv.check_level(SLOW, FULL)
    state, source = make_game([vessel("a1", cls="KARFI", level="SLOW"),
                               vessel("b1", side="b", y=44, heading=180)])
    state["turn"] = 2
    state = to_orders(state, source)
    with pytest.raises(IllegalAction, match="most it can reach is paced"):
        ENGINE.apply(state, "side:a", "FULL@4", source)
    assert {p.level for p in map(od.parse, _keys(state, "a1")) if p.action == "move"
            and not p.backward} == {DIW, SLOW, PACED}


def test_v3_any_level_on_turn_one():
    for level in (DIW, SLOW, PACED, FULL):
        mv.check_level(DIW, level, first_turn=True)
    state, source = make_game([vessel("a1"), vessel("b1", side="b", y=44, heading=180)])
    state = to_orders(state, source)
    assert {p.level for p in map(od.parse, _keys(state, "a1")) if p.action == "move"
            and not p.backward} == {DIW, SLOW, PACED, FULL}


def test_v4_to_v6_the_speed_table():
    assert mv.speed_range("LONGSHIP", SLOW) == (1.5, 1.5)
    assert mv.speed_range("DRAGONSHIP", FULL) == (6, 8)
    assert mv.speed_range("KAUPSHIP", DIW) == (0, 0)


def test_v5_a_dragonship_at_full_moves_any_distance_from_6_to_8():
    state, source = make_game([vessel("a1", x=36, y=4), vessel("b1", side="b", y=44,
                                                              heading=180)])
    state = to_orders(state, source)
    state["doubled"] = False
    for d in (6, 7.3, 8):
        od.check(state, state["vessels"]["a1"], f"FULL@{d}")
    with pytest.raises(od.OrderError, match="6 to 8 in"):
        od.check(state, state["vessels"]["a1"], "FULL@8.5")


def test_v7_the_picture_two_inches_forward_buy_an_inch_of_facing_at_full_and_paced():
    assert mv.max_facing("DRAGONSHIP", FULL, 2) == 1
    assert mv.max_facing("DRAGONSHIP", PACED, 2) >= 1


def test_v8_at_full_one_inch_forward_allows_half_an_inch_of_facing():
    assert mv.max_facing("DRAGONSHIP", FULL, 1) == 0.5


def test_v9_a_dragonship_at_full_faces_4_moving_8_and_3_moving_6():
    assert mv.max_facing("DRAGONSHIP", FULL, 8) == 4
    assert mv.max_facing("DRAGONSHIP", FULL, 6) == 3


def test_v10_a_kaupship_at_paced_faces_one_inch():
    assert mv.max_facing("KAUPSHIP", PACED, 1) == 1


def test_v11_a_dragonship_at_slow_faces_4_strict_and_5_lenient():
    assert mv.max_facing("DRAGONSHIP", SLOW, 2) == 4
    assert mv.max_facing("DRAGONSHIP", SLOW, 2, lenient=True) == 5


def test_v12_a_karfi_dead_in_the_water_faces_4_without_moving():
    assert mv.max_facing("KARFI", DIW, 0) == 4


def test_v13_a_dragonship_at_minimum_crew_moves_3_to_4_and_faces_2():
    crew = mv.crew_state(30, 60, 30)
    assert crew == "minimum"
    assert mv.speed_range("DRAGONSHIP", FULL, crew=crew) == (3, 4)
    assert mv.max_facing("DRAGONSHIP", FULL, 4, crew=crew) == 2


def test_v14_a_longship_below_its_minimum_moves_at_dead_in_the_water_speeds():
    assert mv.speed_range("LONGSHIP", PACED, crew="below") == (0, 0.25)
    state, source = make_game([vessel("a1", cls="LONGSHIP", crew=15, crew_minimum=20),
                               vessel("b1", side="b", y=30, heading=180)])
    state = to_orders(state, source)
    with pytest.raises(IllegalAction, match="0 to 0.25 in"):
        ENGINE.apply(state, "side:a", "PACED@3", source)


def test_v15_backing_comes_after_slowing_to_a_stop_at_half_speed():
    mv.check_level(PACED, SLOW)
    mv.check_level(SLOW, DIW)
    with pytest.raises(mv.MoveError, match="dead in the water"):
        mv.check_level(PACED, SLOW, backward=True)
    mv.check_level(DIW, SLOW, backward=True)
    mv.check_level(SLOW, PACED, backward_now=True, backward=True)
    assert mv.speed_range("DRAGONSHIP", SLOW, backward=True) == (1, 1)
    assert mv.speed_range("DRAGONSHIP", PACED, backward=True) == (2, 2.5)
    state, source = make_game([vessel("a1", y=20, level="PACED"),
                               vessel("b1", side="b", x=24, y=40, heading=180)])
    state["turn"] = 2
    for key in ("SLOW@2", "DIW@0", "SLOW-back@1", "PACED-back@2.5"):
        state, _ = play_turn(state, source, {"a1": key, "b1": "DIW@0"})
    a1 = state["vessels"]["a1"]
    assert a1["backward"] and a1["level"] == PACED
    assert a1["y"] == pytest.approx(20 + 2 - 1 - 2.5)


def test_v16_backing_tops_out_at_paced():
    with pytest.raises(mv.MoveError, match="tops out at paced"):
        mv.check_level(PACED, FULL, backward_now=True, backward=True)
    assert mv.speed_range("LONGSHIP", PACED, backward=True) == (1.5, 2)


def test_v17_v18_v19_the_sail_table():
    assert mv.sail_max("KARFI", MODERATE, 30, 0) == DIW
    assert mv.sail_max("KARFI", MODERATE, 90, 0) == PACED
    assert mv.sail_max("KAUPSHIP", HEAVY, 180, 0) == PACED
    assert mv.sail_max("DRAGONSHIP", ZERO, 180, 0) is None


def test_v19_no_wind_no_sail_movement():
    state, source = make_game([vessel("a1", sail="UP", level="SLOW"),
                               vessel("b1", side="b", y=44, heading=180)], wind=(0, ZERO))
    state["turn"] = 2
    state = to_orders(state, source)
    assert {p.level for p in map(od.parse, _keys(state, "a1")) if p.action == "move"} == {DIW}


def _turns_until(state, source, vid, key, done):
    n = 0
    state, _ = play_turn(state, source, {vid: key})
    n += 1
    while not done(state["vessels"][vid]):
        state, _ = play_turn(state, source, {})
        n += 1
    return n, state


@pytest.mark.parametrize("viking,turns", [(True, 2), (False, 3)])
def test_v20_raising_sail_takes_2_turns_for_vikings_and_3_for_others(viking, turns):
    state, source = make_game([vessel("a1", viking=viking, oars_out=False, y=10),
                               vessel("b1", side="b", x=5, y=44, heading=180)],
                              house_rules=False)
    n, state = _turns_until(state, source, "a1", "raise", lambda v: v["sail"] == "UP")
    assert n == turns


@pytest.mark.parametrize("viking,turns", [(True, 1), (False, 2)])
def test_v21_lowering_sail_takes_1_turn_for_vikings_and_2_for_others_slowing(viking, turns):
    state, source = make_game([vessel("a1", viking=viking, sail="UP", level="PACED",
                                      heading=90, x=5, y=10),
                               vessel("b1", side="b", x=60, y=44, heading=180)],
                              house_rules=False, wind=(0, MODERATE))
    state["turn"] = 2
    n, state = _turns_until(state, source, "a1", "lower", lambda v: v["sail"] == "DOWN")
    assert n == turns
    assert state["vessels"]["a1"]["level"] == PACED - turns


def test_v22_shipping_oars_takes_one_turn():
    state, source = make_game([vessel("a1"), vessel("b1", side="b", y=44, heading=180)])
    state, _ = play_turn(state, source, {"a1": "oars"})
    assert state["vessels"]["a1"]["oars_out"] is False
    assert od.mode(state["vessels"]["a1"]) == "none"


def _fleet(flag_at):
    return [vessel("a0", x=36, y=10, flagship=True, order="CENTER"),
            vessel("a1", x=36 + flag_at, y=10, order="RIGHT"),
            vessel("b1", side="b", x=36, y=30, heading=180)]


def test_v23_an_order_changes_once_with_the_flagship_15_inches_away():
    state, source = make_game(_fleet(15))
    state = to_orders(state, source)
    state, _ = ENGINE.apply(state, "side:a", "DIW@0", source)
    assert any(k.startswith("CENTER>DIW@") for k in _keys(state, "a1"))
    state, _ = ENGINE.apply(state, "side:a", "CENTER>DIW@0", source)
    state, _ = ENGINE.apply(state, "side:b", "DIW@0", source)
    assert state["vessels"]["a1"]["order"] == "CENTER"
    assert state["vessels"]["a1"]["order_changed"]
    state = to_orders(state, source)
    state, _ = ENGINE.apply(state, "side:a", "DIW@0", source)
    with pytest.raises(IllegalAction, match="may not change her order"):
        ENGINE.apply(state, "side:a", "RIGHT>DIW@0", source)


def test_v24_no_order_change_with_the_flagship_17_inches_away():
    state, source = make_game(_fleet(17))
    state = to_orders(state, source)
    state, _ = ENGINE.apply(state, "side:a", "DIW@0", source)
    assert not any(">" in k for k in _keys(state, "a1"))
    with pytest.raises(IllegalAction, match="may not change her order"):
        ENGINE.apply(state, "side:a", "CENTER>DIW@0", source)


def test_v25_moving_as_flagship_keeps_its_speed_or_one_below_and_its_heading():
    state, source = make_game([vessel("a0", x=20, y=10, flagship=True, heading=90),
                               vessel("a1", x=20, y=20, order="FLAGSHIP", heading=45),
                               vessel("b1", side="b", x=30, y=40, heading=180)])
    flag = state["vessels"]["a0"]
    flag["last_level"], flag["last_heading"] = PACED, 90.0
    state = to_orders(state, source)
    keys = _keys(state, "a1")
    plans = [od.parse(k) for k in keys if ">" not in k]
    moves = [p for p in plans if p.action == "move"]
    assert {p.level for p in moves} == {PACED, SLOW}
    for p in moves:  # each turns right, onto 090: the facing allows it at paced and slow
        assert p.facing > 0
        assert od.end_of(state, state["vessels"]["a1"], p)["heading"] == pytest.approx(
            90, abs=0.5)
    state, _ = ENGINE.apply(state, "side:a", "PACED@5", source)
    with pytest.raises(IllegalAction, match="never faster"):
        ENGINE.apply(state, "side:a", "FULL@8/R4", source)
    with pytest.raises(IllegalAction, match="heading as near the flagship's"):
        ENGINE.apply(state, "side:a", "PACED@5/L2", source)


def test_v26_moves_double_when_the_sides_are_24_inches_apart():
    # the move may be doubled: 12-16 in, or the plain 6-8 in
    assert mv.speed_range("DRAGONSHIP", FULL, doubled=True) == (6, 16)
    assert mv.max_facing("DRAGONSHIP", FULL, 16, doubled=True) == 8
    state, source = make_game([vessel("a1", x=36, y=5),
                               vessel("b1", side="b", x=36, y=35, heading=180)])
    state = to_orders(state, source)
    assert state["doubled"]
    od.check(state, state["vessels"]["a1"], "FULL@14/L7")


@pytest.mark.parametrize("die,changed", [(9, True), (8, False)])
def test_v27_the_wind_check_re_dices_on_9_or_10(die, changed):
    state, source = make_game([vessel("a1"), vessel("b1", side="b", y=44, heading=180)],
                              wind=(0, MODERATE), rolls=[die, 1])
    state, _ = ENGINE.apply(state, "side:a", "redice", source)
    state, events = ENGINE.apply(state, "side:b", "keep", source)
    assert state["wind"]["speed"] == (ZERO if changed else MODERATE)
    assert [str(d) for d in source.log] == [f"d10 wind check a: {die}"] + (
        ["d10 wind speed: 1"] if changed else [])


def test_v28_three_facing_inches_of_a_6_inch_hull():
    assert mv.facing_degrees(3, 6, "atan") == pytest.approx(55.3, abs=0.05)
    assert mv.facing_degrees(3, 6, "asin") == pytest.approx(58.4, abs=0.05)  # errata VK-2
