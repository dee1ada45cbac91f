"""The encounter-engine interface: the registry and ``play_out`` (``rules/engine.py``)."""

import pytest

from rules.engine import (
    GM,
    Decision,
    Engine,
    Event,
    IllegalAction,
    Option,
    Outcome,
    engines,
    get_engine,
    play_out,
)
from rules.random import SeededSource


def hermes_setup():
    """A Brig Sloop with one PC against a Cutter (``tests/rules/btq/test_naval.py`` has the
    book's full Hermes)."""
    return {
        "weather": "good_wind",
        "start_distance": 3,
        "ships": [
            {"id": "hermes", "name": "Hermes", "side": "pc", "type": "Brig Sloop"},
            {"id": "corsair", "name": "Corsair", "side": "enemy", "type": "Cutter",
             "crew": {"seamanship": 3, "gunnery": 3, "command": 2}},
        ],
        "pcs": [{"id": "otoole", "name": "O'Toole", "discipline": 3, "station": "master",
                 "skills": {"seamanship": 5, "gunnery": 4, "maritime": 3}}],
    }


def test_get_engine_finds_the_naval_engine():
    engine = get_engine("btq_naval")
    assert engine.name == "btq_naval"
    assert engine.title == "Beat to Quarters: ship to ship"
    assert isinstance(engine, Engine)
    assert engines()["btq_naval"] is engine


def test_get_engine_names_the_known_engines():
    with pytest.raises(KeyError, match="btq_naval"):
        get_engine("chess")


def test_play_out_plays_to_the_end_with_the_default_policy():
    engine = get_engine("btq_naval")
    source = SeededSource(42)
    state, first = engine.start(hermes_setup(), source)
    final, events = play_out(engine, state, source)
    assert engine.pending(final) == []
    outcome = engine.outcome(final)
    assert isinstance(outcome, Outcome)
    assert events[-1].kind == "battle.end"
    assert outcome.as_dict()["result"] == outcome.result
    assert engine.outcome(state) is None  # the start state was not changed


def test_play_out_stops_a_game_that_does_not_end():
    engine = get_engine("btq_naval")
    source = SeededSource(1)
    state, _ = engine.start(hermes_setup(), source)
    with pytest.raises(RuntimeError, match="no end after 1 decisions"):
        play_out(engine, state, source, max_steps=1)


def test_decision_option_and_dicts():
    decision = Decision("pc:a", "x.y", "Which?", (Option("1", "One"),), "1")
    assert decision.option("1").label == "One"
    with pytest.raises(IllegalAction, match="'2' is not one of the choices for: Which?"):
        decision.option("2")
    assert decision.as_dict()["options"] == [{"key": "1", "label": "One"}]


def test_event_visibility():
    public = Event("k", "text")
    secret = Event("k", "text", visible_to=frozenset())
    mine = Event("k", "text", visible_to=frozenset({"pc:a"}))
    assert public.visible("pc:b") and public.visible(GM)
    assert not secret.visible("pc:a") and secret.visible(GM)
    assert mine.visible("pc:a") and not mine.visible("pc:b")
    assert mine.as_dict()["visible_to"] == ["pc:a"]
