"""The Monte Carlo (``rules/montecarlo.py``): seeded games, chunking and merging."""

import json

import pytest

from rules.engine import get_engine, play_out
from rules.montecarlo import NO_WINNER, Summary, run
from rules.random import SeededSource

ENGINE = get_engine("btq_naval")

SETUP = {
    "weather": "steady_breeze",
    "start_distance": 3,
    "ships": [
        {"id": "frigate", "side": "pc", "type": "Sixth Rate",
         "crew": {"gunnery": 4, "seamanship": 4, "maritime": 3, "command": 3}},
        {"id": "sloop", "side": "enemy", "type": "Brig Sloop",
         "crew": {"gunnery": 3, "seamanship": 4, "maritime": 3, "command": 3}},
    ],
}


class WithoutFastPath:
    """The naval engine seen through the plain :class:`rules.engine.Engine` interface (no
    ``auto_start``, no ``auto_play``), so :func:`run` takes the generic ``start`` and
    ``play_out`` path."""

    def __init__(self, engine):
        self._engine = engine
        self.name = engine.name

    def __getattr__(self, name):
        if name in ("auto_start", "auto_play"):
            raise AttributeError(name)
        return getattr(self._engine, name)


def test_run_counts_every_game():
    summary = run(ENGINE, SETUP, seeds=range(60))
    assert summary.engine == "btq_naval" and summary.games == 60
    assert sum(summary.winners.values()) == sum(summary.results.values()) == 60
    assert sum(summary.outcomes.values()) == 60
    assert set(summary.winners) <= {"pc", "enemy", NO_WINNER}
    assert summary.timed == 60 and 1 <= summary.mean_rounds <= 60
    assert abs(sum(summary.share(w) for w in ("pc", "enemy", None)) - 1) < 1e-9


def test_same_seeds_same_summary():
    assert run(ENGINE, SETUP, seeds=range(30)) == run(ENGINE, SETUP, seeds=range(30))


def test_chunks_merge_to_the_whole():
    whole = run(ENGINE, SETUP, seeds=range(40))
    parts = run(ENGINE, SETUP, seeds=range(0, 15)).merge(run(ENGINE, SETUP, seeds=range(15, 40)))
    assert parts == whole


def test_fast_path_matches_play_out():
    assert not hasattr(WithoutFastPath(ENGINE), "auto_start")
    assert run(WithoutFastPath(ENGINE), SETUP, seeds=range(25)) == run(
        ENGINE, SETUP, seeds=range(25))
    source = SeededSource(9)
    state, _ = ENGINE.start(SETUP, source)
    before = json.dumps(state)
    fast = ENGINE.auto_play(state, SeededSource(9))
    assert json.dumps(state) == before
    assert fast == play_out(ENGINE, state, SeededSource(9))[0]


def test_run_from_a_state_in_mid_battle():
    source = SeededSource(4)
    state, _ = ENGINE.start(SETUP, source)
    summary = run(ENGINE, state, seeds=range(20))
    assert summary.games == 20
    # every game goes on from the same first decision, whatever the seed
    assert ENGINE.pending(state)


def test_summary_as_dict_round_trip():
    summary = run(ENGINE, SETUP, seeds=range(10))
    data = json.loads(json.dumps(summary.as_dict()))
    assert Summary.from_dict(data) == summary
    assert data["mean_rounds"] == summary.mean_rounds


def test_merge_refuses_other_engines():
    with pytest.raises(ValueError, match="cannot merge"):
        Summary("btq_naval").merge(Summary("hfg"))


def test_empty_summary():
    empty = Summary("btq_naval")
    assert empty.mean_rounds is None and empty.share("pc") == 0.0
    assert empty.merge(empty) == empty
