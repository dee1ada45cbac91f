"""The default policy: orders a captain would give without a human (``rules/brethren.md``
A38 for the merchantmen).

Each ship has an aim by her mission and side (find treasure and carry it home, hunt the
nearest enemy, run for the goal, land troops), steers for it (``move:to:<mark>``), fires
when an enemy bears, before moving if one bears now, else after (with fire during the move,
errata BR-5, a ship closing with an enemy orders the move first and fires on her course,
where her guns bear best), a Broadside when she
may and an enemy is within S, explores when she reaches an island with treasure, and
repairs what she can. Merchantmen (A38) fire if an enemy is in range, else steer away from
the nearest enemy. It only chooses among the legal orders it is given, and uses no
randomness, so it plays the same in a replay. It knows only what its side may see (not
which ship carries the contraband, nor what coins are worth).
"""

from __future__ import annotations

from collections.abc import Collection
from math import hypot

from rules.brethren import crews, gunfire, movement
from rules.brethren.geometry import COMPASS, L, S, heading_to, ship_gap, unit


def _up(ship: dict) -> int:
    return sum(1 for m in ship["masts"] if m == "UP")


def _dist(a: dict, b: dict) -> float:
    return hypot(a["x"] - b["x"], a["y"] - b["y"])


def _reach(st: dict, sh: dict, heading: float) -> float:
    return movement.length_of(movement.allowance(sh, heading, st["wind"],
                                                 settings={}))


def _enemies(st: dict, sh: dict) -> list[dict]:
    return [st["ships"][i] for i in st["ship_ids"]
            if st["ships"][i]["side"] != sh["side"] and not st["ships"][i]["sunk"]
            and not st["ships"][i]["gone"]]


def _bears(st: dict, sh: dict) -> tuple[bool, bool]:
    """(an enemy bears now, one within S)."""
    cands = gunfire.candidates(st, sh, _enemies(st, sh))
    shots = cands["port"] + cands["starboard"]
    return bool(shots), any(c["distance"] <= S for c in shots)


def _home(st: dict, sh: dict) -> str | None:
    return st["sides"][sh["side"]]["home"]


def _treasure_island(st: dict, sh: dict) -> str | None:
    best: str | None = None
    bd: float | None = None
    for iid in st["island_ids"]:
        isl = st["islands"][iid]
        if iid in sh["barred"] or isl["home_of"] or isl["kind"] == "town" or not isl["coins"]:
            continue
        d = _dist(sh, isl)
        if bd is None or d < bd:
            best, bd = iid, d
    return best


def _nearest(sh: dict, ships: list[dict]) -> str | None:
    found = [o for o in ships if not o["lost"]]
    return min(found, key=lambda o: (_dist(sh, o), o["id"]))["id"] if found else None


def _aim(st: dict, sh: dict) -> tuple[str | None, bool]:
    """The mark the ship steers for and whether she explores on arrival."""
    mission = st["mission"]
    role = st["sides"][sh["side"]].get("role", "")
    foes = _enemies(st, sh)
    working = [o for o in foes if not o["derelict"]]
    if mission == "fleet_action":
        return _weakest_near(sh, working or foes), False
    if mission == "sea_wolves":
        if sh["convoy"]:
            return "goal", False
        if role == "navy":
            return _nearest(sh, working), False
        convoy = [o for o in foes if o["convoy"] and o["side"] == o["start_side"]]
        return _nearest(sh, convoy or working), False
    if mission == "smugglers_blues":
        if role == "revenue":
            return _nearest(sh, [o for o in foes if o["side"] == o["start_side"]]), False
        return "goal", False
    if mission == "damn_the_torpedoes":
        if role == "attacker":
            if "troops" in sh["crew"]:
                return st["goal"]["town"], True
            return _nearest(sh, working), False
        town = st["islands"][st["goal"]["town"]]  # who makes for the town, not who carries
        near = [o for o in working if not o["lost"]]  # troops: the crews are not shown
        if not near:
            return None, False
        return min(near, key=lambda o: (_dist(o, town), o["id"]))["id"], False
    # the treasure games: Movin' On Up, Beware the Kraken and the base game
    room = crews.capacity(sh["cargo"], sh["crew"]) - len(sh["coins"])
    home = _home(st, sh)
    left = st["turn_limit"] - st["round"] + 1
    if home is not None and sh["coins"]:
        isl = st["islands"][home]
        speed = max(_reach(st, sh, heading_to(sh["x"], sh["y"], isl["x"], isl["y"])), S)
        if room <= 0 or (_dist(sh, isl) - isl["r"]) / speed >= left - 1:
            return home, False
    if mission == "movin_on_up" and room > 0:
        bare = _treasure_island(st, sh) is None
        prey = [o for o in foes if o["merchant"] and o["side"] == o["start_side"]
                and (bare or ship_gap(sh, o) <= 2 * L and _up(o) <= _up(sh))]
        if prey:
            return _nearest(sh, prey), False
    if room > 0:
        target = _treasure_island(st, sh)
        if target is not None:
            return target, True
    if sh["coins"] and home is not None:
        return home, False
    return _nearest(sh, [o for o in foes if o["coins"]] or working), False


def _weakest_near(sh: dict, ships: list[dict]) -> str | None:
    """The enemy to engage: the weakest (fewest masts) of those within 3 L, else the
    nearest."""
    near = [o for o in ships if not o["lost"] and ship_gap(sh, o) <= 3 * L]
    if near:
        return min(near, key=lambda o: (sum(m == "UP" for m in o["masts"]), _dist(sh, o),
                                        o["id"]))["id"]
    return _nearest(sh, ships)


def _flee(st: dict, sh: dict, options: Collection[str]) -> str:
    foes = _enemies(st, sh)
    if not foes:
        return "hold"
    near = min(foes, key=lambda o: _dist(sh, o))
    away = heading_to(near["x"], near["y"], sh["x"], sh["y"])
    best = min(COMPASS, key=lambda p: abs((COMPASS.index(p) * 45 - away + 180) % 360 - 180))
    key = f"move:{best}"
    return key if key in options else "hold"


def _project(st: dict, sh: dict, key: str, ships: bool = False, part: float = 1.0) -> dict:
    """Where a move order would roughly take the ship: her place and heading after sailing
    her allowance (``part`` of it) straight on the order's first heading (contacts
    ignored), as a copy."""
    parts = key.split(":")
    if parts[1] == "to":
        mark = parts[2]
        if mark == "goal":
            g = st["goal"]
            if "exit" in g:
                p = (g["exit"]["x"], g["exit"]["y"])
            else:
                p = {"N": (sh["x"], st["board"]["h"]), "S": (sh["x"], 0.0),
                     "E": (st["board"]["w"], sh["y"]), "W": (0.0, sh["y"])}[g["coast"]]
        else:
            o = st["islands"].get(mark) or st["ships"][mark]
            p = (o["x"], o["y"])
        want = heading_to(sh["x"], sh["y"], *p)
    else:
        want = COMPASS.index(parts[1]) * 45.0
    if parts[1] == "to":
        want = movement.clear_course(st, sh, want, L, goal=parts[2])
    h = movement.steer(sh, want, st["wind"])
    far = _reach(st, sh, h)
    if len(parts) > 2 and parts[1] != "to":
        legs = movement.allowance(sh, h, st["wind"], settings={})[:int(parts[2])]
        far = movement.length_of(legs)
    if parts[1] == "to" and parts[2] in st["ships"]:
        far = min(far, max(0.0, ship_gap(sh, st["ships"][parts[2]])))
    ux, uy = unit(h)
    far = part * _clear_run(st, sh, ux, uy, far, parts[2] if parts[1] == "to" else None, ships)
    w, hh = st["board"]["w"], st["board"]["h"]
    m = sh["length"] / 2
    for u, pos, top in ((ux, sh["x"], w), (uy, sh["y"], hh)):  # the table's edge stops her
        if u > 1e-9:
            far = min(far, max(0.0, (top - m - pos) / u))
        elif u < -1e-9:
            far = min(far, max(0.0, (pos - m) / -u))
    return {**sh, "x": sh["x"] + ux * far, "y": sh["y"] + uy * far, "heading": h}


def _clear_run(st: dict, sh: dict, ux: float, uy: float, far: float, goal: str | None,
               ships: bool = False) -> float:
    """How far the ship gets on a straight course before an island (not her ``goal``), a
    seascape or, with ``ships``, another ship stops or snares her, in half-inch steps."""
    others = [{"id": o["id"], "x": o["x"], "y": o["y"], "r": o["length"] / 2}
              for o in map(st["ships"].get, st["ship_ids"])
              if ships and o["id"] != sh["id"] and not o["sunk"] and not o["gone"]]
    obstacles = [o for o in [*map(st["islands"].get, st["island_ids"]), *st["terrain"], *others]
                 if o["id"] != goal and hypot(o["x"] - sh["x"], o["y"] - sh["y"]) - o["r"]
                 <= far + sh["length"]]
    if not obstacles:
        return far
    reach = sh["length"] / 2
    d = 0.0
    while d < far:
        step = min(0.5, far - d)
        x, y = sh["x"] + ux * (d + step), sh["y"] + uy * (d + step)
        if any(hypot(o["x"] - x, o["y"] - y) < o["r"] + reach for o in obstacles):
            return d
        d += step
    return far


def _bearing(st: dict, sh: dict, foes: list[dict]) -> int:
    cands = gunfire.candidates(st, sh, foes)
    return max(len({c["battery"] for c in cands[s]}) for s in ("port", "starboard"))


def _best_position(st: dict, sh: dict, options: list[str], target: str, attack: bool = True
                   ) -> str | None:
    """The move order (or ``None``: staying) that leaves the ship best placed against
    ``target`` (a ship id): the most of her batteries bearing on it and on the others, the
    fewest of the enemy's bearing on her, then the nearest. Her course is projected to stop
    at the first ship in her way, and no course to an island counts (she would dock there
    and lie still under the enemy's guns). When she may fire during her
    move (errata BR-5, ``brethren_fire_during_move``) her guns count where they bear best,
    half-way or at the end: she may fire as she passes and end out of his reach."""
    foe = st["ships"][target]
    foes = [o for o in _enemies(st, sh) if not o["derelict"]]
    midway = st["settings"].get("brethren_fire_during_move", True)
    best: str | None = None
    score: float | None = None

    for key in [None, *options]:
        if key is not None and (not key.startswith("move:") or "+" in key
                                or key.split(":")[-1] in st["ships"]
                                or key.split(":")[-1] in st["islands"]):
            continue
        p = sh if key is None else _project(st, sh, key, ships=True)
        ours = _bearing(st, p, [foe])
        if midway and key is not None:
            ours = max(ours, _bearing(st, _project(st, sh, key, ships=True, part=0.5), [foe]))
        others = _bearing(st, p, foes)
        theirs = sum(_bearing(st, o, [p]) for o in foes if _dist(o, p) <= 2 * L)
        value = 3 * ours + others - 1.5 * theirs - 0.1 * _dist(p, foe)
        if score is None or value > score:
            best, score = key, value
    return best


def choose(st: dict, ship_id: str, options: list[str]) -> str:
    """The default order for ``ship_id`` among the legal ``options`` (keys of
    :func:`rules.brethren.engine.plan_options`)."""
    opts = set(options)
    sh = st["ships"][ship_id]
    if len(options) == 1:
        return options[0]
    bears, close = (False, False)
    if "fire" in opts or any(o.startswith("fire") for o in opts):
        bears, close = _bears(st, sh)
    attack = "broadside" if close and "broadside" in opts and len(sh["cannons"]) > 1 else "fire"
    if sh["merchant"]:
        if bears and "fire" in opts:
            return "fire"
        return _flee(st, sh, opts)
    if st["kraken"] and st["kraken"]["on"] == ship_id:  # drive it off first
        bears = "fire" in opts
    if "free" in opts:
        return _pick(opts, f"free+{attack}" if bears else "free", "free")
    if sh["derelict"]:
        return _pick(opts, f"repair+{attack}" if bears else "repair", "repair",
                     attack if bears else "hold", "hold")
    if sh["fixed"]:
        return _pick(opts, attack if bears else "hold", "hold")
    if _safe_at_home(st, sh):
        home = _home(st, sh)
        if sh["docked_at"] == home:
            return _pick(opts, "repair", "hold")
        return _pick(opts, f"move:to:{home}", "hold")
    mark, explore = _aim(st, sh)
    if sh["docked_at"] and _explorable(st, sh):
        nxt = f"move:to:{_home(st, sh)}" if _home(st, sh) else None
        room = crews.capacity(sh["cargo"], sh["crew"]) - len(sh["coins"])
        isl = st["islands"][sh["docked_at"]]
        if nxt and room <= len(isl["coins"]):
            return _pick(opts, f"explore+{nxt}", f"explore+{attack}", "explore")
        return _pick(opts, f"explore+{attack}" if bears else "explore", "explore")
    if sh["fouled"] and not bears:
        move = f"move:to:{mark}" if mark else None
        return _pick(opts, f"repair+{move}" if move else "repair", "repair", "hold")
    if mark is None:
        return _pick(opts, attack if bears else "hold", "hold")
    if mark == "goal":
        return _run_for_goal(st, sh, opts, options, attack, bears)
    move = f"move:to:{mark}"
    if move not in opts:
        return _pick(opts, attack if bears else "hold", "hold")
    if explore and f"{move}+explore" in opts and mark in st["islands"]:
        isl = st["islands"][mark]
        head = heading_to(sh["x"], sh["y"], isl["x"], isl["y"])
        gap = _dist(sh, isl) - isl["r"] - sh["length"] / 2
        if gap <= _reach(st, sh, head) + 0.05 and not bears:
            return f"{move}+explore"
    if mark in st["ships"]:
        return _hunt(st, sh, opts, options, mark, attack, bears)
    if bears:
        return _pick(opts, f"{attack}+{move}", f"fire+{move}", move)
    return _pick(opts, f"{move}+{attack}", f"{move}+fire", move)


def _goal_distance(st: dict, p: dict) -> float:
    g = st["goal"]
    if "exit" in g:
        return hypot(p["x"] - g["exit"]["x"], p["y"] - g["exit"]["y"])
    w, h = st["board"]["w"], st["board"]["h"]
    return {"N": h - p["y"], "S": p["y"], "E": w - p["x"], "W": p["x"]}[g["coast"]]


def _run_for_goal(st: dict, sh: dict, opts: set[str], options: list[str], attack: str | None,
                  bears: bool) -> str:
    """Make for the goal (an exit, the coast) keeping clear of the enemy: the move that
    gains the most ground, less a penalty for ending within reach of an enemy ship."""
    foes = [o for o in _enemies(st, sh) if not o["derelict"]]
    best: str | None = None
    score: float | None = None
    for key in options:
        if not key.startswith("move:") or "+" in key or (
                key.startswith("move:to:") and key != "move:to:goal"):
            continue
        p = _project(st, sh, key, ships=True)
        value = _goal_distance(st, sh) - _goal_distance(st, p)
        for o in foes:
            value -= 2.0 * max(0.0, 2 * L + 1 - _dist(o, p))
        if score is None or value > score:
            best, score = key, value
    if st["mission"] == "smugglers_blues":  # a shot at the Revenue lets it fire back
        attack, bears = None, False
    if best is None:
        return _pick(opts, attack if bears else "hold", "hold")
    if bears:
        return _pick(opts, f"{attack}+{best}", best)
    return _pick(opts, f"{best}+{attack}", best)


def _hunt(st: dict, sh: dict, opts: set[str], options: list[str], mark: str, attack: str,
          bears: bool) -> str:
    """Against an enemy ship: board her if she is weakly manned and within reach (a ram
    first), else take the place where most guns bear; fire first if they bear now, unless
    she may fire during her move (errata BR-5): then she moves and fires on her course."""
    foe = st["ships"][mark]
    ram = f"move:to:{mark}"
    role = st["sides"][sh["side"]].get("role", "")
    boarder = role == "revenue" or (foe["merchant"] or len(foe["crew"]) <= 1) and (
        st["mission"] in ("sea_wolves", "movin_on_up", "smugglers_blues")) and (
        st["mission"] != "movin_on_up" or _up(sh) >= _up(foe) or _treasure_island(st, sh) is None
    ) and st["wind"]["strength"] < 4
    gap = ship_gap(sh, foe)
    if role == "revenue":  # fires only at a ship that will not heave to: it boards
        return _pick(opts, ram, "hold")
    if boarder and gap <= _reach(st, sh, heading_to(sh["x"], sh["y"], foe["x"], foe["y"])):
        return _pick(opts, f"{attack}+{ram}" if bears else f"{ram}+{attack}", ram)
    if not sh["cannons"] or gap > 3 * L:
        return _pick(opts, f"{ram}+{attack}", ram)
    best = _best_position(st, sh, options, mark)
    if best is None:
        return _pick(opts, attack if bears else "hold", "hold")
    if bears and not st["settings"].get("brethren_fire_during_move", True):
        return _pick(opts, f"{attack}+{best}", f"fire+{best}", best)
    return _pick(opts, f"{best}+{attack}", f"{best}+fire", best)


def _safe_at_home(st: dict, sh: dict) -> bool:
    """In a treasure game, a side that leads keeps its last working ship safe at home (a
    ship docked at her home island cannot be shot, L67; the winner needs a working ship,
    L93), and brings every ship home for the last turns."""
    if st["mission"] not in ("treasure_hunt", "beware_the_kraken", "movin_on_up"):
        return False
    home = _home(st, sh)
    if home is None:
        return False
    from rules.brethren.missions import treasure as gold
    from rules.brethren.missions import working

    mine = gold(st, sh["side"])
    rivals = [_seen_treasure(st, s) for s in st["side_ids"]
              if s != sh["side"] and not st["sides"][s]["npc"]]
    if not rivals or mine <= max(rivals):
        return False
    fleet = [o for o in map(st["ships"].get, st["ship_ids"])
             if o["side"] == sh["side"] and working(o)]
    left = st["turn_limit"] - st["round"]
    isl = st["islands"][home]
    far = (_dist(sh, isl) - isl["r"]) / max(_reach(st, sh, heading_to(
        sh["x"], sh["y"], isl["x"], isl["y"])), S)
    return len(fleet) <= 1 or far >= left - 1


def _seen_treasure(st: dict, side: str) -> float:
    """A rival's treasure as his enemies may judge it: his coins lie face down (L37, L86),
    so their number times the mean coin (2 gold: 12 gold in 6 coins, L36)."""
    coins = len(st["sides"][side]["home_coins"]) + sum(
        len(o["coins"]) for o in map(st["ships"].get, st["ship_ids"])
        if o["side"] == side and not o["sunk"])
    return 2.0 * coins


def _explorable(st: dict, sh: dict) -> bool:
    isl = st["islands"].get(sh["docked_at"] or "")
    if isl is None or isl["home_of"] == sh["side"]:
        return False
    if isl["id"] == st["goal"].get("town"):
        return "troops" in sh["crew"]
    room = crews.capacity(sh["cargo"], sh["crew"]) - len(sh["coins"])
    return bool(isl["castaways"] or (isl["coins"] and room > 0))


def _pick(opts: Collection[str], *keys: str | None) -> str:
    for k in keys:
        if k is not None and k in opts:
            return k
    return "hold"
