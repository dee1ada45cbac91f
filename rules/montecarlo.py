"""Monte Carlo: play one encounter many times with the default policies and count how it ends
(DESIGN.md, "Auto-resolution").

Each game is played from the same setup (or mid-game state) with its own seed, so a run is
reproducible and can be cut into chunks: a Celery worker runs ``run(engine, setup,
seeds=range(0, 500))``, another ``range(500, 1000)``, and the two :class:`Summary` values
are merged. A summary is plain data (:meth:`Summary.as_dict` / :meth:`Summary.from_dict`)
for the job table.

>>> from rules.engine import get_engine
>>> setup = {"weather": "steady_breeze", "start_distance": 3, "ships": [
...     {"id": "a", "side": "pc", "type": "Fifth Rate", "crew": {"gunnery": 4, "seamanship": 4}},
...     {"id": "b", "side": "enemy", "type": "Cutter", "crew": {"gunnery": 3, "seamanship": 3}}]}
>>> summary = run(get_engine("btq_naval"), setup, seeds=range(20))
>>> summary.games, sum(summary.winners.values())
(20, 20)
>>> summary.merge(run(get_engine("btq_naval"), setup, seeds=range(20, 40))).games
40
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from rules.engine import Engine, State, play_out
from rules.random import SeededSource

NO_WINNER = "none"
"""The :attr:`Summary.winners` key for games that ended with no winner."""


@dataclass(frozen=True)
class Summary:
    """How a batch of games ended.

    ``games`` played; ``winners`` winner -> games (:data:`NO_WINNER` for none); ``results``
    result -> games (``"struck"``, ``"escaped"``...); ``outcomes`` ``"winner/result"`` ->
    games; ``rounds`` the total of the games' rounds (from ``Outcome.data["rounds"]``, where
    an engine reports them) and ``timed`` how many games reported them.
    """

    engine: str
    games: int = 0
    winners: dict[str, int] = field(default_factory=dict)
    results: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    rounds: int = 0
    timed: int = 0

    @property
    def mean_rounds(self) -> float | None:
        """The mean number of rounds of the games that report them, else ``None``."""
        return self.rounds / self.timed if self.timed else None

    def share(self, winner: str | None) -> float:
        """The fraction of games won by ``winner`` (``None``: with no winner)."""
        key = NO_WINNER if winner is None else winner
        return self.winners.get(key, 0) / self.games if self.games else 0.0

    def merge(self, other: Summary) -> Summary:
        """The summary of both batches. Raises ``ValueError`` for different engines."""
        if other.engine != self.engine:
            raise ValueError(f"cannot merge a {other.engine} summary into a {self.engine} one")
        return Summary(
            self.engine,
            self.games + other.games,
            _add(self.winners, other.winners),
            _add(self.results, other.results),
            _add(self.outcomes, other.outcomes),
            self.rounds + other.rounds,
            self.timed + other.timed,
        )

    def as_dict(self) -> dict:
        return {"engine": self.engine, "games": self.games, "winners": dict(self.winners),
                "results": dict(self.results), "outcomes": dict(self.outcomes),
                "rounds": self.rounds, "timed": self.timed, "mean_rounds": self.mean_rounds}

    @classmethod
    def from_dict(cls, data: dict) -> Summary:
        return cls(data["engine"], data["games"], dict(data["winners"]), dict(data["results"]),
                   dict(data["outcomes"]), data["rounds"], data["timed"])


def _add(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    total = Counter(a)
    total.update(b)
    return dict(sorted(total.items()))


def run(engine: Engine, setup_or_state: dict, *, seeds: Iterable[int]) -> Summary:
    """Play one game per seed with the default policy for every decision and summarise.

    ``setup_or_state`` is a setup (each game starts from it with ``engine.start``) or a
    state the engine returned (each game goes on from it). Which one it is, the engine's
    :meth:`~rules.engine.Engine.validate_setup` decides: a state is not a valid setup.
    The same seeds give the same summary.
    """
    try:
        setup = engine.validate_setup(setup_or_state)
        state = None
    except ValueError:
        setup, state = None, setup_or_state
    winners: Counter[str] = Counter()
    results: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    games = rounds = timed = 0
    for seed in seeds:
        source = SeededSource(seed)
        start = _start(engine, setup, source) if setup is not None else state
        final = _play(engine, start, source)
        outcome = engine.outcome(final)
        winner = NO_WINNER if outcome.winner is None else outcome.winner
        winners[winner] += 1
        results[outcome.result] += 1
        outcomes[f"{winner}/{outcome.result}"] += 1
        games += 1
        if "rounds" in outcome.data:
            rounds += outcome.data["rounds"]
            timed += 1
    return Summary(engine.name, games, dict(sorted(winners.items())),
                   dict(sorted(results.items())), dict(sorted(outcomes.items())), rounds, timed)


def _start(engine: Engine, setup: dict, source: SeededSource) -> State:
    """The start of a game: with the engine's own ``auto_start`` if it has one (a fast path
    that must return what ``engine.start`` would, without its events), else ``start``."""
    auto_start = getattr(engine, "auto_start", None)
    if auto_start is not None:
        return auto_start(setup, source)
    return engine.start(setup, source)[0]


def _play(engine: Engine, state: State, source: SeededSource) -> State:
    """Play ``state`` to its end: with the engine's own ``auto_play`` if it has one (a fast
    path that must end exactly where :func:`rules.engine.play_out` would), else with
    ``play_out``."""
    auto_play = getattr(engine, "auto_play", None)
    if auto_play is not None:
        return auto_play(state, source)
    return play_out(engine, state, source)[0]
