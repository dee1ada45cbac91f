"""The HFG orders of march moves, roads, water and delayed arrivals (digest 7.1, 7.2, 7.5,
7.8), listed and carried out for :mod:`rules.hfg.engine` (its order options and
``apply_order`` call :func:`options` and :func:`apply`).

Orders (option keys):

- ``march:<id>`` a march move straight ahead; ``march:<id>:<n|e|s|w>`` a march along the
  road the element stands on. "A March move cannot end closer than 1,200p to known enemy.
  If in difficult going, it must be by road. An element can take part in either 1 or more
  March moves or 1 Tactical move" (L231-233); "an element that made a march move ... cannot
  shoot" (L267). Each march costs 1 PIP plus surcharge (a) and, beyond the free marches of
  (c), 1 more (L224-227): 3 free along good roads (and bad ones in dry weather, A13), 2 along
  bad roads once the game's rain has made them muddy, 1 off-road or naval.
- ``road:<id>:<n|e|s|w>`` a tactical move along the road the element stands on, at the
  road's good-going allowance whatever the ground beside it (L243-246).
- ``ford:<id>:<river>`` move up to the river's edge and search for a ford: the move's cost
  plus 2 PIPs (L249-251, A13); :func:`rules.hfg.water.search`.
- ``arrive:<id>`` an element of a delayed command enters by its road, its move measured
  from where the road crosses the edge, a blocking enemy repulsed 400p;
  ``arrive:<id>:<offset>`` in a later bound, anywhere on that edge within 800p of the road
  (L213-215; :mod:`rules.hfg.arrivals`). Each costs a move's PIPs.

Known enemy (L183, L232): every enemy element on the table not concealed
(:mod:`rules.hfg.sight`).
The march counts of the bound are in the state's ``marches`` (``{element id: n}``, only in
a bound where something marched).
"""

from __future__ import annotations

from types import ModuleType

from rules.engine import EventLog, State
from rules.hfg import arrivals, roads, sight, water
from rules.hfg.geometry import EPS, Rect, move_distance, overlaps, segment_gap
from rules.hfg.movement import MARCH_CLEARANCE, allowance, march_allowed
from rules.random import RandomSource

VERBS = ("march", "road", "ford", "arrive")
"""The key prefixes this module lists and carries out."""


def _eng() -> ModuleType:
    from rules.hfg import engine

    return engine


def nearest_known_enemy(st: State, side: str, r: Rect, reach: float = float("inf")
                        ) -> float:
    """The least distance in paces from the footprint ``r`` to a known enemy element (one
    on the table and not concealed); enemy certainly ``reach`` or further away (their
    centres further apart than that plus both half-diagonals) are not measured, so the
    answer is exact below ``reach``."""
    eng = _eng()
    f = eng._frame(st)
    enemy = eng._enemy(st, side)
    kept = f.answers.get(("known enemy", enemy))
    if kept is None:  # the answers for the poses of the known enemy, from any frame
        known = tuple(pose for o, *_, pose in f.boxes
                      if o["side"] == enemy and not o.get("concealed"))
        if len(_NEAREST) > 4096:
            _NEAREST.clear()
        kept = f.answers[("known enemy", enemy)] = _NEAREST.setdefault(known, {})
    best = kept.get((r, reach))
    if best is None:
        best = kept[(r, reach)] = _nearest_known_enemy(st, enemy, r, reach)
    return best


_NEAREST: dict[tuple, dict[tuple[Rect, float], float]] = {}
""":func:`nearest_known_enemy` answers by the poses of the known enemy, then the footprint
and the reach."""


def _nearest_known_enemy(st: State, enemy: str, r: Rect, reach: float) -> float:
    eng = _eng()
    best = float("inf")
    edges = list(zip(r.corners(), r.corners()[1:] + r.corners()[:1]))
    cx, cy = r.center()
    half = (r.width + r.depth) / 2
    for o in eng._live(st, enemy):
        if o.get("concealed"):
            continue
        orr = eng._rect(o)
        ox, oy = orr.center()
        if ((ox - cx) ** 2 + (oy - cy) ** 2) ** 0.5 - half - (orr.width + orr.depth) / 2 \
                >= min(reach, best):
            continue
        poly = orr.corners()
        best = min(best, *(segment_gap(a, b, poly) for a, b in edges))
    return best


def _clear(st: State, side: str, r: Rect, margin: float = 0) -> bool:
    """Whether a march may end at ``r``: 1,200p (plus ``margin``) from known enemy."""
    return march_allowed(nearest_known_enemy(st, side, r, MARCH_CLEARANCE + margin) - margin)


def _road_allowance(st: State, e: dict) -> int:
    eng = _eng()
    return allowance(e["type"], "good", grade=e["grade"], year=st["year"],
                     weather=eng._weather(st), road=True)


def _may_march(st: State, e: dict) -> bool:
    """On its feet, mobile, not held in close combat, and not having made a tactical
    move this bound (marching again is allowed). (:func:`options` also passes over an
    element too near known enemy for any move of its allowance to end 1,200p away.)"""
    eng = _eng()
    marched = st.get("marches", {}).get(e["id"], 0)
    return (e["state"] == "ok" and e["type"] not in ("SUP", "SPG")
            and (not e["moved"] or marched > 0) and eng._front_enemy(st, e) is None)


def _road_move(st: State, e: dict, road: dict, way: str, *, march: bool) -> Rect | None:
    """The furthest footprint ``e`` may reach along ``road`` going ``way`` (a 50p step
    that stays on the strip, within the road allowance, clear of everything, and for a
    march 1,200p from known enemy, for a tactical move outside the 200p of enemy that must
    shoot), or None."""
    eng = _eng()
    here = eng._rect(e)
    full = _road_allowance(st, e)
    for d in range(full, 0, -eng.STEP):
        r = roads.along(road, here, way, d)
        if not roads.holds(road, (r.x, r.y)) or move_distance(here, r) > full + EPS:
            continue
        if eng._blocked(st, e, r, clear_of_enemy=True) or water.barred(
                st, e, here, r, on_road=True):
            continue
        if march and not _clear(st, e["side"], r):
            continue
        if not march and eng._must_shoot_at(st, e, r):
            continue
        return r
    return None


def _march_straight(st: State, e: dict) -> Rect | None:
    """Where a march straight ahead takes ``e``: the advance's distance, shortened in 50p
    steps until it ends 1,200p from known enemy; none in difficult going off-road."""
    eng = _eng()
    here = eng._rect(e)
    d = eng._straight(st, e, 1)
    while d > 0:
        r = here.moved(d)
        short = MARCH_CLEARANCE - nearest_known_enemy(st, e["side"], r, MARCH_CLEARANCE)
        if short > 0:
            # each pace less brings the end at most a pace further from the enemy
            d -= max(eng.STEP, -(-short // eng.STEP) * eng.STEP)
            continue
        if not eng._blocked(st, e, r, clear_of_enemy=True) and not water.barred(
                st, e, here, r):
            on_road = roads.route(st, here, r) is not None
            if on_road or eng._going(st, here, r) != "difficult":
                return r
            return None
        d -= eng.STEP
    return None


def _march_cost(st: State, e: dict, route: str) -> int:
    n = st.get("marches", {}).get(e["id"], 0) + 1
    return _eng()._cost(st, e, "march", march_number=n, route=route,
                        wet=bool(st["weather"]["muddy_roads"]))


def _ford_rect(st: State, e: dict, river: dict) -> Rect | None:
    """Where ``e`` stands to search ``river``: straight ahead on its near bank, within its
    allowance, not blocked, the search allowed there."""
    eng = _eng()
    here = eng._rect(e)
    gap = water.bank_gap(river, here)
    if gap is None:
        return None
    r = here.moved(gap)
    if gap > eng._allow(st, e, eng._going(st, here, r)) or eng._blocked(
            st, e, r, clear_of_enemy=True) or water.barred(st, e, here, r) or \
            eng._must_shoot_at(st, e, r):
        return None
    return r if water.may_search(st, e, river, r) else None


def _arrive_rect(st: State, e: dict, offset: int) -> Rect | None:
    """Where ``e`` (waiting, its command arriving) may enter ``offset`` paces along the
    edge from its road: by the road (offset 0, the first bound, a road move from the edge)
    or straight in (a later bound, the going of the ground), the longest 50p step that is
    clear and legal (enemy blocking the road are repulsed first: :func:`_repulse`)."""
    eng = _eng()
    a = st["arrivals"][e["command"]]
    by_road = a["status"] == "first"
    start = arrivals.entry(st, e["command"], offset, 0, e["width"], e["depth"])
    full = _road_allowance(st, e)
    for d in range(full, int(e["depth"]) - 1, -eng.STEP):
        r = arrivals.entry(st, e["command"], offset, d, e["width"], e["depth"])
        if not by_road and d > eng._allow(st, e, eng._going(st, r)):
            continue
        if eng._blocked(st, e, r, clear_of_enemy=True) or water.barred(
                st, e, start, r, on_road=by_road) or eng._must_shoot_at(st, e, r):
            continue
        return r
    return None


def _blockers(st: State, e: dict) -> list[str]:
    """The enemy standing in the way of ``e`` coming on by its road (L215): on the ground
    its road move from the edge would sweep."""
    eng = _eng()
    gate = water.hull(*(arrivals.entry(st, e["command"], 0, d, e["width"], e["depth"])
                        for d in (0, _road_allowance(st, e))))
    return [o["id"] for o in eng._live(st, eng._enemy(st, e["side"]))
            if overlaps(gate, eng._rect(o).corners())]


def _repulse(st: State, e: dict, log: EventLog) -> None:
    """Repulse 400p every enemy element blocking ``e``'s road entry (L215), revealing a
    concealed one first (it is met on the road)."""
    eng = _eng()
    sight.reveal(st, log, acting=tuple(st["elements"][i] for i in _blockers(st, e)))
    for oid in _blockers(st, e):
        o = st["elements"][oid]
        eng._back(st, o, 400, log, "blocks the road and is repulsed", repulse=True)
        o["repulsed"] = True


def _may_arrive(st: State, e: dict, offset: int) -> bool:
    """Whether ``e`` may come on at ``offset``: by the road, once its blockers are gone
    (worked out on a copy of the state)."""
    if offset == 0 and st["arrivals"][e["command"]]["status"] == "first" and \
            _blockers(st, e):
        st = _eng()._copy(st)
        _repulse(st, st["elements"][e["id"]], EventLog(None))
        e = st["elements"][e["id"]]
    return _arrive_rect(st, e, offset) is not None


def options(st: State, verbs: tuple[str, ...] = VERBS) -> list[tuple[str, str, int]]:
    """The phasing side's orders of this module now, as (key, label, PIPs): those of
    ``verbs`` (all four by default)."""
    eng = _eng()
    side = st["phasing"]
    out: list[tuple[str, str, int]] = []
    moving = not {"march", "road", "ford"}.isdisjoint(verbs)
    for e in eng._live(st, side) if moving else []:
        left = st["pips"].get(e["command"], 0)
        if e["state"] != "ok":
            continue
        name = eng._name(st, e)
        here = eng._rect(e)
        if "march" in verbs and _may_march(st, e) and _clear(st, side, here,
                                                             -_road_allowance(st, e)):
            r = _march_straight(st, e)
            if r is not None:
                c = _march_cost(st, e, roads.route(st, here, r) or "off_road")
                if c <= left:
                    out.append((f"march:{e['id']}", f"{name} marches ahead", c))
            for road in roads.roads_at(st, (e["x"], e["y"])):
                for way in roads.directions(road):
                    if _road_move(st, e, road, way, march=True) is not None:
                        c = _march_cost(st, e, f"{road.get('quality', 'good')}_road")
                        if c <= left:
                            out.append((f"march:{e['id']}:{way}", f"{name} marches "
                                        f"{way.upper()} along {road['name']}", c))
        if not eng._movable(st, e):
            continue
        c = eng._cost(st, e)
        if c > left:
            continue
        for road in roads.roads_at(st, (e["x"], e["y"])) if "road" in verbs else []:
            for way in roads.directions(road):
                if _road_move(st, e, road, way, march=False) is not None:
                    out.append((f"road:{e['id']}:{way}", f"{name} moves {way.upper()} "
                                f"along {road['name']}", c))
        if "ford" in verbs and c + 2 <= left:
            for t in st["terrain"]:
                if t["kind"] == "river" and _ford_rect(st, e, t) is not None:
                    out.append((f"ford:{e['id']}:{t['id']}", f"{name} searches "
                                f"{t['name']} for a ford", c + 2))
    for e in st["elements"].values() if "arrive" in verbs else []:
        a = st.get("arrivals", {}).get(e["command"])
        if e["state"] != "waiting" or e["side"] != side or a is None or \
                a["status"] not in ("first", "later") or e["type"] in ("SUP", "SPG"):
            continue
        c = eng._cost(st, e)
        if c > st["pips"].get(e["command"], 0):
            continue
        for offset in (0,) if a["status"] == "first" else arrivals.LATER_OFFSETS:
            if _may_arrive(st, e, offset):
                key = f"arrive:{e['id']}" + (f":{offset}" if a["status"] == "later" else "")
                where = "by the road" if a["status"] == "first" else (
                    f"{abs(offset)} paces {'right' if offset > 0 else 'left'} of the road"
                    if offset else "at the road")
                out.append((key, f"{eng._name(st, e)} comes on {where}", c))
    return out


def apply(st: State, parts: list[str], source: RandomSource, log: EventLog) -> None:
    """Carry out the order ``parts`` (its key split at ``:``; one of :func:`options`, its
    PIPs already paid) in place."""
    eng = _eng()
    e = st["elements"][parts[1]]
    verb = parts[0]
    here = eng._rect(e)
    if verb in ("march", "road"):
        if len(parts) == 3:
            road = next(t for t in roads.roads_at(st, (e["x"], e["y"]))
                        if parts[2] in roads.directions(t))
            r = _road_move(st, e, road, parts[2], march=verb == "march")
            where = f" {parts[2].upper()} along {road['name']}"
        else:
            r = _march_straight(st, e)
            where = " ahead"
        assert r is not None
        eng._place(e, r)
        e["moved"] = True
        if verb == "march":
            marches = st.setdefault("marches", {})
            marches[e["id"]] = marches.get(e["id"], 0) + 1
            e["shot"] = True  # an element that marched cannot shoot this bound (L267)
        paces = round(move_distance(here, r))
        log("move", f"{eng._name(st, e)} {'marches' if verb == 'march' else 'moves'}{where} "
            f"{paces} paces.", {"element": e["id"], "paces": paces, "march": verb == "march"})
    elif verb == "ford":
        river = next(t for t in st["terrain"] if t["id"] == parts[2])
        r = _ford_rect(st, e, river)
        assert r is not None
        eng._place(e, r)
        e["moved"] = True
        foes = eng._live(st, eng._enemy(st, e["side"]))
        roll, across = water.search(st, e, river, r, source, enemy=foes, rect_of=eng._rect)
        if across is not None and not eng._blocked(st, e, across, clear_of_enemy=True):
            eng._place(e, across)
        found = "finds a ford and crosses" if roll["found"] else "finds no ford"
        log("ford", f"{eng._name(st, e)} searches {river['name']} and {found} (die "
            f"{roll['die']}, total {roll['total']}).", {"element": e["id"], **roll})
    elif verb == "arrive":
        offset = int(parts[2]) if len(parts) == 3 else 0
        if len(parts) == 2:
            _repulse(st, e, log)
        r = _arrive_rect(st, e, offset)
        assert r is not None
        e["state"] = "ok"
        eng._place(e, r)
        e["moved"] = True
        a = st["arrivals"][e["command"]]
        if not any(x["state"] == "waiting" and x["command"] == e["command"]
                   for x in st["elements"].values()):
            a["status"] = "done"
        paces = round(move_distance(arrivals.entry(st, e["command"], offset, 0, e["width"],
                                                   e["depth"]), r))
        log("arrival.move", f"{eng._name(st, e)} comes on and moves {paces} paces.",
            {"element": e["id"], "paces": paces})


def fingerprint(st: State) -> str:
    """What this module's orders depend on beyond the engine's own fingerprint: the roads'
    quality, the bound's marches, the fords found and searched, the arrivals."""
    return repr((tuple(t.get("quality") for t in st["terrain"]), st.get("marches"),
                 st.get("fords"), st.get("searched"), st.get("arrivals"),
                 tuple(i for i, e in st["elements"].items() if e.get("concealed"))))


def new_bound(st: State, side: str, log: EventLog) -> None:
    """The start of ``side``'s bound: the march counts start again; delayed commands come
    due (:func:`rules.hfg.arrivals.new_bound`); concealed elements the last bound's outcome
    moves brought into sight are revealed (:func:`rules.hfg.sight.reveal`)."""
    st.pop("marches", None)
    arrivals.new_bound(st, side, log)
    sight.reveal(st, log)

