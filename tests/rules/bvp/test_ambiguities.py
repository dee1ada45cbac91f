"""Every ambiguity of ``british_vs_pirates.md`` §11 (A1-A17) and the errata BV-1 to BV-4:
the recommended reading by default, the other where it is a setting."""

import copy

import pytest

from rules.bvp import combat, hexes, movement
from rules.bvp.engine import ENGINE, validate_setup
from rules.engine import IllegalAction
from rules.random import ScriptedSource, SeededSource

from .conftest import card_data, options, table


@pytest.mark.parametrize(("reading", "corner", "beam", "quarter"), [
    ("strict", False, True, True), ("inclusive", True, True, True),
    ("narrow", False, True, False)])
def test_a1_the_firing_arcs(reading, corner, beam, quarter):
    # Heading east from (0, 0): (1, 1) lies 30° off the bow to starboard (a corner line, at
    # an even distance), (1, 2) about 41°, (-1, 2) 90°: square on the beam.
    assert hexes.relative_bearing((0, 0), 0, (1, 1)) == pytest.approx(30)
    assert hexes.in_arc((0, 0), 0, (1, 1), "starboard", reading) is corner
    assert hexes.in_arc((0, 0), 0, (-1, 2), "starboard", reading) is beam
    assert hexes.in_arc((0, 0), 0, (1, 2), "starboard", reading) is quarter
    assert not hexes.in_arc((0, 0), 0, (-1, 2), "port", reading)
    assert not hexes.in_arc((0, 0), 0, (2, 0), "starboard", reading)  # dead ahead


def test_a1_the_arc_setting_reaches_the_guns():
    ships = [("a1", "british_frigate", "a", (0, 0), 0),
             ("b1", "pirates_frigate", "b", (1, 1), 0)]
    assert not [k for k in options(table(ships)) if ":fire:" in k]
    wide = table(ships, settings={"bvp_firing_arc": "inclusive"})
    assert [k for k in options(wide) if ":fire:" in k]


def test_a2_the_side_a_shot_strikes():
    # Example A: a shot from dead ahead strikes the bow only.
    assert hexes.exposed_sides((0, 0), 0, (3, 0), set()) == ["bow"]
    # Example B: a line through the corner between bow and port hexsides: both, one declared.
    assert hexes.exposed_sides((0, 0), 0, (1, 1), set()) == ["bow", "starboard"]
    # Example C: another ship beyond the port hexside screens it; the stern is left.
    through_corner = (-1, -1)  # between the stern and a port hexside
    assert hexes.exposed_sides((0, 0), 0, through_corner, set()) == ["stern", "port"]
    screen = {hexes.step((0, 0), 2)}
    assert hexes.exposed_sides((0, 0), 0, through_corner, screen) == ["stern"]


def test_a2_line_of_sight_is_blocked_by_a_ship_between():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (2, 0), 2),
                ("b2", "pirates_sloop", "b", (1, 0), 0)])
    assert not [k for k in options(st) if ":fire:b1:" in k]


@pytest.mark.parametrize(("cone", "wide_hex"), [("30", False), ("60", True)])
def test_a3_downwind(cone, wide_hex):
    # The wind toward the east: (2, 0), (1, 1), (2, -1) are downwind of (0, 0) within ±30°;
    # (2, -2) at 60° only under the wider cone.
    for h in ((1, 0), (2, 0), (1, 1), (2, -1)):
        assert hexes.downwind_of((0, 0), h, 0, int(cone))
    assert hexes.downwind_of((0, 0), (2, -2), 0, int(cone)) is wide_hex
    assert not hexes.downwind_of((0, 0), (-2, 0), 0, int(cone))


@pytest.mark.parametrize(("reading", "start", "hits", "port", "structure"), [
    ("a", 1, 1, None, 3), ("a", 2, 2, None, 3), ("a", 2, 3, None, 2),
    ("b", 2, 1, None, 3), ("b", 2, 2, None, 2),
    ("c", 1, 1, None, 2), ("c", 2, 2, None, 2)])
def test_a4_and_bv2_a_die_at_its_last_face(reading, start, hits, port, structure):
    dice = {"bow": 4, "starboard": 5, "stern": 4, "port": start, "structure": 3}
    after, removed = combat.damage(dice, "port", hits, reading)
    assert (after["port"], after["structure"]) == (port, structure)
    assert removed[0] == "port"


def test_a4_the_reading_is_a_setting_of_the_game():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (2, 0), 2)],
               settings={"bvp_side_die_exhaustion": "c"})
    st["ships"]["b1"]["dice"]["port"] = 1
    st, _ = ENGINE.apply(st, "side:a", "a1:fire:b1:port", ScriptedSource(rolls=[12, 2]))
    assert st["ships"]["b1"]["dice"]["port"] is None
    assert st["ships"]["b1"]["dice"]["structure"] == 3


def test_a5_a_ship_may_sail_less_than_its_speed():
    st = table([("a1", "british_frigate", "a", (0, 0), 0), ("b1", "pirates_frigate", "b", None, 3)])
    st, _ = ENGINE.apply(st, "side:a", "a1:move:P::1", ScriptedSource())
    assert (st["ships"]["a1"]["q"], st["ships"]["a1"]["r"]) == (1, 0)


def test_a6_a_cap_overrides_a_bonus():
    st = table([("a1", "british_frigate", "a", None, 0), ("b1", "pirates_sloop", "b", (2, 0), 0)])
    sloop = st["ships"]["b1"]  # Valentine on a Small ship: +1 Speed
    assert movement.speed(st, sloop) == 4 + 1
    sloop["dice"]["bow"] = None
    assert movement.speed(st, sloop) == 1


def test_a7_both_natural_1s_in_a_boarding():
    st = table([("a1", "british_frigate", "a", (0, 0), 0), ("b1", "pirates_sloop", "b", (1, 0), 0)])
    st, events = ENGINE.apply(st, "side:a", "a1:board:b1", ScriptedSource(rolls=[1, 1]))
    assert next(e for e in events if e.kind == "boarding.roll").data["result"] == "both_fail"
    for sid, structure in (("a1", 3), ("b1", 2)):
        assert st["ships"][sid]["morale"] == 1
        assert st["ships"][sid]["dice"]["structure"] == structure


def test_a8_boarding_needs_the_next_hex():
    st = table([("a1", "british_frigate", "a", (0, 0), 0), ("b1", "pirates_sloop", "b", (2, 0), 0)])
    assert not [k for k in options(st) if ":board:" in k]


@pytest.mark.parametrize(("reading", "speed"), [("from_astern", 3), ("head_wind", 1)])
def test_a9_and_bv4_the_relative_wind_index(reading, speed):
    st = table([{"id": "a1", "card": "british_frigate", "captain": "british_3", "side": "a",
                 "at": (0, 0), "heading": 0}, ("b1", "pirates_frigate", "b", None, 3)],
               settings={"bvp_wind_reading": reading})
    assert movement.wind_index(st, 0) == (0 if reading == "from_astern" else 3)
    assert movement.speed(st, st["ships"]["a1"]) == speed


def test_a10_morale_starts_at_the_printed_maximum():
    st = table([("a1", "british_frigate", "a", None, 0), ("b1", "pirates_sloop", "b", None, 3)])
    assert st["ships"]["a1"]["morale"] == 5 and st["ships"]["b1"]["morale"] == 6


@pytest.mark.parametrize(("rule", "left"), [("require", 5), ("spend", 3)])
def test_a11_a_cards_morale_is_required_not_spent(rule, left):
    st = table([("a1", "british_frigate", "a", (0, 0), 0),
                ("b1", "pirates_frigate", "b", None, 3)],
               decks=True, settings={"bvp_card_morale": rule})
    sail = next(k for k, v in st["card_of"].items() if v == "full_sail")
    st["sides"]["a"]["hand"][0] = sail
    st, _ = ENGINE.apply(st, "side:a", f"a1:card:{sail}", ScriptedSource())
    assert st["ships"]["a1"]["morale"] == left
    assert movement.speed(st, st["ships"]["a1"]) == 3 + 1
    st["ships"]["a1"]["morale"] = 1
    assert not [k for k in options(st) if "full_sail" in k or (":card:" in k and
                st["card_of"].get(k.rsplit(":", 1)[1]) in ("full_sail", "double_shot"))]


def test_a12_an_empty_deck_is_made_again_from_the_discards():
    st = table([("a1", "british_frigate", "a", None, 0), ("b1", "pirates_frigate", "b", None, 3)],
               decks=True)
    deck = st["decks"]["pirates"]
    deck["discard"] += deck["draw"]
    deck["draw"] = []
    st["sides"]["b"]["hand"] = []
    st, events = ENGINE.apply(st, "side:a", "end", SeededSource(4))
    assert "cards.reshuffle" in [e.kind for e in events]
    assert len(st["sides"]["b"]["hand"]) == 3
    assert len(st["decks"]["pirates"]["draw"]) == 12 - 3 - 3


def test_a13_the_wind_stays_as_set():
    source = SeededSource(5)
    state, _ = ENGINE.start(ENGINE.scenarios()["first_broadside"].setup, source)
    for _ in range(6):
        d = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, d.actor, "end" if d.kind == "turn" else d.default, source)
    assert state["wind"] == 2 and state["round"] >= 3


def _escort(**settings):
    return table([{"id": "am", "card": "british_fluyt", "captain": None, "side": "a",
                   "at": (7, -4), "heading": 0, "merchant": True},
                  {"id": "a1", "card": "british_frigate", "side": "a", "at": (6, -2),
                   "heading": 0},
                  {"id": "bm", "card": "pirates_fluyt", "captain": None, "side": "b",
                   "at": None, "heading": 3, "merchant": True},
                  {"id": "b1", "card": "pirates_frigate", "side": "b", "at": None,
                   "heading": 3}], mode="escort", settings=settings)


def test_a14_a_merchant_wins_on_reaching_a_half_hex_of_the_opposing_edge():
    st = _escort()
    goal = movement.goal_cells(st, "a")
    assert hexes.step((7, -4), 0) in goal
    assert "am:move:P::1" in options(st)
    assert not [k for k in options(st) if k.startswith("a1:move:P::") and k.endswith(":2")]
    st, _ = ENGINE.apply(st, "side:a", "am:move:P::1", ScriptedSource())
    assert ENGINE.outcome(st).result == "escorted" and ENGINE.outcome(st).winner == "Side A"


def test_a14_a_side_whose_merchant_sinks_loses_and_the_others_play_on():
    st = _escort()
    st["ships"]["bm"]["q"], st["ships"]["bm"]["r"] = (2, 0)
    st["ships"]["bm"]["heading"] = 2
    st["ships"]["bm"]["dice"].update(port=None, structure=1)
    st["ships"]["a1"]["q"], st["ships"]["a1"]["r"], st["ships"]["a1"]["heading"] = 0, 0, 1
    st, events = ENGINE.apply(st, "side:a", "a1:fire:bm:port", ScriptedSource(rolls=[12, 2]))
    assert st["sides"]["b"]["lost"] and "escort.lost" in [e.kind for e in events]
    assert ENGINE.outcome(st) is None


def test_a15_and_the_opening_the_highest_roller_chooses():
    setup = copy.deepcopy(ENGINE.scenarios()["annihilation_duel"].setup)
    # A shuffle of each 12-card deck (11 + 11 picks), then the first-player dice: 3 and 3
    # tie, rolled again: 2 and 5.
    source = ScriptedSource(rolls=[1] * 22 + [3, 3, 2, 5], then=SeededSource(0))
    state, events = ENGINE.start(setup, source)
    assert state["order"] == ["pirates", "british"] and state["chooser"] == "pirates"
    assert [(d.actor, d.kind) for d in ENGINE.pending(state)] == [("side:pirates", "opening")]
    state, _ = ENGINE.apply(state, "side:pirates", "wind", source)
    assert state["order"] == ["british", "pirates"]
    assert [(d.actor, d.kind) for d in ENGINE.pending(state)] == [("side:pirates", "wind")]
    state, _ = ENGINE.apply(state, "side:pirates", "3", source)
    assert state["wind"] == 3 and state["active"] == "british"


@pytest.mark.parametrize(("rule", "dice"), [("full", [2, 2]), ("split", [1, 1])])
def test_a16_both_broadsides_full_or_split(rule, dice):
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (2, 0), 2),
                ("b2", "pirates_sloop", "b", (-2, 0), 2)], settings={"bvp_two_broadsides": rule})
    key = next(k for k in options(st) if "+" in k and k.endswith("+b1:port"))
    st, events = ENGINE.apply(st, "side:a", key, ScriptedSource(rolls=[2] * 4))
    assert [len(e.data["dice"]) for e in events if e.kind == "cannon.roll"] == dice


def test_a17_land_blocks_a_move_and_a_line_of_sight():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (2, 0), 2)])
    st["tiles"][1]["land"] = [[1, 0]]
    keys = options(st)
    assert not [k for k in keys if ":fire:" in k]
    st["ships"]["a1"]["heading"] = 0
    assert not [k for k in options(st) if k.startswith("a1:move:P::")]


def test_bv1_a_merchant_may_sail_without_a_captain_unless_the_table_requires_one():
    setup = copy.deepcopy(ENGINE.scenarios()["merchant_escort"].setup)
    validate_setup(setup)
    setup["settings"] = {"bvp_merchant_captain": "require_captain"}
    with pytest.raises(ValueError, match="needs a captain"):
        validate_setup(setup)
    st = _escort()
    assert combat.morale(st["ships"]["am"]) == 0
    assert combat.boarding_bonus(st, st["ships"]["am"], "defend") == 0


def test_bv3_cards_are_chosen_before_the_dice_are_rolled():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (2, 0), 2)],
               decks=True)
    shot = next(k for k, v in st["card_of"].items() if v == "double_shot")
    brace = next(k for k, v in st["card_of"].items() if v == "brace")
    st["sides"]["a"]["hand"][0], st["sides"]["b"]["hand"][0] = shot, brace
    source = ScriptedSource(rolls=[9, 8])
    st, _ = ENGINE.apply(st, "side:a", "a1:fire:b1:port", source)
    assert source.log == []  # nothing rolled while the cards are awaited
    st, _ = ENGINE.apply(st, "side:b", brace, source)
    st, events = ENGINE.apply(st, "side:a", shot, source)
    roll = next(e for e in events if e.kind == "cannon.roll")
    assert roll.data["accuracy"] == 1 + 2 and roll.data["needed"] == 5 + 6 + 2
    assert roll.data["hits"] == 0  # 9 + 3 = 12 < 13
    with pytest.raises(IllegalAction):
        ENGINE.apply(st, "side:b", brace, source)


def test_the_card_data_set_is_recorded_in_the_state_and_a_gms_set_is_checked():
    data = card_data()
    data.update(name="Our cards", provisional=False)
    data["ships"]["british_frigate"]["speed"][0] = 2
    setup = copy.deepcopy(ENGINE.scenarios()["first_broadside"].setup)
    setup["card_data"] = data
    state, events = ENGINE.start(setup, SeededSource(1))
    assert state["card_set"] == {"name": "Our cards", "provisional": False}
    assert "provisional" not in events[0].text
    data["ships"]["british_frigate"]["speed"][0] = "fast"
    with pytest.raises(ValueError, match=r"ships.british_frigate.speed\[0\]"):
        validate_setup(setup)
