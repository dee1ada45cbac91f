"""The Monte Carlo (``rules/montecarlo.py``): seeded games, chunking and merging."""

import json

import pytest

from rules.engine import get_engine, play_out
from rules.montecarlo import NO_WINNER, Summary, run
from rules.random import ScriptedSource, SeededSource

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
    ``auto_starter``, ``auto_start`` or ``auto_play``), so :func:`run` takes the generic
    ``start`` and ``play_out`` path."""

    def __init__(self, engine):
        self._engine = engine
        self.name = engine.name

    def __getattr__(self, name):
        if name in ("auto_starter", "auto_start", "auto_play"):
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
    assert not hasattr(WithoutFastPath(ENGINE), "auto_starter")
    assert run(WithoutFastPath(ENGINE), SETUP, seeds=range(25)) == run(
        ENGINE, SETUP, seeds=range(25))
    source = SeededSource(9)
    state, _ = ENGINE.start(SETUP, source)
    before = json.dumps(state)
    fast = ENGINE.auto_play(state, SeededSource(9))
    assert json.dumps(state) == before
    assert fast == play_out(ENGINE, state, SeededSource(9))[0]


STACK = "KS KD 2C 3C 4C 5C 6C"
"""A GM's stacked cards for the first draws of a battle from SETUP: the first Card of Fate
and the frigate's pool (all of the GM deck, as the battle's first draws are)."""


def test_stacked_cards_open_every_game_then_its_own_shuffled_decks():
    """``run(..., stacked=...)`` is, game for game, the battle played with the stacked cards
    drawn first, then the game's seeded source, as a battle at the table draws them; and
    the stack is what each game begins with, so the odds differ from the shuffled decks'."""
    expected = Summary("btq_naval")
    for seed in range(20):
        source = ScriptedSource(STACK, then=SeededSource(seed))
        state, _ = ENGINE.start(SETUP, source)
        assert [c for d in source.log for c in d.values][:7] == STACK.split()
        final_state, _ = play_out(ENGINE, state, source)
        expected = expected.merge(run(_Finished(ENGINE, final_state), {}, seeds=[0]))
    stacked = run(ENGINE, SETUP, seeds=range(20), stacked=STACK.split())
    assert stacked.outcomes == expected.outcomes and stacked.games == 20
    assert stacked == run(WithoutFastPath(ENGINE), SETUP, seeds=range(20),
                          stacked=STACK.split())
    assert stacked != run(ENGINE, SETUP, seeds=range(20))


def test_a_stack_the_game_cannot_draw_is_set_aside_and_the_decks_take_over():
    """The GM deck has one 2C: a stack that asks for it twice fits no game. Where it stops
    fitting, the step is taken again with the game's own source and the rest is set aside,
    as at the table."""
    assert run(ENGINE, SETUP, seeds=range(10), stacked=["JK"]) == run(
        ENGINE, SETUP, seeds=range(10))
    assert run(ENGINE, SETUP, seeds=range(10), stacked=["2C", "2C"]).games == 10


def _played_with(stack, state, seed, first=None):
    """``state`` played out with ``stack`` drawn first, then seed ``seed``'s decks, as the
    battle at the table would draw them (``first``: a choice taken first)."""
    source = ScriptedSource(stack, then=SeededSource(seed))
    if first is not None:
        state = ENGINE.apply(state, *first, source)[0]
    return ENGINE.auto_play(state, source)


@pytest.mark.parametrize("with_first", [False, True])
def test_stacked_cards_still_to_come_open_every_game_from_a_battle_under_way(with_first):
    """The odds from a battle under way (a state, and a "what if" of its pending decision)
    draw the GM's stacked cards not yet drawn first in every game, as the battle will."""
    state, _ = ENGINE.start(SETUP, SeededSource(4))
    decision = ENGINE.pending(state)[0]
    first = (decision.actor, decision.options[0].key) if with_first else None
    stack = "KS KD QS QD JS JD".split()
    expected = Summary("btq_naval")
    for seed in range(15):
        final = _played_with(stack, state, seed, first)
        expected = expected.merge(run(_Finished(ENGINE, final), {}, seeds=[0]))
    stacked = run(ENGINE, state, seeds=range(15), first=first, stacked=stack)
    assert stacked == expected and stacked.games == 15
    assert stacked != run(ENGINE, state, seeds=range(15), first=first)


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


# --- job seeds, intervals, distributions, what if (issue 11) --------------------------------

def test_game_seeds_depend_on_the_job_seed_and_the_game_alone():
    from rules.montecarlo import game_seed, job_seeds

    assert list(job_seeds(42, 3, 6)) == [game_seed(42, i) for i in (3, 4, 5)]
    assert len({game_seed(42, i) for i in range(1000)} | {game_seed(43, 0)}) == 1001
    assert all(0 <= game_seed(2**62, i) < 2**63 for i in range(10))


def test_wilson_interval_and_the_one_point_precision():
    from rules.montecarlo import precise_enough, wilson

    low, high = wilson(0, 20)
    assert low == 0.0 and 0.16 < high < 0.17  # never the empty interval of the normal one
    low, high = wilson(5_000, 10_000)
    assert abs((high - low) / 2 - 0.0098) < 0.0001
    assert wilson(0, 0) == (0.0, 1.0)
    assert precise_enough(Summary("x", 10_000, outcomes={"a/won": 5_000, "b/won": 5_000}))
    assert not precise_enough(Summary("x", 9_000, outcomes={"a/won": 4_500, "b/won": 4_500}))
    assert not precise_enough(Summary("x"))


def test_95_percent_intervals_cover_the_exact_odds_of_a_contested_test():
    """The interval check of issue 11: TV-11's contested test (O'Toole's 6 cards against
    Jones's 4), whose exact odds ``rules.btq.odds.final`` counts, played in 200 independent
    runs of 60 games each through the ``btq_test`` engine: the 95 % Wilson interval of
    O'Toole's share covers the exact value in 90-99 % of the runs."""
    from rules.btq.odds import final
    from rules.montecarlo import job_seeds, wilson

    engine = get_engine("btq_test")
    setup = engine.scenarios()["otoole_vs_jones"].setup
    exact = float(final(6, 4)["a"])
    covered = 0
    for job in range(200):
        summary = run(engine, setup, seeds=job_seeds(job, 0, 60))
        low, high = wilson(summary.winners.get("pc:otoole", 0), summary.games)
        covered += low <= exact <= high
    assert 180 <= covered <= 198, covered


def test_round_counts_and_damage_merge_like_the_whole():
    whole = run(ENGINE, SETUP, seeds=range(40))
    parts = run(ENGINE, SETUP, seeds=range(0, 13)).merge(run(ENGINE, SETUP, seeds=range(13, 40)))
    assert parts == whole
    assert sum(whole.round_counts.values()) == whole.timed == 40
    assert sum(int(r) * g for r, g in whole.round_counts.items()) == whole.rounds
    assert set(whole.damage) == {"frigate", "sloop"}
    assert all(sum(c.values()) == 40 for areas in whole.damage.values()
               for c in areas.values())
    assert Summary.from_dict(json.loads(json.dumps(whole.as_dict()))) == whole


def test_what_if_takes_the_option_first_with_the_games_own_source():
    """``run(..., first=(actor, option))`` is, game for game, the option applied with the
    game's source and the rest played by the default policies."""
    state, _ = ENGINE.start(SETUP, SeededSource(4))
    decision = ENGINE.pending(state)[0]
    for option in decision.options[:2]:
        expected = Summary("btq_naval")
        for seed in range(15):
            source = SeededSource(seed)
            after, _ = ENGINE.apply(state, decision.actor, option.key, source)
            final_state, _ = play_out(ENGINE, after, source)
            expected = expected.merge(run(_Finished(ENGINE, final_state), {}, seeds=[0]))
        assert run(ENGINE, state, seeds=range(15),
                   first=(decision.actor, option.key)).outcomes == expected.outcomes


class _Finished:
    """An engine whose every game is ``final_state`` (for counting one known ending)."""

    def __init__(self, engine, final_state):
        self.name, self._engine, self._final = engine.name, engine, final_state

    def validate_setup(self, setup):
        raise ValueError("a state")

    def outcome(self, state):
        return self._engine.outcome(self._final)

    def auto_play(self, state, source):
        return self._final


def test_best_option_and_the_side_of_an_actor():
    from rules.montecarlo import best_option, side_of

    a = Summary("btq_naval", 1000, winners={"pc": 700, "enemy": 300})
    b = Summary("btq_naval", 1000, winners={"pc": 400, "enemy": 600})
    assert side_of(ENGINE, "pc:otoole", [a, b]) == ("pc", False)
    assert side_of(ENGINE, "side:enemy", [a, b]) == ("enemy", False)
    assert side_of(ENGINE, "gm", [a, b]) == ("pc", True)  # the GM decides for the enemy
    assert side_of(ENGINE, "npc:x", [a, b]) == (None, False)
    assert best_option({"x": b, "y": a}, "pc") == "y"
    assert best_option({"x": b, "y": a}, "enemy") == "x"
    assert best_option({"x": b, "y": a}, "pc", against=True) == "x"
    assert best_option({"x": b}, None) is None
    assert best_option({"x": b}, "pc") == "x"
    assert best_option({"x": Summary("btq_naval")}, "pc") is None


def test_an_option_is_best_only_when_its_interval_clears_the_runner_ups():
    """7 wins in 10 against 4 in 10: the 95 % intervals (0.40-0.89, 0.17-0.69) overlap, too
    close to call; the same shares over 1,000 games each do not. The third option's
    interval does not count: only the leader's and the runner-up's are compared."""
    from rules.montecarlo import best_option, wilson

    few = {"x": Summary("btq_naval", 10, winners={"pc": 4}),
           "y": Summary("btq_naval", 10, winners={"pc": 7})}
    assert wilson(7, 10)[0] < wilson(4, 10)[1]
    assert best_option(few, "pc") is None and best_option(few, "pc", against=True) is None
    many = {"x": Summary("btq_naval", 1000, winners={"pc": 400}),
            "y": Summary("btq_naval", 1000, winners={"pc": 700}),
            "z": Summary("btq_naval", 1000, winners={"pc": 410})}
    assert best_option(many, "pc") == "y"
    assert best_option(many, "pc", against=True) is None  # 400 and 410 are too close
    assert best_option({**many, "z": Summary("btq_naval", 1000, winners={"pc": 600})},
                       "pc", against=True) == "x"
