"""The encounter-engine interface: the registry, ``play_out`` and the scenarios
(``rules/engine.py``)."""

import json
import sys

import pytest

from rules.engine import (
    GM,
    Decision,
    Engine,
    Event,
    Field,
    FieldErrors,
    IllegalAction,
    Option,
    Outcome,
    Scenario,
    engines,
    get_engine,
    load_scenarios,
    play_out,
    play_scenario,
)
from rules.random import ScriptedSource, SeededSource


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


# --- scenarios ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(engines()))
def test_every_engines_scenarios_validate_and_start(name):
    engine = engines()[name]
    scenarios = engine.scenarios()
    assert scenarios, f"{name} ships no scenario"
    for key, scenario in scenarios.items():
        assert isinstance(scenario, Scenario) and scenario.name == key
        assert scenario.title and scenario.source
        setup = engine.validate_setup(scenario.setup)
        assert engine.validate_setup(setup) == setup  # normalised once is normalised
        state, events = engine.start(setup, SeededSource(7))
        assert events and engine.participants(state) is not None
        assert all(set(c) == {"actor", "kind", "choice"} for c in scenario.choices)
        final, _ = play_out(engine, state, SeededSource(7))
        assert engine.outcome(final) is not None
        # the book's cards and choices fit each other: every choice is awaited, every card
        # drawn (a scenario without cards draws from a seeded source)
        source = ScriptedSource(scenario.cards, then=None if scenario.cards else SeededSource(7))
        played, _ = play_scenario(engine, scenario, source)
        assert source.cards_left == 0
        json.dumps(played)


def test_scenarios_are_fresh_copies():
    engine = get_engine("btq_naval")
    engine.scenarios()["hermes_vs_corsair"].setup["weather"] = "storm"
    assert engine.scenarios()["hermes_vs_corsair"].setup["weather"] == "good_wind"


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package ``scenario_pkg`` with an empty ``scenarios`` folder on the path."""
    (tmp_path / "scenario_pkg" / "scenarios").mkdir(parents=True)
    (tmp_path / "scenario_pkg" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "scenario_pkg", raising=False)
    return tmp_path / "scenario_pkg" / "scenarios"


GOOD = {"name": "duel", "title": "A duel", "setup": {"x": 1}, "source": "BtQ L1",
        "cards": ["4S  4C   # the CoF, then the pool", "KD"],
        "choices": [{"actor": "pc:a", "kind": "test.confirm", "choice": "draw", "note": "n"}]}


def test_load_scenarios_reads_the_packages_json(package):
    (package / "duel.json").write_text(json.dumps(GOOD))
    (package / "README.txt").write_text("not a scenario")
    [(name, scenario)] = load_scenarios("scenario_pkg").items()
    assert name == "duel"
    assert scenario == Scenario("duel", "A duel", {"x": 1}, "4S 4C KD",
                                ({"actor": "pc:a", "kind": "test.confirm", "choice": "draw"},),
                                "BtQ L1")


@pytest.mark.parametrize("change, message", [
    ({"name": "other"}, "its name is 'other', not the file's name"),
    ({"title": ""}, "title must be a non-empty string"),
    ({"setup": []}, "setup must be a JSON object"),
    ({"cards": 4}, "cards must be a string or a list of strings"),
    ({"choices": {}}, "choices must be a list"),
    ({"choices": [{"actor": "pc:a", "kind": "x"}]}, "choice 1 must be an object"),
    ({"choices": [{"actor": "pc:a", "kind": "x", "choice": "y", "why": "z"}]}, "choice 1"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"source": None}, "source must be a non-empty string"),
])
def test_load_scenarios_names_the_file_and_the_fault(package, change, message):
    (package / "duel.json").write_text(json.dumps({**GOOD, **change}))
    with pytest.raises(ValueError, match=r"scenario_pkg:scenarios/duel\.json: " + message):
        load_scenarios("scenario_pkg")


def test_load_scenarios_refuses_bad_json_and_missing_keys(package):
    (package / "duel.json").write_text("{")
    with pytest.raises(ValueError, match="duel.json: not JSON"):
        load_scenarios("scenario_pkg")
    (package / "duel.json").write_text(json.dumps({"name": "duel"}))
    with pytest.raises(ValueError, match="duel.json: missing key 'setup'"):
        load_scenarios("scenario_pkg")
    (package / "duel.json").write_text("[]")
    with pytest.raises(ValueError, match="a scenario is a JSON object, not list"):
        load_scenarios("scenario_pkg")


def test_play_scenario_refuses_a_choice_the_game_does_not_wait_for():
    engine = get_engine("btq_naval")
    book = engine.scenarios()["hermes_vs_corsair"]
    wrong = Scenario(book.name, book.title, book.setup, book.cards,
                     ({"actor": GM, "kind": "start.distance", "choice": "3"},), book.source)
    with pytest.raises(ValueError, match=r"choice 1 \(gm start.distance\) is not awaited; "
                                         r"the game waits for \[\('pc:otoole', 'start.distance'"):
        play_scenario(engine, wrong, ScriptedSource(book.cards))


# --- typed decisions ------------------------------------------------------------------------


def typed():
    return Decision("pc:1", "x.typed", "Name and age", (), "{}", (
        Field("name", "Name", required=True, max_length=10),
        Field("age", "Age", "int", minimum=8, maximum=90),
        Field("side", "Side", "choice", (Option("port", "Port"), Option("starboard", "S")))))


def test_a_typed_decision_parses_its_fields():
    decision = typed()
    assert decision.parse('{"name": " Jack ", "age": "12"}') == {"name": "Jack", "age": 12,
                                                                 "side": None}
    assert decision.as_dict()["fields"][1]["minimum"] == 8
    decision.check('{"name": "Jack"}')


@pytest.mark.parametrize("choice, field, reason", [
    ("[1]", "", "JSON object"),
    ("not json", "", "JSON object"),
    ('{"age": 3}', "name", "Name: this is required."),
    ('{"name": "J", "age": 3}', "age", "Age: at least 8."),
    ('{"name": "J", "age": true}', "age", "a whole number"),
    ('{"name": "Jack the Lad!"}', "name", "at most 10 characters"),
    ('{"name": "J", "side": "aft"}', "side", "not one of the choices"),
    ('{"name": "J", "rank": "AB"}', "rank", "not a field"),
    ('{"name": "J\\u0000"}', "name", "cannot be stored"),
    ('{"name": "J\\ud800"}', "name", "cannot be stored"),
])
def test_a_typed_decision_refuses_per_field(choice, field, reason):
    with pytest.raises(FieldErrors) as refused:
        typed().check(choice)
    assert reason in refused.value.errors[field]
    assert isinstance(refused.value, IllegalAction)


@pytest.mark.parametrize("value, reason", [
    ("abc", "Speed: a number, please."),
    ("nan", "Speed: a number, please."),
    ("1e308", "Speed: a number under a billion, please."),
    ("-inf", "Speed: a number under a billion, please."),
    (1e12, "Speed: a number under a billion, please."),
])
def test_a_decimal_field_says_whether_it_is_no_number_or_too_large(value, reason):
    with pytest.raises(ValueError, match=reason):
        Field("speed", "Speed", "decimal").clean(value)
    assert Field("speed", "Speed", "decimal").clean(" 2,5 ") == 2.5
    with pytest.raises(ValueError, match="Speed: at most 12."):
        Field("speed", "Speed", "decimal", maximum=12).clean("1e308")


def test_a_decision_without_fields_reads_as_before():
    decision = Decision("gm", "k", "p", (Option("a", "A"),), "a")
    assert "fields" not in decision.as_dict()
    decision.check("a")
    with pytest.raises(IllegalAction):
        decision.check("b")
