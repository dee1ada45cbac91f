"""The set-up procedure (Brethren L10-L12, L23-L25, L34-L41; ``rules/brethren.md`` §4, A29,
errata BR-6), for a setup that asks for it (``"procedure": true``) rather than giving the
islands and the ships' places itself.

1. Player order: a d6 for each player (a side that is not an NPC's), ties rolled again;
   the highest is first player (L23).
2. Islands: players + 2 of them (A29), or six with ``brethren_island_count`` = ``six``
   (the base game's recommendation for 30 points, BR-6), placed one at a time in player
   order. The standing choice for where: evenly round the sea's centre, at least 2 L
   apart (BR-6), each at least 1 S from every terrain piece (L25).
3. Home islands (L34-L36, A29): the player who placed the last island chooses the first
   player's home; then each player chooses the next one's, always a different island. The
   standing choice: the free island farthest from the homes already chosen (the first:
   the first placed).
4. Each player's ships lie with their bows touching their home island (L35), facing it,
   side by side on the side toward the sea's centre.
5. The treasure is spread over the wild islands as in every game (§3.7); the initial wind
   is the setup's, read as the last player's choice (L41).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import atan2, cos, hypot, pi, sin

from rules.brethren.geometry import EPSILON, L, S, footprint, heading_to
from rules.dice import order_by_dice
from rules.random import RandomSource

ISLAND_COUNTS = ("players_plus_2", "six")


def island_count(players: int, mode: str = "players_plus_2") -> int:
    """How many islands (A29: players + 2; BR-6: six)."""
    return 6 if mode == "six" else players + 2


def island_places(w: float, h: float, n: int, r: float,
                  terrain: Sequence[dict] = ()) -> list[tuple[float, float]]:
    """Where the ``n`` islands of radius ``r`` go on a ``w`` x ``h`` sea (the standing
    choice): evenly on an ellipse round the centre, the first at the west. ``ValueError``
    when the sea is too small to keep them 2 L apart (BR-6) and clear of the terrain by
    1 S (L25)."""
    cx, cy = w / 2, h / 2
    rx, ry = w / 2 - r - L, h / 2 - r - L
    if rx <= 0 or ry <= 0:
        raise ValueError(f"the sea is too small for the set-up: {n} islands do not fit")
    out = [(round(cx - rx * cos(2 * pi * k / n), 2), round(cy + ry * sin(2 * pi * k / n), 2))
           for k in range(n)]
    for i, a in enumerate(out):
        for b in out[:i]:
            if hypot(a[0] - b[0], a[1] - b[1]) - 2 * r < 2 * L - EPSILON:
                raise ValueError(f"the sea is too small for the set-up: {n} islands cannot "
                                 "lie 2 L apart")
        for t in terrain:
            if hypot(a[0] - t["x"], a[1] - t["y"]) - r - t["r"] < S - EPSILON:
                raise ValueError(f"terrain {t['id']!r} lies within S of an island of the "
                                 "set-up (L25): place it elsewhere")
    return out


def player_order(source: RandomSource, sides: list[str]) -> list[str]:
    """A d6 each, highest first, ties rolled again (L23, A17)."""
    return order_by_dice(source, sides, "player order", ascending=False)


def choose_homes(order: list[str], places: list[tuple[float, float]]) -> dict[str, int]:
    """Each player's home island (index into ``places``), by the standing choice (module
    docstring, step 3): the first player's is the first placed; each next one the free
    island farthest from the homes chosen so far."""
    homes: dict[str, int] = {}
    for side in order:
        free = [i for i in range(len(places)) if i not in homes.values()]
        if not homes:
            homes[side] = free[0]
            continue
        taken = [places[i] for i in homes.values()]
        homes[side] = max(free, key=lambda i: (min(hypot(places[i][0] - x, places[i][1] - y)
                                                   for x, y in taken), -i))
    return homes


def berths(island: dict, masts: list[int], centre: tuple[float, float]
           ) -> list[tuple[float, float, float]]:
    """``(x, y, heading)`` for ships of ``masts`` masts each, bows touching ``island``
    (L35), facing it, side by side round it from the point toward ``centre``."""
    toward = atan2(centre[1] - island["y"], centre[0] - island["x"])
    out = []
    for k, n in enumerate(masts):
        length, beam = footprint(n)
        step = (beam + 0.4) / (island["r"] + 0.2)
        a = toward + (k + 1) // 2 * step * (1 if k % 2 else -1)
        d = island["r"] + length / 2 + 0.02
        x, y = island["x"] + d * cos(a), island["y"] + d * sin(a)
        heading = heading_to(x, y, island["x"], island["y"])
        out.append((round(x, 3), round(y, 3), round(heading, 1)))
    return out
