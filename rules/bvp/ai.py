"""The default policy of the ``bvp`` engine, and a random legal policy to measure it against.

The default policy is greedy, one action at a time, and deterministic (the same state gives
the same choice): it scores every option of the turn and takes the best, ending the turn
when nothing scores above nothing:

* a cannon attack: 10 × the expected hits (every die's chance against the declared side),
  +1 so that a shot is taken rather than waited for;
* a boarding: 10 × (the chance to win - the chance to lose), from the 144 pairs of D12;
* a move: the change in the ship's prospects: 10 × the expected hits of its best shot from
  the new hex and heading (while it has not attacked; twice that at a merchant), less 0.3
  per hex to the nearest enemy, less 0.5 for each enemy that would have it in an arc, plus
  0.2 per hex of speed the wind gives the new heading; a merchant in Merchant Escort counts
  2 per hex of her way home (:func:`_steps_home`) and shuns the enemy's arcs;
* a Green card: 0.3 before a move with no shot yet; a Blue rally: 0.5 when morale is short.

The opening choice: go first; the wind: see :func:`wind`. In an attack it plays its best
card.
"""

from __future__ import annotations

from functools import lru_cache
from heapq import heappop, heappush

from rules.bvp import combat, hexes, movement
from rules.bvp.movement import afloat, captain_card, fleet, ship_goal
from rules.dice import pick
from rules.engine import Decision, Option
from rules.random import RandomSource


def opening(state: dict) -> str:
    """The highest roller goes first."""
    return "first"


def wind(state: dict) -> str:
    """From the wind tile toward the chooser's own start tile (the nearest of the six
    directions), so the enemy sails toward us with the wind astern; in Merchant Escort
    toward an opposing start tile, so our merchant sails home with it."""
    side = state["sides"][state["chooser"]]
    tile_id = side["tile"]
    if state["mode"] == "escort":
        tile_id = next(state["sides"][s]["tile"] for s in state["side_ids"]
                       if s != state["chooser"])
    tile = next(t for t in state["tiles"] if t["id"] == tile_id)
    centre = next(t for t in state["tiles"] if t["wind"])
    b = hexes.bearing((centre["q"], centre["r"]), (tile["q"], tile["r"]))
    return str(round(b / 60) % 6)


def card(state: dict, role: str, options: tuple[Option, ...]) -> str:
    """The card of largest value among ``options`` (``none`` if there is none)."""
    best, key = 0, "none"
    for opt in options:
        if opt.key != "none":
            value = state["cards"]["skills"][state["card_of"][opt.key]]["value"]
            if value > best:
                best, key = value, opt.key
    return key


def _p_hit(accuracy: int, target: int) -> float:
    return sum(1 for d in range(2, 13) if d + accuracy >= target) / 12


def _shot_value(state: dict, ship: dict, target: dict, side: str, dice: int | None = None
                ) -> float:
    rng = hexes.distance((ship["q"], ship["r"]), (target["q"], target["r"]))
    prof = combat.profile(state, ship, rng)
    if prof is None:
        return 0.0
    n = prof[0] if dice is None else dice
    defence = movement.ship_card(state, target)["defence"]
    t = combat.target_number(target["dice"], defence, side)
    left = (target["dice"][side] or 0) + (target["dice"]["structure"] or 0)
    p = _p_hit(prof[1], t)
    return (10 * n * p + (3 * n * p if left <= 2 else 0)) * (2 if target["merchant"] else 1)


def _best_shots(state: dict, ship: dict) -> float:
    arcs = combat.targets(state, ship)
    total = 0.0
    for arc in ("port", "starboard"):
        total += max((_shot_value(state, ship, state["ships"][t], s) for t, s in arcs[arc]),
                     default=0.0)
    return total


def _threats(state: dict, ship: dict) -> int:
    n = 0
    here = (ship["q"], ship["r"])
    for other in fleet(state):
        if other["side"] == ship["side"] or not afloat(other):
            continue
        there = (other["q"], other["r"])
        if hexes.distance(here, there) <= 3 and any(
                hexes.in_arc(there, other["heading"], here, a) for a in ("port", "starboard")):
            n += 1
    return n


def _position(state: dict, ship: dict) -> float:
    here = (ship["q"], ship["r"])
    enemies = [s for s in fleet(state) if s["side"] != ship["side"] and afloat(s)]
    way = 0.6 * movement.speed(state, ship)  # a heading the wind serves is worth a pivot
    if ship["merchant"]:
        return -2.0 * _steps_home(state, ship, here, ship["heading"]) - _threats(state, ship)
    value = way / 3 - 0.5 * _threats(state, ship)
    if enemies:
        value -= 0.3 * min(hexes.distance(here, (e["q"], e["r"])) for e in enemies)
    if not ship["attacked"]:
        value += _best_shots(state, ship)
    return value


def _steps_home(state: dict, ship: dict, here: hexes.Hex, heading: int) -> float:
    """How far the merchant is from her goal, sailing from ``here`` with her bow toward
    ``heading``: hexes across the sea on headings the wind lets her make way on, and half a
    hex for each pivot (the map's notches and a head wind make the straight distance a poor
    guide)."""
    card = movement.ship_card(state, ship)
    ways = tuple(card["speed"][movement.wind_index(state, d)] > 0 for d in range(6))
    table = _home_table(tuple((t["q"], t["r"]) for t in state["tiles"]),
                        ship_goal(state, ship), ways)
    cost: float = table.get((here, heading), 99.0)
    return cost


@lru_cache(maxsize=32)
def _home_table(tiles: tuple, goal: frozenset, ways: tuple) -> dict:
    sea = hexes.board_cells([{"q": q, "r": r} for q, r in tiles])
    cost: dict = {}
    queue = [(0.0, g, d) for g in goal for d in range(6)]
    while queue:  # Dijkstra backwards from the goal over (hex, heading)
        c, h, d = heappop(queue)
        if (h, d) in cost:
            continue
        cost[(h, d)] = c
        back = hexes.step(h, d + 3)
        if ways[d] and back in sea and (back, d) not in cost:
            heappush(queue, (c + 1.0, back, d))
        for turn in (1, 5):
            if h in sea and (h, (d + turn) % 6) not in cost:
                heappush(queue, (c + 0.5, h, (d + turn) % 6))
    return cost


def _move_value(state: dict, ship: dict, plan: str) -> float:
    before = _position(state, ship)
    trail, heading = movement.path(state, ship, plan, ship_goal(state, ship))
    if trail and trail[-1] in ship_goal(state, ship):
        return 1000.0
    saved = ship["q"], ship["r"], ship["heading"]
    if trail:
        ship["q"], ship["r"] = trail[-1]
    ship["heading"] = heading
    try:
        after = _position(state, ship)
    finally:
        ship["q"], ship["r"], ship["heading"] = saved
    return after - before


def _board_value(state: dict, ship: dict, target: dict) -> float:
    a = combat.morale(ship) + combat.boarding_bonus(state, ship, "attack")
    d = combat.morale(target) + combat.boarding_bonus(state, target, "defend")
    win = lose = 0
    for x in range(1, 13):
        for y in range(1, 13):
            r = combat.boarding_result(x, x + a, y, y + d)
            win += r == "attacker"
            lose += r != "attacker"
    return 10 * (win - lose) / 144


def score(state: dict, key: str) -> float:
    """The default policy's value of the turn option ``key`` (module docstring)."""
    if key == "end":
        return 0.0
    if key.startswith("discard:"):
        return -1.0
    ship_id, verb, rest = key.split(":", 2)
    ship = state["ships"][ship_id]
    if verb == "move":
        return _move_value(state, ship, rest)
    if verb == "fire":
        shots = [s.split(":") for s in rest.split("+")]
        return 1 + sum(_shot_value(state, ship, state["ships"][t], s) for t, s in shots)
    if verb == "board":
        return _board_value(state, ship, state["ships"][rest])
    skill = state["cards"]["skills"][state["card_of"][rest]]
    if skill["effect"] == "rally":
        cap = captain_card(state, ship)
        return 0.5 if cap is not None and ship["morale"] <= cap["morale"] - 2 else -1.0
    return 0.3 if not ship["moved"] and _best_shots(state, ship) == 0 else -1.0


def turn(state: dict, options: tuple[Option, ...]) -> str:
    """The best-scoring option of the turn (the first of equals); ``end`` wins ties at 0."""
    best_key, best = options[0].key, float("-inf")
    for opt in options:
        value = score(state, opt.key)
        if value > best or (value == best and opt.key == "end"):
            best_key, best = opt.key, value
    return best_key


def random_choice(decision: Decision, source: RandomSource) -> str:
    """A uniformly random legal option of ``decision`` (a die from ``source``): the random
    policy the default policy is measured against."""
    key: str = pick(source, [o.key for o in decision.options], "random policy")
    return key
