"""Every engine plays the same whatever order its state's mappings come back in: the live
table reads the state from the database before each decision (PostgreSQL's jsonb sorts a
mapping's keys), the replay and the Monte Carlo play it in memory, and all three must agree
(DESIGN.md, "The rules kernel": the same state, action and source give the same result).
Each registered engine's scenarios are played with the default choices, once as they are and
once with every mapping's keys reversed before each decision."""

import pytest

import rules.engines  # noqa: F401  (registers every engine)
from rules.engine import engines
from rules.random import SeededSource

SEEDS = range(2)
MAX_DECISIONS = 3000


def _reversed(value):
    if isinstance(value, dict):
        return {k: _reversed(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed(v) for v in value]
    return value


def _play(engine, setup, seed: int, reorder: bool) -> list[dict]:
    source = SeededSource(seed)
    state, events = engine.start(engine.validate_setup(setup), source)
    log = [e.as_dict() for e in events]
    for _ in range(MAX_DECISIONS):
        if engine.outcome(state) is not None:
            break
        if reorder:
            state = _reversed(state)
        decision = engine.pending(state)[0]
        state, events = engine.apply(state, decision.actor,
                                     engine.default_choice(state, decision), source)
        log += [e.as_dict() for e in events]
    return log


@pytest.mark.parametrize("name, scenario", [
    (name, key) for name, engine in sorted(engines().items()) for key in engine.scenarios()])
def test_an_engine_does_not_depend_on_the_order_of_its_stored_state(name, scenario):
    engine = engines()[name]
    setup = engine.scenarios()[scenario].setup
    for seed in SEEDS:
        assert _play(engine, setup, seed, reorder=True) == \
            _play(engine, setup, seed, reorder=False), seed
