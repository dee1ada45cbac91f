"""Seascapes: reefs, the Sargasso Sea, fog banks and wrecks (Brethren L23-L34, L64-L65;
``rules/brethren.md`` §3.5, §6.3, A9, A10, A11).

A terrain piece is ``{"id", "kind": "reef" | "sargasso" | "fog" | "wreck", "x", "y", "r",
"rating": None | die}``; the rating is the depth or thickness rolled by the first ship to
meet it this turn and holds for every ship until the turn ends (L27, L30; A11). The raw die
is stored: Agustin Covas's +1/-1 counts for his own ship only (A10).
"""

from __future__ import annotations

from rules.brethren.geometry import S, unit
from rules.dice import d6
from rules.random import RandomSource

KINDS = ("reef", "sargasso", "fog", "wreck")


def _rating(piece: dict, source: RandomSource, what: str) -> int:
    if piece.get("rating") is None:
        piece["rating"] = d6(source, f"{what} {piece['id']}")
    return piece["rating"]


def reef_loss(masts_original: int, depth: int) -> int:
    """The masts a reef of ``depth`` takes: the original masts above the depth (L27-L29)."""
    return max(0, masts_original - depth)


def reef_check(piece: dict, ship_masts_original: int, masts_remaining: int,
               source: RandomSource, *, covas: bool = False) -> tuple[int, bool]:
    """A ship moves onto reef ``piece``: its depth (rolled now if nobody has this turn; +1 for
    Covas aboard, L17, A10). Returns ``(masts to remove, sinks)``: she sinks on the reef
    (and leaves a wreck) when it would take more masts than she has left (A9)."""
    depth = _rating(piece, source, "reef depth") + (1 if covas else 0)
    loss = reef_loss(ship_masts_original, depth)
    if loss > masts_remaining or (loss and masts_remaining == 0):
        return masts_remaining, True
    return loss, False


def sargasso_check(piece: dict, ship_masts_original: int, source: RandomSource, *,
                   covas: bool = False) -> bool:
    """A ship sails over Sargasso ``piece``: tangled when its thickness (rolled now if nobody
    has this turn; -1 for Covas aboard, L17) is above her original masts (L30-L32)."""
    thickness = _rating(piece, source, "sargasso thickness") - (1 if covas else 0)
    return thickness > ship_masts_original


def free_from_sargasso(masts_remaining: int, source: RandomSource) -> bool:
    """The freeing roll, a move action: d6 plus the masts left, above 6 frees her; she may
    move from the next turn (L32-L34)."""
    return d6(source, "free from the sargasso") + masts_remaining > 6


def fog_drift(piece: dict, wind_dir: int) -> dict:
    """A fog bank after drifting 1 S the way the wind blows (L27)."""
    ux, uy = unit(wind_dir * 45.0)
    return {**piece, "x": round(piece["x"] + ux * S, 3), "y": round(piece["y"] + uy * S, 3)}


def clear_ratings(terrain: list[dict]) -> list[dict]:
    """The pieces with this turn's depths and thicknesses forgotten (the turn ended)."""
    return [{**p, "rating": None} if p.get("rating") is not None else p for p in terrain]
