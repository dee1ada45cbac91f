"""Several ships (``rules/btq_naval.md`` §4.13, TV-N10, TV-N11; DECISIONS D17, D21): a range
chart per pair, a Positioning test per pair, concentrated or split fire against one shared
Card of Fate, ships that leave (struck, sunk, escaped) and join, allied ships, PCs aboard
two ships (BtQ L2498-2515)."""

import json
import random
import re

import pytest

from rules.btq import naval
from rules.btq.naval import broadside_pool
from rules.engine import GM, play_out
from rules.random import ScriptedSource, SeededSource
from tests.rules.btq.test_naval import ENGINE, Table, of, roundtrip
from tests.rules.test_engine_state_order import _reversed

MISSES_LONDON_10 = "2C  3H 4H 5H 6H 7H 8H 9H 10H JH QH  3D 4D 5D 6D 7D 8D 9D"
"""A Broadside! against 2C where nobody hits: the London's 10 cards, the Condor's 7."""


def book_setup(**changes):
    """HMS London, the Condor at Distance 3 and the Vulture at 4 (BtQ L2502-2503), as the
    scenario ``london_condor_and_vulture`` holds them."""
    setup = json.loads(json.dumps(ENGINE.scenarios()["london_condor_and_vulture"].setup))
    setup.update(changes)
    return setup


def ship(setup, sid):
    return next(s for s in setup["ships"] if s["id"] == sid)


def play_choices(scenario, upto):
    """The scenario's battle after its first ``upto`` choices, drawing its cards."""
    table = Table(scenario.setup, ScriptedSource(scenario.cards), all_drawn=False)
    for c in scenario.choices[:upto]:
        table.state, new = ENGINE.apply(table.state, c["actor"], c["choice"], table.source)
        table.events += new
    return table


def pair(state, a, b):
    return state["pairs"][f"{a}|{b}"]


# --- TV-N10: the London, the Condor and the Vulture -----------------------------------------

def test_tv_n10_a_positioning_test_against_each_ship():
    scenario = ENGINE.scenarios()["london_condor_and_vulture"]
    table = play_choices(scenario, len(scenario.choices))
    state = table.state
    tests = of(table.events, "positioning.test")
    assert [t.data["winner"] for t in tests] == ["pc", "pc"]
    # The London turns her full pool in each test (BtQ L2498-2499): 7 against the Condor
    # (Speed 4 against 3), 6 against the Vulture (4 against 4).
    assert [t.data["pools"]["pc"]["size"] for t in tests] == [7, 6]
    assert [t.data["pools"]["enemy"]["size"] for t in tests] == [5, 4]
    assert pair(state, "london", "condor")["distance"] == 1
    assert pair(state, "london", "vulture")["distance"] == 2
    # Both moves bring a pair into range: a gage for each pair, +2 once (D17).
    assert pair(state, "london", "condor")["gage"] == {"to": "london", "round": 1}
    assert pair(state, "london", "vulture")["gage"] == {"to": "london", "round": 1}
    # Double shot as her first load: 10 - 2 = 8 on the Condor (D21, first reading).
    size, parts = broadside_pool(state, "london", target="condor")
    assert size == 8 and parts["weather_gage"] == 2 and parts["ammunition"] == -2
    # The Condor fires 7 cards without penalty, the Vulture 7 - 4 = 3 (BtQ L2505-2506).
    assert broadside_pool(state, "condor")[0] == 7
    assert broadside_pool(state, "vulture") == (3, {"gunnery": 5, "broadside": 2, "range": -4})
    table.expect(GM, "broadside.ammo")


def test_tv_n10_the_split_leaves_one_card_at_long_range():
    # Roundshot instead: the pool of 10 split 5 and 5 leaves 5 - 4 = 1 at the Vulture
    # (range after the split, BtQ L2504-2505).
    scenario = ENGINE.scenarios()["london_condor_and_vulture"]
    table = play_choices(scenario, 3)
    table.do("pc:hale", "broadside.ammo", "roundshot")
    decision = table.expect("pc:hale", "broadside.target")
    labels = {o.key: o.label for o in decision.options}
    assert labels["condor"] == "Concentrate on the Condor (Distance 1, 10 cards)"
    assert labels["vulture"] == "Concentrate on the Vulture (Distance 2, 6 cards)"
    assert labels["condor=5,vulture=5"] == ("Split: 5 at the Condor (5 cards), 5 at the "
                                           "Vulture (1 card)")
    assert decision.default == "condor"
    table.do("pc:hale", "broadside.target", "condor=5,vulture=5")
    table.do(GM, "broadside.ammo", "roundshot")
    # One shared Card of Fate (BtQ L2500): the London's 6 cards (5 and 1), the Condor's 7,
    # the Vulture's 3; the Vulture's 4S is a hit on the London's Hull.
    table.do(GM, "broadside.ammo", "roundshot",
             "2C  3H 4H 5H 6H 7H 8H  3D 4D 5D 6D 7D 8D 9D  10D JD 4C")
    fire = of(table.events, "broadside.fire")
    assert [(e.data["ship"], e.data["target"], e.data["size"]) for e in fire] == [
        ("london", "condor", 5), ("london", "vulture", 1), ("condor", "london", 7),
        ("vulture", "london", 3)]
    assert {e.data["card_of_fate"] for e in fire} == {"2C"}
    assert fire[1].data["breakdown"] == {"gunnery": 5, "broadside": 3, "weather_gage": 2,
                                         "split": -5, "range": -4}
    assert fire[1].data["cards"] == [["8H", "failure"]]
    assert fire[3].data["hits"] == [["rigging", 1]]
    assert table.ship("london")["tracks"]["rigging"] == "x...|....|...."
    split = of(table.events, "broadside.split")[0]
    assert split.data["split"] == {"condor": 5, "vulture": 5}


def test_d21_double_shot_after_a_change_when_the_vulture_joins():
    # The Vulture joins in round 2 (BtQ L2502: "is now joined by"); the London has fired
    # roundshot in round 1, so double shot is a change: 10 - 2 - 2 = 6 (D21).
    setup = book_setup()
    ship(setup, "vulture")["joins_round"] = 2
    table = Table(setup, "9C  9D 2H 3H 4H 5H 6H 7H  2S 3S 4S 5S 6S")
    assert [p for p in ENGINE.view(table.state, "pc:hale")["ships"]] == ["london", "condor"]
    table.do("pc:hale", "positioning.move", "1")
    table.do("pc:hale", "fight.action", "none")
    table.do("pc:hale", "broadside.ammo", "roundshot")
    table.do(GM, "broadside.ammo", "roundshot", MISSES_LONDON_10)
    table.do("pc:hale", "continue.orders", "continue")
    table.do(GM, "continue.orders", "continue",
             "9C  3C 2H 4H 5H 6H 7H 8H  2S 3S 4S 5S 6S")
    [joins] = of(table.events, "ship.joins")
    assert joins.data == {"ship": "vulture", "side": "enemy", "distance": 4}
    assert "vulture" in ENGINE.view(table.state, "pc:hale")["ships"]
    table.do("pc:hale", "positioning.move", "1", "10C  10D 2H 3H 4H 5H 6H  2S 3S 4S 5S")
    table.do("pc:hale", "positioning.move", "2")
    # The gage against the Condor was won in round 1; this one is the Vulture's pair's.
    assert pair(table.state, "london", "condor")["gage"]["round"] == 1
    assert pair(table.state, "london", "vulture")["gage"]["round"] == 2
    table.do("pc:hale", "fight.action", "none")
    table.do("pc:hale", "broadside.ammo", "double")
    table.do("pc:hale", "broadside.target", "condor")
    size, parts = broadside_pool(table.state, "london", target="condor")
    assert size == 6 and parts["changing_shot"] == -2 and parts["ammunition"] == -2


# --- TV-N11: boarding in a battle of three ---------------------------------------------------

def test_tv_n11_the_condor_closes_two_to_zero_with_a_critical_and_boards():
    setup = book_setup(pcs=[])
    ship(setup, "vulture")["distance"] = 5
    # Round 1: the Condor wins with an Ordinary (2D) and closes to 2; the London wins
    # against the Vulture (2D) and holds at 5. At 2 neither the London (no gunner: 0 + 3 - 4)
    # nor the un-rated Condor can fire.
    table = Table(setup, "9D  2H 3H 4H 5H 6H 7H 8H  2D 3S 4S 5S 6S")
    table.do(GM, "positioning.move", "2", "9D  2D 3H 4H 5H 6H 7H  2S 3S 4S 5S")
    table.do(GM, "positioning.move", "5")
    for _ in range(2):
        table.do(GM, "continue.orders", "continue")
    # Round 2: the Condor's 9C, a Critical: she closes two, 2 to 0 (BtQ L2513-2515).
    table.do(GM, "continue.orders", "continue", "9D  2H 3H 4H 5H 6H 7H 8H  9C 3S 4S 5S 6S")
    state = table.state
    move = ENGINE.pending(state)[0]
    assert (move.actor, move.kind) == (GM, "positioning.move") and "0" in [
        o.key for o in move.options]
    # The Condor boards; the London's Positioning against the Vulture goes on (BtQ
    # L2498-2499): the Vulture's 2D wins, and she may close, but not to Distance 0 while
    # the boarding is fought.
    events = table.do(GM, "positioning.move", "0", "9D  2H 3H 4H 5H 6H 7H 8H  2D 3S 4S")
    begin = next(e for e in events if e.kind == "boarding.begin")
    assert begin.data == {"attacker": "condor"} and "The Condor boards HMS London" in begin.text
    board = table.state["boarding"]
    assert (board["attacker"], board["defender"], board["pair"]) == ("condor", "london",
                                                                     "london|condor")
    assert ENGINE.outcome(table.state) is None
    move = table.expect(GM, "positioning.move")
    assert table.state["await"]["pair"] == "london|vulture"
    assert [o.key for o in move.options] == ["4", "5", "escape", "strike"]
    assert "0" not in naval._move_options(1, 2, naval._closest(table.state, "london|vulture"))
    # Neither grappled ship makes a Positioning test against the other in round 3.
    table.do(GM, "positioning.move", "4")
    # No PC fights: the GM turns the cards of the Command test, the London's crew
    # (Command 0: no card) against the Condor's (Command 3, her 9D an Ordinary).
    table.do(GM, "boarding.round", "go", "9H  2D 9D 3S")
    table.do(GM, "boarding.surrender", "fight_on")
    assert table.ship("london")["tracks"]["crew"].startswith("x")
    # Continuing the Engagement: only the Vulture's captain is asked; the grappled ships
    # fight on.
    orders = table.expect(GM, "continue.orders")
    assert table.state["await"]["ship"] == "vulture" and "strike" in [
        o.key for o in orders.options]


# --- ships leaving and joining; allies; PCs on two ships -------------------------------------

def three_ships(**changes):
    """HMS London (Hale, Vane) and the allied cutter Sparrow (no PCs) against the Condor."""
    setup = {
        "weather": "steady_breeze", "start_distance": 3, "settings": {},
        "ships": [
            {"id": "london", "name": "HMS London", "side": "pc", "type": "Fifth Rate",
             "crew": {"awareness": 2, "maritime": 3, "seamanship": 4, "gunnery": 3}},
            {"id": "sparrow", "name": "Sparrow", "side": "pc", "type": "Cutter",
             "crew": {"seamanship": 3, "gunnery": 3, "command": 2}},
            {"id": "condor", "name": "Condor", "side": "enemy", "type": "Brig Sloop",
             "crew": {"awareness": 2, "seamanship": 3, "gunnery": 3, "command": 3}},
        ],
        "pcs": [{"id": "hale", "name": "Gunner Hale", "seniority": 2, "discipline": 2,
                 "station": "gunner", "skills": {"gunnery": 5, "seamanship": 4}},
                {"id": "vane", "name": "Midshipman Vane", "seniority": 1, "discipline": 2,
                 "skills": {"seamanship": 3}}],
    }
    setup.update(changes)
    return setup


def play(state, source, answer=lambda state, d: None, limit=2000):
    """Play on with the default choices, except where ``answer`` gives one."""
    events = []
    for _ in range(limit):
        pending = ENGINE.pending(state)
        if not pending:
            return state, events
        d = pending[0]
        choice = answer(state, d) or d.default
        state, new = ENGINE.apply(state, d.actor, choice, source)
        events += new
        roundtrip(state)
    raise AssertionError("no end")


def test_an_allied_ship_is_the_gms_and_the_winners_are_named():
    state, _ = ENGINE.start(three_ships(), SeededSource(5))
    assert state["commanders"] == {"london": "hale"}
    assert set(state["pairs"]) == {"london|condor", "sparrow|condor"}

    def strike_at_once(state, d):
        if d.kind == "continue.orders":
            assert d.actor == ("pc:hale" if state["await"]["ship"] == "london" else GM)
            return "strike" if state["await"]["ship"] == "condor" else "continue"
        return None

    state, events = play(state, SeededSource(5), strike_at_once)
    outcome = ENGINE.outcome(state)
    assert (outcome.result, outcome.winner, outcome.data["losers"]) == ("struck", "pc",
                                                                         ["enemy"])
    assert outcome.summary == ("The Condor strikes her colours and surrenders to HMS London "
                               "and the Sparrow.")
    assert outcome.data["ships"]["condor"] == {**outcome.data["ships"]["condor"],
                                               "morale": 1, "out": "struck"}


def test_one_of_two_enemies_strikes_and_the_battle_goes_on():
    table = play_choices(ENGINE.scenarios()["london_condor_and_vulture"], 3)
    table.do("pc:hale", "broadside.ammo", "roundshot")
    table.do("pc:hale", "broadside.target", "vulture")
    table.do(GM, "broadside.ammo", "roundshot")
    table.do(GM, "broadside.ammo", "roundshot",
             "2C  3H 4H 5H 6H 7H 8H  3D 4D 5D 6D 7D 8D 9D  10D JD QD")
    table.do("pc:hale", "continue.orders", "continue")
    table.do(GM, "continue.orders", "strike")
    table.source.then = SeededSource(10)
    table.do(GM, "continue.orders", "continue")
    assert ENGINE.outcome(table.state) is None
    [left] = of(table.events, "ship.leaves")
    assert left.data == {"ship": "condor", "how": "struck"}
    assert table.ship("condor")["morale"] == 1
    # The Condor is out: no more Positioning with her, and nobody fires at her.
    state, events = play(table.state, SeededSource(11))
    assert all(e.data.get("target") != "condor" for e in of(events, "broadside.fire"))
    assert all("Condor" not in e.text for e in of(events, "positioning.test"))
    assert ENGINE.outcome(state).data["ships"]["condor"]["out"] == "struck"


def test_a_ship_pushed_beyond_distance_five_escapes_while_the_fight_goes_on():
    setup = book_setup()
    ship(setup, "vulture")["distance"] = 5
    table = Table(setup, "9C  9D 2H 3H 4H 5H 6H 7H  2S 3S 4S 5S 6S")
    table.do("pc:hale", "positioning.move", "3", "10C  10D 2H 3H 4H 5H 6H  2S 3S 4S 5S")
    decision = table.expect("pc:hale", "positioning.move")
    assert "Escape beyond Distance 5 (beyond the horizon)" in [o.label for o in decision.options]
    table.do("pc:hale", "positioning.move", "escape")
    assert ENGINE.outcome(table.state) is None
    assert table.ship("vulture")["out"] == "escaped" and table.ship("vulture")["morale"] == 0
    assert "has escaped" in of(table.events, "ship.leaves")[0].text
    # Nobody is in range: Steps 5 and 6 pass; the captains of the two ships left give orders.
    table.expect("pc:hale", "continue.orders")
    table.do("pc:hale", "continue.orders", "continue")
    table.expect(GM, "continue.orders")


def test_pcs_aboard_two_ships_each_with_her_own_commander():
    setup = three_ships()
    setup["pcs"].append({"id": "tapp", "name": "Lieutenant Tapp", "ship": "sparrow",
                         "seniority": 1, "discipline": 3, "skills": {"seamanship": 4}})
    setup["pcs"].append({"id": "mate", "name": "Mate Rowe", "ship": "sparrow",
                         "seniority": 0, "discipline": 1, "skills": {"gunnery": 3}})
    table = Table(setup)
    assert table.state["commanders"] == {"london": "hale", "sparrow": "tapp"}
    # Each commander hands out his Discipline to the PCs of his own ship only.
    decision = table.expect("pc:hale", "discipline.cards")
    assert "Vane" in decision.prompt
    table.do("pc:hale", "discipline.cards", "2")
    decision = table.expect("pc:tapp", "discipline.cards")
    assert "Rowe" in decision.prompt and [o.key for o in decision.options] == ["0", "1"]
    table.source.then = SeededSource(2)
    table.do("pc:tapp", "discipline.cards", "1")
    assert table.state["discipline_cards"] == {"vane": 2, "mate": 1}
    assert [e.data["ship"] for e in of(table.events, "discipline.cards")] == ["london",
                                                                            "sparrow"]


def two_a_side():
    setup = three_ships()
    setup["ships"].append({"id": "vulture", "name": "Vulture", "side": "enemy",
                           "type": "Sixth Rate", "distance": 4,
                           "crew": {"seamanship": 3, "gunnery": 4, "command": 3,
                                    "first_aid": 2, "maritime": 3}})
    setup["pcs"].append({"id": "tapp", "name": "Lieutenant Tapp", "ship": "sparrow",
                         "seniority": 1, "discipline": 2,
                         "skills": {"seamanship": 4, "gunnery": 2, "maritime": 3}})
    return setup


def test_two_a_side_with_random_choices_always_end_and_stay_legal():
    for seed in range(25):
        rng = random.Random(seed)

        def pick(state, d, rng=rng):
            return rng.choice(d.options).key
        state, _ = ENGINE.start(two_a_side(), SeededSource(seed))
        state, _ = play(state, SeededSource(seed + 100), pick)
        outcome = ENGINE.outcome(state)
        assert outcome.result in {"sunk", "crew_dead", "struck", "escaped", "disengaged",
                                  "taken", "both_lost"}
        assert set(outcome.data["ships"]) == {"london", "sparrow", "condor", "vulture"}


def test_two_a_side_same_seed_same_battle_and_the_fast_path_agrees():
    runs = []
    for _ in range(2):
        state, events = ENGINE.start(two_a_side(), SeededSource(7))
        state, more = play_out(ENGINE, state, SeededSource(8))
        runs.append(([e.as_dict() for e in events + more], state))
    assert runs[0] == runs[1]
    fast = ENGINE.auto_play(ENGINE.auto_start(two_a_side(), SeededSource(7)), SeededSource(8))
    assert fast["result"] == runs[0][1]["result"] and fast["ships"] == runs[0][1]["ships"]


def test_players_never_see_the_enemy_crews_of_several_ships():
    state, events = ENGINE.start(two_a_side(), SeededSource(3))
    state, more = play(state, SeededSource(4))
    view = ENGINE.view(state, "pc:vane")
    for sid in ("condor", "vulture"):
        assert "crew" not in view["ships"][sid] and "ammo" not in view["ships"][sid]
    assert "crew" in view["ships"]["sparrow"]
    for e in events + more:
        if e.kind == "broadside.fire" and e.data["ship"] in ("condor", "vulture"):
            assert "breakdown" not in e.data and "breakdown" in e.gm_data


@pytest.mark.parametrize("change, message", [
    (lambda s: ship(s, "vulture").update(id="condor"), "two ships share the id 'condor'"),
    (lambda s: (ship(s, "vulture").update(joins_round=2), ship(s, "vulture").pop("distance")),
     "needs the distance she joins at"),
    (lambda s: ship(s, "london").update(distance=3), "has a distance of her own"),
    (lambda s: ship(s, "condor").update(distance=1), "distance must be a whole number 3-5"),
    (lambda s: ship(s, "condor").update(id="a|b"), "cannot contain '|'"),
    (lambda s: (ship(s, "condor").update(joins_round=2, distance=2),
                ship(s, "vulture").update(joins_round=3)), "an 'enemy' ship at the start"),
])
def test_setup_errors_of_several_ships(change, message):
    setup = book_setup()
    change(setup)
    with pytest.raises(ValueError, match=re.escape(message)):
        naval.validate_setup(setup)


def _reordered(value):
    """``value`` with every mapping's keys in reverse order, as a database may hand a stored
    state back (PostgreSQL's jsonb sorts keys by length)."""
    if isinstance(value, dict):
        return {k: _reordered(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reordered(v) for v in value]
    return value


@pytest.mark.parametrize("seed", range(12))
def test_a_squadron_battle_does_not_depend_on_the_order_its_state_was_stored_in(seed):
    """The live table reads the state back from the database before every decision; the
    replay plays it in memory. Both must give the same events (the London, Condor and
    Vulture, three ships, two pairs, split fire)."""
    from rules.engine import get_engine
    from rules.random import SeededSource

    engine = get_engine("btq_naval")
    setup = engine.scenarios()["london_condor_and_vulture"].setup

    def play(reorder):
        source = SeededSource(seed)
        state, events = engine.start(engine.validate_setup(setup), source)
        log = [e.as_dict() for e in events]
        while engine.outcome(state) is None and len(log) < 2000:
            if reorder:
                state = _reordered(state)
            decision = engine.pending(state)[0]
            state, events = engine.apply(state, decision.actor,
                                         engine.default_choice(state, decision), source)
            log += [e.as_dict() for e in events]
        return log

    assert play(reorder=True) == play(reorder=False)


# --- boarding inside the battle, with a second enemy ship ------------------------------------

def boarding_setup():
    """HMS London (Lieutenant Vane in command, Gunner Hale) against the Condor, whose
    Captain Black and Master Grey are named, and the Vulture at Distance 4."""
    setup = book_setup(pcs=[
        {"id": "vane", "name": "Lieutenant Vane", "seniority": 3, "discipline": 2,
         "skills": {"seamanship": 4, "command": 3, "soldiering": 2}, "weapons": ["sword"]},
        {"id": "hale", "name": "Gunner Hale", "seniority": 1, "discipline": 1,
         "station": "gunner", "skills": {"gunnery": 5}}])
    ship(setup, "condor")["officers"] = [
        {"id": "npc:black", "name": "Captain Black", "post": "captain", "command": 3,
         "weapons": ["cutlass"]},
        {"id": "npc:grey", "name": "Master Grey", "post": "master", "command": 1,
         "weapons": ["knife"]}]
    return setup


def boarder(state, decision):
    """Close on the Condor to board her, on the Vulture to Distance 1; go for the
    officers; else the default."""
    keys = [o.key for o in decision.options]
    if decision.kind == "positioning.move":
        low = 1 if "vulture" in state["await"]["pair"] else 0
        return min((k for k in keys if k.isdigit() and int(k) >= low), key=int)
    if decision.kind == "boarding.action":
        return next((k for k in keys if k.startswith(("duel:", "officers:"))),
                    decision.default)
    return decision.default


def test_a_boarding_beside_a_second_enemy_plays_the_same_whatever_the_state_s_key_order():
    """The live table reads the state back from PostgreSQL (its keys sorted) before each
    decision; the replay plays it in memory: a battle with a boarding must give the same
    events either way."""
    boarded = 0
    for seed in range(6):
        logs = []
        for reorder in (False, True):
            source = SeededSource(seed)
            state, events = ENGINE.start(boarding_setup(), source)
            log = [e.as_dict() for e in events]
            for _ in range(800):
                if ENGINE.outcome(state) is not None:
                    break
                if reorder:
                    state = _reversed(state)
                decision = ENGINE.pending(state)[0]
                state, events = ENGINE.apply(state, decision.actor, boarder(state, decision),
                                             source)
                log += [e.as_dict() for e in events]
            logs.append(log)
        assert logs[0] == logs[1], seed
        boarded += any(e["kind"] == "boarding.begin" for e in logs[0])
        outcome = ENGINE.outcome(state)
        assert outcome is not None and set(outcome.data["ships"]) == {"london", "condor",
                                                                      "vulture"}
    assert boarded >= 3


def test_in_the_boarding_each_pc_decides_for_himself_and_the_officers_are_fought():
    """BtQ L2517-2524: in the boarding each PC's action is asked of him; Vane fights through
    to Captain Black and then meets him one on one; the player's view of the boarding has
    the officers' names and health, not their figures."""
    for seed in range(10):
        source = SeededSource(seed)
        state, _ = ENGINE.start(boarding_setup(), source)
        asked, duel = [], False
        for _ in range(800):
            if ENGINE.outcome(state) is not None:
                break
            decision = ENGINE.pending(state)[0]
            if decision.kind == "boarding.action":
                asked.append(decision.actor)
                view = ENGINE.view(state, "pc:hale")["boarding_view"]
                black = view["ships"]["condor"]["officers"][0]
                assert black["name"] == "Captain Black" and "command" not in black
                assert "weapons" not in black and "crew_pool" not in view["ships"]["condor"]
                duel = duel or any(o.key.startswith("duel:") for o in decision.options)
            state, _ = ENGINE.apply(state, decision.actor, boarder(state, decision), source)
        if duel:
            break
    assert duel and set(asked) == {"pc:vane", "pc:hale"}
    assert asked[:2] == ["pc:vane", "pc:hale"]  # senior first (the draw order)


def test_from_a_boarding_the_fast_path_plays_out_as_the_decisions_do():
    """A "what if" or a Monte Carlo started during a boarding: :meth:`auto_play` (no
    decisions, no events) ends the battle as :func:`play_out` with the defaults does."""
    done = 0
    for seed in range(8):
        source = SeededSource(seed)
        state, _ = ENGINE.start(boarding_setup(), source)
        while state["boarding"] is None and ENGINE.outcome(state) is None:
            decision = ENGINE.pending(state)[0]
            state, _ = ENGINE.apply(state, decision.actor, boarder(state, decision), source)
        if state["boarding"] is None:
            continue
        slow, _ = play_out(ENGINE, state, SeededSource(100 + seed), max_steps=3000)
        fast = ENGINE.auto_play(state, SeededSource(100 + seed))
        assert fast["result"] == slow["result"] and fast["ships"] == slow["ships"]
        assert fast["boardings"] == slow["boardings"] and fast["boardings"]
        done += 1
    assert done >= 3


def test_a_grappled_ship_lost_to_the_other_enemy_ends_the_boarding_on_the_record():
    """While the London boards the Condor, the Vulture's guns can take her crew: the
    boarding ends with her, recorded as broken off with what it had done; and neither
    grappled ship tends her Crew meanwhile (her men are in the melee)."""
    found = False
    for seed in range(80):
        source = SeededSource(seed)
        state, _ = ENGINE.start(boarding_setup(), source)
        log = []
        while ENGINE.outcome(state) is None:
            decision = ENGINE.pending(state)[0]
            if decision.kind == "repair.action" and state["boarding"] is not None and \
                    state["await"]["ship"] in ("london", "condor"):
                assert not any(o.key.startswith("crew:") for o in decision.options)
            state, events = ENGINE.apply(state, decision.actor, boarder(state, decision),
                                         source)
            log += events
        boardings = ENGINE.outcome(state).data.get("boardings", [])
        lost = state["ships"]["london"]["out"] in ("sunk", "crew_dead")
        if boardings and boardings[0]["result"] == "broken_off" and lost:
            assert boardings[0]["fighters"]["pc:vane"]["name"] == "Lieutenant Vane"
            assert [e.kind for e in log].count("boarding.end") == 1
            found = True
            break
    assert found
