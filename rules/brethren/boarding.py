"""Ramming, fouling and boarding (Brethren L22, L48, L57-L60, L77-L79; ``rules/brethren.md``
§6.2.4, §6.4, §6.5, A12, A13, A14, A23)."""

from __future__ import annotations

from rules.dice import MAX_REROLLS, d6
from rules.random import RandomSource


def ram(target_masts: int, source: RandomSource, purpose: str = "ram") -> tuple[bool, int]:
    """A ram, a free action after a move that brings the bow against an enemy (L59): the
    target loses a mast when the d6 is greater than her masts left. Returns ``(mast lost,
    die)``."""
    die = d6(source, purpose)
    return die > target_masts, die


def rammer_fouled(target_derelict_after: bool) -> bool:
    """The rammer is fouled with her target unless the ram left it derelict (L60)."""
    return not target_derelict_after


def board(source: RandomSource, attacker_masts: int, defender_masts: int, *,
          attacker_bonus: int = 0, defender_bonus: int = 0, attacker_rampage: bool = False,
          defender_rampage: bool = False) -> dict:
    """A boarding party (L77-L78): each side rolls d6 plus its masts left and its bonuses
    (+1 Captain of Marines, L14; +2 Genny's Red Rampage, L22); the higher total wins, ties
    are rolled again (A12). A natural 6 on the Rampage side's die makes the enemy surrender
    (L22). The attacker's die is rolled first. Returns ``{"winner": "attacker" |
    "defender", "surrender": bool, "rolls": [(a_die, d_die), ...], "totals": (a, d)}``."""
    rolls = []
    for _ in range(MAX_REROLLS):
        a, d = d6(source, "boarding attacker"), d6(source, "boarding defender")
        rolls.append((a, d))
        if attacker_rampage and a == 6:
            return {"winner": "attacker", "surrender": True, "rolls": rolls,
                    "totals": (a + attacker_masts + attacker_bonus,
                               d + defender_masts + defender_bonus)}
        if defender_rampage and d == 6:
            return {"winner": "defender", "surrender": True, "rolls": rolls,
                    "totals": (a + attacker_masts + attacker_bonus,
                               d + defender_masts + defender_bonus)}
        ta, td = a + attacker_masts + attacker_bonus, d + defender_masts + defender_bonus
        if ta != td:
            return {"winner": "attacker" if ta > td else "defender", "surrender": False,
                    "rolls": rolls, "totals": (ta, td)}
    return {"winner": "attacker", "surrender": False, "rolls": rolls, "totals": (0, 0)}


def boarding_bonus(crew: list[str]) -> int:
    """+1 for a Captain of Marines using his boarding option, +2 for Red Rampage."""
    return (1 if "marines" in crew else 0) + (2 if "red_rampage" in crew else 0)
