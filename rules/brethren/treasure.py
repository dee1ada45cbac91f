"""Treasure: the coins each player adds, their spread over the wild islands, exploring with
blind draws, the special treasures and the score (Brethren L4-L6, L14, L36-L41, L85-L93;
``rules/brethren.md`` §3.7, §6.10, §8, A19, A28, A35).

A coin is ``{"id", "value", "special": None | "ghost" | "map" | "rum"}``.
"""

from __future__ import annotations

from rules.brethren.data import reference
from rules.dice import d6, pick, shuffled
from rules.random import RandomSource


def coins_per_player(points: int) -> tuple[int, int]:
    """``(coins, gold)`` a player adds for a game of ``points``: 6 coins of 12 gold at 30
    (L36), scaled linearly for other totals (A28)."""
    base = reference("treasure")["per_30_points"]
    return max(1, round(points * base["coins"] / 30)), max(1, round(points * base["gold"] / 30))


def spread_values(coins: int, gold: int) -> list[int]:
    """``coins`` values summing to ``gold``, spread around the mean (the standard pool,
    A28): pairs one below and one above it, so 6 coins of 12 gold are 1, 3, 1, 3, 1, 3."""
    mean, extra = divmod(gold, coins)
    values = [mean + (1 if i < extra else 0) for i in range(coins)]
    for i in range(0, coins - 1, 2):
        if values[i] > 1:
            values[i] -= 1
            values[i + 1] += 1
    return values


def deal(source: RandomSource, coins: list[dict], islands: list[str]) -> dict[str, list[dict]]:
    """Shuffle the pool face down and deal it round-robin over the wild ``islands`` in a
    random order, so the counts differ by at most one (L37; §4 item 7)."""
    pile = shuffled(source, coins, "treasure shuffle")
    order = shuffled(source, islands, "treasure islands")
    out: dict[str, list[dict]] = {i: [] for i in islands}
    for k, coin in enumerate(pile):
        out[order[k % len(order)]].append(coin)
    return out


def blind_draws(source: RandomSource, island: list[dict], room: int) -> tuple[list[dict],
                                                                             list[dict]]:
    """Exploring without an Explorer: coins drawn at random one at a time, each taken
    (L4-L5, L86), until the hold is full or the island bare (the standing choice: fill the
    hold; the rules let the player stop after any draw). Returns ``(taken, left)``."""
    left = list(island)
    taken: list[dict] = []
    while left and len(taken) < room:
        i = pick(source, range(len(left)), "blind treasure draw")
        taken.append(left.pop(i))
        if taken[-1]["special"] in ("ghost", "rum"):
            break  # resolved at once: the search ends there
    return taken, left


def choose_from(island: list[dict], room: int, shown: list[int]) -> list[int]:
    """With coins face up (an Explorer's three, L14; a Treasure Map's all, L39), the standing
    choice: the most valuable ordinary coins among ``shown`` (indexes) that fit."""
    ordinary = [i for i in shown if island[i]["special"] is None]
    return sorted(ordinary, key=lambda i: -island[i]["value"])[:room]


def explorer_look(source: RandomSource, island: list[dict]) -> list[int]:
    """The three coins an Explorer turns over (or all if fewer), as indexes (L14)."""
    idx = list(range(len(island)))
    return sorted(shuffled(source, idx, "explorer look")[:3]) if len(idx) > 3 else idx


def ghost(source: RandomSource) -> str:
    """The Ghostly Encounter's d6 (L38-L39): ``"odd"`` (all treasure aboard lost, home, the
    island barred) or ``"even"`` (the best coin of the island, home)."""
    return "odd" if d6(source, "ghostly encounter") % 2 else "even"


def best_coin(island: list[dict]) -> int | None:
    """The index of the island's most valuable ordinary coin (A35; the first of equals)."""
    ordinary = [i for i, c in enumerate(island) if c["special"] is None]
    return max(ordinary, key=lambda i: island[i]["value"]) if ordinary else None


def rum_value(masts_original: int) -> int:
    """Rum is worth 8 less the original masts of the ship that carried it (L40-L41)."""
    return 8 - masts_original


def coin_value(coin: dict) -> int:
    """Gold of a coin at the end: its value; Rum its stored worth; the others none."""
    if coin["special"] == "rum":
        return coin.get("worth", 0)
    return coin["value"] if coin["special"] is None else 0
