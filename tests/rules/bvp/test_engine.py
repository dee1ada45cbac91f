"""The ``bvp`` engine as a whole: its scenarios, setups refused, decisions for the right
participant, hidden cards, a game stored between steps, the default policy against a random
one, and every game ending."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from rules.bvp import ai, hexes
from rules.bvp.engine import ENGINE, validate_setup
from rules.engine import GM, IllegalAction, get_engine, play_out
from rules.random import ScriptedSource, SeededSource

from .conftest import table

SCENARIOS = ENGINE.scenarios()


def test_the_engine_is_registered_as_a_wargame():
    assert get_engine("bvp") is ENGINE and ENGINE.wargame
    for sc in SCENARIOS.values():
        assert {"id", "name", "commander"} <= set(sc.setup["sides"][0])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_scenario_validates_starts_and_ends(name):
    source = SeededSource(3)
    state, events = ENGINE.start(validate_setup(SCENARIOS[name].setup), source)
    assert events[0].kind == "game.start" and "provisional" in events[0].text
    state, _ = play_out(ENGINE, state, source)
    assert ENGINE.outcome(state) is not None


def _setup(**change):
    setup = copy.deepcopy(SCENARIOS["annihilation_duel"].setup)
    for path, value in change.items():
        where = setup
        keys = path.split("__")
        for k in keys[:-1]:
            where = where[int(k)] if k.isdigit() else where[k]
        where[keys[-1]] = value
    return setup


@pytest.mark.parametrize(("change", "reason"), [
    ({"mode": "siege"}, "mode must be one of"),
    ({"tiles__2__q": 1}, "without overlapping"),
    ({"tiles__1__wind": False}, "Wind Sea Tile"),
    ({"sides__1__faction": "french"}, "faction must be one of"),
    ({"sides__1__tile": "wind"}, "start tile"),
    ({"ships__0__card": "pirates_frigate"}, "is not of"),
    ({"ships__1__captain": "redne"}, "commands another ship"),
    ({"ships__0__captain": None}, "needs a captain"),
    ({"ships__0__q": 0, "ships__0__r": 0}, "start at sea on"),
    ({"ships__1__q": -4, "ships__1__r": 1}, "shares a hex"),
    ({"ships__0__heading": 6}, "heading"),
    ({"settings": {"bvp_firing_arc": "wide"}}, "bvp_firing_arc"),
    ({"card_data": {"name": "x"}}, "missing"),
])
def test_a_setup_that_breaks_the_rules_is_refused_with_the_reason(change, reason):
    with pytest.raises(ValueError, match=reason):
        validate_setup(_setup(**change))


def test_a_choice_not_offered_or_out_of_turn_is_refused_and_changes_nothing():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (2, 0), 2)])
    before = json.dumps(st, sort_keys=True)
    for actor, choice in (("side:b", "end"), ("side:a", "a1:move:P::9"),
                          ("side:a", "a1:board:b1"), ("side:a", "b1:move:P::1"), (GM, "end")):
        with pytest.raises(IllegalAction):
            ENGINE.apply(st, actor, choice, ScriptedSource())
    assert json.dumps(st, sort_keys=True) == before


def test_the_cards_of_an_attack_stay_hidden_until_both_are_in():
    st = table([("a1", "british_frigate", "a", (0, 0), 1),
                ("b1", "pirates_frigate", "b", (2, 0), 2)], decks=True)
    st, _ = ENGINE.apply(st, "side:a", "a1:fire:b1:port", ScriptedSource())
    waiting = {(d.actor, d.kind) for d in ENGINE.pending(st)}
    assert waiting == {("side:a", "cards:attack"), ("side:b", "cards:defend")}
    st, events = ENGINE.apply(st, "side:a", "none", ScriptedSource())
    hidden = [e for e in events if e.kind == "cards.chosen"]
    assert hidden and all(not e.visible("side:b") and e.visible("side:a") for e in hidden)
    assert ENGINE.view(st, "side:b")["hidden"] == {"attack": "given"}
    assert ENGINE.view(st, "side:a")["hidden"] == {"attack": "none"}
    assert "hand" not in ENGINE.view(st, "side:b")["sides"]["a"]
    assert ENGINE.view(st, "side:b")["sides"]["a"]["hand_count"] == 3
    assert "decks" not in ENGINE.view(st, "side:a") and "decks" in ENGINE.view(st, GM)
    st, events = ENGINE.apply(st, "side:b", "none", ScriptedSource(rolls=[2, 2]))
    assert [e.kind for e in events if e.kind == "cannon.roll"] == ["cannon.roll"]
    assert ENGINE.pending(st)[0].kind == "turn"


def test_a_card_drawn_is_seen_by_its_holder_only():
    _, events = ENGINE.start(SCENARIOS["annihilation_duel"].setup, SeededSource(2))
    drawn = [e for e in events if e.kind == "cards.drawn"]
    assert len(drawn) == 2
    assert drawn[0].visible("side:british") and not drawn[0].visible("side:pirates")


def test_a_game_stored_between_steps_plays_the_same_as_one_kept_in_memory():
    def play(store):
        source = SeededSource(11)
        state, events = ENGINE.start(SCENARIOS["merchant_escort"].setup, source)
        texts = [e.text for e in events]
        while ENGINE.outcome(state) is None:
            decision = ENGINE.pending(state)[0]
            state, events = ENGINE.apply(state, decision.actor, decision.default, source)
            texts += [e.text for e in events]
            if store:
                state = json.loads(json.dumps(state))
                source = SeededSource(11, state=source.state())
        return texts, ENGINE.outcome(state)

    assert play(False) == play(True)


def _game(name, seed, ai_side):
    source, chooser = SeededSource(seed), SeededSource(seed + 10_000, record=False)
    state, _ = ENGINE.start(SCENARIOS[name].setup, source)
    commander = f"side:{ai_side}"
    while ENGINE.outcome(state) is None:
        decision = ENGINE.pending(state)[0]
        choice = (decision.default if decision.actor == commander
                  else ai.random_choice(decision, chooser))
        state, _ = ENGINE.apply(state, decision.actor, choice, source)
    return ENGINE.outcome(state).winner


def _ai_wins(games, name="annihilation_duel"):
    names = {s["id"]: s["name"] for s in SCENARIOS[name].setup["sides"]}
    sides = list(names)
    return sum(_game(name, seed, sides[seed % 2]) == names[sides[seed % 2]]
               for seed in range(games))


@pytest.mark.parametrize("name", ["annihilation_duel", "merchant_escort"])
def test_the_default_policy_beats_a_random_one(name):
    """The always-run check: 16 games of each mode, the default policy on each side in
    turn, at least 14 won (a draw is no win)."""
    assert _ai_wins(16, name) >= 14


@pytest.mark.slow
@pytest.mark.parametrize("name", ["annihilation_duel", "merchant_escort"])
def test_the_default_policy_beats_a_random_one_in_500_games(name):
    assert _ai_wins(500, name) >= 450


@settings(max_examples=4, deadline=None)
@given(seed=st_.integers(0, 2**63 - 1), name=st_.sampled_from(sorted(SCENARIOS)))
def test_every_game_ends_within_its_turn_limit(seed, name):
    source, chooser = SeededSource(seed), SeededSource(seed ^ 1, record=False)
    state, _ = ENGINE.start(SCENARIOS[name].setup, source)
    while ENGINE.outcome(state) is None:
        decision = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, decision.actor, ai.random_choice(decision, chooser),
                                source)
        assert state["round"] <= state["turn_limit"]


def test_with_every_ship_done_the_default_ends_the_turn_and_keeps_the_hand():
    """A card thrown away is not drawn again until the side's next turn [L57]: with its
    ship moved and fired, the side is offered its discards and the end of the turn, and the
    default ends the turn with the three cards still in hand."""
    state = table([("b1", "british_frigate", "a", (-1, 0), 0),
                   ("p1", "pirates_frigate", "b", (3, 0), 3)], decks=True)
    state["ships"]["b1"].update(moved=True, attacked=True)
    hand = list(state["sides"]["a"]["hand"])
    decision = ENGINE.pending(state)[0]
    assert [o.key for o in decision.options] == [f"discard:{c}" for c in hand] + ["end"]
    assert ENGINE.default_choice(state, decision) == "end"
    after, _ = ENGINE.apply(state, decision.actor, "end", SeededSource(2))
    assert after["active"] == "b" and after["sides"]["a"]["hand"] == hand


@pytest.mark.parametrize("minimum_movement", [False, True])
@pytest.mark.parametrize("name", ["annihilation_duel", "merchant_escort"])
def test_the_default_policy_never_discards(name, minimum_movement):
    """Whole games of the default policy on both sides: no turn's default is a discard,
    Minimum Movement's too (where a ship must move before the turn may end [L203], a move
    is the default, not a card thrown away)."""
    setup = copy.deepcopy(SCENARIOS[name].setup)
    setup["settings"] = {**(setup.get("settings") or {}),
                         "bvp_minimum_movement": minimum_movement}
    for seed in range(3):
        source = SeededSource(seed)
        state, _ = ENGINE.start(setup, source)
        discards_offered = 0
        while ENGINE.outcome(state) is None:
            decision = ENGINE.pending(state)[0]
            choice = ENGINE.default_choice(state, decision)
            discards_offered += any(o.key.startswith("discard:") for o in decision.options)
            assert not choice.startswith("discard:"), (seed, state["round"], choice)
            state, _ = ENGINE.apply(state, decision.actor, choice, source)
        assert discards_offered  # the games did offer them


def test_a_move_reads_as_an_order_and_as_the_log_tells_it():
    """The order offered is in the imperative; the log says what the ship did."""
    from rules.bvp.movement import describe

    assert describe("P:LL:3") == "pivot twice to port, then sail 3 hexes"
    assert describe("P:LL:3", done=True) == "pivots twice to port, then sails 3 hexes"
    assert describe("M:R:1", done=True) == "sails 1 hex, then pivots once to starboard"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_no_order_is_offered_twice(name):
    """A pivot without a step is the same pivot-first or move-first: it is offered once (a
    tester saw "pivot once to port" twice in a ship's orders)."""
    source = SeededSource(1)
    state, _ = ENGINE.start(validate_setup(SCENARIOS[name].setup), source)
    for _ in range(60):
        if ENGINE.outcome(state) is not None:
            break
        decision = ENGINE.pending(state)[0]
        labels = [o.label for o in decision.options]
        assert len(labels) == len(set(labels)), sorted(x for x in labels if labels.count(x) > 1)
        state, _ = ENGINE.apply(state, decision.actor, ENGINE.default_choice(state, decision),
                                source)


def test_three_factions_roll_for_the_order_and_each_merchant_sails_for_an_opposing_edge():
    # L185-L186: each faction rolls a D6; the highest goes first or sets the wind, the second
    # highest takes the other option; the order never changes
    source = SeededSource(5)
    state, _ = ENGINE.start(validate_setup(SCENARIOS["three_factions_escort"].setup), source)
    rolls = {}
    for draw in source.log:
        if draw.purpose == "first player":
            rolls = {**rolls, **dict(zip([s for s in ("british", "pirates", "privateers")
                                          if s not in rolls], draw.values))}
    order = state["order"]
    assert sorted(order) == ["british", "pirates", "privateers"]
    assert [int(rolls[s]) for s in order] == sorted(map(int, rolls.values()), reverse=True)
    decision = ENGINE.pending(state)[0]
    assert decision.kind == "opening" and decision.actor == f"side:{order[0]}"
    state, _ = ENGINE.apply(state, decision.actor, "wind", source)
    assert state["order"] == [order[1], order[0], order[2]]
    wind = ENGINE.pending(state)[0]
    assert wind.kind == "wind" and wind.actor == f"side:{order[0]}"
    state, _ = ENGINE.apply(state, wind.actor, "2", source)
    assert state["active"] == order[1]
    goals = ENGINE.view(state, GM)["goals"]
    edge = {s["id"]: hexes.half_hexes(state["tiles"], [t["id"] for t in state["tiles"]].index(
        s["tile"])) for s in state["sides"].values()}
    for side in order:  # the two other factions' edges, not its own
        assert {tuple(h) for h in goals[side]} == set().union(
            *(edge[o] for o in order if o != side))
    final, _ = play_out(ENGINE, state, source)
    assert ENGINE.outcome(final) is not None
