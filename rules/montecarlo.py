"""Monte Carlo: play one encounter many times with the default policies and count how it ends
(DESIGN.md, "Auto-resolution"; issue 11).

Each game is played from the same setup (or mid-game state) with its own seed, so a run is
reproducible and can be cut into chunks: a Celery worker runs ``run(engine, setup,
seeds=range(0, 500))``, another ``range(500, 1000)``, and the two :class:`Summary` values
are merged, exactly (every count is an integer). A summary is plain data
(:meth:`Summary.as_dict` / :meth:`Summary.from_dict`) for the job table.

A job of many games publishes one seed; game ``i`` is played with :func:`game_seed` of it,
so anyone who knows the job's seed replays any game of it (:func:`job_seeds`). "What if"
(:func:`run` with ``first``) plays a pending decision's option first, then the defaults;
the options of one decision are played with the same seeds, so they differ by the choice
and not by the luck of the draw. :func:`wilson` gives the 95 % interval of a share.

>>> from rules.engine import get_engine
>>> setup = {"weather": "steady_breeze", "start_distance": 3, "ships": [
...     {"id": "a", "side": "pc", "type": "Fifth Rate", "crew": {"gunnery": 4, "seamanship": 4}},
...     {"id": "b", "side": "enemy", "type": "Cutter", "crew": {"gunnery": 3, "seamanship": 3}}]}
>>> summary = run(get_engine("btq_naval"), setup, seeds=range(20))
>>> summary.games, sum(summary.winners.values())
(20, 20)
>>> summary.merge(run(get_engine("btq_naval"), setup, seeds=range(20, 40))).games
40
>>> [round(x, 3) for x in wilson(5, 10)]
[0.237, 0.763]
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import sqrt
from typing import Any

from rules.engine import GM, Engine, Outcome, State, play_out
from rules.random import RandomSource, SeededSource, stacked_step

NO_WINNER = "none"
"""The :attr:`Summary.winners` key for games that ended with no winner."""

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""


@dataclass(frozen=True)
class Summary:
    """How a batch of games ended.

    ``games`` played; ``winners`` winner -> games (:data:`NO_WINNER` for none); ``results``
    result -> games (``"struck"``, ``"escaped"``...); ``outcomes`` ``"winner/result"`` ->
    games; ``rounds`` the total of the games' rounds (from ``Outcome.data["rounds"]``, where
    an engine reports them) and ``timed`` how many games reported them; ``round_counts``
    rounds (as text, a JSON key) -> games; ``damage`` ship id -> area -> boxes marked at the
    end (as text) -> games, where the engine reports ships' damage tracks in
    ``Outcome.data["ships"][id]["tracks"]`` (area -> track text, ``"x"`` a marked box, as
    ``rules.btq.ships`` writes them).
    """

    engine: str
    games: int = 0
    winners: dict[str, int] = field(default_factory=dict)
    results: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    rounds: int = 0
    timed: int = 0
    round_counts: dict[str, int] = field(default_factory=dict)
    damage: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)

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
        damage: dict[str, dict[str, dict[str, int]]] = {}
        for ship in sorted({*self.damage, *other.damage}):
            mine, theirs = self.damage.get(ship, {}), other.damage.get(ship, {})
            damage[ship] = {area: _add(mine.get(area, {}), theirs.get(area, {}), key=int)
                            for area in sorted({*mine, *theirs})}
        return Summary(
            self.engine,
            self.games + other.games,
            _add(self.winners, other.winners),
            _add(self.results, other.results),
            _add(self.outcomes, other.outcomes),
            self.rounds + other.rounds,
            self.timed + other.timed,
            _add(self.round_counts, other.round_counts, key=int),
            damage,
        )

    def as_dict(self) -> dict[str, Any]:
        return {"engine": self.engine, "games": self.games, "winners": dict(self.winners),
                "results": dict(self.results), "outcomes": dict(self.outcomes),
                "rounds": self.rounds, "timed": self.timed, "mean_rounds": self.mean_rounds,
                "round_counts": dict(self.round_counts),
                "damage": {s: {a: dict(c) for a, c in areas.items()}
                           for s, areas in self.damage.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Summary:
        return cls(data["engine"], data["games"], dict(data["winners"]), dict(data["results"]),
                   dict(data["outcomes"]), data["rounds"], data["timed"],
                   dict(data.get("round_counts", {})),
                   {s: {a: dict(c) for a, c in areas.items()}
                    for s, areas in data.get("damage", {}).items()})


def merge_all(engine: str, summaries: Iterable[Summary]) -> Summary:
    """The merge of ``summaries`` (an empty summary of ``engine`` if there are none)."""
    total = Summary(engine)
    for summary in summaries:
        total = total.merge(summary)
    return total


def _add(a: Mapping[str, int], b: Mapping[str, int], key: Any = None) -> dict[str, int]:
    total = Counter(a)
    total.update(b)
    if key is None:
        return dict(sorted(total.items()))
    return dict(sorted(total.items(), key=lambda item: key(item[0])))


def wilson(successes: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``successes / games`` (95 % by default), as
    ``(low, high)``; ``(0.0, 1.0)`` for no games. Better than the normal approximation near
    0 and 1, where a battle's rarer outcomes lie (Wilson 1927)."""
    if games <= 0:
        return 0.0, 1.0
    p = successes / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def precise_enough(summary: Summary, half_width: float = 0.01) -> bool:
    """Whether the 95 % Wilson interval of every outcome of ``summary`` lies within
    ``half_width`` (0.01: one percentage point) of its share, both ways."""
    if not summary.games:
        return False
    for count in summary.outcomes.values():
        low, high = wilson(count, summary.games)
        p = count / summary.games
        if p - low > half_width or high - p > half_width:
            return False
    return True


def game_seed(job_seed: int, index: int) -> int:
    """The seed of game ``index`` of a job whose published seed is ``job_seed``: the first
    63 bits of SHA-256 of ``"<job_seed>:<index>"``. Independent of how the job is chunked."""
    digest = hashlib.sha256(f"{job_seed}:{index}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def job_seeds(job_seed: int, start: int, stop: int) -> Iterator[int]:
    """The seeds of games ``start`` to ``stop - 1`` of a job (:func:`game_seed`)."""
    return (game_seed(job_seed, i) for i in range(start, stop))


def run(engine: Engine, setup_or_state: dict, *, seeds: Iterable[int],
        first: tuple[str, str] | None = None, stacked: Sequence[str] = ()) -> Summary:
    """Play one game per seed with the default policy for every decision and summarise.

    ``setup_or_state`` is a setup (each game starts from it with ``engine.start``) or a
    state the engine returned (each game goes on from it). Which one it is, the engine's
    :meth:`~rules.engine.Engine.validate_setup` decides: a state is not a valid setup.
    ``first`` is ``(actor, choice)``: a decision pending in that state, taken first in every
    game (the "what if" of one option) with the game's own source; ``IllegalAction`` if the
    engine refuses it. ``stacked`` (card texts) are the GM's stacked cards still to be
    drawn: every game draws them first (in ``first`` too), then its shuffled decks, as a
    battle at the table does (:func:`_stacked_opening`). The same seeds give the same
    summary.
    """
    try:
        setup: dict | None = engine.validate_setup(setup_or_state)
        state = None
    except ValueError:
        setup, state = None, setup_or_state
    tally = _Tally()
    start_game = _starter(engine, setup) if setup is not None and not stacked else None
    for seed in seeds:
        source = SeededSource(seed, record=False)
        start: State | None
        if stacked:
            start, source = _stacked_opening(engine, setup, state, first, stacked, source)
        else:
            start = start_game(source) if start_game is not None else state
            assert start is not None
            if first is not None:
                start = engine.apply(start, first[0], first[1], source)[0]
        final = _play(engine, start, source)
        outcome = engine.outcome(final)
        if outcome is None:
            raise RuntimeError(f"{engine.name}: a game played to its end has no outcome")
        tally.add(outcome)
    return tally.summary(engine.name)


class _Tally:
    """Counts of games as they end, kept in plain counters for speed."""

    def __init__(self) -> None:
        self.outcomes: Counter[tuple[str, str]] = Counter()
        self.rounds: Counter[int] = Counter()
        self.boxes: Counter[tuple[str, str, int]] = Counter()

    def add(self, outcome: Outcome) -> None:
        winner = NO_WINNER if outcome.winner is None else outcome.winner
        self.outcomes[winner, outcome.result] += 1
        data = outcome.data
        rounds = data.get("rounds")
        if isinstance(rounds, int):
            self.rounds[rounds] += 1
        ships = data.get("ships")
        if isinstance(ships, dict):
            boxes = self.boxes
            for ship_id, ship in ships.items():
                for area, track in ship.get("tracks", {}).items():
                    boxes[str(ship_id), area, track.count("x")] += 1

    def summary(self, engine: str) -> Summary:
        winners: Counter[str] = Counter()
        results: Counter[str] = Counter()
        outcomes: dict[str, int] = {}
        for (winner, result), games in self.outcomes.items():
            winners[winner] += games
            results[result] += games
            outcomes[f"{winner}/{result}"] = games
        damage: dict[str, dict[str, dict[str, int]]] = {}
        for (ship, area, marked), games in sorted(self.boxes.items()):
            damage.setdefault(ship, {}).setdefault(area, {})[str(marked)] = games
        return Summary(engine, sum(self.outcomes.values()), dict(sorted(winners.items())),
                       dict(sorted(results.items())), dict(sorted(outcomes.items())),
                       sum(r * g for r, g in self.rounds.items()), sum(self.rounds.values()),
                       {str(r): g for r, g in sorted(self.rounds.items())}, damage)


def side_of(engine: Engine, actor: str, summaries: Iterable[Summary]
            ) -> tuple[str | None, bool]:
    """Whose wins judge ``actor``'s options: ``(winner key, against)``, ``against`` when
    the actor plays against that side (fewer of its wins are better). The engine's own
    ``side_of(actor)`` if it has one; else the first of the actor itself, the side it names
    (``"side:enemy"`` -> ``"enemy"``) and, for a player's character, ``"pc"`` (the players'
    side in Beat to Quarters) that some game in ``summaries`` was won by; for the referee
    (``"gm"``, who decides for the players' enemies), the players' side ``"pc"``, against;
    ``(None, False)`` if none of these."""
    own = getattr(engine, "side_of", None)
    if own is not None:
        side: tuple[str | None, bool] = own(actor)
        return side
    seen = {w for s in summaries for w in s.winners}
    if actor == GM:
        return ("pc", True) if "pc" in seen else (None, False)
    candidates = [actor, actor.removeprefix("side:"), "pc" if actor.startswith("pc:") else ""]
    return next((c for c in candidates if c and c in seen), None), False


def best_option(summaries: Mapping[str, Summary], side: str | None, against: bool = False
                ) -> str | None:
    """The option key whose games ``side`` won most often (least often, ``against``), if it
    stands clear of the runner-up: the 95 % Wilson intervals (:func:`wilson`) of ``side``'s
    wins with the two options do not overlap. ``None`` when the leading options are too
    close to call at this many games, and without a side or games; an option played alone
    is the best."""
    if side is None:
        return None
    played = {k: s for k, s in summaries.items() if s.games}
    ranked = sorted(played, key=lambda k: played[k].share(side), reverse=not against)
    if len(ranked) < 2:
        return ranked[0] if ranked else None
    (first_low, first_high), (second_low, second_high) = (
        wilson(played[k].winners.get(side, 0), played[k].games) for k in ranked[:2])
    clear = first_low > second_high if not against else first_high < second_low
    return ranked[0] if clear else None


def _stacked_opening(engine: Engine, setup: dict | None, state: State | None,
                     first: tuple[str, str] | None, stacked: Sequence[str],
                     source: SeededSource) -> tuple[State, SeededSource]:
    """A game begun from ``setup`` (else going on from ``state``), ``first`` taken first if
    given, and played by the default policy while ``stacked`` lasts: each step draws the
    stacked cards left first, then ``source`` (:func:`rules.random.stacked_step`), and a
    stacked card the game's course cannot draw sets the rest aside, as at the table
    (``combat.services``). Returns the state and the seeded source the rest of the game
    draws from (the game may be over already)."""
    seed = source.seed
    rest = list(stacked)

    def take(step: Callable[[RandomSource], State], seeded: SeededSource
             ) -> tuple[State, SeededSource]:
        nonlocal rest
        position = seeded.state()
        state, after, drawn, unfit = stacked_step(
            step, rest, lambda: SeededSource(seed, position, record=False))
        rest = [] if unfit is not None else rest[drawn:]
        return state, after

    if setup is not None:
        state, source = take(lambda src: engine.start(setup, src)[0], source)
    assert state is not None
    if first is not None:
        state, source = take(_step(engine, state, *first), source)
    while rest and engine.outcome(state) is None:
        state, source = take(_default_step(engine, state), source)
    return state, source


def _step(engine: Engine, state: State, actor: str, choice: str
          ) -> Callable[[RandomSource], State]:
    """The step that takes ``choice`` for ``actor`` in ``state``, given its source."""
    return lambda source: engine.apply(state, actor, choice, source)[0]


def _default_step(engine: Engine, state: State) -> Callable[[RandomSource], State]:
    """The step that takes the default choice of the first decision pending in ``state``,
    given its source."""
    decision = engine.pending(state)[0]
    return _step(engine, state, decision.actor, engine.default_choice(state, decision))


def _starter(engine: Engine, setup: dict) -> Callable[[RandomSource], State]:
    """How each game starts from ``setup``, given its source: the engine's own
    ``auto_starter(setup)`` if it has one (a fast path that reads the setup once for all the
    games and must return what ``engine.start`` would, without its events), else its
    ``auto_start`` (the same, the setup read for each game), else ``start``."""
    auto_starter = getattr(engine, "auto_starter", None)
    if auto_starter is not None:
        starter: Callable[[RandomSource], State] = auto_starter(setup)
        return starter
    auto_start = getattr(engine, "auto_start", None)

    def start(source: RandomSource) -> State:
        if auto_start is not None:
            started: State = auto_start(setup, source)
            return started
        return engine.start(setup, source)[0]
    return start


def _play(engine: Engine, state: State, source: RandomSource) -> State:
    """Play ``state`` to its end: with the engine's own ``auto_play`` if it has one (a fast
    path that must end exactly where :func:`rules.engine.play_out` would), else with
    ``play_out``."""
    auto_play = getattr(engine, "auto_play", None)
    if auto_play is not None:
        final: State = auto_play(state, source)
        return final
    return play_out(engine, state, source)[0]
