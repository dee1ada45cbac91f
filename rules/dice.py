"""Dice for the wargame engines (Brethren of the Coast, and next HFG and the Viking game).

Every roll goes through a :class:`rules.random.RandomSource` (``source.roll``), which records
it in ``source.log`` as a :class:`rules.random.Draw` with its purpose, exactly as card draws
are recorded: a seeded source (:class:`rules.random.SeededSource`) in play, a scripted one
(:class:`rules.random.ScriptedSource` with ``rolls=[...]``) in tests ("the next dice are 4,
6, 1"). These helpers add what the wargames need on top: a single d6, dice until the totals
differ, and uniform picks and shuffles made of recorded die rolls, so that a blind treasure
draw or a fog bank's random exit is replayed and audited like any other roll.

>>> from rules.random import ScriptedSource
>>> source = ScriptedSource(rolls=[4, 2, 3])
>>> d6(source, "initiative"), pick(source, ["a", "b", "c"], "coin")
(4, 'b')
>>> [str(d) for d in source.log]
['d6 initiative: 4', 'd3 coin: 2']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from rules.random import RandomSource

T = TypeVar("T")

MAX_REROLLS = 50
"""How often a tie is rolled again before it is broken by the order given: with fair dice
the chance of 50 ties in a row is below 1e-35, so this is a guard for a script, not a rule."""


def d6(source: RandomSource, purpose: str) -> int:
    """One six-sided die, recorded with ``purpose``; returns its face (1-6)."""
    return source.roll(6, 1, purpose=purpose)[0]


def roll(source: RandomSource, count: int, sides: int, purpose: str) -> list[int]:
    """``count`` dice of ``sides`` faces, recorded together (``"2d6"`` is ``roll(s, 2, 6)``)."""
    return source.roll(sides, count, purpose=purpose)


def pick(source: RandomSource, items: Sequence[T], purpose: str) -> T:
    """One of ``items`` chosen uniformly with a die of ``len(items)`` faces (recorded as
    ``d<n>``); a single item is taken without a roll. ``ValueError`` for no items."""
    if not items:
        raise ValueError(f"nothing to pick from for {purpose}")
    if len(items) == 1:
        return items[0]
    return items[source.roll(len(items), 1, purpose=purpose)[0] - 1]


def shuffled(source: RandomSource, items: Sequence[T], purpose: str) -> list[T]:
    """``items`` in a uniformly random order: each next one picked (:func:`pick`) from those
    left, so every die is recorded and a script can lay out the order."""
    left = list(items)
    out = []
    while left:
        chosen = pick(source, range(len(left)), purpose)
        out.append(left.pop(chosen))
    return out


def order_by_dice(source: RandomSource, names: Sequence[str], purpose: str,
                  *, ascending: bool = True) -> list[str]:
    """``names`` ordered by one d6 each (lowest first if ``ascending``); tied names roll again
    among themselves until they stand in strict order, keeping their place relative to the
    others (Brethren A17). Dice are rolled in the order of ``names``."""
    groups = [list(names)]
    for _ in range(MAX_REROLLS):
        out, again = [], False
        for group in groups:
            if len(group) == 1:
                out.append(group)
                continue
            faces = {n: d6(source, purpose) for n in group}
            values = sorted(set(faces.values()), reverse=not ascending)
            for v in values:
                tied = [n for n in group if faces[n] == v]
                out.append(tied)
                again = again or len(tied) > 1
        groups = out
        if not again:
            break
    return [n for group in groups for n in group]
