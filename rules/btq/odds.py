"""Exact odds of a card test before any card is turned (``rules/btq_characters.md`` §4, §10.9).

The same test the kernel plays (:func:`rules.btq.tests.victor`), counted instead of drawn:
each side turns its card pool against one Card of Fate (CoF); more Perfects, then
Criticals, then Ordinaries win, and equal counts are broken by the ranks of the successes,
best first (BtQ L1223-1241). A player turns cards from their own deck (52 cards and a Joker),
an NPC or a difficulty pool from the GM deck the CoF came from, so the GM side draws from the
other 51 cards and never scores a Perfect (BtQ L45, L1193, L1223-1224). A Joker counts as its
default card, the CoF itself (``rules/DECISIONS.md`` D5): a Perfect, or an Ordinary in an
unskilled test, where every success counts as an Ordinary (BtQ L1266-1272).

Public API (probabilities as floats, or :class:`fractions.Fraction` with ``exact=True``):

* :func:`first_draw` - one draw: ``"a"``, ``"b"``, ``"tie"`` (equal all the way down the
  tie-break) and ``"both_failed"`` (no success on either side). ``b_pool=0`` against the
  GM deck is the simple test against a lone CoF (D4): ``"a"`` is then the chance of at least
  one success.
* :func:`final` - after the retests of D3 (a tie or a mutual failure is retested with a new
  CoF, at most 10 times in a row, then the test is a stalemate): ``"a"``, ``"b"``,
  ``"stalemate"``; ``full_tie="defender"`` gives a full tie to B, as the campaign setting
  does (``retest_fate`` changes no odds: :func:`final` says why). A simple test is not
  retested: ``"b"`` is its failure.
* :func:`levels` - the chance that one side's best card is a Failure, an Ordinary, a
  Critical or a Perfect.
* ``by_level=True`` adds ``"a_by_level"`` and ``"b_by_level"`` to :func:`first_draw` and
  :func:`final`: the chance that the side wins with each best success level (which sets the
  loser's damage, BtQ L1240-1242); each sums to that side's chance of winning.
* :func:`cache_clear` empties the caches (for cold timings).

>>> first_draw(1, 0, exact=True)["a"]  # a lone card: 2 Perfects, 3 Criticals, 12 Ordinaries
Fraction(17, 53)
>>> levels(1, deck="gm", exact=True)["critical"]  # 3 of the GM deck's 51 cards
Fraction(1, 17)
>>> odds = first_draw(6, 4)  # O'Toole's 6 cards against Captain Jones's 4 (BtQ L1208-1216)
>>> {k: round(v, 4) for k, v in odds.items()}
{'a': 0.6964, 'b': 0.2725, 'tie': 0.0111, 'both_failed': 0.02}
>>> {k: round(v, 4) for k, v in final(6, 4, by_level=True)["a_by_level"].items()}
{'ordinary': 0.261, 'critical': 0.2353, 'perfect': 0.2224}
>>> {k: round(v, 4) for k, v in final(6, 4).items()}
{'a': 0.7187, 'b': 0.2813, 'stalemate': 0.0}

Method. Against a given CoF every card falls into one of five groups: the CoF's twin (only in
a player deck), the Joker (only in a player deck), the 3 other cards of the CoF's rank
(Criticals), the 12 other cards of its suit (Ordinaries, each of a different rank) and the 36
others (Failures). A side's draw is multivariate hypergeometric over these groups, which gives
its counts of Perfects (twin and Joker), Criticals and Ordinaries. Two sides on different
decks draw independently; two GM sides draw jointly from the same 51 cards, so the second
side's groups are what the first left.

Counts decide most draws. When the counts are equal, Perfects and Criticals all carry the
CoF's rank and tie; what is left is the ranks of the Ordinaries: a uniformly random set of k
of the 12 other ranks on each side (disjoint sets when the two sides share the GM deck). An
unskilled side's Criticals and Perfects become Ordinaries of the CoF's own rank, and then
where that rank lies among the others matters; :func:`_tiebreak_counts` counts the pairs of
rank sets won by each side for each of the 13 CoF ranks (suits are symmetric), scanning the
ranks from the Ace down as the kernel's comparison does. Everything is counted in integers
and divided once, so results are exact.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, factorial

from rules.btq.settings import SETTINGS
from rules.btq.tests import SuccessLevel
from rules.cards import DECK_KINDS, GM_DECK, PLAYER_DECK

LEVEL_NAMES = tuple(level.name.lower() for level in SuccessLevel)
"""``("failure", "ordinary", "critical", "perfect")``: the keys of the level distributions."""

_OTHER_RANKS = 12  # ranks of the CoF's suit other than its own: the Ordinaries
_RANKS = 13
# Card groups against the CoF: (Perfects, Criticals, Ordinaries, Failures). A player deck's
# Perfects are the CoF's twin and the Joker; the GM deck's twin is the CoF, out of the deck.
_COMPOSITION = {PLAYER_DECK: (2, 3, _OTHER_RANKS, 36), GM_DECK: (0, 3, _OTHER_RANKS, 36)}
_DECK_SIZE = {kind: sum(groups) for kind, groups in _COMPOSITION.items()}
# Tie-break odds are counts of pairs of rank sets over 13 CoF ranks; every such total
# (13 * C(12, a) * C(12, b), or 13 times a multinomial for a shared deck) divides this.
_SCALE = _RANKS * factorial(_OTHER_RANKS) ** 2
# A draw's count key (Perfects, Criticals, Ordinaries) as one integer in the same order;
# an unskilled player can hold 2 + 3 + 12 = 17 Ordinaries.
_N1, _N2 = 18, 4


def _key(perfects: int, criticals: int, ordinaries: int) -> int:
    return (perfects * _N2 + criticals) * _N1 + ordinaries


def _level(key: int) -> int:
    """The best success level of a count key (the key order puts the levels in order)."""
    if key >= _N1 * _N2:
        return SuccessLevel.PERFECT
    if key >= _N1:
        return SuccessLevel.CRITICAL
    return SuccessLevel.ORDINARY if key else SuccessLevel.FAILURE


@dataclass(frozen=True, slots=True)
class _Side:
    """The distribution of one side's draw, as integer weights over ``total`` equally likely
    draws.

    ``outcomes``: ``(weight, key, j, criticals, k, failures)`` per count of cards of each
    group, where ``key`` is the count key, ``j`` the Ordinaries of the CoF's rank (an unskilled
    side's Perfects and Criticals) and ``k`` the cards of the 12 other ranks of its suit.
    ``keys`` are the distinct keys in order, ``below[i]`` the weight under ``keys[i]``
    (``below[-1]`` is ``total``), ``groups[key]`` the ``(j, k, weight)`` within a key and
    ``level_weight`` the weight of each best level.
    """

    total: int
    outcomes: tuple[tuple[int, int, int, int, int, int], ...]
    keys: tuple[int, ...]
    below: tuple[int, ...]
    groups: dict[int, tuple[tuple[int, int, int], ...]]
    level_weight: tuple[int, int, int, int]


@lru_cache(maxsize=8192)
def _side(composition: tuple[int, int, int, int], pool: int, unskilled: bool) -> _Side:
    perfect, critical, ordinary, failure = composition
    outcomes = []
    groups: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    level_weight = [0, 0, 0, 0]
    for p in range(min(perfect, pool) + 1):
        for c in range(min(critical, pool - p) + 1):
            for k in range(min(ordinary, pool - p - c) + 1):
                f = pool - p - c - k
                if f > failure:
                    continue
                weight = comb(perfect, p) * comb(critical, c) * comb(ordinary, k) * comb(failure, f)
                key, j = (_key(0, 0, p + c + k), p + c) if unskilled else (_key(p, c, k), 0)
                outcomes.append((weight, key, j, c, k, f))
                groups[key].append((j, k, weight))
                level_weight[_level(key)] += weight
    keys = tuple(sorted(groups))
    below = [0]
    for key in keys:
        below.append(below[-1] + sum(w for _, _, w in groups[key]))
    return _Side(
        total=below[-1],
        outcomes=tuple(outcomes),
        keys=keys,
        below=tuple(below),
        groups={key: tuple(g) for key, g in groups.items()},
        level_weight=(level_weight[0], level_weight[1], level_weight[2], level_weight[3]),
    )


def _tiebreak_counts(ja: int, ka: int, jb: int, kb: int, shared: bool) -> tuple[int, int, int]:
    """Pairs of Ordinary rank sets won by A, won by B and tied, for equal Ordinary counts
    (``ja + ka == jb + kb``), summed over the 13 places of the CoF's rank among the others.

    Side A holds ``ja`` Ordinaries of the CoF's rank and a set of ``ka`` of the 12 other
    ranks; B likewise. The sets range over every pair (every disjoint pair if ``shared``).
    Scanning the ranks from the Ace down, the first rank held more times by one side wins it
    (its sorted list is higher there, and the lists are equally long: BtQ L1238-1239). The
    scan of the 12 other ranks is the same wherever the CoF's rank lies; only the pairs still
    alike when the scan reaches it are decided there, by ``ja`` against ``jb``.
    """
    def completions(ia: int, ib: int, left: int) -> int:
        ra, rb = ka - ia, kb - ib
        if ra < 0 or rb < 0 or (shared and ra + rb > left):
            return 0
        return comb(left, ra) * comb(left - ra if shared else left, rb)

    a = b = 0  # pairs decided so far for A, for B
    a_all = b_all = 0  # the same, summed over the places of the CoF's rank
    alike = {0: 1}  # ranks taken by each side so far, the ranks scanned alike -> ways
    left = _OTHER_RANKS
    for _ in range(_RANKS):  # the CoF's rank lies below the ranks scanned so far
        if ja != jb:
            decided = sum(w * completions(i, i, left) for i, w in alike.items())
            a_all += a + decided * (ja > jb)
            b_all += b + decided * (jb > ja)
        if not left:
            break
        left -= 1
        scanned: dict[int, int] = defaultdict(int)
        for i, w in alike.items():
            scanned[i] += w
            if i < ka and i < kb and not shared:
                scanned[i + 1] += w
            if i < ka:
                a += w * completions(i + 1, i, left)
            if i < kb:
                b += w * completions(i, i + 1, left)
        alike = scanned
    if ja != jb:
        return a_all, b_all, 0
    return _RANKS * a, _RANKS * b, _RANKS * alike.get(ka, 0)  # here ka == kb


@cache
def _tiebreak(ja: int, ka: int, jb: int, kb: int, shared: bool) -> tuple[int, int, int]:
    """A's win, B's win and the tie for equal count keys, as numerators over ``_SCALE``,
    averaged over the 13 ranks of the CoF."""
    pairs = comb(_OTHER_RANKS, ka) * comb(_OTHER_RANKS - ka if shared else _OTHER_RANKS, kb)
    unit = _SCALE // (_RANKS * pairs)
    a, b, tie = _tiebreak_counts(ja, ka, jb, kb, shared)
    return a * unit, b * unit, tie * unit


@dataclass(frozen=True, slots=True)
class _Odds:
    """Exact odds of one draw; ``a_by_level[level]`` is A's win with that best level,
    ``tie_by_level[level]`` a full tie at that level."""

    a: Fraction
    b: Fraction
    tie: Fraction
    both_failed: Fraction
    a_by_level: tuple[Fraction, ...]
    b_by_level: tuple[Fraction, ...]
    tie_by_level: tuple[Fraction, ...] = (Fraction(0),) * 3


def _check_side(pool: int, deck: str, prefix: str = "") -> None:
    if deck not in DECK_KINDS:
        raise ValueError(f"{prefix}deck must be 'player' or 'gm', not {deck!r}")
    if not isinstance(pool, int) or isinstance(pool, bool):
        raise ValueError(f"{prefix}pool must be a whole number of cards, not {pool!r}")
    if not 0 <= pool <= _DECK_SIZE[deck]:
        raise ValueError(
            f"{prefix}pool of {pool} cards: a pool is 0 to {_DECK_SIZE[deck]} cards from the "
            f"{deck} deck"
        )


def _check_contest(a_pool: int, b_pool: int, a_deck: str, b_deck: str) -> None:
    _check_side(a_pool, a_deck, "a_")
    _check_side(b_pool, b_deck, "b_")
    if a_deck == b_deck == GM_DECK and a_pool + b_pool > _DECK_SIZE[GM_DECK]:
        raise ValueError(
            f"two GM pools of {a_pool} and {b_pool} cards: together they draw at most "
            f"{_DECK_SIZE[GM_DECK]} cards from the GM deck"
        )


@lru_cache(maxsize=4096)
def _first_draw(a_pool: int, b_pool: int, a_deck: str, b_deck: str, a_unskilled: bool,
                b_unskilled: bool) -> _Odds:
    """One draw, counted as the module docstring says; arguments checked by the caller."""
    shared = a_deck == b_deck == GM_DECK
    side_a = _side(_COMPOSITION[a_deck], a_pool, a_unskilled)
    side_b = _side(_COMPOSITION[b_deck], b_pool, b_unskilled)
    a_win, b_win, tie = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]
    both_failed = 0
    for weight, key, ja, criticals, ka, failures in side_a.outcomes:
        if shared:  # B draws from what A left of the GM deck
            _, gm_criticals, gm_ordinaries, gm_failures = _COMPOSITION[GM_DECK]
            left = (0, gm_criticals - criticals, gm_ordinaries - ka, gm_failures - failures)
            side_b = _side(left, b_pool, b_unskilled)
        level = _level(key)
        lo = bisect_left(side_b.keys, key)
        same = lo < len(side_b.keys) and side_b.keys[lo] == key
        scaled = weight * _SCALE
        a_win[level] += scaled * side_b.below[lo]
        higher = 0
        for better in range(level + 1, 4):
            b_win[better] += scaled * side_b.level_weight[better]
            higher += side_b.level_weight[better]
        b_win[level] += scaled * (side_b.total - side_b.below[lo + same] - higher)
        if not same:
            continue
        for jb, kb, weight_b in side_b.groups[key]:
            if level == SuccessLevel.FAILURE:
                both_failed += scaled * weight_b
                continue
            ta, tb, tt = _tiebreak(ja, ka, jb, kb, shared)
            a_win[level] += weight * weight_b * ta
            b_win[level] += weight * weight_b * tb
            tie[level] += weight * weight_b * tt
    whole = side_a.total * side_b.total * _SCALE
    a_by_level = tuple(Fraction(n, whole) for n in a_win[1:])
    b_by_level = tuple(Fraction(n, whole) for n in b_win[1:])
    tie_by_level = tuple(Fraction(n, whole) for n in tie[1:])
    return _Odds(sum(a_by_level, Fraction(0)), sum(b_by_level, Fraction(0)),
                 sum(tie_by_level, Fraction(0)), Fraction(both_failed, whole), a_by_level,
                 b_by_level, tie_by_level)


def _out(value: Fraction, exact: bool) -> Fraction | float:
    return value if exact else float(value)


def _by_level(values: tuple[Fraction, ...], exact: bool) -> dict:
    return {name: _out(v, exact) for name, v in zip(LEVEL_NAMES[1:], values)}


def first_draw(
    a_pool: int,
    b_pool: int,
    *,
    a_deck: str = PLAYER_DECK,
    b_deck: str = GM_DECK,
    a_unskilled: bool = False,
    b_unskilled: bool = False,
    exact: bool = False,
    by_level: bool = False,
) -> dict:
    """The odds of one draw of a test, before the CoF is turned (BtQ L1223-1241, L1266-1272).

    ``a_pool``, ``b_pool``: cards each side turns (0 up to its deck: 53 for ``"player"``,
    51 for ``"gm"``; two GM sides share the 51 cards). ``a_deck``, ``b_deck``: ``"player"``
    (the side's own 52 cards and a Joker; two player sides use two players' decks) or ``"gm"``
    (the GM deck less the CoF). ``a_unskilled``, ``b_unskilled``: every success counts as an
    Ordinary (the book's unskilled test turns 1 card; any pool is computed). Jokers are played
    as the CoF (D5). ``b_pool=0`` on the GM deck is a simple test (D4).

    Returns ``{"a", "b", "tie", "both_failed"}`` summing to 1 (floats, or Fractions with
    ``exact=True``), with the keys of :func:`victor <rules.btq.tests.victor>`. With
    ``by_level=True`` also ``"a_by_level"`` and ``"b_by_level"``: ``{"ordinary", "critical",
    "perfect"}``, the chance the side wins with that best success. Raises :class:`ValueError`
    for an unknown deck or a pool below 0 or beyond its deck.
    """
    _check_contest(a_pool, b_pool, a_deck, b_deck)
    odds = _first_draw(a_pool, b_pool, a_deck, b_deck, bool(a_unskilled), bool(b_unskilled))
    result: dict[str, Fraction | float | dict] = {
        "a": _out(odds.a, exact),
        "b": _out(odds.b, exact),
        "tie": _out(odds.tie, exact),
        "both_failed": _out(odds.both_failed, exact),
    }
    if by_level:
        result["a_by_level"] = _by_level(odds.a_by_level, exact)
        result["b_by_level"] = _by_level(odds.b_by_level, exact)
    return result


@lru_cache(maxsize=4096)
def _final(a_pool: int, b_pool: int, a_deck: str, b_deck: str, a_unskilled: bool,
           b_unskilled: bool, max_retests: int, tie_to_b: bool) -> _Odds:
    odds = _first_draw(a_pool, b_pool, a_deck, b_deck, a_unskilled, b_unskilled)
    if b_pool == 0 and b_deck == GM_DECK:  # a simple test: no success is a failure (D4)
        return _Odds(odds.a, odds.both_failed, Fraction(0), Fraction(0),
                     odds.a_by_level, (Fraction(0), Fraction(0), Fraction(0)))
    again = odds.both_failed + (0 if tie_to_b else odds.tie)
    b_by_level = tuple(b + t for b, t in zip(odds.b_by_level, odds.tie_by_level)) \
        if tie_to_b else odds.b_by_level
    stalemate = again ** (max_retests + 1)
    draws = (1 - stalemate) / (1 - again) if again != 1 else Fraction(max_retests + 1)
    return _Odds(odds.a * draws, sum(b_by_level, Fraction(0)) * draws, stalemate, Fraction(0),
                 tuple(p * draws for p in odds.a_by_level),
                 tuple(p * draws for p in b_by_level))


def final(
    a_pool: int,
    b_pool: int,
    *,
    a_deck: str = PLAYER_DECK,
    b_deck: str = GM_DECK,
    a_unskilled: bool = False,
    b_unskilled: bool = False,
    max_retests: int = 10,
    full_tie: str = "retest",
    exact: bool = False,
    by_level: bool = False,
) -> dict:
    """The odds of a whole test, retests included (``rules/DECISIONS.md`` D3; BtQ L1274-1276),
    as :func:`rules.btq.tests.start_contested` plays it under the campaign settings
    (``rules.btq.settings``).

    A mutual failure is retested with the same pools, and so is a full tie under the setting
    ``full_tie="retest"`` (the default); under ``full_tie="defender"`` a full tie is B's win,
    with the level both sides tied at (B answers A's action: the opposition, or the difficulty
    of a static test; btq_characters A5). At most ``max_retests`` retests follow in a row (the
    first draw plus at most that many); if the last is still undecided the test is a
    stalemate. A simple test (``b_pool=0`` on the GM deck, D4) is never retested: ``"b"`` is
    then the chance that it fails.

    The setting ``retest_fate`` (a retest turns a new CoF or keeps the first, A6) changes none
    of these odds, so it is no argument. Every draw is alike but for the CoF's rank, which
    matters only in a tie-break where one side holds more Ordinaries of that rank (an
    unskilled side's Criticals and Perfects) than the other: where the rank lies among the
    others says who wins it, but someone does wherever it lies, and with as many on each side
    its place changes nothing. So a draw is tied, or a mutual failure, with the same chance
    whatever the CoF, and each retest is reached as often under either reading; each side
    then wins a kept CoF's draws as often as new ones'.

    Arguments as :func:`first_draw`, plus ``max_retests`` (a whole number, at least 0) and
    ``full_tie`` (``"retest"`` or ``"defender"``). Returns ``{"a", "b", "stalemate"}`` summing
    to 1, and with ``by_level=True`` ``"a_by_level"`` and ``"b_by_level"`` (the winner's best
    level in the deciding draw). Raises :class:`ValueError` as :func:`first_draw`, or for a
    bad ``max_retests`` or ``full_tie``.
    """
    _check_contest(a_pool, b_pool, a_deck, b_deck)
    if not isinstance(max_retests, int) or isinstance(max_retests, bool) or max_retests < 0:
        raise ValueError(f"max_retests must be a whole number, at least 0, not {max_retests!r}")
    if full_tie not in SETTINGS["full_tie"].choices:
        allowed = " or ".join(repr(c) for c in SETTINGS["full_tie"].choices)
        raise ValueError(f"full_tie must be {allowed}, not {full_tie!r}")
    odds = _final(a_pool, b_pool, a_deck, b_deck, bool(a_unskilled), bool(b_unskilled),
                  max_retests, full_tie == "defender")
    result: dict[str, Fraction | float | dict] = {"a": _out(odds.a, exact),
                                                  "b": _out(odds.b, exact),
              "stalemate": _out(odds.tie, exact)}
    if by_level:
        result["a_by_level"] = _by_level(odds.a_by_level, exact)
        result["b_by_level"] = _by_level(odds.b_by_level, exact)
    return result


def levels(pool: int, *, deck: str = PLAYER_DECK, unskilled: bool = False,
           exact: bool = False) -> dict:
    """The chance of each best success level of one side's draw (BtQ L1226-1229, L1256).

    Returns ``{"failure", "ordinary", "critical", "perfect"}`` summing to 1: the chance
    that the best card of a ``pool``-card draw from a ``deck`` (``"player"`` or ``"gm"``) is
    of that level (``"failure"``: no success at all). Unskilled, the best is an Ordinary.
    Raises :class:`ValueError` as :func:`first_draw`.
    """
    _check_side(pool, deck)
    side = _side(_COMPOSITION[deck], pool, bool(unskilled))
    return {name: _out(Fraction(w, side.total), exact)
            for name, w in zip(LEVEL_NAMES, side.level_weight)}


def cache_clear() -> None:
    """Forget every cached result (the next calls are computed cold)."""
    for cached in (_side, _tiebreak, _first_draw, _final):
        cached.cache_clear()
