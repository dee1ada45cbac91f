"""Cannons, boarding and damage in British vs Pirates (``british_vs_pirates.md`` §6, §7;
[L113-L173]).

Pure arithmetic first (:func:`cannon_hits`, :func:`target_number`, :func:`damage`,
:func:`boarding_result`), so the book's worked examples are tested on the numbers alone; then
what reads a game state (:func:`profile`, :func:`targets`). Dice are rolled by the engine
through the random source; nothing here draws.
"""

from __future__ import annotations

from rules.bvp import hexes
from rules.bvp.movement import afloat, captain_card, fleet, ship_card, size_bonus

RANGES = (1, 2, 3, 4)


def cannon_hits(dice: list[int], accuracy: int, target: int) -> int:
    """The hits of one volley [L133-L142] (§6.3 step 7): each die that is not a natural 1
    and whose face plus ``accuracy`` (the profile's, cards' and captain's together) reaches
    ``target`` (ties go to the attacker)."""
    return sum(1 for d in dice if d != 1 and d + accuracy >= target)


def target_number(dice: dict, defence: dict, side: str, bonus: int = 0) -> int:
    """What each die must reach against ``side`` [L141, L169] (§6.3 step 6): that side's D6
    (the Structure D6 once it is removed) plus the side's printed defence, plus ``bonus``
    (a Yellow card). ``dice`` maps side -> face or ``None`` (removed)."""
    face = dice[side] if dice[side] is not None else dice["structure"]
    value: int = face + defence[side] + bonus
    return value


def damage(dice: dict, side: str, hits: int, reading: str = "a") -> tuple[dict, list[str]]:
    """``dice`` after ``hits`` points of damage on ``side`` (``"structure"`` for boarding
    damage, [L159]) and the D6s removed, in order (``"structure"`` among them: sunk) (§6.4).
    Each hit turns the side's D6 down one; a side die gone, the hit turns the Structure D6.
    ``reading`` decides a D6 at its last face (A4, errata BV-2): ``"a"`` it stays at 1 and
    the next hit removes it (a die absorbs its face in hits); ``"b"`` it is removed on
    reaching 1; ``"c"`` at 1 the next hit removes it and the same hit turns the Structure
    D6. The same reading holds for the Structure D6 (removing it sinks the ship)."""
    if reading not in ("a", "b", "c"):
        raise ValueError(f"no reading {reading!r} of a die at its last face")
    out = dict(dice)
    removed: list[str] = []
    for _ in range(hits):
        if out["structure"] is None:
            break
        key = side if side != "structure" and out[side] is not None else "structure"
        if out[key] > 1:
            out[key] -= 1
            if reading == "b" and out[key] == 1:
                out[key] = None
                removed.append(key)
        else:
            out[key] = None
            removed.append(key)
            if reading == "c" and key != "structure":
                if out["structure"] > 1:
                    out["structure"] -= 1
                else:
                    out["structure"] = None
                    removed.append("structure")
    return out, removed


def boarding_result(attacker_die: int, attacker_total: int, defender_die: int,
                    defender_total: int) -> str:
    """Who fails a boarding [L159] (§7 table): ``"attacker"`` wins, ``"defender"`` wins, or
    ``"both_fail"`` (both rolled a natural 1, A7). A natural 1 fails whatever the totals;
    otherwise the lower total fails and a tie goes to the attacker."""
    if attacker_die == 1 and defender_die == 1:
        return "both_fail"
    if attacker_die == 1:
        return "defender"
    if defender_die == 1:
        return "attacker"
    return "attacker" if attacker_total >= defender_total else "defender"


def morale(ship: dict) -> int:
    """The captain's current Crew Morale (0 for a merchant without a captain, BV-1)."""
    value: int = ship["morale"] or 0
    return value


def boarding_bonus(state: dict, ship: dict, role: str) -> int:
    """The captain's Grapple (``role="attack"``) or Repel (``"defend"``) [L158], with his
    ship-size bonus of that kind; 0 without a captain."""
    cap = captain_card(state, ship)
    if cap is None:
        return 0
    key = "grapple" if role == "attack" else "repel"
    value: int = cap[key] + size_bonus(state, ship, key)
    return value


def profile(state: dict, ship: dict, rng: int) -> tuple[int, int] | None:
    """``(dice, accuracy)`` of the ship's cannons at ``rng`` hexes [L138-L146], or ``None``
    where the card says X (or beyond 4); accuracy includes the captain's size bonus."""
    if rng not in RANGES:
        return None
    cannon = state["cards"]["cannons"][ship_card(state, ship)["cannon"]]
    n, acc = cannon["dice"][rng - 1], cannon["accuracy"][rng - 1]
    if n is None:
        return None
    return n, acc + size_bonus(state, ship, "accuracy")


def blocked(state: dict) -> set[hexes.Hex]:
    """Hexes that block a line of sight: a ship afloat, or land [L119]."""
    cells = {(s["q"], s["r"]) for s in fleet(state) if afloat(s)}
    return cells | set(hexes.land_cells(state["tiles"]))


def targets(state: dict, ship: dict) -> dict[str, list[tuple[str, str]]]:
    """What ``ship`` may fire at now, by arc: ``{"port": [(target id, side), ...],
    "starboard": [...]}`` [L115-L129]: enemy ships afloat in the arc (the setting
    ``bvp_firing_arc``, A1), at a range the cannons reach, with a clear line of sight,
    and each side of theirs exposed to the shot (A2). An arc whose guns are silenced by a
    penalty has no targets."""
    here = (ship["q"], ship["r"])
    reading = state["settings"].get("bvp_firing_arc", "strict")
    wall = blocked(state)
    silent = {pen.get("guns_silent") for side, pen in ship_card(state, ship)["penalties"].items()
              if ship["dice"][side] is None}
    out: dict[str, list[tuple[str, str]]] = {"port": [], "starboard": []}
    for other in fleet(state):
        if other["side"] == ship["side"] or not afloat(other):
            continue
        there = (other["q"], other["r"])
        if profile(state, ship, hexes.distance(here, there)) is None:
            continue
        for arc in ("port", "starboard"):
            if arc in silent or not hexes.in_arc(here, ship["heading"], there, arc, reading):
                continue
            if not hexes.line_clear(here, there, wall):
                continue
            screen = wall - {here}
            for side in hexes.exposed_sides(there, other["heading"], here, screen):
                out[arc].append((other["id"], side))
    return out
