"""Movement in British vs Pirates (``british_vs_pirates.md`` §5, §8; [L101-L111],
[L201-L211]): speed by the wind vane, pivots, the order of pivoting and moving, stealing wind.

The functions read a game state of :mod:`rules.bvp.engine` (``state["ships"][id]``, the card
data in ``state["cards"]``, ``state["wind"]`` 0-5 blowing toward, ``state["settings"]``).

A move plan is the text ``"<P|M>:<pivots>:<steps>"``: ``P`` pivots first then moves, ``M``
moves first then pivots [L107-L109]; ``<pivots>`` is ``""`` or a run of ``L`` (to port,
counter-clockwise) or ``R`` (to starboard); ``<steps>`` the hexes moved forward (0 up to the
speed: speed is a maximum, A5).
"""

from __future__ import annotations

from rules.bvp import hexes
from rules.bvp.data import SIZES

PIVOT_TURN = {"L": 1, "R": -1}


def ship_card(state: dict, ship: dict) -> dict:
    """The ship card of ``ship``."""
    card: dict = state["cards"]["ships"][ship["card"]]
    return card


def captain_card(state: dict, ship: dict) -> dict | None:
    """The captain card of ``ship``, or ``None`` (a merchant without one, errata BV-1)."""
    if ship["captain"] is None:
        return None
    card: dict = state["cards"]["captains"][ship["captain"]]
    return card


def size_bonus(state: dict, ship: dict, effect: str) -> int:
    """The captain's ship-size bonus ``effect`` (``"speed"``, ``"grapple"``...) that applies
    on this ship: only when the captain sails a ship of the bonus's size [L87, L163]."""
    cap = captain_card(state, ship)
    if cap is None or cap["size_bonus"] is None:
        return 0
    bonus = cap["size_bonus"]
    value: int = bonus["value"]
    return value if bonus["effect"] == effect and bonus["size"] == ship_card(state, ship)[
        "size"] else 0


def _caps(state: dict, ship: dict, key: str) -> list[int]:
    pens = ship_card(state, ship)["penalties"]
    return [pens[s][key] for s in hexes.SIDES
            if ship["dice"][s] is None and key in pens.get(s, {})]


def wind_index(state: dict, heading: int) -> int:
    """The index (0-5) of the card's six speeds for a ship heading ``heading`` (A9):
    ``k = (wind - heading) mod 6``, 0 the wind from dead astern, 3 dead ahead. Under the
    setting ``bvp_wind_reading = "head_wind"`` the card's first value is read as the head
    wind's, so the index turns by three (errata BV-4)."""
    k = (state["wind"] - heading) % 6
    if state["settings"].get("bvp_wind_reading") == "head_wind":
        k = (k + 3) % 6
    return k


def speed(state: dict, ship: dict, heading: int | None = None) -> int:
    """The ship's speed this turn with its bow toward ``heading`` (its own by default), in
    hexes (A6): the card's speed for the relative wind, plus the captain's size bonus and
    Green cards played this turn; then every cap (a removed side's penalty, stealing wind:
    1) overrides the bonuses; never below 0."""
    h = ship["heading"] if heading is None else heading
    value = (ship_card(state, ship)["speed"][wind_index(state, h)]
             + size_bonus(state, ship, "speed") + ship["bonus"]["speed"])
    caps = _caps(state, ship, "speed_cap") + ([1] if ship["stolen"] else [])
    if caps:
        value = min(value, *caps)
    return max(0, value)


def max_pivots(state: dict, ship: dict) -> int:
    """Pivots allowed this turn [L105]: the card's, plus the captain's size bonus and Green
    cards, capped by a removed side's penalty and by stealing wind (1), never below 0."""
    value = (ship_card(state, ship)["pivots"] + size_bonus(state, ship, "pivots")
             + ship["bonus"]["pivots"])
    caps = _caps(state, ship, "pivots_cap") + ([1] if ship["stolen"] else [])
    if caps:
        value = min(value, *caps)
    return max(0, value)


def stealing_wind(state: dict, ship: dict) -> bool:
    """Whether ``ship`` has its wind stolen at the start of its turn [L207] (§8.2, A3):
    another ship afloat, of either side, within 2 hexes, of a size at least ``ship``'s,
    with ``ship`` downwind of it (the cone of the setting ``bvp_downwind_cone``, ±30°
    by default)."""
    cone = int(state["settings"].get("bvp_downwind_cone", "30"))
    here = (ship["q"], ship["r"])
    size = SIZES[ship_card(state, ship)["size"]]
    for other in fleet(state):
        if other is ship or not afloat(other):
            continue
        there = (other["q"], other["r"])
        if (hexes.distance(here, there) <= 2
                and SIZES[ship_card(state, other)["size"]] >= size
                and hexes.downwind_of(there, here, state["wind"], cone)):
            return True
    return False


def fleet(state: dict) -> list[dict]:
    """Every ship of the game, in the setup's order (never the stored mapping's, which a
    database may sort)."""
    return [state["ships"][s] for s in state["ship_ids"]]


def afloat(ship: dict) -> bool:
    """On the board: not sunk and not a merchant home at her goal."""
    return not ship["sunk"] and not ship["arrived"]


def goal_cells(st: dict, side_id: str) -> frozenset[hexes.Hex]:
    """The half-hexes a merchant of ``side_id`` sails for (A14): those of every other side's
    start tile; none outside Merchant Escort."""
    if st["mode"] != "escort":
        return frozenset()
    index = {t["id"]: k for k, t in enumerate(st["tiles"])}
    out: set[hexes.Hex] = set()
    for sid in st["side_ids"]:
        if sid != side_id:
            out |= hexes.half_hexes(st["tiles"], index[st["sides"][sid]["tile"]])
    return frozenset(out)


def ship_goal(st: dict, ship: dict) -> frozenset[hexes.Hex]:
    """Where ``ship`` may sail into a half-hex: a merchant's goal; nowhere for the others."""
    return goal_cells(st, ship["side"]) if ship["merchant"] else frozenset()


def occupied(state: dict) -> set[hexes.Hex]:
    """The hexes that hold a ship afloat."""
    return {(s["q"], s["r"]) for s in fleet(state) if afloat(s)}


def turned(heading: int, pivots: str) -> int:
    """``heading`` after the pivots ``pivots`` (``"LL"``, ``"R"``)."""
    return (heading + sum(PIVOT_TURN[p] for p in pivots)) % 6


def parse_plan(plan: str) -> tuple[bool, str, int]:
    """``(pivot_first, pivots, steps)`` of a move plan; ``ValueError`` if malformed."""
    parts = plan.split(":")
    if len(parts) != 3 or parts[0] not in ("P", "M") or not parts[2].isdigit() or any(
            p not in PIVOT_TURN for p in parts[1]) or len(set(parts[1])) > 1:
        raise ValueError(f"{plan!r} is not a move plan")
    return parts[0] == "P", parts[1], int(parts[2])


def _obstacles(state: dict) -> tuple[frozenset[hexes.Hex], frozenset[hexes.Hex], set[hexes.Hex]]:
    return hexes.board_cells(state["tiles"]), hexes.land_cells(state["tiles"]), occupied(state)


def path(state: dict, ship: dict, plan: str, goal: frozenset[hexes.Hex] = frozenset(),
         where: tuple | None = None) -> tuple[list[hexes.Hex], int]:
    """The hexes ``ship`` enters under ``plan`` and its heading at the end. ``ValueError``
    with the reason if the plan breaks a rule [L105-L109]: more pivots than allowed, more
    steps than the speed for the heading it moves on, a step off the sea, onto land, into
    another ship's hex or a half-hex (``goal`` holds the half-hexes this ship may enter:
    a merchant's destination, A14), or a plan that does nothing. ``where`` is
    ``(sea, land, occupied hexes)`` when the caller has it already."""
    first, pivots, steps = parse_plan(plan)
    if not pivots and not steps:
        raise ValueError("a move pivots or moves at least once")
    if len(pivots) > max_pivots(state, ship):
        raise ValueError(f"the {ship['name']} may pivot {max_pivots(state, ship)} times "
                         "this turn")
    heading = turned(ship["heading"], pivots) if first else ship["heading"]
    allowed = speed(state, ship, heading)
    if steps > allowed:
        raise ValueError(f"the {ship['name']}'s speed is {allowed} on that heading")
    sea, land, taken = _obstacles(state) if where is None else where
    at = (ship["q"], ship["r"])
    out = []
    for i in range(steps):
        at = hexes.step(at, heading)
        if at in goal:
            if i != steps - 1:
                raise ValueError(f"the {ship['name']}'s voyage ends at her goal")
        elif at not in sea:
            raise ValueError(f"the {ship['name']} would sail off the sea")
        elif at in land:
            raise ValueError(f"the {ship['name']} would run aground")
        elif at in taken:
            raise ValueError(f"the {ship['name']} cannot sail through another ship")
        out.append(at)
    return out, heading if first else turned(ship["heading"], pivots)


def plans(state: dict, ship: dict, goal: frozenset[hexes.Hex] = frozenset()) -> list[str]:
    """Every legal move plan of ``ship`` now (see :func:`path`), pivot-first plans before
    move-first ones; a plan without pivots, or pivots without a step (the same either way
    round), is listed once, as ``P``."""
    out = []
    where = _obstacles(state)
    n = max_pivots(state, ship)
    turns = [""] + [d * k for k in range(1, n + 1) for d in "LR"]
    for first in (True, False):
        for piv in turns:
            if not first and not piv:
                continue
            heading = turned(ship["heading"], piv) if first else ship["heading"]
            for steps in range(speed(state, ship, heading) + 1):
                plan = f"{'P' if first else 'M'}:{piv}:{steps}"
                if not steps and not (first and piv):
                    continue
                try:
                    path(state, ship, plan, goal, where)
                except ValueError:
                    break  # a blocked step blocks every longer move on that heading
                out.append(plan)
    return out


def describe(plan: str, *, done: bool = False) -> str:
    """A move plan in words: ``"pivot twice to port, then sail 3 hexes"`` (an order), or
    with ``done`` as the log tells it of a ship: ``"pivots twice to port, then sails 3
    hexes"``."""
    first, piv, steps = parse_plan(plan)
    s = "s" if done else ""
    turn = ""
    if piv:
        times = {1: "once", 2: "twice"}.get(len(piv), f"{len(piv)} times")
        turn = f"pivot{s} {times} to {'port' if piv[0] == 'L' else 'starboard'}"
    sail = f"sail{s} {steps} hex{'es' if steps != 1 else ''}" if steps else ""
    parts = [turn, sail] if first else [sail, turn]
    return ", then ".join(p for p in parts if p)
