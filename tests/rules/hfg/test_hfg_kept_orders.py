"""What the HFG engine keeps between decisions to list the legal orders fast (its frames of
the table, kept while no element moves or changes state, and the answers worked out from
them) never changes an answer: in seeded battles played the way the Monte Carlo plays them
(one state changed in place), the legal orders at every decision equal the orders worked
out from scratch on a fresh copy of the state, and so does the default policy's choice; and
the Monte Carlo's fast path (listing only the orders the policy takes) ends where the
decisions played one by one end.

A rule that changes the table in place without the frames seeing it fails here."""

import json
import random

import pytest

from benchmarks.hfg import setup as twelve_a_side
from rules.engine import EventLog, play_out
from rules.hfg import engine
from rules.hfg.ai import VERBS, choose
from rules.hfg.engine import (
    ENGINE,
    _carry_out,
    _end_moves,
    _order_options,
    _still,
    validate_setup,
)
from rules.random import SeededSource


def from_scratch(state):
    """The legal orders and the default policy's choice worked out on the same battle as
    new objects, with no orders kept from before, so nothing kept for ``state`` applies."""
    kept, engine._KEPT_ORDERS = engine._KEPT_ORDERS, {}
    try:
        scratch = json.loads(json.dumps(state))
        options = _order_options(scratch)
        return options, choose(scratch, options)
    finally:
        engine._KEPT_ORDERS = kept


def battle(name):
    return twelve_a_side() if name == "twelve_a_side" else ENGINE.scenarios()[name].setup


def checked_game(setup, seed, random_side=None):
    """Play one battle in place, the default policy for both sides (or a random legal order
    for ``random_side``), checking the kept orders at every decision; the decisions made."""
    source, rng, log = SeededSource(seed, record=False), random.Random(seed), EventLog(None)
    st = ENGINE.auto_start(setup, source)
    decisions = 0
    while st["result"] is None:
        with _still(st):
            options = _order_options(st)
            key = choose(st, options)
        assert (options, key) == from_scratch(st), f"seed {seed}, decision {decisions}"
        with _still(st):  # the Monte Carlo's play lists only the orders the policy takes
            assert _order_options(st, VERBS) == [
                o for o in options if o[0].partition(":")[0] in (*VERBS, "end")]
        if st["phasing"] == random_side:
            key = rng.choice(options)[0]
        if key == "end":
            _end_moves(st, source, log)
        else:
            _carry_out(st, key, next(c for k, _, c in options if k == key), log, source)
        decisions += 1
    return decisions


@pytest.mark.parametrize("name, seeds", [("twelve_a_side", range(2)),
                                         ("landing_party", range(4))])
def test_the_kept_orders_are_the_orders_from_scratch(name, seeds):
    setup = validate_setup(battle(name))
    assert sum(checked_game(setup, seed) for seed in seeds) > 20 * len(seeds)


@pytest.mark.parametrize("name, seed, side", [("twelve_a_side", 5, "a"),
                                              ("landing_party", 6, "a"),
                                              ("landing_party", 7, "b")])
def test_the_kept_orders_hold_for_orders_the_ai_does_not_give(name, seed, side):
    assert checked_game(validate_setup(battle(name)), seed, random_side=side) > 20


@pytest.mark.parametrize("name", ["twelve_a_side", "landing_party"])
def test_the_monte_carlos_play_ends_where_the_decisions_end(name):
    setup = validate_setup(battle(name))
    for seed in range(3):
        source = SeededSource(seed, record=False)
        fast = ENGINE.auto_play(ENGINE.auto_start(setup, source), source)
        slow_source = SeededSource(seed, record=False)
        slow, _ = play_out(ENGINE, ENGINE.start(setup, slow_source)[0], slow_source)
        assert fast == slow and source.state() == slow_source.state()
