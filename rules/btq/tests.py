"""The card test of *Beat to Quarters* (BtQ L1181-1286; ``rules/btq_characters.md`` §4).

Each side turns over its card pool against one Card of Fate (CoF). A card of the CoF's suit
is an Ordinary success, of its rank a Critical, the CoF itself a Perfect (BtQ L1226-1229).
The side with more Perfects, then Criticals, then Ordinaries wins; if those tie, the
successes are compared card by card, best first, by rank, aces high (BtQ L1238-1239).

>>> from rules.cards import parse_card, parse_cards
>>> fate = parse_card("4S")
>>> grade(parse_card("4C"), fate), grade(parse_card("4S"), fate), grade(parse_card("KS"), fate)
(<SuccessLevel.CRITICAL: 2>, <SuccessLevel.PERFECT: 3>, <SuccessLevel.ORDINARY: 1>)
>>> victor(parse_cards("4C KD KS QH JH 2C"), parse_cards("4H AH 2D 7S"), fate)
'a'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterable, Literal

from rules.cards import Card

Victor = Literal["a", "b", "tie", "both_failed"]


class SuccessLevel(IntEnum):
    """How well one card matches the Card of Fate (BtQ L1226-1229). In damage terms
    Ordinary is Injured, Critical Maimed, Perfect Dead (BtQ L1309-1328)."""

    FAILURE = 0
    ORDINARY = 1
    CRITICAL = 2
    PERFECT = 3


def grade(card: Card, fate: Card, *, unskilled: bool = False) -> SuccessLevel:
    """The success level of ``card`` against the Card of Fate ``fate``.

    A Joker counts as the card its owner declared (``JK=7D``); an undeclared Joker counts as
    the Card of Fate itself, the default choice (``rules/DECISIONS.md`` D5). In an unskilled
    test the result is at most Ordinary (BtQ L1269-1272).
    """
    played = card.played_as if card.played_as is not None else (fate if card.rank == 0 else card)
    if played.rank == fate.rank:
        level = SuccessLevel.PERFECT if played.suit == fate.suit else SuccessLevel.CRITICAL
    elif played.suit == fate.suit:
        level = SuccessLevel.ORDINARY
    else:
        return SuccessLevel.FAILURE
    return SuccessLevel.ORDINARY if unskilled else level


def successes(
    cards: Iterable[Card], fate: Card, *, unskilled: bool = False
) -> list[tuple[SuccessLevel, int]]:
    """The successes among ``cards`` as ``(level, rank)`` pairs, best first: by level, then
    by rank (aces high). This is the order in which ties are broken (BtQ L1238-1239)."""
    found = []
    for card in cards:
        level = grade(card, fate, unskilled=unskilled)
        if level:
            played = card.played_as if card.played_as is not None else (
                fate if card.rank == 0 else card)
            found.append((level, played.rank))
    found.sort(reverse=True)
    return found


def summary(cards: Iterable[Card], fate: Card, *, unskilled: bool = False) -> tuple[int, int, int]:
    """``(perfects, criticals, ordinaries)`` among ``cards``."""
    counts = [0, 0, 0, 0]
    for card in cards:
        counts[grade(card, fate, unskilled=unskilled)] += 1
    return counts[3], counts[2], counts[1]


def compare_successes(a: list[tuple[SuccessLevel, int]], b: list[tuple[SuccessLevel, int]]
                      ) -> Victor:
    """Decide between two lists of successes from :func:`successes` (BtQ L1238-1239):
    no success on either side is ``"both_failed"``; else more Perfects, then Criticals, then
    Ordinaries; else the ranks of the successes pairwise, best first; else ``"tie"``."""
    if not a and not b:
        return "both_failed"
    for level in (SuccessLevel.PERFECT, SuccessLevel.CRITICAL, SuccessLevel.ORDINARY):
        na = sum(1 for lv, _ in a if lv == level)
        nb = sum(1 for lv, _ in b if lv == level)
        if na != nb:
            return "a" if na > nb else "b"
    for (_, ra), (_, rb) in zip(a, b):
        if ra != rb:
            return "a" if ra > rb else "b"
    return "tie"


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
    return compare_successes(
        successes(a_cards, fate, unskilled=a_unskilled),
        successes(b_cards, fate, unskilled=b_unskilled),
    )
