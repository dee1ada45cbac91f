"""The card test of *Beat to Quarters* (BtQ L1181-1286; ``rules/btq_characters.md`` §4,
``rules/DECISIONS.md`` D1-D5).

Each side turns over its card pool against one Card of Fate (CoF). A card of the CoF's suit
is an Ordinary success, of its rank a Critical, the CoF itself a Perfect (BtQ L1226-1229).
The side with more Perfects, then Criticals, then Ordinaries wins; if those tie, the
successes are compared card by card, best first, by rank, aces high (BtQ L1238-1239).

The public kernel interface, for the web layer, scripts and plugins:

* cards: :func:`rules.cards.parse_card`, :func:`rules.cards.parse_cards` (``"4C, KD 3S"``);
* grading: :func:`grade` (one card), :func:`successes`, :func:`summary`, :func:`victor`
  (who wins one draw), :func:`compare` (who wins and what decided it);
* describing a test: :class:`Pool` (skill, :class:`Modifier` pairs ``(source, cards)``, a
  :class:`Reputation`, :class:`Helper` s, the unskilled flag), :class:`Side` (who, pool,
  deck, :class:`AtRisk` area), :data:`DIFFICULTIES`, :func:`difficulty_side`,
  :func:`check_sides`, :func:`damage_penalty`, :func:`crusty_old_seadog`,
  :func:`overcome_great_hardship`;
* running a test in one call: :func:`contested_test`, :func:`static_test`,
  :func:`simple_test`, each returning a :class:`TestRecord`;
* running it in two phases, when a player must name a Joker: :func:`start_contested`,
  :func:`start_static`, :func:`start_simple` return a :class:`TestRecord` or, if a player
  turned an undeclared Joker, a :class:`PendingTest`; :func:`resume` takes the players'
  declarations and returns the record or, if a retest turns up another Joker, a new
  :class:`PendingTest`. Both are JSON-serialisable (``as_dict`` / ``from_dict``).

Draw order, which a :class:`rules.random.ScriptedSource` must follow: the Card of Fate from
the GM deck, then each side's pool in the order the sides were given (in a static test the
character, then the difficulty pool). A retest (D3) returns every card to its deck, turns a
new Card of Fate (none under the setting ``retest_fate = "same"``: the first one stands, A6),
and draws the same pools again in the same order.

>>> from rules.cards import parse_card, parse_cards
>>> fate = parse_card("4S")
>>> grade(parse_card("4C"), fate), grade(parse_card("4S"), fate), grade(parse_card("KS"), fate)
(<SuccessLevel.CRITICAL: 2>, <SuccessLevel.PERFECT: 3>, <SuccessLevel.ORDINARY: 1>)
>>> victor(parse_cards("4C KD KS QH JH 2C"), parse_cards("4H AH 2D 7S"), fate)
'a'

The book's contested test (BtQ L1202-1241, as the narration reads it):

>>> from rules.random import ScriptedSource
>>> otoole = Side("pc:otoole", Pool("seamanship", 4, modifiers=[("Crusty Old Seadog", 1)],
...     reputation=Reputation("Distrusted by Captain Jones", 1, cap=3)), "player")
>>> jones = Side("npc:jones", Pool("seamanship", 4), "gm", secret=True)
>>> record = contested_test(otoole, jones, ScriptedSource("4S  4C KD KS QH JH 2C  4H AH 2D 7S"))
>>> otoole.pool.explain()
'Seamanship 4 + Crusty Old Seadog 1 + Distrusted by Captain Jones 1 = 6'
>>> record.outcome, record.winner, record.result.name
('won', 'pc:otoole', 'CRITICAL')
>>> c = record.rounds[-1].comparison
>>> c.by, c.position, c.a, c.b
('tie_break', 2, 'KS', '7S')

A Measure gate (BtQ L1322-1324) in two phases, the player naming the Joker:

>>> source = ScriptedSource("9C  JK 5H KD 8S")
>>> pending = start_simple(Side("pc:otoole", Pool("guts", 4), "player"), source)
>>> pending.awaiting
('pc:otoole',)
>>> record = resume(pending, {"pc:otoole": "9H"}, source)
>>> record.outcome, record.result.name, str(record.rounds[0].hand("pc:otoole").cards[0])
('passed', 'CRITICAL', 'JK=9H')

JSON shapes (``as_dict()``; ``from_dict()`` reverses it; a level is ``"failure"``,
``"ordinary"``, ``"critical"`` or ``"perfect"``, a state ``"healthy"``, ``"injured"``,
``"maimed"`` or ``"dead"``)::

    TestRecord  {"kind": "contested" | "static" | "simple", "intent": str,
                 "settings": {"reputation_loss_mode", "personal_pool_floor", "max_retests",
                              "full_tie", "retest_fate", "unskilled_traits" (each only when
                              not the default), "defender" (with full_tie "defender")},
                 "sides": [Side], "rounds": [Round],
                 "outcome": "won" | "stalemate" | "passed" | "failed",
                 "winner": who | null, "loser": who | null, "result": level | null,
                 "damage": [Damage]}
    PendingTest {"kind", "intent", "settings", "sides", "rounds": [Round] (decided retests),
                 "current": Round (comparison null; an undeclared Joker is "JK", level null),
                 "awaiting": [who]}
    Side        {"who", "deck": "player" | "gm", "deck_name", "pool": Pool,
                 "at_risk": {"area", "state"} | null, "secret": bool}
    Pool        {"skill", "value", "modifiers": [{"source", "cards"}],
                 "reputation": {"name", "value", "cap", "state"} | null,
                 "helpers": [{"who", "skill"}], "unskilled", "personal",
                 "lines": [[source, cards]], "size", "explanation"}
                (a secret pool under ``as_dict(reveal=False)``: {"secret": true, "size"})
    Round       {"number": 1 | 2..., "fate": "4S", "hands": [Hand],
                 "comparison": {"result", "by", "a", "b", "position"} | null}
    Hand        {"who", "deck", "cards": ["4C", "JK=4S"], "levels": [level],
                 "summary": [perfects, criticals, ordinaries], "best": level | null,
                 "joker": "declared" | "default" | null}
    Damage      {"who", "area", "cause": "at_risk" | "reputation", "level",
                 "from": state, "to": state}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import IntEnum
from operator import itemgetter
from typing import Any, Literal, cast

from mypy_extensions import mypyc_attr

from rules.btq.characters import MEASURES, SKILLS, DamageState
from rules.btq.settings import SETTINGS, resolve
from rules.cards import (
    ALL_CARDS,
    DECK_KINDS,
    GM_DECK,
    PLAYER_DECK,
    Card,
    Deck,
    card_count,
    parse_card,
)
from rules.random import RandomSource

Victor = Literal["a", "b", "tie", "both_failed"]

DIFFICULTIES: dict[str, int] = {
    "easy": 1,
    "routine": 3,
    "challenging": 5,
    "damned_hard": 7,
    "heroic_effort": 9,
}
"""Difficulty pool sizes of a static test, by key (BtQ L1258-1260)."""

DIFFICULTY_LABELS: dict[str, str] = {
    "easy": "Easy",
    "routine": "Routine",
    "challenging": "Challenging",
    "damned_hard": "Damned Hard!",
    "heroic_effort": "Heroic Effort",
}
"""The book's names of the difficulties (BtQ L1258)."""

HELPERS_MAX = 3
"""The most cards all skilled helpers together add to a pool (BtQ L1282-1283)."""

MAX_RETESTS = 10
"""Retests after a mutual failure or a full tie before the test ends in a stalemate (DECISIONS
D3; the book sets no bound, BtQ L1274-1276). A fixed bound, not a campaign setting (a
skirmish's final test may take none: :func:`start_contested`); records carry the bound they
used as ``settings["max_retests"]``."""

DIFFICULTY = "difficulty"
"""The ``who`` of the difficulty pool's side in a static test."""

KINDS = ("contested", "static", "simple")


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a built-in error
class TestError(ValueError):
    """A test described or resumed in a way the rules do not allow; the message says why."""

    __test__ = False


class SuccessLevel(IntEnum):
    """How well one card matches the Card of Fate (BtQ L1226-1229). In damage terms
    Ordinary is Injured, Critical Maimed, Perfect Dead (BtQ L1309-1328)."""

    FAILURE = 0
    ORDINARY = 1
    CRITICAL = 2
    PERFECT = 3


def _played(card: Card, fate: Card) -> Card:
    """The card ``card`` counts as: a declared Joker's card, an undeclared Joker the CoF."""
    if card.played_as is not None:
        return card.played_as
    return fate if card.is_joker else card


def _match(card: Card, fate: Card) -> tuple[SuccessLevel, int]:
    """``(level, rank)`` of ``card`` against ``fate``: how it matches (BtQ L1226-1229) and the
    rank it counts as for tie-breaks (BtQ L1239)."""
    played = _played(card, fate)
    if played.rank == fate.rank:
        level = SuccessLevel.PERFECT if played.suit == fate.suit else SuccessLevel.CRITICAL
    elif played.suit == fate.suit:
        level = SuccessLevel.ORDINARY
    else:
        level = SuccessLevel.FAILURE
    return level, played.rank


_MATCHES: dict[Card, dict[Card, tuple[SuccessLevel, int]]] = {
    fate: {card: _match(card, fate) for card in ALL_CARDS} for fate in ALL_CARDS
}
""":func:`_match` of every card against every Card of Fate, worked out once: the kernel grades
every card it turns, and there are only 105 cards (the 52, the Joker, the declared Jokers)."""


def graded(fate: Card) -> Mapping[Card, tuple[SuccessLevel, int]]:
    """Every card (the 52, the Joker, the declared Jokers) mapped to its ``(success level,
    rank)`` against the Card of Fate ``fate``: :func:`grade` of each, without the unskilled
    cap, looked up rather than called for a hand graded card by card. The table itself:
    read it, never change it."""
    return _MATCHES[fate]


def grade(card: Card, fate: Card, *, unskilled: bool = False) -> SuccessLevel:
    """The success level of ``card`` against the Card of Fate ``fate``.

    A Joker counts as the card its owner declared (``JK=7D``); an undeclared Joker counts as
    the Card of Fate itself, the default choice (``rules/DECISIONS.md`` D5). In an unskilled
    test the result is at most Ordinary (BtQ L1269-1272).
    """
    level = _MATCHES[fate][card][0]
    return SuccessLevel.ORDINARY if unskilled and level else level


def _chain(cards: Iterable[Card], fate: Card, unskilled: bool) -> list[tuple[int, int, str]]:
    """The successes among ``cards`` as ``(level, rank, card text)``, best first."""
    matches = _MATCHES[fate]
    found: list[tuple[int, int, str]] = []
    for card in cards:
        level, rank = matches[card]
        if level:
            found.append((SuccessLevel.ORDINARY if unskilled else level, rank, str(card)))
    found.sort(key=lambda s: s[:2], reverse=True)
    return found


_LEVEL = itemgetter(0)
_RANK = itemgetter(1)


def successes(
    cards: Iterable[Card], fate: Card, *, unskilled: bool = False
) -> list[tuple[SuccessLevel, int]]:
    """The successes among ``cards`` as ``(level, rank)`` pairs, best first: by level, then
    by rank (aces high). This is the order in which ties are broken (BtQ L1238-1239)."""
    # the matches whose level is above failure, in a plain loop: a comprehension is a call
    # of its own, and map and filter call a method wrapper and itemgetter for each card
    matches = _MATCHES[fate]
    found = []
    for card in cards:
        match = matches[card]
        if match[0]:
            found.append(match)
    if unskilled:
        found = [(SuccessLevel.ORDINARY, rank) for _, rank in found]
    found.sort(reverse=True)
    return found


def summary(cards: Iterable[Card], fate: Card, *, unskilled: bool = False) -> tuple[int, int, int]:
    """``(perfects, criticals, ordinaries)`` among ``cards``."""
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[grade(card, fate, unskilled=unskilled)] += 1
    return counts[3], counts[2], counts[1]


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Comparison:
    """What decided one draw (BtQ L1238-1239), or one simple test (D4).

    ``result``: ``"a"``, ``"b"``, ``"tie"`` or ``"both_failed"`` for two sides; ``"pass"`` or
    ``"fail"`` for a simple test. ``by``: ``"perfect"``, ``"critical"`` or ``"ordinary"``
    when one side had more successes of that level (``a`` and ``b`` are the counts);
    ``"tie_break"`` when the chains of successes differed at 1-based ``position`` (``a`` and
    ``b`` are the two cards, or ranks); ``"full_tie"``; ``"no_success"``. In a simple test
    that passed, ``by`` is the level of its best success.
    """

    result: str
    by: str
    a: int | str | None = None
    b: int | str | None = None
    position: int | None = None

    def as_dict(self) -> dict:
        return {"result": self.result, "by": self.by, "a": self.a, "b": self.b,
                "position": self.position}

    @classmethod
    def from_dict(cls, data: Mapping) -> Comparison:
        return cls(data["result"], data["by"], data.get("a"), data.get("b"), data.get("position"))


_LEVELS_DOWN = (SuccessLevel.PERFECT, SuccessLevel.CRITICAL, SuccessLevel.ORDINARY)


def _verdict(a: list[tuple], b: list[tuple]) -> tuple[Victor, SuccessLevel | None, int | None]:
    """Who wins between two chains of successes, best first, each success a tuple that starts
    ``(level, rank)`` (BtQ L1238-1239): no success on either side is ``"both_failed"``; else
    more Perfects, then Criticals, then Ordinaries; else the ranks pairwise, best first; else
    ``"tie"``. Returns the result, the level whose count decided it, and the 0-based
    position of the pair of ranks that did."""
    if not a and not b:
        return "both_failed", None, None
    a_levels, b_levels = [s[0] for s in a], [s[0] for s in b]
    for level in _LEVELS_DOWN:
        na, nb = a_levels.count(level), b_levels.count(level)
        if na != nb:
            return ("a" if na > nb else "b"), level, None
    for position, (sa, sb) in enumerate(zip(a, b)):
        if sa[1] != sb[1]:
            return ("a" if sa[1] > sb[1] else "b"), None, position
    return "tie", None, None


def _decide(a: list[tuple[int, int, str]], b: list[tuple[int, int, str]]) -> Comparison:
    """:func:`_verdict` of two chains ``(level, rank, card text)`` and what decided it."""
    result, level, position = _verdict(a, b)
    if result == "both_failed":
        return Comparison(result, "no_success")
    if level is not None:
        return Comparison(result, level.name.lower(), sum(1 for s in a if s[0] == level),
                          sum(1 for s in b if s[0] == level))
    if position is not None:
        return Comparison(result, "tie_break", a[position][2], b[position][2], position + 1)
    return Comparison(result, "full_tie")


def compare_successes(a: list[tuple[SuccessLevel, int]], b: list[tuple[SuccessLevel, int]]
                      ) -> Victor:
    """Decide between two lists of successes from :func:`successes` (BtQ L1238-1239):
    no success on either side is ``"both_failed"``; else more Perfects, then Criticals, then
    Ordinaries; else the ranks of the successes pairwise, best first; else ``"tie"``.

    :func:`_verdict`'s result, found by comparing lists: the chains being best first, more
    successes of the first level where their counts differ is a greater list of levels
    (where one list of levels runs out first, the other has more of its next level)."""
    if not a and not b:
        return "both_failed"
    # the levels and ranks picked out in C (a comprehension is a call of its own)
    a_levels, b_levels = list(map(_LEVEL, a)), list(map(_LEVEL, b))
    if a_levels != b_levels:
        return "a" if a_levels > b_levels else "b"
    a_ranks, b_ranks = list(map(_RANK, a)), list(map(_RANK, b))
    if a_ranks != b_ranks:
        return "a" if a_ranks > b_ranks else "b"
    return "tie"


def compare(
    a_cards: Iterable[Card],
    b_cards: Iterable[Card],
    fate: Card,
    *,
    a_unskilled: bool = False,
    b_unskilled: bool = False,
) -> Comparison:
    """Who wins a draw and what decided it (BtQ L1238-1239); a tie-break names the two
    cards compared."""
    return _decide(_chain(a_cards, fate, a_unskilled), _chain(b_cards, fate, b_unskilled))


def victor(
    a_cards: Iterable[Card],
    b_cards: Iterable[Card],
    fate: Card,
    *,
    a_unskilled: bool = False,
    b_unskilled: bool = False,
) -> Victor:
    """Who wins a draw: ``"a"``, ``"b"``, ``"tie"`` (equal all the way down the tie-break)
    or ``"both_failed"`` (no success on either side) (BtQ L1238-1241, L1274-1276).

    The retest after a tie or a mutual failure belongs to the test procedure
    (``rules/DECISIONS.md`` D3), not to this comparison.
    """
    return cast(Victor, compare(a_cards, b_cards, fate, a_unskilled=a_unskilled,
                                b_unskilled=b_unskilled).result)


# --- Damage ---------------------------------------------------------------------------


def _state(value: DamageState | int | str) -> DamageState:
    """A damage state from itself, its number (0-3) or its name (``"injured"``)."""
    if isinstance(value, DamageState):
        return value
    if isinstance(value, str) and value.upper() in DamageState.__members__:
        return DamageState[value.upper()]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return DamageState(value)
    raise TestError(f"{value!r} is not a damage state (healthy, injured, maimed, dead)")


def damage_after(state: DamageState, level: SuccessLevel | int) -> DamageState:
    """The state of an area after a hit of success ``level``: Ordinary one level worse,
    Critical two, Perfect three, never beyond Dead (BtQ L1309-1328, L1544-1545)."""
    return DamageState(min(DamageState.DEAD, state + level))


def damage_penalty(area: str, state: DamageState | int | str) -> Modifier | None:
    """The pool modifier for an action tied to ``area`` (or using that reputation) in
    ``state``: Injured -1, Maimed -3 (once the Measure gate, a :func:`simple_test`, is
    passed); ``None`` when Healthy. Dead raises :class:`TestError`: no test may use the area
    until it is healed (BtQ L1305-1329)."""
    state = _state(state)
    if state == DamageState.DEAD:
        raise TestError(f"{area} is Dead: no test may use it until it is healed")
    if state == DamageState.HEALTHY:
        return None
    return Modifier(f"{area} {state.label}", -state.penalty)


def overcome_great_hardship(measure: int, settings: Mapping | None = None) -> int:
    """Spend one point of the area's Measure to ignore that area's penalties, both the pool
    penalty and the Measure gate (build the pool without :func:`damage_penalty`); returns the
    Measure as it stays until the end of the Naval Mission (BtQ L1415-1426).

    Raises :class:`TestError` if the campaign does not use the optional rule (setting
    ``great_hardship``) or the Measure is already 1 (BtQ L1422).
    """
    if not resolve(settings)["great_hardship"]:
        raise TestError("this campaign does not use the optional rule Overcoming Great Hardship")
    if _count(measure, "the Measure") <= 1:
        raise TestError("a Measure cannot be reduced below 1")
    return measure - 1


# --- Pools and sides ------------------------------------------------------------------


def _whole(value, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TestError(f"{what} must be a whole number, not {value!r}")
    return value


def _count(value, what: str, minimum: int = 0) -> int:
    if _whole(value, what) < minimum:
        raise TestError(f"{what} cannot be {value} (at least {minimum})")
    return value


def _name(value, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TestError(f"{what} must be a non-empty name, not {value!r}")
    return value


# _LOOSE: the classes of this module are no native classes when mypyc compiles it (`make
# fast`): their fields take looser values than their types say (a mapping for a Pool, a name
# for a damage state) and __post_init__ normalises them or raises TestError with a reason,
# where a native class would check the types first and raise TypeError. Their methods and the
# module's functions are compiled all the same.

_WHAT = {"Modifier": "a modifier", "Helper": "a helper"}
"""What a :class:`_Pair` is called in an error (not a class attribute: the dataclasses
compiled by mypyc would take it for a field)."""


@mypyc_attr(native_class=False)  # see _LOOSE
class _Pair:
    """A value of two fields that callers may also give as a mapping of them or as a pair,
    in field order (a :class:`Modifier` as ``("Crusty Old Seadog", 1)``)."""

    __slots__ = ()

    @classmethod
    def of(cls, value):
        """The value from itself, a mapping of its two fields, or a pair of them; raises
        :class:`TestError` for anything else."""
        if isinstance(value, cls):
            return value
        # Every subclass is a dataclass; _Pair itself declares no fields.
        first, second = cls.__dataclass_fields__  # type: ignore[attr-defined]
        if isinstance(value, Mapping):
            return cls(value.get(first), value.get(second))
        try:
            a, b = value
        except (TypeError, ValueError):
            what = _WHAT.get(cls.__name__, "a value")
            raise TestError(f"{what} is a ({first}, {second}) pair, not {value!r}") from None
        return cls(a, b)

    def as_dict(self) -> dict:
        fields = self.__dataclass_fields__  # type: ignore[attr-defined]
        return {name: getattr(self, name) for name in fields}


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Modifier(_Pair):
    """Cards added to (``cards`` > 0) or taken from (< 0) a pool, and their ``source``
    (a trait, a curio, a damage state: "Health Maimed")."""

    source: str
    cards: int

    def __post_init__(self):
        _name(self.source, "a modifier's source")
        _whole(self.cards, f"the cards of {self.source}")


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Reputation:
    """A reputation added to a pool (BtQ L1210-1212): its ``name`` ("Distrusted by Captain
    Jones"), ``value`` (cards, at least 1), the ``cap`` set by its Measure (Charm for a
    Personal, Influence for an Institution reputation; ``None`` for none, as for a ship's
    reputation) and its own damage ``state``, which reduces the pool (Injured -1, Maimed -3,
    once its Measure gate is passed) and which it loses if its owner loses (D1).

    A value above the cap is allowed and counts as the cap (D9; BtQ L114-115). A Dead
    reputation cannot be used (BtQ L1328).
    """

    name: str
    value: int
    cap: int | None = None
    state: DamageState = DamageState.HEALTHY

    def __post_init__(self):
        _name(self.name, "a reputation's name")
        _count(self.value, f"the value of {self.name}", minimum=1)
        if self.cap is not None:
            _count(self.cap, f"the cap of {self.name}", minimum=1)
        object.__setattr__(self, "state", _state(self.state))
        if self.state == DamageState.DEAD:
            raise TestError(f"{self.name} is Dead: it cannot be used until healed")

    @property
    def effective(self) -> int:
        """The cards it adds before its own damage: ``min(value, cap)`` (D9)."""
        return self.value if self.cap is None else min(self.value, self.cap)

    @property
    def over_cap(self) -> bool:
        """Whether the stored value exceeds the cap (show a warning, D9)."""
        return self.cap is not None and self.value > self.cap

    @classmethod
    def of(cls, value: Reputation | Mapping) -> Reputation:
        if isinstance(value, Reputation):
            return value
        if not isinstance(value, Mapping):
            raise TestError(f"a reputation is described by name and value, not {value!r}")
        data: Any = value  # checked by __post_init__
        return cls(data.get("name"), data.get("value"), data.get("cap"),
                   data.get("state", DamageState.HEALTHY))

    def as_dict(self) -> dict:
        return {"name": self.name, "value": self.value, "cap": self.cap,
                "state": self.state.name.lower()}


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Helper(_Pair):
    """A character assisting the test (BtQ L1280-1286): ``skill`` is their value in a skill
    that applies, 0 if they have none (an unskilled helper takes a card away)."""

    who: str
    skill: int

    def __post_init__(self):
        _name(self.who, "a helper")
        _count(self.skill, f"the skill of helper {self.who}")


def pool_sum(total: int, size: int) -> str:
    """The end of a pool's sum in words, for ``total``, the sum of its lines, and ``size``,
    the cards it turns: ``"= 5"``; never below 0 cards (D2), ``"= 0"``; and when a floor
    turns more (the setting ``personal_pool_floor``, D2; BtQ L2594-2595), it says so:
    ``"= 0, at least 1 card"``."""
    shown = max(0, total)
    if size <= shown:
        return f"= {shown}"
    return f"= {shown}, at least {card_count(size)}"


def _label(skill: str) -> str:
    return SKILLS.get(skill) or MEASURES.get(skill) or skill


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Pool:
    """A card pool (BtQ L1202-1216): the base ``value`` of ``skill`` (a skill or Measure
    key such as ``"seamanship"``, or any label), ``modifiers`` (traits, curios, damage
    penalties, each a :class:`Modifier` or ``(source, cards)`` pair), at most one
    ``reputation`` (A8), ``helpers`` (BtQ L1280-1286), and the ``unskilled`` flag.

    * Skilled: ``value`` + modifiers + the reputation's effective value and its own damage
      penalty + ``min(3, skilled helpers' skills)`` - 1 per unskilled helper.
    * Unskilled (``value`` 0, BtQ L1266-1272): one card; no reputation or helpers, and no
      cards from traits and equipment unless the campaign's setting ``unskilled_traits``
      allows them (A9; a test refuses them otherwise, :func:`check_sides`); penalties still
      apply. Its successes count as Ordinary at best.
    * ``personal``: a personal test, to which the setting ``personal_pool_floor`` applies;
      other pools (a difficulty) have the floor 0 (D2).

    :meth:`size` is the number of cards turned, never below the floor. Raises
    :class:`TestError` for a negative value, more than one reputation, or a reputation or
    helpers in an unskilled pool.
    """

    skill: str
    value: int
    modifiers: tuple[Modifier, ...] = ()
    reputation: Reputation | None = None
    helpers: tuple[Helper, ...] = ()
    unskilled: bool = False
    personal: bool = True

    def __post_init__(self):
        _name(self.skill, "a pool's skill")
        _count(self.value, f"the value of {self.skill}")
        object.__setattr__(self, "modifiers", tuple(Modifier.of(m) for m in self.modifiers))
        object.__setattr__(self, "helpers", tuple(Helper.of(h) for h in self.helpers))
        rep = self.reputation
        if isinstance(rep, (list, tuple)):
            if len(rep) > 1:
                raise TestError("a pool takes at most one reputation")
            rep = rep[0] if rep else None
        object.__setattr__(self, "reputation", None if rep is None else Reputation.of(rep))
        if self.unskilled:
            label = _label(self.skill)
            if self.value:
                raise TestError(f"an unskilled test is made with no skill, not {label} "
                                f"{self.value}")
            if self.reputation is not None:
                raise TestError("no reputation may be added to an unskilled test")
            if self.helpers:
                raise TestError("an unskilled test turns a single card: no helpers")

    def lines(self) -> tuple[tuple[str, int], ...]:
        """Every contribution to the pool as ``(source, cards)``, before the floor."""
        label = _label(self.skill)
        if self.unskilled:
            out = [(f"{label} unskilled: one card", 1)]
        else:
            out = [(label, self.value)]
        out += [(m.source, m.cards) for m in self.modifiers]
        rep = self.reputation
        if rep is not None:
            capped = f" (capped at {rep.cap})" if rep.over_cap else ""
            out.append((rep.name + capped, rep.effective))
            if rep.state != DamageState.HEALTHY:
                out.append((f"{rep.name} {rep.state.label}", -rep.state.penalty))
        skilled = [h for h in self.helpers if h.skill]
        if skilled:
            total = sum(h.skill for h in skilled)
            names = " and ".join(h.who for h in skilled)
            # The pool line shows the cards once: the helpers' own values only when they
            # differ from what they add (several helpers, or more than the cap).
            parts = " + ".join(str(h.skill) for h in skilled)
            over = total > HELPERS_MAX
            how = ([parts] if len(skilled) > 1 or over else []) + (
                [f"at most {HELPERS_MAX}"] if over else [])
            detail = f" ({', '.join(how)})" if how else ""
            out.append((f"help from {names}{detail}", min(HELPERS_MAX, total)))
        out += [(f"{h.who} unskilled helper", -1) for h in self.helpers if not h.skill]
        return tuple(out)

    def size(self, floor: int = 0) -> int:
        """The number of cards turned: the sum of :meth:`lines`, at least ``floor`` for a
        personal pool (setting ``personal_pool_floor``, D2) and at least 0."""
        total = sum(cards for _, cards in self.lines())
        return max(floor if self.personal else 0, total, 0)

    def explain(self, floor: int = 0) -> str:
        """The pool's arithmetic in words: ``"Seamanship 4 + Crusty Old Seadog 1 = 5"``."""
        text = ""
        for i, (source, cards) in enumerate(self.lines()):
            if i == 0:
                text = f"{source} {cards}"
            else:
                text += f" {'-' if cards < 0 else '+'} {source} {abs(cards)}"
        return f"{text} {pool_sum(sum(cards for _, cards in self.lines()), self.size(floor))}"

    def as_dict(self, floor: int | None = None) -> dict:
        """JSON form; with ``floor`` it also carries the derived ``lines``, ``size`` and
        ``explanation``, which :meth:`from_dict` ignores."""
        data = {
            "skill": self.skill,
            "value": self.value,
            "modifiers": [m.as_dict() for m in self.modifiers],
            "reputation": None if self.reputation is None else self.reputation.as_dict(),
            "helpers": [h.as_dict() for h in self.helpers],
            "unskilled": self.unskilled,
            "personal": self.personal,
        }
        if floor is not None:
            data.update(lines=[list(line) for line in self.lines()], size=self.size(floor),
                        explanation=self.explain(floor))
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> Pool:
        if data.get("secret"):
            raise TestError("a pool hidden from players cannot be rebuilt from its public form")
        return cls(data["skill"], data["value"], tuple(data.get("modifiers", ())),
                   data.get("reputation"), tuple(data.get("helpers", ())),
                   bool(data.get("unskilled", False)), bool(data.get("personal", True)))


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class AtRisk:
    """The damage area put at risk by the intent (A3), and its state before the test: the
    loser's at-risk area takes damage by the winner's best success (BtQ L1297-1328)."""

    area: str
    state: DamageState = DamageState.HEALTHY

    def __post_init__(self):
        _name(self.area, "the area at risk")
        object.__setattr__(self, "state", _state(self.state))
        if self.state == DamageState.DEAD:
            raise TestError(f"{self.area} is Dead: no test may put it at risk until healed")

    def as_dict(self) -> dict:
        return {"area": self.area, "state": self.state.name.lower()}

    @classmethod
    def of(cls, value: AtRisk | Mapping | str) -> AtRisk:
        if isinstance(value, AtRisk):
            return value
        if isinstance(value, str):
            return cls(value)
        data: Any = value  # checked by __post_init__
        return cls(data.get("area"), data.get("state", DamageState.HEALTHY))


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Side:
    """One participant of a test: ``who`` (``"pc:otoole"``, ``"npc:jones"``), their
    ``pool``, the ``deck`` kind they turn from (``"player"``: their own 52 cards and a Joker;
    ``"gm"``: the GM deck, also the Card of Fate's), ``deck_name`` (a player deck's name in
    the draw log, default ``who``; every GM-deck side shares the one deck ``"gm"``), the area
    ``at_risk`` and ``secret``: the pool's make-up is GM-only (an NPC's skill values)."""

    who: str
    pool: Pool
    deck: str
    deck_name: str | None = None
    at_risk: AtRisk | None = None
    secret: bool = False

    def __post_init__(self):
        _name(self.who, "a side's who")
        if not isinstance(self.pool, Pool):
            if not isinstance(self.pool, Mapping):
                raise TestError(f"{self.who}: the pool must be a Pool, not {self.pool!r}")
            object.__setattr__(self, "pool", Pool.from_dict(self.pool))
        if self.deck not in DECK_KINDS:
            raise TestError(f"{self.who}: unknown deck kind {self.deck!r}: use 'player' or 'gm'")
        if self.deck == GM_DECK:
            if self.deck_name not in (None, GM_DECK):
                raise TestError(f"{self.who}: every GM-deck side turns from the one GM deck")
            object.__setattr__(self, "deck_name", GM_DECK)
        else:
            name = _name(self.deck_name or self.who, f"{self.who}'s deck")
            if name == GM_DECK:
                raise TestError(f"{self.who}: a player deck cannot be called 'gm'")
            object.__setattr__(self, "deck_name", name)
        if self.at_risk is not None:
            object.__setattr__(self, "at_risk", AtRisk.of(self.at_risk))
        rep = self.pool.reputation
        if rep and self.at_risk and self.at_risk.area == rep.name and \
                self.at_risk.state != rep.state:
            raise TestError(f"{rep.name} is {rep.state.label} in the pool but "
                            f"{self.at_risk.state.label} as the area at risk")

    def as_dict(self, floor: int | None = None, *, reveal: bool = True) -> dict:
        """JSON form. ``reveal=False`` replaces a secret pool by its size alone, for players
        (such a form cannot be rebuilt)."""
        pool = self.pool.as_dict(floor)
        if self.secret and not reveal:
            pool = {"secret": True, "size": self.pool.size(floor or 0)}
        return {"who": self.who, "deck": self.deck, "deck_name": self.deck_name, "pool": pool,
                "at_risk": None if self.at_risk is None else self.at_risk.as_dict(),
                "secret": self.secret}

    @classmethod
    def from_dict(cls, data: Mapping) -> Side:
        return cls(data["who"], Pool.from_dict(data["pool"]), data["deck"],
                   data.get("deck_name"), data.get("at_risk"), bool(data.get("secret", False)))


def crusty_old_seadog(skill: str, settings: Mapping | None = None) -> Modifier | None:
    """The card the trait Crusty Old Seadog adds to a test of ``skill``: +1 on Maritime tests
    (the trait's text, BtQ L1080), or on Seamanship tests instead under the setting
    ``crusty_old_seadog_skill = "seamanship"`` (the book's example, BtQ L1113, L1210-1212;
    A4); ``None`` for any other skill."""
    from rules.btq.traits import pool_modifiers  # the traits' data builds on this module

    found = pool_modifiers({"crusty_old_seadog": 1}, skill, (), settings)
    return found[0] if found else None


# --- Records --------------------------------------------------------------------------


def _level_name(level: SuccessLevel | None) -> str | None:
    return None if level is None else level.name.lower()


def _level(name: str | None) -> SuccessLevel | None:
    return None if name is None else SuccessLevel[name.upper()]


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Hand:
    """The cards one side turned in one round, in order, and the grade of each. ``joker``
    says how a Joker among them was named: ``"declared"`` by its owner, ``"default"`` (the
    Card of Fate, D5), or ``None`` (no Joker, or one still to declare, whose level is
    ``None``)."""

    who: str
    deck: str
    cards: tuple[Card, ...]
    levels: tuple[SuccessLevel | None, ...]
    joker: str | None = None

    @property
    def undeclared_joker(self) -> bool:
        return any(c.is_joker and c.played_as is None for c in self.cards)

    @property
    def summary(self) -> tuple[int, int, int]:
        """``(perfects, criticals, ordinaries)``."""
        levels = self.levels
        return levels.count(3), levels.count(2), levels.count(1)

    @property
    def best(self) -> SuccessLevel | None:
        """The best success, ``None`` if there is none."""
        # "is not None" and the level spelled out, not the truth of an Optional[SuccessLevel]:
        # code compiled by mypyc takes every such value that is not None for true.
        found = [lv for lv in self.levels if lv is not None and lv > SuccessLevel.FAILURE]
        return max(found) if found else None

    def chain(self) -> list[tuple[int, int, str]]:
        found: list[tuple[int, int, str]] = [
            (lv, c.effective.rank, str(c)) for c, lv in zip(self.cards, self.levels)
            if lv is not None and lv > SuccessLevel.FAILURE]
        found.sort(key=lambda s: s[:2], reverse=True)
        return found

    def as_dict(self) -> dict:
        return {"who": self.who, "deck": self.deck, "cards": [str(c) for c in self.cards],
                "levels": [_level_name(lv) for lv in self.levels], "summary": list(self.summary),
                "best": _level_name(self.best), "joker": self.joker}

    @classmethod
    def from_dict(cls, data: Mapping) -> Hand:
        return cls(data["who"], data["deck"], tuple(parse_card(c) for c in data["cards"]),
                   tuple(_level(lv) for lv in data["levels"]), data.get("joker"))


def _hand(who: str, deck: str, cards: Iterable[Card], fate: Card, unskilled: bool,
          joker: str | None = None) -> Hand:
    cards = tuple(cards)
    if joker is None and any(c.is_joker and c.played_as is not None for c in cards):
        joker = "declared"  # turned already declared (a scripted "JK=7D")
    levels = tuple(None if c.is_joker and c.played_as is None
                   else grade(c, fate, unskilled=unskilled) for c in cards)
    return Hand(who, deck, cards, levels, joker)


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Round:
    """One draw: ``number`` 1 for the first, 2 and on for retests (D3), the Card of ``fate``,
    each side's :class:`Hand` in the order of the sides, and the :class:`Comparison` that
    decided it (``None`` while a Joker is still to be declared)."""

    number: int
    fate: Card
    hands: tuple[Hand, ...]
    comparison: Comparison | None = None

    def hand(self, who: str) -> Hand:
        for hand in self.hands:
            if hand.who == who:
                return hand
        raise KeyError(who)

    def as_dict(self) -> dict:
        return {"number": self.number, "fate": str(self.fate),
                "hands": [h.as_dict() for h in self.hands],
                "comparison": None if self.comparison is None else self.comparison.as_dict()}

    @classmethod
    def from_dict(cls, data: Mapping) -> Round:
        comparison = data.get("comparison")
        return cls(data["number"], parse_card(data["fate"]),
                   tuple(Hand.from_dict(h) for h in data["hands"]),
                   None if comparison is None else Comparison.from_dict(comparison))


def won_to_none(rnd: Mapping) -> int | None:
    """The winner's successes (counted from the hands' ``levels``, which the campaign log keeps
    where it drops their summaries), where a contested draw (``rnd``: :meth:`Round.as_dict`) was
    won on the count of a level against a side that turned no success at all ("two
    successes to none", rather than a level compared that the loser never reached, BtQ
    L1238-1239); ``None`` for any other draw."""
    comparison, hands = rnd.get("comparison") or {}, rnd.get("hands") or []
    result = comparison.get("result")
    if len(hands) != 2 or result not in ("a", "b") or \
            comparison.get("by") not in ("perfect", "critical", "ordinary"):
        return None
    winner, loser = (sum(1 for level in hand.get("levels") or ()
                         if level not in (None, "failure"))
                     for hand in (hands if result == "a" else hands[::-1]))
    return None if loser else winner


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class Damage:
    """Damage dealt by a test: ``who`` took it in ``area``, from ``before`` to ``after``.
    ``cause`` is ``"at_risk"`` (the declared area, by the winner's best success ``level``,
    BtQ L1309-1328) or ``"reputation"`` (the reputation in the loser's pool: one level, or
    ``level`` under the setting ``reputation_loss_mode = "severity"``; D1, BtQ L1241-1242)."""

    who: str
    area: str
    cause: str
    level: SuccessLevel
    before: DamageState
    after: DamageState

    def as_dict(self) -> dict:
        return {"who": self.who, "area": self.area, "cause": self.cause,
                "level": _level_name(self.level), "from": self.before.name.lower(),
                "to": self.after.name.lower()}

    @classmethod
    def from_dict(cls, data: Mapping) -> Damage:
        level = _level(data["level"])
        if level is None:
            raise TestError("a damage has the level of a success")
        return cls(data["who"], data["area"], data["cause"], level, _state(data["from"]),
                   _state(data["to"]))


_SETTINGS_USED = ("reputation_loss_mode", "personal_pool_floor")
"""The settings every record carries (``settings``), with the retest bound it used."""

_SETTINGS_IF_CHOSEN = ("full_tie", "retest_fate", "unskilled_traits")
"""The settings a record carries only when the campaign chose the other reading (records and
games from before they were settings carry none, and play as their defaults), and with
``full_tie = "defender"`` the index of the defending side, ``"defender"``."""


def _chosen(settings: Mapping, name: str) -> Any:
    """The value of setting ``name`` in a record's ``settings`` (absent: its default)."""
    return settings.get(name, SETTINGS[name].default)


def _overrides(settings: Mapping | None) -> Mapping:
    """Campaign settings (overrides, resolved, or a record's) without a record's
    ``"defender"``, which is no setting (copied only when it is there: a test reads its
    settings once, and the Monte Carlo turns thousands)."""
    if not settings or "defender" not in settings:
        return settings or {}
    return {k: v for k, v in settings.items() if k != "defender"}


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class TestRecord:
    """Everything a finished test did, for the log, the sheet and a replay.

    * ``kind``: ``"contested"``, ``"static"`` or ``"simple"``; ``intent``: the stated intent.
    * ``sides``: the :class:`Side` s as given (a static test adds the difficulty side,
      ``who`` ``"difficulty"``); ``settings``: the settings the test used.
    * ``rounds``: every draw, the first and each retest (:class:`Round`).
    * ``outcome``: ``"won"`` (``winner`` beat ``loser``), ``"stalemate"`` (still failed or
      tied after the last retest: nobody wins, nothing changes, D3), ``"passed"`` or
      ``"failed"`` (a simple test; ``winner`` is the side when it passed).
    * ``result``: the winner's best success, the quality of the outcome (BtQ L1256).
    * ``damage``: the :class:`Damage` dealt, in order.
    """

    kind: str
    intent: str
    sides: tuple[Side, ...]
    settings: dict
    rounds: tuple[Round, ...]
    outcome: str
    winner: str | None
    loser: str | None
    result: SuccessLevel | None
    damage: tuple[Damage, ...] = ()

    def side(self, who: str) -> Side:
        for side in self.sides:
            if side.who == who:
                return side
        raise KeyError(who)

    @property
    def retests(self) -> int:
        return len(self.rounds) - 1

    def as_dict(self, *, reveal: bool = True) -> dict:
        """JSON form (see the module's JSON shapes). ``reveal=False`` hides secret pools."""
        return {
            **_head_dict(self, reveal),
            "outcome": self.outcome,
            "winner": self.winner,
            "loser": self.loser,
            "result": _level_name(self.result),
            "damage": [d.as_dict() for d in self.damage],
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> TestRecord:
        return cls(data["kind"], data["intent"], tuple(Side.from_dict(s) for s in data["sides"]),
                   dict(data["settings"]), tuple(Round.from_dict(r) for r in data["rounds"]),
                   data["outcome"], data["winner"], data["loser"], _level(data["result"]),
                   tuple(Damage.from_dict(d) for d in data["damage"]))


# Not a test class, for pytest. Set at run time: in the body of a dataclass compiled by mypyc
# it would be a field, and mypyc does not compile the assignment either.
setattr(TestRecord, "__test__", False)  # noqa: B010


def _head_dict(test: TestRecord | PendingTest, reveal: bool) -> dict:
    """What a finished and a pending test both say in JSON: kind, intent, settings, sides
    (secret pools hidden unless ``reveal``) and the decided rounds."""
    floor = test.settings["personal_pool_floor"]
    return {
        "kind": test.kind,
        "intent": test.intent,
        "settings": dict(test.settings),
        "sides": [s.as_dict(floor, reveal=reveal) for s in test.sides],
        "rounds": [r.as_dict() for r in test.rounds],
    }


@mypyc_attr(native_class=False)  # see _LOOSE
@dataclass(frozen=True, slots=True)
class PendingTest:
    """A test waiting for players to name their Jokers (BtQ L1228; D5).

    ``current`` is the round just drawn, whose hands with an undeclared Joker belong to the
    sides in ``awaiting``; ``rounds`` are the rounds before it, already decided (retests).
    Pass it to :func:`resume` with one declaration per ``awaiting`` side.
    """

    kind: str
    intent: str
    sides: tuple[Side, ...]
    settings: dict
    rounds: tuple[Round, ...]
    current: Round
    awaiting: tuple[str, ...]

    def as_dict(self, *, reveal: bool = True) -> dict:
        """JSON form; ``reveal=False`` hides secret pools (for players' eyes)."""
        return {
            **_head_dict(self, reveal),
            "current": self.current.as_dict(),
            "awaiting": list(self.awaiting),
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> PendingTest:
        if data.get("kind") not in KINDS:
            raise TestError(f"unknown kind of test {data.get('kind')!r}")
        settings = data["settings"]
        return cls(data["kind"], data["intent"], tuple(Side.from_dict(s) for s in data["sides"]),
                   _settings(settings, settings.get("max_retests", MAX_RETESTS),
                             settings.get("defender", 1)),
                   tuple(Round.from_dict(r) for r in data["rounds"]),
                   Round.from_dict(data["current"]), tuple(data["awaiting"]))


# --- Running a test -------------------------------------------------------------------

JokerChooser = Callable[[PendingTest, str], Card | str | None]
"""``choose(pending, who)`` -> the card ``who`` declares their Joker to be (``None``: the
default, the Card of Fate)."""


def _settings(settings: Mapping | None, retests: int = MAX_RETESTS, defender: int = 1) -> dict:
    full = resolve(_overrides(settings))
    used = {**{name: full[name] for name in _SETTINGS_USED}, "max_retests": retests}
    for name in _SETTINGS_IF_CHOSEN:
        if full[name] != SETTINGS[name].default:
            used[name] = full[name]
    if used.get("full_tie") == "defender":
        used["defender"] = defender
    return used


def _decks(sides: tuple[Side, ...]) -> dict[str, Deck]:
    decks = {GM_DECK: Deck(GM_DECK)}
    for side in sides:
        if side.deck == PLAYER_DECK:
            name = cast(str, side.deck_name)  # always set by Side.__post_init__
            if name in decks:
                raise TestError(f"two sides cannot turn from the same player deck "
                                f"{side.deck_name!r}")
            decks[name] = Deck(PLAYER_DECK, name)
    return decks


def check_sides(kind: str, given: tuple[object, ...], settings: Mapping | None = None
                ) -> tuple[Side, ...]:
    """``sides`` if they can meet in a test of ``kind``: :class:`Side` objects of different
    ``who``, no two turning from the same player deck, no area at risk in a simple test (D4),
    and no card added to an unskilled pool by a trait or equipment unless the campaign's
    ``settings`` allow it (setting ``unskilled_traits``; "you can overturn a single card",
    BtQ L1266-1269, A9). Raises :class:`TestError` saying why not. (The count of sides is
    the caller's.)"""
    return _checked_sides(kind, given, resolve(_overrides(settings))["unskilled_traits"])


def _checked_sides(kind: str, given: tuple[object, ...], unskilled_traits: bool
                   ) -> tuple[Side, ...]:
    """:func:`check_sides`, with the setting ``unskilled_traits`` given."""
    for side in given:
        if not isinstance(side, Side):
            raise TestError(f"a test is made by Side objects, not {side!r}")
    sides = cast(tuple[Side, ...], given)
    whos = [s.who for s in sides]
    if len(set(whos)) != len(whos):
        raise TestError(f"the two sides of a test must differ, both are {whos[0]!r}")
    if kind == "simple" and sides[0].at_risk is not None:
        raise TestError("a simple test has no opposing pool to deal damage: make it a static "
                        "test to put an area at risk")
    if not unskilled_traits:
        for side in sides:
            if not side.pool.unskilled:
                continue
            extra = [m.source for m in side.pool.modifiers if m.cards > 0]
            if extra:
                raise TestError(f"an unskilled test turns a single card: {', '.join(extra)} "
                                "cannot add to it")
    _decks(sides)
    return sides


def _deal(number: int, sides: tuple[Side, ...], settings: dict, source: RandomSource,
          decks: dict[str, Deck], fate: Card | None = None) -> Round:
    """Round ``number``: a Card of Fate turned from the GM deck, or ``fate`` kept out of it
    again (a retest under ``retest_fate = "same"``), then every side's pool in order."""
    retest = "" if number == 1 else f", retest {number - 1}"
    if fate is None:
        fate = source.draw(decks[GM_DECK], 1, purpose=f"card of fate{retest}")[0]
    else:
        decks[GM_DECK].take(fate)
    floor = settings["personal_pool_floor"]
    hands = []
    for side in sides:
        deck = cast(str, side.deck_name)  # always set by Side.__post_init__
        cards = source.draw(decks[deck], side.pool.size(floor),
                            purpose=f"{side.who} pool{retest}")
        hands.append(_hand(side.who, deck, cards, fate, side.pool.unskilled))
    return Round(number, fate, tuple(hands))


def _judge(kind: str, current: Round) -> Comparison:
    if kind == "simple":
        best = current.hands[0].best
        return Comparison("pass", best.name.lower()) if best is not None else Comparison(
            "fail", "no_success")
    a, b = current.hands
    return _decide(a.chain(), b.chain())


def _judged(round_: Round) -> Comparison:
    """The comparison of a round that has been judged (no Joker waits in it)."""
    if round_.comparison is None:
        raise TestError(f"round {round_.number} waits for a Joker to be named")
    return round_.comparison


def _finish(kind: str, intent: str, sides: tuple[Side, ...], settings: dict,
            rounds: tuple[Round, ...]) -> TestRecord:
    last = rounds[-1]
    result = _judged(last).result
    if kind == "simple":
        passed = result == "pass"
        return TestRecord(kind, intent, sides, settings, rounds,
                          "passed" if passed else "failed", sides[0].who if passed else None,
                          None, last.hands[0].best if passed else None)
    if result == "tie" and _chosen(settings, "full_tie") == "defender":
        win = settings["defender"]  # A5's other reading: the defending side takes a full tie
    elif result in ("a", "b"):
        win = 0 if result == "a" else 1
    else:
        return TestRecord(kind, intent, sides, settings, rounds, "stalemate", None, None, None)
    lose = 1 - win
    level = last.hands[win].best
    if level is None:
        raise TestError("a side won without a success")
    return TestRecord(kind, intent, sides, settings, rounds, "won", sides[win].who,
                      sides[lose].who, level, _damage(sides[lose], level, settings))


def _damage(loser: Side, level: SuccessLevel, settings: dict) -> tuple[Damage, ...]:
    """The damage to the loser (BtQ L1241-1242, L1309-1328; D1)."""
    dealt = []
    rep = loser.pool.reputation
    if loser.at_risk is not None:
        area = loser.at_risk
        dealt.append(Damage(loser.who, area.area, "at_risk", level, area.state,
                            damage_after(area.state, level)))
        if rep is not None and rep.name == area.area:
            rep = None  # the reputation was the area at risk: damaged once, by severity (D1)
    if rep is not None:
        hit = SuccessLevel.ORDINARY if settings["reputation_loss_mode"] == "one_step" else level
        dealt.append(Damage(loser.who, rep.name, "reputation", hit, rep.state,
                            damage_after(rep.state, hit)))
    return tuple(dealt)


def _run(kind: str, intent: str, sides: tuple[Side, ...], settings: dict,
         rounds: tuple[Round, ...], current: Round, source: RandomSource,
         decks: dict[str, Deck]) -> TestRecord | PendingTest:
    """Play on from ``current`` until the test ends or a Joker needs declaring."""
    while True:
        awaiting = tuple(h.who for h in current.hands if h.undeclared_joker)
        if not awaiting:
            current = replace(current, comparison=_judge(kind, current))
            rounds += (current,)
        # Every card goes back to its deck after each round: after the test (BtQ L1247-1249),
        # before a retest (D3), and while a Joker waits (the round is kept in the pending
        # test; resume() takes its cards out of fresh decks again).
        for deck in decks.values():
            deck.gather()
        if awaiting:
            return PendingTest(kind, intent, sides, settings, rounds, current, awaiting)
        result = _judged(current).result
        if result not in ("tie", "both_failed") or len(rounds) > settings["max_retests"] or (
                result == "tie" and _chosen(settings, "full_tie") == "defender"):
            return _finish(kind, intent, sides, settings, rounds)
        # D3: both sides shuffle, a new Card of Fate is turned from the whole GM deck (the old
        # one back in it) and the same pools are drawn again (BtQ L1274-1276); under
        # retest_fate = "same" the old Card of Fate stays out and stands (A6: the book says
        # only "redraw the same number of cards").
        same = _chosen(settings, "retest_fate") == "same"
        current = _deal(len(rounds) + 1, sides, settings, source, decks,
                        current.fate if same else None)


def _start(kind: str, given: tuple[object, ...], source: RandomSource,
           settings: Mapping | None, intent: str, retests: int = MAX_RETESTS,
           defender: int = 1) -> TestRecord | PendingTest:
    used = _settings(settings, retests, defender)
    sides = _checked_sides(kind, given, _chosen(used, "unskilled_traits"))
    decks = _decks(sides)
    return _run(kind, intent, sides, used, (), _deal(1, sides, used, source, decks), source,
                decks)


def difficulty_side(difficulty: object) -> Side:
    """The GM's side of a static test (BtQ L1258-1260): ``who`` :data:`DIFFICULTY`, a pool
    of the difficulty's size by key or label (``"challenging"``, ``"Damned Hard!"``) or a
    number of opposition cards (BtQ L1747), from the GM deck. Raises :class:`TestError` for
    an unknown difficulty or a negative or fractional number."""
    if isinstance(difficulty, str):
        key = difficulty.strip().lower().replace(" ", "_").rstrip("!")
        if key not in DIFFICULTIES:
            known = ", ".join(DIFFICULTIES)
            raise TestError(f"unknown difficulty {difficulty!r}: use one of {known}, or a "
                            "number of cards")
        pool = Pool(DIFFICULTY_LABELS[key], DIFFICULTIES[key], personal=False)
    else:
        pool = Pool("Opposition", _count(difficulty, "a difficulty pool"), personal=False)
    return Side(DIFFICULTY, pool, GM_DECK)


def start_contested(a: object, b: object, source: RandomSource, settings: Mapping | None = None,
                    *, intent: str = "", retests: int = MAX_RETESTS, defender: int = 1
                    ) -> TestRecord | PendingTest:
    """Start a contested test of ``a`` against ``b`` (BtQ L1195-1249): the Card of Fate,
    then ``a``'s and ``b``'s pools. Mutual failures and full ties are retested (D3), at most
    ``retests`` times (0: the first such draw is a stalemate; a skirmish's final test under
    the setting ``mutual_fail_final = "stalemate"``, btq_missions A8), each against a new
    Card of Fate or, under the setting ``retest_fate = "same"``, the first one (A6). Under
    the setting ``full_tie = "defender"`` a full tie is no retest: the defending side wins,
    ``defender`` its index (1, ``b``, the side that answers ``a``'s action, unless the caller
    says otherwise; A5, the book is silent, BtQ L1238-1239).

    Returns the :class:`TestRecord`, or a :class:`PendingTest` if a player turned an
    undeclared Joker. ``settings``: campaign settings (overrides or resolved; see
    :mod:`rules.btq.settings`). Raises :class:`TestError` for sides that cannot meet.
    """
    return _start("contested", (a, b), source, settings, intent, retests, defender)


def start_static(side: Side, difficulty: object, source: RandomSource,
                 settings: Mapping | None = None, *, intent: str = ""
                 ) -> TestRecord | PendingTest:
    """Start a static test of ``side`` against a difficulty pool turned by the GM (BtQ
    L1253-1264): a key of :data:`DIFFICULTIES` (or its label, "Damned Hard!") or a number of
    opposition cards the GM sets (a Wealth test, BtQ L1747). The difficulty side is ``who``
    :data:`DIFFICULTY`; if it wins, ``side``'s area at risk takes its best success.
    Otherwise as :func:`start_contested`."""
    return _start("static", (side, difficulty_side(difficulty)), source, settings, intent)


def start_simple(side: Side, source: RandomSource, settings: Mapping | None = None,
                 *, intent: str = "") -> TestRecord | PendingTest:
    """Start a simple test (D4): ``side`` turns its pool against a lone Card of Fate with no
    opposing pool; it passes with at least one success, and its best success is its result.
    Used for Measure gates (acting while Maimed, BtQ L1314-1316, L1322-1324), healing and
    Scavenge. There is no retest and no damage. Otherwise as :func:`start_contested`."""
    return _start("simple", (side,), source, settings, intent)


def resume(pending: PendingTest, declarations: Mapping[str, object],
           source: RandomSource) -> TestRecord | PendingTest:
    """Go on with ``pending`` once every side in ``pending.awaiting`` has named its Joker:
    ``declarations[who]`` is one of the 52 cards (``"7D"``), or ``None`` for the default,
    the Card of Fate (D5). Returns the record, or a new :class:`PendingTest` if a retest
    turns up another Joker.

    Raises :class:`TestError` for a missing or unexpected declaration or a Joker declared
    as a Joker, and :class:`rules.cards.CardError` for a card that does not exist or a
    ``pending`` whose cards could not have been drawn.
    """
    missing = [who for who in pending.awaiting if who not in declarations]
    if missing:
        raise TestError(f"waiting for {', '.join(missing)} to name the Joker")
    extra = [who for who in declarations if who not in pending.awaiting]
    if extra:
        raise TestError(f"{', '.join(extra)} has no Joker to name")
    sides = {s.who: s for s in pending.sides}
    decks = _decks(pending.sides)
    current = pending.current
    decks[GM_DECK].take(current.fate)
    hands = []
    for hand in current.hands:
        if hand.who not in sides or hand.deck != sides[hand.who].deck_name:
            raise TestError(f"the pending test's hand of {hand.who!r} matches none of its sides")
        for card in hand.cards:
            decks[hand.deck].take(card)
        if hand.who in pending.awaiting:
            hand = _declare(hand, declarations[hand.who], current.fate,
                            sides[hand.who].pool.unskilled)
        hands.append(hand)
    return _run(pending.kind, pending.intent, pending.sides, pending.settings, pending.rounds,
                replace(current, hands=tuple(hands)), source, decks)


def _declare(hand: Hand, declared: object, fate: Card, unskilled: bool) -> Hand:
    how = "default" if declared is None else "declared"
    if declared is None:
        declared = fate
    elif isinstance(declared, str):
        declared = parse_card(declared)
    if not isinstance(declared, Card) or declared.is_joker:
        raise TestError(f"{hand.who}'s Joker must be named as one of the 52 cards, "
                        f"not {declared!s}")
    cards = tuple(c.declare(declared) if c.is_joker and c.played_as is None else c
                  for c in hand.cards)
    return _hand(hand.who, hand.deck, cards, fate, unskilled, how)


def _complete(result: TestRecord | PendingTest, source: RandomSource,
              choose_joker: JokerChooser | None) -> TestRecord:
    while isinstance(result, PendingTest):
        pending = result
        result = resume(pending, {who: None if choose_joker is None
                                  else choose_joker(pending, who) for who in pending.awaiting},
                        source)
    return result


def contested_test(a: object, b: object, source: RandomSource, settings: Mapping | None = None,
                   *, intent: str = "", choose_joker: JokerChooser | None = None,
                   retests: int = MAX_RETESTS, defender: int = 1) -> TestRecord:
    """A whole contested test (:func:`start_contested`, ``retests`` and ``defender`` as
    there); Jokers are named by ``choose_joker(pending, who)``, by default as the Card of
    Fate (D5)."""
    return _complete(start_contested(a, b, source, settings, intent=intent, retests=retests,
                                     defender=defender), source, choose_joker)


def static_test(side: Side, difficulty: object, source: RandomSource,
                settings: Mapping | None = None, *, intent: str = "",
                choose_joker: JokerChooser | None = None) -> TestRecord:
    """A whole static test (:func:`start_static`); Jokers as in :func:`contested_test`."""
    return _complete(start_static(side, difficulty, source, settings, intent=intent), source,
                     choose_joker)


def simple_test(side: Side, source: RandomSource, settings: Mapping | None = None,
                *, intent: str = "", choose_joker: JokerChooser | None = None) -> TestRecord:
    """A whole simple test (:func:`start_simple`); Jokers as in :func:`contested_test`."""
    return _complete(start_simple(side, source, settings, intent=intent), source,
                     choose_joker)
