"""The ``hfg`` encounter engine: a Horse, Foot and Guns land battle played a bound at a
time (:mod:`rules.engine`; ``rules/hfg.md`` §5-§12, errata F1-F21).

A bound (§5): the phasing side's PIP dice, one per command (C-in-C first), with the weather
read from the attacking C-in-C's first unadjusted roll and ended by the defender's, and a
disabled general recovering on a 6; then **orders**: the side's commander spends PIPs one
order at a time (decision ``hfg.orders``) until he ends the bound's moves; then every router
of both sides routs again; distant shooting (the phasing side's targets first, each target
answering its primary, aiders at most two); close combat of every frontal contact with its
flank contacts and overlaps; the end of the bound (the phasing side's routers not rallied
since they routed are destroyed; the army-break test). The battle ends when an army breaks
or each side has had ``max_bounds`` bounds (the defender then holds the field, A2).

Orders (option keys): ``advance:<id>`` (straight ahead, as far as the move allows, stopping
short of anything in the way and of the 200p limit before enemy who must shoot at it),
``line:<id>`` (the whole line that element stands in, at its slowest member's pace),
``attack:<id>:<enemy>`` (into frontal contact with an enemy's front, conforming),
``flank:<id>:<enemy>:<left|right>`` (onto an enemy flank, starting on that side),
``face:<id>:<enemy>`` (pivot to face an enemy), ``retire:<id>`` (straight back),
``occupy:<id>:<feature>`` (into a town or wood), ``assault:<id>:<feature>:<edge>`` (to the
middle of an edge, north/east/south/west, of an enemy-held town or strong point, facing
in), ``rally:<id>``, ``swap:<command>`` (the
C-in-C exchanges his PIP score for a subordinate's lower one, free, before any other order,
L223) and ``end``. Each costs PIPs by :func:`rules.hfg.command.pip_cost` (out of command
beyond the general's easy command distance; slow movers, the entrenched among them;
retiring within 400p of enemy). :mod:`rules.hfg.moves` adds
``march:<id>`` and ``march:<id>:<n|e|s|w>`` (march moves, ahead or along a road),
``road:<id>:<n|e|s|w>`` (a tactical move along a road), ``ford:<id>:<river>`` (a ford
search) and ``arrive:<id>[:<offset>]`` (a delayed command's element coming on).

Geometry: :mod:`rules.hfg.geometry` (elements as oriented rectangles in paces). Terrain
features are axis-aligned rectangles: ``bua`` (500p, +2 to foot in it), ``wood``,
``difficult_hill`` (difficult going, block sight), ``hill`` (gentle: good going), ``slow``,
``marsh`` (difficult; impassable to HQ, heavy guns and Laager), ``waterway`` (naval only),
``road`` (a strip with a ``quality``, good or bad: :mod:`rules.hfg.roads`), ``stream`` and
``river`` (:mod:`rules.hfg.water`: a river is crossed only at a ford, a stream crossing
ends half-way), and the field works of :mod:`rules.hfg.works`: ``redoubt`` (+3 to
artillery or foot in it shot at from anywhere but directly behind; its guns neither move
nor turn), ``entrenchment`` (+3 to foot or dismounted in it shot at from the front; they
cannot turn and pay a PIP more to move), ``linear_feature`` (an exploitable embankment,
cutting or sunken road: it protects as an entrenchment), ``strong_point`` (the SP
garrison's building).

Outcome moves (L315-321): a recoil goes back its depth, pushing the friends it cannot pass
through, after turning to face shooting from directly behind; a repulse passes through any
friend; routers pass through friends, who rout their own full move unless exempt
(:mod:`rules.hfg.rout`, setting ``hfg_rout_contagion``), and stop at a ford. An element
moving back or routing is destroyed, not stopped short, by an enemy front on its rear, by
enemy other than Skirmishers in its way and by ground it cannot cross; Skirmishers burst
through turn to face it. A Command Party in close combat
with a mounted or foot friend contiguous to its rear adds that element's factor and both
obey its outcome (:mod:`rules.hfg.leading`); the order ``lead:<cp>:<enemy>`` takes both
into an enemy's front. A town or strong point fights each element at its edges separately
in the close combat phase, the garrison taking the worst result (:mod:`rules.hfg.assault`);
those elements neither shoot nor are shot. A command is allied where the setup's command
says ``"allied": true`` (no PIP swap with it).

Standing choices the engine takes for the owner (the rules leave them to him; said in the
log): repulses the least distance, pursuits 300p (stopping short of anything in the way,
no new combat), press forward only where the 200p bring the element into the beaten
enemy's front (else halt), a mounted winner of a distant combat charges the primary shooter
if it is within 600p straight ahead, dismountables keep the mode their setup gives. Not
modelled yet (said here, not faked): an element contacted only on a flank or rear turning
to face after combat (L262, L327), a rout's path along a road, river bank or terrain
feature edge leading nearer its army's entry point (routers go straight back, so ground they
might have gone round is ground they cannot cross, L318, L321), bridges (so no recoil
carried across one, L316-317; routers stop at fords, L318-319), railways and minefields,
works' placement in the defender's zone, a winner
of a town assault entering it (an ``attack`` on a garrison's front still stands the
attacker in the town; a press forward stops at its edge), hill
contours (an element standing on a hill is uphill of one standing off it), columns (a line
may not enter water), Aeronauts' sight, deployment zones (scenarios are placed as given),
the general's line of sight for command (distance only).

Speed (issue 13; play is the same seed for seed). The orders are listed from what is kept:
a frame of each state's table (:class:`_Frame`: the live elements' footprints and answers
about them), rebuilt as soon as any element's pose (:data:`_POSE`) differs, and each
element's orders (:func:`_element_orders`) kept by everything they read
(:func:`_orders_key`: the battle, the weather, the towns held, the element, its general and
the elements near it). A rule that makes an element's orders read something more must add
it to that key (or list its orders outside :func:`_element_orders`);
tests/rules/hfg/test_hfg_kept_orders.py compares the kept orders with orders listed from
scratch at every decision of seeded battles. What a shooter and a target alone decide of
shooting (:func:`_sightline`) is kept by the battle, both footprints and types, and the
distance to the nearest known enemy (:func:`rules.hfg.moves.nearest_known_enemy`) by the
known enemy's poses, from frame to frame: the default policy asks them again only for the
elements an order it weighs would move. The Monte Carlo's play (:meth:`HfgEngine.auto_play`)
lists only the orders the default policy may take (:data:`rules.hfg.ai.VERBS`: no march,
road, ford, lead or swap), and no command lists orders once its PIPs are spent. ``make
fast`` compiles this package's hot path with mypyc (Makefile ``FAST_MODULES``;
tests/rules/test_compiled.py plays both builds seed for seed): it gains little, about an
eighth, the state being plain dicts.

Setup (:func:`validate_setup`)::

    {"title": str, "year": int, "table": {"w": paces, "d": paces}, "max_bounds": 4-36,
     "attacker": side id, "settings": {...},
     "campaign": {"arrived": {side id: [day, "morning"|"afternoon"|"night"]}} (optional:
                 forces met on the campaign map, :mod:`rules.hfg.campaign`; the side there
                 first defends, L351),
     "sides": [{"id", "name", "commander": "side:<id>" | "pc:<pk>", "ag": int,
                "commands": [{"id", "name" (optional), "general": element id, "allied": bool,
                              "arrives": {"road", "edge"} (optional: delayed,
                              :mod:`rules.hfg.arrivals`)}]  (the C-in-C's first),
                "army": {"list", "year", "counts", "sections"} (optional, checked)}],
     "terrain": [{"id", "kind", "x", "y", "w", "h", "quality" (roads)}] or "dice"
                (diced for at the start: :mod:`rules.hfg.terrain`),
     "elements": [{"id", "side", "command", "type", "grade", "x", "y", "heading",
                   "dismounted", "concealed" (optional)}]}

Landing parties (issue 13's shore actions) map a ship's people onto HFG elements one scale
down (an element is a company, not a brigade; the ground scale and every rule unchanged):
the marines are a Muskets element (Bayonets from 1776), Elite if the ship's marines are
crack; armed sailors are Inferior Muskets, or Skirmishers where they fight loose; the
boats' carronades are Light Artillery; the landing officer is a Command Party; the ship
offshore a Sail element (Steamer from 1824) on the Waterway, Inferior if a sloop or smaller.

Participants: each side's ``commander``. Hidden: a delayed command's elements and where
and whether it will arrive, until it comes on (:func:`rules.hfg.arrivals.hide`; its due
event goes to its own side only); concealed elements (the element flag ``concealed``,
:mod:`rules.hfg.sight`) until revealed. Everything else is public: :meth:`HfgEngine.view` shows
the rest of the table.
"""

from __future__ import annotations

import copy
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter, methodcaller
from typing import Any

from rules.btq.settings import SettingError, resolve
from rules.engine import (
    GM,
    Decision,
    Event,
    EventLog,
    IllegalAction,
    Option,
    Outcome,
    Scenario,
    State,
    load_scenarios,
    register,
)
from rules.hfg import arrivals, assault, campaign, leading, moves, roads, rout, sight, water, works
from rules.hfg import command as cmd
from rules.hfg.ai import VERBS, choose
from rules.hfg.combat import CombatResult, Fighter, fight
from rules.hfg.data import troop_type, validate_army
from rules.hfg.geometry import (
    EPS,
    Point,
    Rect,
    contact,
    edge_gap,
    facing_point,
    flank_position,
    in_corridor,
    in_diagonal_arc,
    inside,
    move_distance,
    opposite,
    overlaps,
    segment_gap,
    side_by_side,
)
from rules.hfg.losses import Unit, battle_result, command_defeated
from rules.hfg.movement import allowance, approach_limit, may_contact
from rules.hfg.shooting import shooting_range
from rules.hfg.terrain import generate as dice_terrain
from rules.random import RandomSource
from rules.words import agree, plural_flag

ENGINE_NAME = "hfg"
TERRAIN_KINDS = ("bua", "wood", "difficult_hill", "hill", "slow", "marsh", "waterway", "road",
                 "stream", "river", *works.KINDS)
BLOCKS_SIGHT = ("bua", "wood", "difficult_hill")
GOING_OF = {"bua": "good", "wood": "difficult", "difficult_hill": "difficult", "hill": "good",
            "slow": "slow", "marsh": "difficult", "waterway": "good", "road": "good",
            "stream": "good", "river": "good", "redoubt": "good", "entrenchment": "good",
            "linear_feature": "good", "strong_point": "good"}
ON_TABLE = ("ok", "routing")
STEP = 50
"""Moves are tried in steps of 50p down from the full allowance until one is legal."""
MAX_ELEMENTS = 120
_SETUP_KEYS = {"title", "year", "table", "max_bounds", "attacker", "settings", "sides",
               "terrain", "elements", "notes", "campaign"}


# --- setup -------------------------------------------------------------------------------


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise IllegalAction(f"{what} must be a whole number")
    if not low <= value <= high:
        raise IllegalAction(f"{what} must be between {low} and {high}, not {value}")
    return int(value)


def _ident(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 40 or not all(
            c.isalnum() or c in "_-" for c in value):
        raise IllegalAction(f"{what} must be a short name of letters, digits, _ or -")
    return value


def validate_setup(setup: dict) -> dict:
    """The setup checked and normalised (see the module docstring); IllegalAction naming
    the first thing wrong: an unknown key, table, side, command, element, terrain, a setting,
    an element off the table or overlapping another, a general not in his command, or an
    army that breaks its list."""
    if not isinstance(setup, dict):
        raise IllegalAction("a setup is a JSON object")
    unknown = sorted(set(setup) - _SETUP_KEYS)
    if unknown:
        raise IllegalAction(f"unknown setup key {unknown[0]!r}")
    year = _int(setup.get("year", 1800), "the year", 1700, 1915)
    table = setup.get("table") or {"w": 12000, "d": 6000}
    w = _int(table.get("w"), "the table's width", 1200, 24000)
    d = _int(table.get("d"), "the table's depth", 1200, 12000)
    # a campaign passes all its rule settings: HFG keeps its own, each checked, the
    # defaults filled in
    try:
        settings = {k: v for k, v in resolve({k: v for k, v in dict(
            setup.get("settings") or {}).items() if k.startswith("hfg_")}).items()
            if k.startswith("hfg_")}
    except SettingError as exc:
        raise IllegalAction(str(exc)) from None
    sides_in = setup.get("sides")
    if not isinstance(sides_in, list) or len(sides_in) != 2:
        raise IllegalAction("a battle has two sides")
    sides = []
    for s in sides_in:
        sid = _ident(s.get("id"), "a side's id")
        commands = s.get("commands")
        if not isinstance(commands, list) or not 1 <= len(commands) <= 8:
            raise IllegalAction(f"side {sid} needs 1 to 8 commands, the C-in-C's first")
        try:
            plural = plural_flag(s, f"side {sid}")
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        sides.append({
            "id": sid, "name": str(s.get("name") or sid)[:80],
            **({"plural": True} if plural else {}),
            "commander": str(s.get("commander") or f"side:{sid}"),
            "ag": _int(s.get("ag", 0), f"side {sid}'s Ag", 0, 6),
            "commands": [{"id": _ident(c.get("id"), "a command's id"),
                          "name": _command_name(s, c, c is commands[0]),
                          "general": _ident(c.get("general"), "a general"),
                          **({"allied": True} if c.get("allied") else {}),
                          **({"arrives": c["arrives"]} if c.get("arrives") else {})}
                         for c in commands],
            "army": s.get("army")})
        if s.get("army") is not None:
            validate_army(s["army"])
    side_ids = [s["id"] for s in sides]
    if len(set(side_ids)) != 2:
        raise IllegalAction("the two sides need different ids")
    attacker = setup.get("attacker", side_ids[0])
    if attacker not in side_ids:
        raise IllegalAction("the attacker must be one of the sides")
    camp = setup.get("campaign")
    if camp is not None:  # forces that met on the campaign map: the first there defends
        arrived = camp.get("arrived") if isinstance(camp, dict) else None
        attacker = campaign.attacker_from_arrivals(arrived, side_ids)
        if setup.get("attacker", attacker) != attacker:
            raise IllegalAction(f"side {setup['attacker']} arrived first on the campaign "
                                "map, so it defends")
    terrain = []
    dice = setup.get("terrain") == "dice"
    for t in [] if dice else setup.get("terrain") or []:
        if t.get("kind") not in TERRAIN_KINDS:
            raise IllegalAction(f"terrain is one of {', '.join(TERRAIN_KINDS)}, not "
                                f"{t.get('kind')!r}")
        terrain.append({"id": _ident(t.get("id"), "a terrain id"), "kind": t["kind"],
                        "x": _int(t.get("x"), "terrain x", 0, w),
                        "y": _int(t.get("y"), "terrain y", 0, d),
                        "w": _int(t.get("w"), "terrain width", 100, w),
                        "h": _int(t.get("h"), "terrain depth", 100, d),
                        "name": str(t.get("name") or t["kind"])[:60]})
        if t["kind"] == "road":
            if t.get("quality", "good") not in roads.QUALITIES:
                raise IllegalAction("a road is good or bad")
            terrain[-1]["quality"] = t.get("quality", "good")
    works.check_works(terrain)
    raw = setup.get("elements")
    if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_ELEMENTS:
        raise IllegalAction(f"a battle has 2 to {MAX_ELEMENTS} elements")
    commands = {c["id"]: s["id"] for s in sides for c in s["commands"]}
    elements = []
    for e in raw:
        eid = _ident(e.get("id"), "an element's id")
        if e.get("side") not in side_ids:
            raise IllegalAction(f"element {eid}: its side must be one of {side_ids}")
        if commands.get(e.get("command")) != e["side"]:
            raise IllegalAction(f"element {eid}: its command must be one of its side's")
        try:
            t = troop_type(str(e.get("type")))
        except ValueError as exc:
            raise IllegalAction(f"element {eid}: {exc}") from None
        grade = e.get("grade") or None
        if grade not in (None, "A", "L", "E", "I", "HVY", "HOR"):
            raise IllegalAction(f"element {eid}: unknown grade {grade!r}")
        if bool(e.get("dismounted")) and not t.dismountable:
            raise IllegalAction(f"element {eid}: {t.name} cannot dismount")
        elements.append({"id": eid, "side": e["side"], "command": e["command"],
                         "type": t.code, "grade": grade, "dismounted": bool(e.get("dismounted")),
                         "x": _int(e.get("x"), f"element {eid}'s x", 0, w),
                         "y": _int(e.get("y"), f"element {eid}'s y", 0, d),
                         "heading": _int(e.get("heading", 0), f"element {eid}'s heading", 0, 359),
                         **({"concealed": True} if e.get("concealed") else {})})
    ids = [e["id"] for e in elements]
    if len(set(ids)) != len(ids):
        raise IllegalAction("two elements share an id")
    by_id = {e["id"]: e for e in elements}
    for s in sides:
        for c in s["commands"]:
            g = by_id.get(c["general"])
            if g is None or g["command"] != c["id"]:
                raise IllegalAction(f"command {c['id']}: its general must be one of its "
                                    "elements")
    out = {"title": str(setup.get("title") or "A battle")[:120], "year": year,
           "table": {"w": w, "d": d},
           "max_bounds": _int(setup.get("max_bounds", 36), "max_bounds", 4, 36),
           "attacker": attacker, "settings": settings, "sides": sides,
           "terrain": "dice" if dice else terrain,
           "elements": elements, "notes": str(setup.get("notes") or "")[:2000],
           **({"campaign": {"arrived": dict(camp["arrived"])}} if camp is not None else {})}
    arrivals.check_setup(out)
    st = _initial_state(out)
    for e in st["elements"].values():
        if e["state"] == "waiting":
            continue  # off the table until its command arrives
        r = _rect(e)
        if _off_table(st, r):
            raise IllegalAction(f"element {e['id']} is not on the table")
        for o in st["elements"].values():
            if o["id"] < e["id"] and o["state"] != "waiting" and overlaps(
                    r.corners(), _rect(o).corners()):
                raise IllegalAction(f"elements {o['id']} and {e['id']} overlap")
        naval = troop_type(e["type"]).category == "naval"
        wet = _terrain_under(st, r, "waterway")
        if naval != bool(wet):
            raise IllegalAction(f"element {e['id']}: ships stay on the waterway, land "
                                "troops off it")
        why = works.garrison_error(e["type"], _work(st, e), defender=e["side"] != attacker)
        if why:
            raise IllegalAction(f"element {e['id']}: {why}")
    concealment = sight.check_setup(st)
    if concealment:
        raise IllegalAction(concealment)
    return out


def _command_name(side: dict, c: dict, first: bool) -> str:
    """What the pages call a command: the name the setup gives it, else its side's name for
    the C-in-C's command (the first), else "command" and its id."""
    name = c.get("name") or (side.get("name") or side.get("id") if first else
                             f"command {c.get('id')}")
    return str(name)[:80]


def _initial_state(setup: dict) -> State:
    elements = {}
    for e in setup["elements"]:
        t = troop_type(e["type"])
        elements[e["id"]] = {
            "id": e["id"], "side": e["side"], "command": e["command"], "type": e["type"],
            "grade": e["grade"], "dismounted": e["dismounted"], "x": e["x"], "y": e["y"],
            "heading": e["heading"], "width": 100 if t.category == "naval" else 400,
            "depth": max(t.depth, 100), "state": "ok", "moved": False, "shot": False,
            "routed_at": None, "rout_distance": 0, "disabled": False, "repulsed": False,
            **({"concealed": True} if e.get("concealed") else {})}
    first = setup["attacker"]
    other = next(s["id"] for s in setup["sides"] if s["id"] != first)
    st = {
        "setup": copy.deepcopy(setup), "year": setup["year"], "table": dict(setup["table"]),
        "settings": dict(setup["settings"]), "attacker": first, "defender": other,
        "sides": {s["id"]: {k: copy.deepcopy(s[k]) for k in ("id", "name", "plural",
                                                            "commander", "ag", "commands")
                            if k in s}
                  for s in setup["sides"]},
        "side_ids": [first, other],
        "terrain": [] if setup["terrain"] == "dice" else copy.deepcopy(setup["terrain"]),
        "afire": [], "elements": elements, "order": [e["id"] for e in setup["elements"]],
        "bound": 0, "bounds_done": {first: 0, other: 0}, "phasing": first, "pips": {},
        "weather": {"kind": "fair", "mist": False, "raining": False, "guns_slowed": False,
                    "muddy_roads": False, "ones": 0},
        "weather_set": False, "max_bounds": setup["max_bounds"], "result": None,
        "awaiting": False}
    arrivals.hold_back(st)
    return st


# --- helpers -----------------------------------------------------------------------------


_RECT_OF = itemgetter("x", "y", "heading", "width", "depth")


def _rect(e: dict) -> Rect:
    return _footprint(*_RECT_OF(e))


@lru_cache(maxsize=65536)
def _footprint(x: float, y: float, heading: float, width: float, depth: float) -> Rect:
    return Rect(x, y, heading, width, depth)


def _copy(v: Any) -> Any:
    """A copy of the JSON-shaped state ``v`` (dicts, lists, tuples of plain values), much
    cheaper than ``copy.deepcopy`` (nothing in a state is shared or cyclic)."""
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_copy(x) for x in v)
    return v


def _place(e: dict, r: Rect) -> None:
    e["x"], e["y"], e["heading"] = round(r.x), round(r.y), round(r.heading) % 360


_POSE = itemgetter("x", "y", "heading", "width", "depth", "side", "state", "type",
                   "dismounted")
"""What of an element the geometry of a :class:`_Frame` depends on."""
_CONCEALED = methodcaller("get", "concealed")
_CENTRE_X = itemgetter(1)
"""A :class:`_Frame` box's centre x."""


class _Frame:
    """The table as one state's elements stand on it: the live elements (on the table, in
    the battle's order; all and by side), each with its footprint's centre, half its width
    plus depth, its corners and its pose with its id (also sorted by the centre's x, with
    the largest half width plus depth and the deepest element); as they are asked for, each
    one's frontal enemy, each side's foot who would shoot at an approaching enemy
    (``limiters``) and the answers of :func:`_kept`, :func:`_held` and
    :func:`rules.hfg.moves.nearest_known_enemy`. Worked out once and kept while every
    element's pose (:data:`_POSE`) and who is concealed are the same, so any move, rout,
    loss or reveal makes a new one (:func:`_frame`); its lists are never changed."""

    __slots__ = ("elements", "poses", "live", "by_side", "boxes", "by_x", "xs", "biggest",
                 "deepest", "front", "limiters", "answers", "parent", "spots")

    def __init__(self, st: State, poses: tuple, base: _Frame | None = None,
                 moved: dict[str, dict] | None = None) -> None:
        """The frame of ``st``, its elements standing as ``poses`` say; or, given ``base``
        and ``moved``, worked out from ``base`` (:meth:`after`)."""
        els = st["elements"]
        self.elements, self.poses = els, poses
        self.front: dict[str, dict | None] = {}
        self.answers: dict[tuple, Any] = {}
        if base is None or moved is None:
            self.live = [e for e in map(els.__getitem__, st["order"])
                         if e["state"] in ON_TABLE]
            self.by_side = {s: [e for e in self.live if e["side"] == s] for s in st["side_ids"]}
            self.boxes = [(e, *_frame_box(*_RECT_OF(e)), (*_POSE(e), e["id"]))
                          for e in self.live]
            self.biggest = max((b[3] for b in self.boxes), default=0.0)
            self.deepest = max((e["depth"] for e in self.live), default=0)
            self.limiters: dict[str, list[Rect]] = {}
            self.parent: _Frame | None = None
            self.spots: list[tuple[float, float]] = []
        else:
            self.live, self.boxes = list(base.live), list(base.boxes)
            self.by_side = {s: list(es) for s, es in base.by_side.items()}
            for i, (e, *_) in enumerate(base.boxes):
                m = moved.get(e["id"])
                if m is not None:
                    self.live[i] = m
                    self.boxes[i] = (m, *_frame_box(*_RECT_OF(m)), (*_POSE(m), m["id"]))
                    mine = self.by_side[m["side"]]
                    mine[next(j for j, x in enumerate(mine) if x is e)] = m
            self.biggest, self.deepest = base.biggest, base.deepest
            self.parent = base
            self.spots = [(e["x"], e["y"]) for k, m in moved.items()
                          for e in (base.elements[k], m)]
            sides = {m["side"] for m in moved.values()}
            self.limiters = {s: v for s, v in base.limiters.items() if s not in sides}
        self.by_x = sorted(self.boxes, key=_CENTRE_X)
        self.xs = [b[1] for b in self.by_x]

    @classmethod
    def after(cls, base: _Frame, st: State, moved: dict[str, dict]) -> _Frame:
        """The frame of ``st``: ``base``'s state with the elements in ``moved`` (id: the
        element, in the same state and of the same size) standing elsewhere, worked out from
        ``base`` (the same lists as a new frame's, but only the moved boxes recomputed) with
        the answers of ``base`` that no moved element can change: a frontal enemy (looked for
        within :data:`EPS` of the element's front), when no moved element stood or stands
        near enough (``parent`` and ``spots``, the moved elements' front midpoints before and
        after, for :func:`_front_enemy`); a side's ``limiters``, when none of the side moved.
        Not kept by :func:`_frame` (its ``poses`` are not worked out): for :class:`_still`
        only."""
        return cls(st, (), base, moved)


@lru_cache(maxsize=65536)
def _frame_box(x: float, y: float, heading: float, width: float, depth: float
               ) -> tuple[float, float, float, tuple[Point, Point, Point, Point]]:
    """A footprint's centre, half its width plus depth and its corners (a :class:`_Frame`'s
    box but the element and its pose)."""
    r = _footprint(x, y, heading, width, depth)
    cx, cy = r.center()
    return cx, cy, (width + depth) / 2, r.corners()


_FRAMES: dict[int, _Frame] = {}
_STILL: list[_Frame] = []
"""The frames of states held still (:func:`_still`), innermost last."""


def _frame(st: State) -> _Frame:
    """The :class:`_Frame` of ``st`` as its elements stand now."""
    els = st["elements"]
    if _STILL and _STILL[-1].elements is els:
        return _STILL[-1]
    # who is concealed changes what may be seen and shot at without anyone moving
    vals = els.values()
    poses = (tuple(map(_POSE, vals)), tuple(map(_CONCEALED, vals)))
    f = _FRAMES.get(id(els))
    if f is None or f.elements is not els or f.poses != poses:
        if len(_FRAMES) > 16:
            _FRAMES.clear()
        f = _FRAMES[id(els)] = _Frame(st, poses)
    return f


class _still:
    """``with _still(st):`` around reading ``st`` without changing it (listing the orders,
    the default policy's choice, the shooters choosing their targets): its frame is worked
    out once on entry instead of checked at every question. ``base``, ``moved``: ``st`` is
    the state ``base`` with the elements in ``moved`` standing elsewhere (the default
    policy weighing a move), so the frame is worked out from ``base``'s
    (:meth:`_Frame.after`)."""

    def __init__(self, st: State, base: State | None = None,
                 moved: dict[str, dict] | None = None) -> None:
        self.st, self.base, self.moved = st, base, moved

    def __enter__(self) -> None:
        if self.base is None or self.moved is None:
            _STILL.append(_frame(self.st))
        else:
            _STILL.append(_Frame.after(_frame(self.base), self.st, self.moved))

    def __exit__(self, *exc: object) -> None:
        _STILL.pop()


def _live(st: State, side: str | None = None) -> list[dict]:
    """The elements on the table (ok or routing), of ``side`` or all, in the battle's
    order (a new list)."""
    f = _frame(st)
    return list(f.live if side is None else f.by_side[side])


def _enemy(st: State, side: str) -> str:
    return next(s for s in st["side_ids"] if s != side)


def _box(t: dict) -> tuple:
    x, y, w, h = t["x"], t["y"], t["w"], t["h"]
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _terrain_under(st: State, r: Rect, *kinds: str) -> list[dict]:
    """The terrain features under ``r`` (of ``kinds``, or any), in the setup's order."""
    terrain, key, present = _terrain_entry(st)
    if kinds and present.isdisjoint(kinds):
        return []
    return [terrain[i] for i in _under(key, r, kinds)]


_TERRAIN_KEYS: dict[int, tuple[list, tuple, frozenset[str]]] = {}


def _terrain_entry(st: State) -> tuple[list, tuple, frozenset[str]]:
    """The state's terrain list, the same as a hashable tuple of (kind, x, y, w, h) and the
    kinds of feature on the table, worked out once per state (terrain never changes during
    a battle; the list object is kept, so its id is not reused while the entry stands)."""
    terrain = st["terrain"]
    hit = _TERRAIN_KEYS.get(id(terrain))
    if hit is None or hit[0] is not terrain:
        if len(_TERRAIN_KEYS) > 256:
            _TERRAIN_KEYS.clear()
        hit = (terrain, tuple((t["kind"], t["x"], t["y"], t["w"], t["h"]) for t in terrain),
               frozenset(t["kind"] for t in terrain))
        _TERRAIN_KEYS[id(terrain)] = hit
    return hit


def _terrain_key(st: State) -> tuple:
    """The state's terrain as a hashable tuple of (kind, x, y, w, h)."""
    return _terrain_entry(st)[1]


@lru_cache(maxsize=65536)
def _under(terrain: tuple, r: Rect, kinds: tuple[str, ...]) -> tuple[int, ...]:
    pts = r.corners()
    lo_x, hi_x = min(p[0] for p in pts), max(p[0] for p in pts)
    lo_y, hi_y = min(p[1] for p in pts), max(p[1] for p in pts)
    return tuple(i for i, (kind, x, y, w, h) in enumerate(terrain)
                 if (not kinds or kind in kinds) and lo_x < x + w and hi_x > x
                 and lo_y < y + h and hi_y > y
                 and overlaps(pts, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), margin=0))


def _going(st: State, *rects: Rect) -> str:
    """The worst going under any of ``rects``: good, slow or difficult."""
    return _going_of(_terrain_key(st), rects)


_GOING_ORDER = {"good": 0, "slow": 1, "difficult": 2}


@lru_cache(maxsize=65536)
def _going_of(terrain: tuple, rects: tuple[Rect, ...]) -> str:
    worst = "good"
    for r in rects:
        for i in _under(terrain, r, ()):
            g = GOING_OF[terrain[i][0]]
            if _GOING_ORDER[g] > _GOING_ORDER[worst]:
                worst = g
    return worst


def _in(st: State, e: dict, kind: str) -> dict | None:
    """The first feature of ``kind`` holding ``e``'s centre, if any."""
    terrain, key, present = _terrain_entry(st)
    if kind not in present:
        return None
    i = _holding(key, _rect(e), (kind,))
    return None if i is None else terrain[i]


@lru_cache(maxsize=65536)
def _holding(terrain: tuple, r: Rect, kinds: tuple[str, ...]) -> int | None:
    c = r.center()
    return next((i for i, (kind, x, y, w, h) in enumerate(terrain) if kind in kinds
                 and inside(c, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))), None)


def _weather(st: State) -> cmd.Weather:
    return cmd.Weather(**st["weather"])


def _allow(st: State, e: dict, going: str) -> int:
    w = st["weather"]
    return _allowance(e["type"], going, e["grade"], st["year"], w["kind"], w["mist"],
                      w["raining"], w["guns_slowed"], w["muddy_roads"], w["ones"])


@lru_cache(maxsize=4096)
def _allowance(code: str, going: str, grade: str | None, year: int, *weather: Any) -> int:
    return allowance(code, going, grade=grade, year=year,
                     weather=cmd.Weather(*weather))


def _general(st: State, e: dict) -> dict:
    for s in st["sides"].values():
        for c in s["commands"]:
            if c["id"] == e["command"]:
                return st["elements"][c["general"]]
    raise KeyError(e["command"])


def _in_command(st: State, e: dict) -> bool:
    g = _general(st, e)
    if g["state"] != "ok" or g["disabled"] or _front_enemy(st, g):
        return False
    if g["id"] == e["id"]:
        return True
    reach = cmd.easy_command_distance(g["type"])
    gx, gy = _rect(g).center()
    ex, ey = _rect(e).center()
    return (gx - ex) ** 2 + (gy - ey) ** 2 <= reach * reach


def _front_enemy(st: State, e: dict) -> dict | None:
    """The enemy in frontal contact with ``e``, if any."""
    f = _frame(st)
    eid = e["id"]
    if eid in f.front:
        return f.front[eid]
    p = f.parent
    if p is not None and eid in p.front and p.elements.get(eid) is e:
        x, y, near = e["x"], e["y"], 2 * EPS + 1
        if all(abs(sx - x) > near or abs(sy - y) > near for sx, sy in f.spots):
            f.front[eid] = p.front[eid]  # no moved element stood or stands near enough
            return p.front[eid]
    r, found = _rect(e), None
    for o in f.by_side[_enemy(st, e["side"])]:
        if abs(o["x"] - e["x"]) <= 2 * EPS + 1 and abs(o["y"] - e["y"]) <= 2 * EPS + 1 and \
                contact(r, _rect(o)) == "front":
            found = o
            break
    if f.elements.get(eid) is e:
        f.front[eid] = found
    return found


def _blocked(st: State, e: dict, r: Rect, *, ignore: tuple[str, ...] = (),
             clear_of_enemy: bool = False) -> bool:
    """Whether ``e`` may not stand at ``r``: off the table, on another element (or touching
    an enemy, with ``clear_of_enemy``: only an attack ends in contact), in terrain it cannot
    enter (marsh for HQ, heavy guns and Laager; the waterway for land troops)."""
    if _off_table(st, r):
        return True
    cx, cy = r.center()
    half, corners, eid = (r.width + r.depth) / 2, r.corners(), e["id"]
    f = _frame(st)
    window = half + f.biggest + 1
    for o, ox, oy, size, o_corners, _ in f.by_x[bisect_left(f.xs, cx - window):
                                             bisect_right(f.xs, cx + window)]:
        reach = half + size
        if abs(ox - cx) < reach and abs(oy - cy) < reach and o["id"] != eid and \
                o["id"] not in ignore and overlaps(
                    corners, o_corners,
                    margin=-2 * EPS if clear_of_enemy and o["side"] != e["side"] else EPS):
            return True
    naval = troop_type(e["type"]).category == "naval"
    wet = _terrain_under(st, r, "waterway")
    if naval != bool(wet):
        return True
    if _terrain_under(st, r, "marsh") and (e["type"] in ("HQ", "LAA") or (
            troop_type(e["type"]).category == "artillery" and e["type"] != "LTA")):
        return True
    return "river" in _terrain_entry(st)[2] and water.in_river(st, e, r)


_WEATHER = itemgetter("kind", "mist", "raining", "guns_slowed", "muddy_roads", "ones")


def _kept(st: State, group: list[dict], key: tuple, work: Callable[[], Any]) -> Any:
    """What ``work`` answers about ``group`` (elements of ``st``) in ``st``'s frame, worked
    out once per frame, the weather and ``key`` (what else of the elements the answer reads
    beyond their poses); the answer is shared, never to be changed."""
    f = _frame(st)
    if len(group) == 1:
        if f.elements.get(group[0]["id"]) is not group[0]:
            return work()
    elif any(f.elements.get(m["id"]) is not m for m in group):
        return work()
    full = (*key, _WEATHER(st["weather"]), *(m["id"] for m in group))
    if full not in f.answers:
        f.answers[full] = work()
    return f.answers[full]


def _off_table(st: State, r: Rect) -> bool:
    """Whether any corner of ``r`` is off the table (beyond the :data:`EPS` tolerance)."""
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = r.corners()
    return (min(ax, bx, cx, dx) < -EPS or max(ax, bx, cx, dx) > st["table"]["w"] + EPS
            or min(ay, by, cy, dy) < -EPS or max(ay, by, cy, dy) > st["table"]["d"] + EPS)


def _must_shoot_at(st: State, e: dict, r: Rect, *, front_contact: bool = False) -> bool:
    """Whether ``r`` is closer than 200p to enemy foot or dismounted who would have ``e``
    there as a target (L257-258). ``front_contact``: ``r`` is in frontal contact with an
    enemy, which the setting ``hfg_foot_charge_shooters`` may exempt (an element in frontal
    edge contact with enemy is no valid target, L270; errata F19.3, F21.2)."""
    limit = approach_limit(e["type"], dismounted=e["dismounted"])
    if not limit or (front_contact and st["settings"].get("hfg_foot_charge_shooters")):
        return False
    f = _frame(st)
    side = _enemy(st, e["side"])
    if side not in f.limiters:
        f.limiters[side] = [
            _rect(o) for o in f.by_side[side] if o["state"] == "ok"
            and (troop_type(o["type"]).category == "foot" or o["dismounted"])
            and shooting_range(o["type"], year=st["year"], dismounted=o["dismounted"])]
    for orr in f.limiters[side]:
        if abs(orr.x - r.x) <= 1400 and abs(orr.y - r.y) <= 1400 and in_corridor(orr, r) \
                and edge_gap(orr, r) < limit - EPS:
            return True
    return False


# --- the flow ------------------------------------------------------------------------------


def _name(st: State, e: dict) -> str:
    t = troop_type(e["type"])
    grade = {"E": "Elite ", "I": "Inferior ", "HVY": "Heavy ", "HOR": "Horse ",
             "A": "Active ", "L": "Lethargic "}.get(e["grade"] or "", "")
    return f"{grade}{t.name} ({e['id']})"


def _begin_bound(st: State, source: RandomSource, log: EventLog) -> None:
    side = st["phasing"]
    st["bound"] += 1
    for e in st["elements"].values():
        e["moved"] = e["shot"] = e["repulsed"] = False
    moves.new_bound(st, side, log)
    pips = {}
    for c in st["sides"][side]["commands"]:
        g = st["elements"][c["general"]]
        if not any(e["command"] == c["id"] for e in _live(st)) and not arrivals.waiting(
                st, c["id"]):
            continue
        raw = cmd.roll_pips(source, [(c["id"], None)])[c["id"]]["raw"]
        arrivals.pip_roll(st, c["id"], raw, log)
        grade = g["grade"] if g["grade"] in ("A", "L") and not g["disabled"] else None
        pips[c["id"]] = cmd.graded_pips(raw, grade)
        if g["disabled"] and cmd.recovers(raw):
            g["disabled"], g["grade"] = False, None
            log("general.recovers", f"{_name(st, g)} takes command again.")
        if c is st["sides"][side]["commands"][0]:
            _weather_roll(st, side, raw, log)
    st["pips"] = pips
    st.pop("swappable", None)
    swappable = _swappable(st)
    if swappable:  # the key only while a swap is open (older states have none)
        st["swappable"] = swappable
    text = _pips_text(st)
    mover = st["sides"][side]
    log("bound.start", f"Bound {st['bound']}: {mover['name']} "
        f"{agree(mover, 'moves', 'move')} (PIPs: {text}).", {"side": side, "pips": dict(pips)})
    st["awaiting"] = True


def _swappable(st: State) -> list[str]:
    """The commands whose PIP score the phasing C-in-C may take in exchange for his own this
    bound (L223-224, :func:`rules.hfg.command.may_swap`): subordinate (not allied), their
    general within his easy command distance, their score lower, he not disabled."""
    cinc_cmd, *others = st["sides"][st["phasing"]]["commands"]
    cinc = st["elements"][cinc_cmd["general"]]
    if cinc_cmd["id"] not in st["pips"] or cinc["state"] != "ok":
        return []
    reach = cmd.easy_command_distance(cinc["type"])
    out = []
    for c in others:
        g = st["elements"][c["general"]]
        if c["id"] not in st["pips"] or g["state"] not in ON_TABLE:
            continue
        near = (g["x"] - cinc["x"]) ** 2 + (g["y"] - cinc["y"]) ** 2 <= reach * reach
        if cmd.may_swap(st["pips"][cinc_cmd["id"]], st["pips"][c["id"]], within_ecd=near,
                        allied=bool(c.get("allied")), cinc_disabled=cinc["disabled"]):
            out.append(c["id"])
    return out


def _swap_options(st: State) -> list[tuple[str, str, int]]:
    """The order ``swap:<command>`` for each command of :func:`_swappable`, free of PIPs,
    open until the side's first other order."""
    cinc = st["sides"][st["phasing"]]["commands"][0]["id"]
    pips = st["pips"]
    return [(f"swap:{c}", f"The C-in-C takes {arrivals.called(st, c)}'s {pips[c]} PIPs and "
             f"gives it his {pips[cinc]}", 0) for c in st.get("swappable", [])]


def _swap(st: State, command: str, log: EventLog) -> None:
    cinc = st["sides"][st["phasing"]]["commands"][0]["id"]
    pips = st["pips"]
    pips[cinc], pips[command] = pips[command], pips[cinc]
    st.pop("swappable", None)
    log("pips.swap", f"The C-in-C exchanges PIPs with {arrivals.called(st, command)}: PIPs "
        f"now {_pips_text(st)}.",
        {"commands": [cinc, command], "pips": dict(pips)})


def _pips_text(st: State) -> str:
    """The phasing side's PIPs left, command by command in the side's order."""
    return ", ".join(f"{arrivals.called(st, c['id'])} {st['pips'][c['id']]}"
                     for c in st["sides"][st["phasing"]]["commands"] if c["id"] in st["pips"])


def _weather_roll(st: State, side: str, raw: int, log: EventLog) -> None:
    w = _weather(st)
    if side == st["attacker"] and not st["weather_set"]:
        st["weather_set"] = True
        w = cmd.weather_from(raw)
        if w.kind != "fair":
            log("weather", "Mist lies on the field." if w.mist else "It is raining.")
    elif side == st["defender"]:
        after = cmd.weather_after_defender_roll(w, raw)
        if after != w:
            log("weather", "The mist lifts." if w.mist and not after.mist else
                "The rain stops." if w.raining and not after.raining else
                "The guns move freely again.")
        w = after
    st["weather"] = {k: getattr(w, k) for k in st["weather"]}


def _end_moves(st: State, source: RandomSource, log: EventLog) -> None:
    st["awaiting"] = False
    for e in _live(st):
        if e["state"] == "routing":
            _rout_move(st, e, log, again=True)
    sight.reveal(st, log)
    _shooting(st, source, log)
    _close_combat(st, source, log)
    side = st["phasing"]
    for e in _live(st, side):
        if e["state"] == "routing" and e["routed_at"] is not None and \
                e["routed_at"] < st["bound"]:
            e["state"] = "destroyed"
            log("rout.destroyed", f"{_name(st, e)} is not rallied and is lost.")
    st["bounds_done"][side] += 1
    units = {s: [Unit(e["type"], e["grade"], e["command"], e["state"])
                 for e in st["elements"].values() if e["side"] == s] for s in st["side_ids"]}
    timed = all(n >= st["max_bounds"] for n in st["bounds_done"].values())
    res = battle_result(units, defender=st["defender"], timed_out=timed,
                        settings=st["settings"])
    if res is not None:
        _finish(st, res, log)
        return
    st["phasing"] = _enemy(st, side)
    _begin_bound(st, source, log)


def _finish(st: State, res: dict, log: EventLog) -> None:
    win = res["winner"]
    side = st["sides"][win] if win else {}
    name = side.get("name")
    if res["how"] == "time":
        summary = (f"Time runs out after bound {st['bound']}: {name} "
                   f"{agree(side, 'holds', 'hold')} the field.")
    elif res["how"] == "draw":
        summary = "Both armies break in the same bound: a draw."
    else:
        broken = [st["sides"][s] for s in res["broken"]]
        broke = " and ".join(b["name"] for b in broken)
        verb = "break" if len(broken) > 1 else agree(broken[0], "breaks", "break")
        summary = f"{broke} {verb} in bound {st['bound']}: {name} {agree(side, 'wins', 'win')}."
    st["result"] = {"winner": win, "result": res["how"], "summary": summary,
                    "bound": st["bound"]}
    st["awaiting"] = False
    log("game.over", summary, {"winner": win, "result": res["how"]})


# --- orders ------------------------------------------------------------------------------


def _cost(st: State, e: dict, action: str = "tactical", *, retiring: bool = False,
          members: list[dict] | None = None, **march: Any) -> int:
    group = members or [e]
    slow = any(cmd.slow_mover(m["type"], m["grade"], entrenched=bool(
        _in(st, m, "entrenchment"))) for m in group)
    near = retiring and any(abs(o["x"] - m["x"]) < 1500 and abs(o["y"] - m["y"]) < 1500
                            and _gap(st, m, o) <= cmd.RETIRE_NEAR for m in group
                            for o in _live(st, _enemy(st, e["side"])))
    return cmd.pip_cost(cmd.Move(action=action, land=troop_type(e["type"]).category != "naval",
                                 in_command=all(_in_command(st, m) for m in group), slow=slow,
                                 retiring_near_enemy=near, **march))


def _gap(st: State, a: dict, b: dict) -> float:
    return segment_gap(*_rect(a).front(), _rect(b).corners())


def _line_of(st: State, e: dict) -> list[dict]:
    """The line ``e`` stands in: friends of its command and category (foot with foot,
    mounted with mounted) side by side with it, transitively."""
    found, todo = {e["id"]: e}, [e]
    cat = troop_type(e["type"]).category
    friends = [o for o in _live(st, e["side"]) if o["state"] == "ok"
               and o["command"] == e["command"] and troop_type(o["type"]).category == cat]
    while todo:
        cur = todo.pop()
        for o in friends:
            if o["id"] not in found and side_by_side(_rect(cur), _rect(o)):
                found[o["id"]] = o
                todo.append(o)
    return sorted(found.values(), key=lambda m: st["order"].index(m["id"]))


def _movable(st: State, e: dict) -> bool:
    """Whether ``e`` may make a tactical move: on its feet, not yet moved this bound, not
    immobile, not held in close combat."""
    return (e["state"] == "ok" and not e["moved"] and e["type"] not in ("SUP", "SPG")
            and not works.holds_in_place(_work(st, e), e["type"])
            and _front_enemy(st, e) is None)


def _straight(st: State, e: dict, ahead_sign: int, members: list[dict] | None = None
              ) -> int:
    """How far ``e`` (or its line) may go straight ahead (+1) or back (-1): the longest
    50p step that ends clear for every member."""
    group = members or [e]
    return _kept(st, group, ("straight", ahead_sign, *(m["grade"] for m in group)),
                 lambda: _straight_from(st, group, ahead_sign))


def _straight_from(st: State, group: list[dict], ahead_sign: int) -> int:
    full = min(_allow(st, m, _going(st, _rect(m))) for m in group)
    ids = tuple(m["id"] for m in group)
    dist = full
    while dist > 0:
        ok = True
        for m in group:
            r = _rect(m).moved(ahead_sign * dist)
            if (_blocked(st, m, r, ignore=ids, clear_of_enemy=True)
                    or water.barred(st, m, _rect(m), r, group=len(group) > 1)
                    or _allow(st, m, _going(st, _rect(m), r)) < dist
                    or (ahead_sign > 0 and _must_shoot_at(st, m, r))):
                ok = False
                break
        if ok:
            return dist
        dist -= STEP
    return 0


def _attack_rect(st: State, e: dict, target: dict, how: str, *, leading: bool = False
                 ) -> Rect | None:
    """Where ``e`` would stand attacking ``target`` (front, or a flank), if it may: the move
    within its allowance (mounted and staff at most 600p), a type that may contact (a
    Command Party only ``leading`` the element behind it), the target's edge free, and for a
    flank the attacker starting on that side (L260)."""
    if not may_contact(e["type"], 0) or (e["type"] == "CP" and not leading):
        return None
    tr = _rect(target)
    if how == "front":
        if _front_enemy(st, target) is not None:
            return None
        r = opposite(tr, e["width"], e["depth"])
    else:
        r = flank_position(tr, how, e["width"], e["depth"])
        u, _ = tr.local(_rect(e).center())
        if (how == "left" and u > -tr.width / 2) or (how == "right" and u < tr.width / 2):
            return None
    here = _rect(e)
    if r.heading != here.heading and not works.may_turn(_work(st, e)):
        return None
    dist = move_distance(here, r)
    if not may_contact(e["type"], dist) or dist > _allow(st, e, _going(st, here, r)):
        return None
    if _blocked(st, e, r, ignore=(target["id"],)) or _must_shoot_at(
            st, e, r, front_contact=how == "front") or water.barred(st, e, here, r):
        return None
    return r


_OPTIONS_CACHE: dict[tuple, list[tuple[str, str, int]]] = {}


def _fingerprint(st: State) -> tuple:
    """Everything the legal orders depend on, so two battles never share a cache entry."""
    return (st["year"], st["table"]["w"], st["table"]["d"],
            tuple(sorted((k, str(v)) for k, v in st["settings"].items())),
            tuple((t["id"], t["kind"], t["x"], t["y"], t["w"], t["h"]) for t in st["terrain"]),
            tuple(sorted((s, tuple(c["general"] for c in sd["commands"]))
                         for s, sd in st["sides"].items())),
            st["bound"], st["phasing"], tuple(sorted(st["pips"].items())),
            tuple(st["afire"]), tuple(sorted(st["weather"].items())),
            tuple(st.get("swappable", ())),
            tuple(sorted((e["id"], e["side"], e["command"], e["type"], e["grade"] or "",
                          e["dismounted"], e["x"], e["y"], e["heading"], e["state"],
                          e["moved"], e["disabled"]) for e in st["elements"].values())),
            moves.fingerprint(st))


def order_options(st: State) -> list[tuple[str, str, int]]:
    """The phasing side's legal orders now, as (key, label, PIPs), ``end`` last (the last
    few answers are kept: the decision and its check ask for the same state)."""
    key = _fingerprint(st)
    if key not in _OPTIONS_CACHE:
        if len(_OPTIONS_CACHE) > 8:
            _OPTIONS_CACHE.clear()
        with _still(st):
            _OPTIONS_CACHE[key] = _order_options(st)
    return list(_OPTIONS_CACHE[key])


def _order_options(st: State, verbs: tuple[str, ...] | None = None
                   ) -> list[tuple[str, str, int]]:
    """:func:`order_options` worked out; with ``verbs``, only the orders of those verbs and
    ``end``, in the same order (the Monte Carlo's play lists the orders the default policy
    may take, :data:`rules.hfg.ai.VERBS`)."""
    side = st["phasing"]
    out: list[tuple[str, str, int]] = _swap_options(st) if verbs is None or "swap" in verbs \
        else []
    foes = [o for o in _live(st, _enemy(st, side)) if not o.get("concealed")]
    lines_done: set[str] = set()
    around = _surroundings(st, side)
    for e in _live(st, side):
        left = st["pips"].get(e["command"], 0)
        if left < 1:
            continue  # every order of an element costs a PIP at least (cmd.pip_cost)
        kind, c, first, rc, retire, rest = _element_orders(st, e, foes, around)
        if kind == "rally":
            if c <= left:
                out.extend(first)
            continue
        if kind == "held" or c > left:
            continue
        out.extend(first)
        line = _line_of(st, e)
        if len(line) > 1 and line[0]["id"] == e["id"] and e["id"] not in lines_done:
            lines_done.update(m["id"] for m in line)
            lc = _cost(st, e, members=line)
            if lc <= left and all(_movable(st, m) for m in line) and _straight(st, e, 1, line):
                out.append((f"line:{e['id']}", f"The line of {len(line)} with {e['id']} "
                            "advances", lc))
        if rc <= left:
            out.extend(retire)
        out.extend(rest)
        out.extend(_assault_options(st, e, c))
        if verbs is None or "lead" in verbs:
            out.extend(_lead_options(st, e, foes, left))
    out.extend(moves.options(st, moves.VERBS if verbs is None else verbs))
    out.append(("end", "End this bound's moves", 0))
    return out


def order_group(st: State, key: str) -> str:
    """The heading the order ``key`` (one of :func:`order_options`) is listed under on the
    page: its element's command and the element (``"Beauregard's command: Bayonets (cb1)"``), the
    element being the key's second part (``advance:<id>``, ``march:<id>:<way>``, ...);
    ``"PIPs"`` for the C-in-C's exchange (``swap:<command>``); ``""`` for ``end``."""
    verb, _, rest = key.partition(":")
    if verb == "swap":
        return "PIPs"
    e = st["elements"].get(rest.partition(":")[0]) if rest else None
    if e is None:
        return ""
    called = arrivals.called(st, e["command"])
    return f"{called[:1].upper()}{called[1:]}: {_name(st, e)}"


_KEPT_ORDERS: dict[tuple, tuple] = {}
""":func:`_element_orders` answers by what they depend on (:func:`_orders_key`), at most
5,000 (a few kilobytes each) before they are all dropped."""


def _surroundings(st: State, side: str) -> tuple:
    """What every order of ``side``'s elements may depend on beyond the element itself, its
    general and the elements near it (:func:`_orders_key`): the battle (year, table,
    settings, terrain, commands), the weather, the towns held and what
    :func:`rules.hfg.moves.fingerprint` holds (roads, marches, fords, arrivals, who is
    concealed)."""
    held = tuple(sorted({t["id"] for t in (_in(st, o, "bua") for o in _live(st)) if t}))
    return (st["year"], st["table"]["w"], st["table"]["d"],
            tuple(sorted((k, str(v)) for k, v in st["settings"].items())), _terrain_key(st),
            tuple((s, tuple((c["id"], c["general"]) for c in sd["commands"]))
                  for s, sd in st["sides"].items()),
            _WEATHER(st["weather"]), held, moves.fingerprint(st))


def _orders_key(st: State, e: dict, around: tuple) -> tuple:
    """Everything :func:`_element_orders` reads for ``e``: ``around`` (its side's
    :func:`_surroundings`), ``e`` and its general as they are (with the enemy in frontal
    contact with the general), the friends on the table whose footprint could meet one
    that ``e`` may move to (within its farthest move, turning about, of its depth and
    theirs) and the enemies on the table near enough to matter (those a footprint of
    ``e``'s could meet; to attack or face, within its good-going move and 1,000p; to shoot
    at it within 1,400p of where it may move; to make a retirement cost more, within
    1,500p), each enemy with the friend in frontal contact with it."""
    f = _frame(st)
    g = _general(st, e)
    good = _allow(st, e, "good")
    far = max(good, _allow(st, e, "slow"), _allow(st, e, "difficult"))
    ex, ey = _rect(e).center()
    reach = far + e["depth"] + (e["width"] + e["depth"]) / 2 + f.biggest + 2 * EPS
    foe_reach = max(reach + e["depth"] + f.deepest, far + 1400, 1500, good + 1000) + 2 * EPS
    side, x, y = e["side"], e["x"], e["y"]
    near = []
    for o, ox, oy, _, _, pose in f.boxes:
        if o is e:
            continue
        if o["side"] == side:
            if abs(ox - ex) < reach and abs(oy - ey) < reach:
                near.append(pose)
        elif abs(o["x"] - x) < foe_reach and abs(o["y"] - y) < foe_reach:
            near.append((*pose, o["grade"], (_front_enemy(st, o) or {}).get("id"),
                         o.get("concealed", False)))
    return (around, tuple(e.items()), tuple(g.items()),
            (_front_enemy(st, g) or {}).get("id"), tuple(near))


def _element_orders(st: State, e: dict, foes: list[dict], around: tuple
                    ) -> tuple[str, int, list, int, list, list]:
    """The orders ``e`` may be given now, whatever PIPs are left, as (kind, cost, first,
    retiring cost, retire, rest): kind ``rally`` (first holds its rally), ``held`` (none:
    not movable) or ``move``: first its advance, retire its retirement (at the retiring
    cost), rest its attacks, turns and occupations (at the cost); a line is listed between
    first and retire. Kept by :func:`_orders_key` (the same answer for the same key)."""
    key = _orders_key(st, e, around)
    hit = _KEPT_ORDERS.get(key)
    if hit is None:
        if len(_KEPT_ORDERS) > 5000:
            _KEPT_ORDERS.clear()
        hit = _KEPT_ORDERS[key] = _element_orders_now(st, e, foes)
    return hit


def _element_orders_now(st: State, e: dict, foes: list[dict]
                        ) -> tuple[str, int, list, int, list, list]:
    if e["state"] == "routing":
        c = _cost(st, e, "rally")
        return "rally", c, [(f"rally:{e['id']}", f"Rally {_name(st, e)}", c)], 0, [], []
    if not _movable(st, e):
        return "held", 0, [], 0, [], []
    c = _cost(st, e)
    first = [(f"advance:{e['id']}", f"{_name(st, e)} advances", c)] if _straight(
        st, e, 1) else []
    rc = _cost(st, e, retiring=True)
    retire = [(f"retire:{e['id']}", f"{_name(st, e)} retires", rc)] if _straight(
        st, e, -1) else []
    rest = []
    reach = _allow(st, e, "good") + 1000
    for o in foes:
        if abs(o["x"] - e["x"]) > reach or abs(o["y"] - e["y"]) > reach:
            continue
        for how in ("front", "left", "right"):
            if _attack_rect(st, e, o, how) is not None:
                key = f"attack:{e['id']}:{o['id']}" if how == "front" else \
                    f"flank:{e['id']}:{o['id']}:{how}"
                rest.append((key, f"{_name(st, e)} attacks {_name(st, o)}"
                             + ("" if how == "front" else f" in its {how} flank"), c))
        if _face_rect(st, e, o) is not None:
            rest.append((f"face:{e['id']}:{o['id']}", f"{_name(st, e)} turns to face "
                         f"{_name(st, o)}", c))
    for t in st["terrain"]:
        if _occupy_rect(st, e, t) is not None:
            rest.append((f"occupy:{e['id']}:{t['id']}", f"{_name(st, e)} moves into "
                         f"{t['name']}", c))
    return "move", c, first, rc, retire, rest


def _face_rect(st: State, e: dict, o: dict) -> Rect | None:
    here = _rect(e)
    h = facing_point(here, _rect(o).center())
    if abs(((h - e["heading"] + 180) % 360) - 180) < 10 or not works.may_turn(_work(st, e)):
        return None
    r = Rect(here.x, here.y, h, here.width, here.depth)
    if move_distance(here, r) > _allow(st, e, _going(st, here)) or _blocked(st, e, r):
        return None
    return r


def _occupy_rect(st: State, e: dict, t: dict) -> Rect | None:
    if t["kind"] not in ("bua", "wood") or troop_type(e["type"]).category != "foot":
        return None
    if _in(st, e, t["kind"]) is t:
        return None
    if t["kind"] == "bua" and any(_in(st, o, "bua") is t for o in _live(st)):
        return None  # one garrison to a town (A21)
    cx, cy = t["x"] + t["w"] / 2, t["y"] + t["h"] / 2
    here = _rect(e)
    r = Rect(cx + here.forward()[0] * e["depth"] / 2, cy + here.forward()[1] * e["depth"] / 2,
             e["heading"], e["width"], e["depth"])
    if move_distance(here, r) > _allow(st, e, _going(st, here, r)) or _blocked(st, e, r):
        return None
    if _must_shoot_at(st, e, r) or water.barred(st, e, here, r):
        return None
    return r


TOWNS = ("bua", "strong_point")
"""The features a garrison holds and an enemy assaults edge by edge (:mod:`rules.hfg.assault`)."""


def _town_box(t: dict) -> tuple[float, float, float, float]:
    return (t["x"], t["y"], t["w"], t["h"])


def _town(st: State, e: dict) -> dict | None:
    """The town or strong point ``e`` holds (its centre inside), if any."""
    i = _holding(_terrain_key(st), _rect(e), TOWNS)
    return None if i is None else st["terrain"][i]


def _held(st: State, t: dict) -> dict | None:
    """The element holding the town or strong point ``t`` (its centre inside), if any
    (kept in the frame: it reads only the poses)."""
    f = _frame(st)
    key = ("held", t["x"], t["y"], t["w"], t["h"])
    if key in f.answers:
        return f.answers[key]
    x0, y0, x1, y1 = t["x"], t["y"], t["x"] + t["w"], t["y"] + t["h"]
    found = None
    for o in f.live:
        # a centre lies at most half a depth (400p) from the front midpoint
        if x0 - 400 <= o["x"] <= x1 + 400 and y0 - 400 <= o["y"] <= y1 + 400:
            cx, cy = _rect(o).center()
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                found = o
                break
    f.answers[key] = found
    return found


def _assault_rect(st: State, e: dict, t: dict, edge: str) -> Rect | None:
    """Where ``e`` would stand assaulting the enemy-held town or strong point ``t`` on
    ``edge``, if it may: a type that may contact, within its move (mounted and staff at most
    600p), the post clear and not within 200p of enemy who must shoot at it (as an attack)."""
    if t["kind"] not in TOWNS or not may_contact(e["type"], 0) or e["type"] == "CP":
        return None
    g = _held(st, t)
    if g is None or g["side"] == e["side"]:
        return None
    r = assault.post(_town_box(t), edge, e["width"], e["depth"])
    here = _rect(e)
    dist = move_distance(here, r)
    if dist < EPS or not may_contact(e["type"], dist) or dist > _allow(
            st, e, _going(st, here, r)):
        return None
    if _blocked(st, e, r) or _must_shoot_at(st, e, r):
        return None
    return r


def _assault_options(st: State, e: dict, cost: int) -> list[tuple[str, str, int]]:
    """The orders ``assault:<id>:<feature>:<edge>`` open to ``e`` at ``cost`` PIPs."""
    out = []
    reach = _allow(st, e, "good") + 1000
    for t in st["terrain"]:
        if t["kind"] not in TOWNS or abs(t["x"] - e["x"]) > reach + t["w"] or \
                abs(t["y"] - e["y"]) > reach + t["h"]:
            continue
        g = _held(st, t)
        if g is None or g["side"] == e["side"]:
            continue
        for edge in assault.EDGES:
            if _assault_rect(st, e, t, edge) is not None:
                out.append((f"assault:{e['id']}:{t['id']}:{edge}",
                            f"{_name(st, e)} assaults the {edge} edge of {t['name']}", cost))
    return out


def _in_assault(st: State, e: dict) -> bool:
    """Whether ``e`` is in close combat at a town's or strong point's edge: assaulting one
    its enemy holds, or holding one an enemy assaults (it neither shoots nor is shot).
    Those on the table are found all at once per frame (:func:`_in_assault_all`)."""
    f = _frame(st)
    if f.elements.get(e["id"]) is not e or e["state"] not in ON_TABLE:
        return _in_assault_now(st, e)
    fighting = f.answers.get(("in assault",))
    if fighting is None:
        fighting = f.answers[("in assault",)] = _in_assault_all(st, f)
    return e["id"] in fighting


def _in_assault_all(st: State, f: _Frame) -> frozenset[str]:
    """The ids of the elements on the table in ``f`` that :func:`_in_assault_now` finds in
    close combat at a town's or strong point's edge: each enemy at the edge of a held one,
    and its garrison when one of them is on its feet."""
    out = set()
    for t in st["terrain"]:
        if t["kind"] not in TOWNS:
            continue
        g = _held(st, t)
        if g is None:
            continue
        box = _town_box(t)
        for o in f.live:
            if o["side"] != g["side"] and assault.edge_of(box, _rect(o)) is not None:
                out.add(o["id"])
                if o["state"] == "ok":
                    out.add(g["id"])
    return frozenset(out)


def _in_assault_now(st: State, e: dict) -> bool:
    for t in st["terrain"]:
        if t["kind"] not in TOWNS:
            continue
        box = _town_box(t)
        g = _held(st, t)
        if g is None:
            continue
        if g["side"] != e["side"] and assault.edge_of(box, _rect(e)) is not None:
            return True
        if g is e and any(assault.edge_of(box, _rect(o)) is not None
                          for o in _live(st, _enemy(st, e["side"])) if o["state"] == "ok"):
            return True
    return False


def _assaults(st: State, source: RandomSource, log: EventLog) -> None:
    """Every enemy-held town or strong point fights each element at its edges, one combat
    an edge in the order north, east, south, west (L175-176, L282, A21): each attacker
    obeys its own outcome if it lost, the garrison the worst it suffered."""
    for t in st["terrain"]:
        g = _held(st, t) if t["kind"] in TOWNS else None
        if g is None or g["state"] not in ON_TABLE:
            continue
        box = _town_box(t)
        at: dict[str, dict] = {}
        for o in _live(st, _enemy(st, g["side"])):
            edge = assault.edge_of(box, _rect(o)) if o["state"] == "ok" else None
            if edge is not None and edge not in at:
                at[edge] = o
        results = []
        for edge in [x for x in assault.EDGES if x in at]:
            o = at[edge]
            a, b = (o, g) if o["side"] == st["phasing"] else (g, o)
            r = _combat(st, a, b, source, log, close=True)
            mine, theirs = r.outcomes if a is o else r.outcomes[::-1]
            results.append(theirs)
            if assault.SEVERITY.get(mine.kind, 0):
                _obey(st, o, g, mine, None, log, source, close=True)
        out = assault.worst(results)
        if out.kind != "none":
            _obey(st, g, next(iter(at.values())), out, None, log, source, close=True)


def apply_order(st: State, key: str, log: EventLog, source: RandomSource) -> None:
    """Carry out the order ``key`` (one of :func:`order_options`) in place."""
    costs = {k: c for k, _, c in order_options(st)}
    if key not in costs:
        raise IllegalAction(f"{key!r} is not an order the rules allow now")
    _carry_out(st, key, costs[key], log, source)


def _carry_out(st: State, key: str, cost: int, log: EventLog, source: RandomSource
               ) -> None:
    """Carry out ``key``, a legal order (not ``end``) costing ``cost`` PIPs, in place."""
    parts = key.split(":")
    if parts[0] == "swap":
        _swap(st, parts[1], log)
        return
    st.pop("swappable", None)  # the swap is made before any PIP is spent (L223)
    e = st["elements"][parts[1]]
    st["pips"][e["command"]] -= cost
    verb = parts[0]
    if verb in moves.VERBS:
        moves.apply(st, parts, source, log)
    elif verb == "rally":
        e["state"], e["routed_at"] = "ok", None
        _about_face(e)
        log("rally", f"{_name(st, e)} rallies and turns to face the enemy.", {"element": e["id"]})
    elif verb in ("advance", "retire"):
        sign = 1 if verb == "advance" else -1
        d = _straight(st, e, sign)
        _place(e, _rect(e).moved(sign * d))
        e["moved"] = True
        log("move", f"{_name(st, e)} {'advances' if sign > 0 else 'retires'} {d} paces.",
            {"element": e["id"], "paces": d})
    elif verb == "line":
        line = _line_of(st, e)
        d = _straight(st, e, 1, line)
        for m in line:
            _place(m, _rect(m).moved(d))
            m["moved"] = True
        log("move", f"A line of {len(line)} ({', '.join(m['id'] for m in line)}) advances "
            f"{d} paces.", {"elements": [m["id"] for m in line], "paces": d})
    elif verb in ("attack", "flank"):
        o = st["elements"][parts[2]]
        how = "front" if verb == "attack" else parts[3]
        r = _attack_rect(st, e, o, how)
        assert r is not None
        _place(e, r)
        e["moved"] = True
        log("move", f"{_name(st, e)} attacks {_name(st, o)}"
            + ("." if how == "front" else f" in its {how} flank."),
            {"element": e["id"], "target": o["id"]})
    elif verb == "face":
        o = st["elements"][parts[2]]
        r = _face_rect(st, e, o)
        assert r is not None
        _place(e, r)
        e["moved"] = True
        log("move", f"{_name(st, e)} turns to face {_name(st, o)}.", {"element": e["id"]})
    elif verb == "occupy":
        t = next(t for t in st["terrain"] if t["id"] == parts[2])
        r = _occupy_rect(st, e, t)
        assert r is not None
        _place(e, r)
        e["moved"] = True
        log("move", f"{_name(st, e)} moves into {t['name']}.", {"element": e["id"]})
    elif verb == "lead":
        o = st["elements"][parts[2]]
        rear = _led(st, e)
        rects = _lead_rects(st, e, o)
        assert rects is not None and rear is not None
        _place(e, rects[0])
        _place(rear, rects[1])
        e["moved"] = rear["moved"] = True
        log("move", f"{_name(st, e)} leads {_name(st, rear)} against {_name(st, o)}.",
            {"element": e["id"], "rear": rear["id"], "target": o["id"]})
    elif verb == "assault":
        t = next(t for t in st["terrain"] if t["id"] == parts[2])
        r = _assault_rect(st, e, t, parts[3])
        assert r is not None
        _place(e, r)
        e["moved"] = True
        log("move", f"{_name(st, e)} assaults {t['name']} from the {parts[3]}.",
            {"element": e["id"], "feature": t["id"], "edge": parts[3]})
    sight.reveal(st, log)


# --- shooting and combat -------------------------------------------------------------------


def _fighter(st: State, e: dict, enemy: dict, *, close: bool) -> Fighter:
    bua = _in(st, e, "bua")
    r = _rect(e)
    # a front corner of the enemy's on a corner of r, or its front midpoint on r's rear
    near = e["width"] / 2 + e["depth"] + 2 * EPS + 1
    flank = any(contact(_rect(o), r) in ("flank", "rear") for o in _live(st, enemy["side"])
                if abs(o["x"] - e["x"]) <= near + o["width"] / 2
                and abs(o["y"] - e["y"]) <= near + o["width"] / 2)
    overlapped = 0
    town = _town(st, e) if close else None
    if close and town is None:  # a town or strong point cannot be overlapped (L281)
        er = _rect(enemy)
        for o in _live(st, enemy["side"]):
            if o["id"] != enemy["id"] and side_by_side(er, _rect(o)) and \
                    _front_enemy(st, o) is None:
                overlapped += 1
    defeated = _defeated(tuple(map(_UNIT, st["elements"].values())), e["side"], e["command"])
    hill = _hill_under(st, e)
    uphill = close and hill is not None and _hill_under(st, enemy) is not hill
    rear = _led(st, e) if close else None
    return Fighter(
        type=e["type"], grade=e["grade"] if e["grade"] in ("E", "I", "HVY", "HOR") else None,
        uphill=uphill,
        dismounted=e["dismounted"], routing=e["state"] == "routing", going=_going(st, r),
        in_bua=bool(bua), bua_afire=bool(bua and bua["id"] in st["afire"]),
        works=None if close else _protection(st, e, enemy),
        leading=rear["type"] if rear else None,
        in_wood=bool(_in(st, e, "wood")), on_difficult_hill=bool(_in(st, e, "difficult_hill")),
        overlaps=min(overlapped, 2), flank_contact=flank, contacted_in_flank=flank,
        moved=e["moved"], defeated_command=defeated, repulsed_this_bound=e["repulsed"],
        attacking_bua=close and town is None and _town(st, enemy) is not None)


_UNIT = itemgetter("side", "type", "grade", "command", "state")


@lru_cache(maxsize=4096)
def _defeated(units: tuple[tuple, ...], side: str, command: str) -> bool:
    """:func:`rules.hfg.losses.command_defeated` for ``command`` of ``side``, ``units`` being
    every element's side, type, grade, command and state (:data:`_UNIT`)."""
    return command_defeated([Unit(*u[1:]) for u in units if u[0] == side], command)


def _work(st: State, e: dict) -> str | None:
    """The kind of field work ``e`` stands in (its centre), if any (:mod:`rules.hfg.works`)."""
    terrain, key, present = _terrain_entry(st)
    if present.isdisjoint(works.KINDS):
        return None
    i = _holding(key, _rect(e), works.KINDS)
    return None if i is None else str(terrain[i]["kind"])


def _protection(st: State, e: dict, shooter: dict) -> str | None:
    """The work protecting ``e`` from ``shooter``'s fire (+3, L289), if any."""
    kind = _work(st, e)
    at = works.shot_from(_rect(e), _rect(shooter))
    return kind if works.protects(kind, e["type"], dismounted=e["dismounted"],
                                  shooter_at=at) else None


def _led(st: State, e: dict) -> dict | None:
    """The element a Command Party ``e`` leads in close combat: a mounted or foot friend
    contiguous to its rear (:mod:`rules.hfg.leading`), if any."""
    if e["type"] != "CP":
        return None
    r = _rect(e)
    return next((o for o in _live(st, e["side"]) if leading.may_lead(
        e["type"], o["type"], behind_state=o["state"],
        touching_rear=contact(_rect(o), r) == "rear")), None)


def _behind(r: Rect, rear: dict) -> Rect:
    """The footprint of ``rear`` contiguous to the rear of the Command Party at ``r``."""
    fx, fy = r.forward()
    return Rect(r.x - fx * r.depth, r.y - fy * r.depth, r.heading, rear["width"], rear["depth"])


def _lead_rects(st: State, cp: dict, target: dict) -> tuple[Rect, Rect] | None:
    """Where a Command Party and the element it leads would stand attacking ``target``'s
    front, the element still contiguous to its rear (L283), if both may move there."""
    rear = _led(st, cp)
    if rear is None or not _movable(st, rear):
        return None
    r = _attack_rect(st, cp, target, "front", leading=True)
    if r is None:
        return None
    rr = _behind(r, rear)
    here = _rect(rear)
    if move_distance(here, rr) > _allow(st, rear, _going(st, here, rr)) or _blocked(
            st, rear, rr, ignore=(cp["id"],)):
        return None
    return r, rr


def _lead_options(st: State, e: dict, foes: list[dict], pips: int
                  ) -> list[tuple[str, str, int]]:
    """The orders ``lead:<cp>:<enemy>`` open to a Command Party ``e`` with ``pips`` left:
    into an enemy's front, the element behind following (one group, L235)."""
    rear = _led(st, e)
    if rear is None:
        return []
    cost = _cost(st, e, members=[e, rear])
    if cost > pips:
        return []
    return [(f"lead:{e['id']}:{o['id']}", f"{_name(st, e)} leads {_name(st, rear)} against "
             f"{_name(st, o)}", cost) for o in foes if _lead_rects(st, e, o) is not None]


def _follow(st: State, cp: dict, rear: dict, log: EventLog) -> None:
    """The element behind a Command Party follows it after a charge, press forward or
    pursuit, to stand again contiguous to its rear (L328), where nothing is in the way."""
    nr = _behind(_rect(cp), rear)
    if cp["state"] == "ok" and nr != _rect(rear) and not _blocked(st, rear, nr):
        _place(rear, nr)
        log("outcome", f"{_name(st, rear)} follows {_name(st, cp)}.")


def _hill_under(st: State, e: dict) -> dict | None:
    """The hill ``e`` stands on (its centre), if any: hills have no contours in this model,
    so an element on a hill is uphill of an opponent standing off it (A11)."""
    i = _holding(_terrain_key(st), _rect(e), ("hill", "difficult_hill"))
    return None if i is None else st["terrain"][i]


def _sight_blocked(st: State, a: dict, b: dict) -> bool:
    p, q = (a["x"], a["y"]), _rect(b).center()
    for t in st["terrain"]:
        if t["kind"] not in BLOCKS_SIGHT or max(p[0], q[0]) < t["x"] or \
                min(p[0], q[0]) > t["x"] + t["w"] or max(p[1], q[1]) < t["y"] or \
                min(p[1], q[1]) > t["y"] + t["h"]:
            continue
        if segment_gap(p, q, _box(t)) == 0:
            if _in(st, a, t["kind"]) is not t and _in(st, b, t["kind"]) is not t:
                return True
    return False


def _targets(st: State, e: dict) -> list[tuple[float, dict]]:
    """``e``'s valid targets, nearest the centre of its shooting edge first (digest 8.2),
    as (squared distance between centres, target)."""
    return list(_kept(st, [e], ("targets", e["shot"], e["grade"]),
                      lambda: _targets_from(st, e)))


def _targets_from(st: State, e: dict) -> list[tuple[float, dict]]:
    if e["state"] != "ok" or e["shot"] or _front_enemy(st, e) is not None or \
            _in_assault(st, e):
        return []
    rng = shooting_range(e["type"], year=st["year"], grade=e["grade"],
                         dismounted=e["dismounted"], settings=st["settings"])
    if not rng:
        return []
    # what the pair alone decides (kept by what it reads: the battle, the weather's
    # visibility, both footprints and types), then what the others standing near decide
    battle = _SIGHTLINES.get(_sightline_context(st))
    if battle is None:
        if len(_SIGHTLINES) > 64:
            _SIGHTLINES.clear()
        battle = _SIGHTLINES[_sightline_context(st)] = {}
    any_edge = troop_type(e["type"]).any_edge or bool(_in(st, e, "bua"))
    shooter = (_rect(e), e["type"], e["grade"], e["dismounted"], any_edge)
    lines = battle.get(shooter)
    if lines is None:
        if len(battle) > 20000:
            battle.clear()
        lines = battle[shooter] = {}
    out = []
    f, side = _frame(st), _enemy(st, e["side"])
    marks = f.answers.get(("marks", side))
    if marks is None:  # each enemy with what its sightlines are kept by
        marks = f.answers[("marks", side)] = [
            (o, (_rect(o), o["type"], bool(o.get("concealed")))) for o in f.by_side[side]]
    for o, key in marks:
        d = lines.get(key)
        if d is None:
            d = lines[key] = _sightline(st, e, rng, any_edge, o)
        if d < 0:
            continue
        fe = _front_enemy(st, o)
        if (fe is not None and fe["state"] != "routing") or _in_assault(st, o) or \
                _fire_blocked(st, e, o):
            continue
        out.append((d, o))
    out.sort(key=lambda t: (t[0], st["order"].index(t[1]["id"])))
    return out


_SIGHTLINES: dict[tuple, dict[tuple, dict[tuple, float]]] = {}
"""What :func:`_sightline` answers, by the battle (:func:`_sightline_context`), then the
shooter, then the target, as :func:`_targets_from` asks for them."""


def _sightline_context(st: State) -> tuple:
    """What :func:`_sightline` reads of the battle: the year, the settings, the terrain and
    the weather's visibility (the settings and terrain never change during a battle)."""
    settings = st["settings"]
    if _SETTINGS[0] is not settings:
        _SETTINGS[:] = [settings, tuple(sorted((k, str(v)) for k, v in settings.items()))]
    return (st["year"], _terrain_key(st), _visibility(*_WEATHER(st["weather"])), _SETTINGS[1])


_SETTINGS: list[Any] = [None, ()]
"""The last settings :func:`_sightline_context` saw and their key (the object is held, so
its id is not reused)."""


@lru_cache(maxsize=64)
def _visibility(*weather: Any) -> int | None:
    return cmd.Weather(*weather).visibility


def _sightline(st: State, e: dict, rng: int, any_edge: bool, o: dict) -> float:
    """The squared distance between centres at which ``e`` (shooting ``rng`` paces, from
    ``any_edge`` or its front) may shoot at ``o`` as far as the two of them and the battle
    decide (in its arc, within its range and the visibility, in sight), or -1. It reads
    only what :func:`_targets_from` keeps it by."""
    if abs(o["x"] - e["x"]) > (far := max(rng, shooting_range(
            e["type"], year=st["year"], grade=e["grade"], dismounted=e["dismounted"],
            long_target=True, settings=st["settings"]) or 0) + 1700) or \
            abs(o["y"] - e["y"]) > far:
        return -1.0
    r, orr = _rect(e), _rect(o)
    if not any_edge and not in_corridor(r, orr):
        return -1.0
    if any_edge:
        gap = min(segment_gap(a, b, orr.corners()) for a, b in (
            (r.corners()[i], r.corners()[(i + 1) % 4]) for i in range(4)))
        arc = in_diagonal_arc(r, orr)
    else:
        gap = edge_gap(r, orr)
        arc = in_corridor(r, orr)
    long_target = bool(_in(st, o, "bua") or _in(st, o, "hill")
                       or _in(st, o, "difficult_hill")
                       or troop_type(o["type"]).category == "logistics")
    reach = shooting_range(e["type"], year=st["year"], grade=e["grade"],
                           dismounted=e["dismounted"], long_target=long_target,
                           settings=st["settings"]) or rng
    vis = _weather(st).visibility
    if not arc or gap > reach or (vis is not None and gap > vis):
        return -1.0
    if _sight_blocked(st, e, o) or sight.hidden(st, e, o, shooting=True):
        return -1.0
    ox, oy = orr.center()
    return (r.x - ox) ** 2 + (r.y - oy) ** 2


def _fire_blocked(st: State, e: dict, o: dict) -> bool:
    """Whether another element (not Skirmishers) stands on the line of fire (L268)."""
    p, q = (e["x"], e["y"]), _rect(o).center()
    lo_x, hi_x = min(p[0], q[0]) - 900, max(p[0], q[0]) + 900
    lo_y, hi_y = min(p[1], q[1]) - 900, max(p[1], q[1]) + 900
    f = _frame(st)
    # a footprint's centre lies at most half its depth from its front midpoint (x, y)
    for x, _, _, _, corners, _ in f.by_x[bisect_left(f.xs, lo_x - f.deepest):
                                         bisect_right(f.xs, hi_x + f.deepest)]:
        if x["id"] in (e["id"], o["id"]) or x["type"] == "SK":
            continue
        if not (lo_x <= x["x"] <= hi_x and lo_y <= x["y"] <= hi_y):
            continue
        if segment_gap(p, q, corners) == 0:
            return True
    return False


def _shooting(st: State, source: RandomSource, log: EventLog) -> None:
    """Distant shooting (digest 8): the phasing side's shooters choose their targets and
    each target answers its primary; then the other side's who have not shot."""
    for side in (st["phasing"], _enemy(st, st["phasing"])):
        plans: dict[str, list[tuple[float, str]]] = {}
        with _still(st):
            for e in _live(st, side):
                ts = _targets(st, e)
                if ts:
                    plans.setdefault(ts[0][1]["id"], []).append((ts[0][0], e["id"]))
        for tid in [i for i in st["order"] if i in plans]:
            target = st["elements"][tid]
            if target["state"] not in ON_TABLE:
                continue
            shooters = [st["elements"][s] for _, s in sorted(plans[tid])
                        if st["elements"][s]["state"] == "ok" and not st["elements"][s]["shot"]]
            if not shooters:
                continue
            back = [t for _, t in _targets(st, target)]
            primary = next((s for s in shooters if s in back), shooters[0])
            shoots_back = primary in back
            aiders = [s for s in shooters if s is not primary][:2]
            _resolve(st, primary, target, source, log, close=False, aiders=len(aiders),
                     shoots_back=shoots_back)
            for s in [primary, *aiders]:
                s["shot"] = True
            if shoots_back:
                target["shot"] = True


def _close_combat(st: State, source: RandomSource, log: EventLog) -> None:
    done: set[str] = set()
    for e in sorted(_live(st, st["phasing"]), key=lambda x: (x["x"], x["id"])):
        if e["id"] in done or e["state"] not in ON_TABLE:
            continue
        o = _front_enemy(st, e)
        if o is None:
            continue
        done.update((e["id"], o["id"]))
        _resolve(st, e, o, source, log, close=True)
    _assaults(st, source, log)


def _resolve(st: State, a: dict, b: dict, source: RandomSource, log: EventLog, *, close: bool,
             aiders: int = 0, shoots_back: bool = True) -> None:
    led = {x["id"]: _led(st, x) for x in (a, b)} if close else {}
    r = _combat(st, a, b, source, log, close=close, aiders=aiders, shoots_back=shoots_back)
    # the loser moves first, then the winner (digest 11.1)
    pairs = sorted([(a, b, r.outcomes[0]), (b, a, r.outcomes[1])],
                   key=lambda p: p[2].kind in ("pursue", "charge", "press_forward"))
    for me, foe, out in pairs:
        _obey(st, me, foe, out, led.get(me["id"]), log, source, close=close)


_RESULT_WORDS = {"halt": "halts", "press_forward": "may press forward", "pursue": "pursues",
                 "charge": "charges", "close_in": "may close in", "recoil": "must recoil",
                 "repulsed": "is repulsed", "routed": "is routed", "spent": "is spent",
                 "destroyed": "is destroyed"}
"""What a combat's outcome does to an element, in the log's combat line (its move, if any,
follows in its own line)."""


def _combat(st: State, a: dict, b: dict, source: RandomSource, log: EventLog, *, close: bool,
            aiders: int = 0, shoots_back: bool = True) -> CombatResult:
    """Fight ``a`` against ``b`` (:func:`rules.hfg.combat.fight`) and log it; nothing moves."""
    sight.reveal(st, log, acting=(a, b))
    fa, fb = _fighter(st, a, b, close=close), _fighter(st, b, a, close=close)
    distance = round(_gap(st, a, b))
    phasing = "a" if a["side"] == st["phasing"] else "b"
    r = fight(fa, fb, source, close=close, phasing=phasing, distance=distance,
              b_shoots_back=shoots_back, aiders=aiders, settings=st["settings"])
    what = "fight hand to hand" if close else ("exchange fire" if shoots_back else "shoots at")
    verb = f"{_name(st, a)} and {_name(st, b)} {what}" if close or shoots_back else \
        f"{_name(st, a)} {what} {_name(st, b)}"
    did = [f"{_name(st, x)} {_RESULT_WORDS[o.kind]}" for x, o in zip((a, b), r.outcomes)
           if o.kind != "none"]
    log("combat", f"{verb}: {r.scores[0]} to {r.scores[1]} (dice {r.dice[0]} and "
        f"{r.dice[1]}): {' and '.join(did) if did else 'no effect'}.",
        {"a": a["id"], "b": b["id"], "close": close, "dice": list(r.dice),
         "scores": list(r.scores), "bands": list(r.bands),
         "outcomes": [o.kind for o in r.outcomes]})
    return r


_REAR_FIRST = ("spent", *leading.SHARED)
"""The outcomes (:func:`rules.hfg.leading.behind`) the element behind a Command Party carries
out before him, out of his way (:func:`_obey`)."""


def _obey(st: State, me: dict, foe: dict, out: Any, rear: dict | None, log: EventLog,
          source: RandomSource, *, close: bool) -> None:
    """``me`` carries out its outcome ``out`` against ``foe`` (in close combat, or with
    ``close`` false in distant combat), with the element ``rear`` a Command Party leads (if
    any) sharing it or following (:mod:`rules.hfg.leading`)."""
    if rear is not None and leading.behind(out) in _REAR_FIRST:
        # the element behind goes first, out of the Command Party's way
        _apply_outcome(st, rear, foe, leading.rear_outcome(out, rear["depth"]), log, source,
                       close=close)
    _apply_outcome(st, me, foe, out, log, source, close=close)
    if rear is not None and leading.behind(out) == "follow":
        _follow(st, me, rear, log)


def _back(st: State, e: dict, dist: int, log: EventLog, why: str, *,
          repulse: bool = False) -> None:
    """Move ``e`` straight back ``dist`` paces keeping its facing: a recoil (its own depth),
    or with ``repulse`` a repulse (L316-318). A recoil pushes back the friends it cannot
    pass through (:func:`_passes`), each pushing in turn those behind it that it cannot pass
    through, keeping their facing (L316); a repulsed element passes through every friend
    (L255). Whoever still stands in a friend at the end goes on until clear, just beyond it
    (L256), and enemy Skirmishers are burst through and turn to face the way it went
    (L321, :func:`_burst_through`). ``e`` is destroyed if an enemy front touches its rear
    (:func:`_caught`), or if it or a friend it pushes would reach other enemy or ground it
    cannot cross (L320-321): then nobody moves. Off the table it is lost, and so is a friend
    pushed off it (L329)."""
    r = _rect(e)
    if _caught(st, e):
        e["state"] = "destroyed"
        log("outcome", f"{_name(st, e)} cannot get back and is destroyed.")
        return
    fx, fy = r.forward()
    live = {o["id"]: o for o in _live(st)}
    start = {i: _rect(o) for i, o in live.items()}
    pushed: dict[str, float] = {}
    d = 0
    while True:
        d = min(d + STEP, dist) if d < dist else d + STEP
        at = {e["id"]: _shifted(r, -fx * d, -fy * d)}
        way = _way_back(st, e, at, pushed, start, live, repulse, -fx, -fy)
        if way != "clear" or d >= dist and not _in_friends(at, start):
            break
    if way == "off":
        e["state"] = "off_table"
        _burst_through(st, e, r, at[e["id"]], r.heading + 180, log)
        log("outcome", f"{_name(st, e)} is driven off the field.")
        return
    if way != "clear":
        e["state"] = "destroyed"
        log("outcome", f"{_name(st, e)} {way} and is destroyed.")
        return
    for i, r2 in at.items():
        o = live[i]
        if i != e["id"] and _off_table(st, r2):
            o["state"] = "off_table"
            log("outcome", f"{_name(st, o)} is pushed off the field by {_name(st, e)}.")
            continue
        _place(o, r2)
        if i != e["id"]:
            log("outcome", f"{_name(st, e)} pushes {_name(st, o)} back {round(pushed[i])} "
                "paces.")
    log("outcome", f"{_name(st, e)} {why} {d} paces.")
    _burst_through(st, e, r, at[e["id"]], r.heading + 180, log)


def _caught(st: State, e: dict) -> bool:
    """Whether an enemy front edge is in close combat with ``e``'s rear edge: recoiling,
    repulsed or routing, ``e`` is then destroyed where it stands (L320)."""
    r = _rect(e)
    return any(contact(_rect(o), r) == "rear" for o in _live(st, _enemy(st, e["side"])))


def _burst_through(st: State, e: dict, before: Rect, after: Rect, heading: float,
                   log: EventLog) -> None:
    """Enemy Skirmishers on the ground ``e`` covered moving from ``before`` to ``after``
    were burst through: each turns about its centre to face ``heading`` (degrees), the way
    ``e`` went (L321: "turn to face the rear of the routers"; read the same for a recoil or
    a repulse: they face the element that went through them), unless it has no room there
    or its work forbids turning (:func:`rules.hfg.works.may_turn`)."""
    heading %= 360
    path = water.hull(before, after)
    for o in _live(st, _enemy(st, e["side"])):
        here = _rect(o)
        if o["type"] != "SK" or o["state"] != "ok" or not overlaps(path, here.corners()):
            continue
        if abs(((heading - here.heading + 180) % 360) - 180) < 1:
            continue
        cx, cy = here.center()
        fx, fy = Rect(0, 0, heading).forward()
        turned = Rect(cx + fx * o["depth"] / 2, cy + fy * o["depth"] / 2, heading,
                      o["width"], o["depth"])
        if not works.may_turn(_work(st, o)) or _blocked(st, o, turned):
            log("outcome", f"{_name(st, e)} bursts through {_name(st, o)}, which cannot "
                "turn where it stands.")
            continue
        _place(o, turned)
        log("outcome", f"{_name(st, e)} bursts through {_name(st, o)}, which turns to face "
            "it.")


def _shifted(r: Rect, dx: float, dy: float) -> Rect:
    return Rect(r.x + dx, r.y + dy, r.heading, r.width, r.depth)


def _way_back(st: State, e: dict, at: dict[str, Rect], pushed: dict[str, float],
              start: dict[str, Rect], live: dict[str, dict], repulse: bool, ux: float,
              uy: float) -> str:
    """Carry out one step of ``e``'s move back along ``(ux, uy)``, ``at`` holding its new
    footprint: every friend it (or a friend pushed) meets and cannot pass through is pushed
    (``pushed``: how far each has been, kept from step to step) just clear, and ``at`` gets
    the footprint of each. Whether the way is ``"clear"``, ``"off"`` (``e`` leaves the table)
    or what stops it (enemy or ground)."""
    for i, paces in pushed.items():
        at[i] = _shifted(start[i], ux * paces, uy * paces)
    queue = [e["id"]]
    while queue:
        m = live[queue.pop()]
        mr = at[m["id"]]
        m_corners = mr.corners()
        for i, o in live.items():
            if i == m["id"] or i == e["id"] or o["side"] != e["side"] or \
                    not overlaps(m_corners, at.get(i, start[i]).corners()) or \
                    _passes(st, m, o, repulse and m["id"] == e["id"]):
                continue
            ahead = max(x * ux + y * uy for x, y in m_corners)
            behind = min(x * ux + y * uy for x, y in at.get(i, start[i]).corners())
            pushed[i] = pushed.get(i, 0.0) + max(0.0, ahead - behind)
            at[i] = _shifted(start[i], ux * pushed[i], uy * pushed[i])
            queue.append(i)
    everyone = tuple(live)
    for i, p in at.items():
        if _off_table(st, p):
            if i == e["id"]:
                return "off"
            continue
        if _blocked(st, live[i], p, ignore=everyone):
            return "cannot cross the ground behind it"
        if any(o["side"] != e["side"] and o["type"] != "SK" and
               overlaps(p.corners(), start[j].corners()) for j, o in live.items()):
            return "runs into the enemy"
    return "clear"


def _in_friends(at: dict[str, Rect], start: dict[str, Rect]) -> bool:
    """Whether any element of a move back (footprints ``at``) still stands in another
    element it passed through (a friend, or enemy Skirmishers burst through): it goes on."""
    return any(j not in at and overlaps(p.corners(), start[j].corners())
               for p in at.values() for j in start)


def _passes(st: State, m: dict, o: dict, repulsed: bool) -> bool:
    """Whether ``m`` moving back may pass through its friend ``o`` (L254-255): a repulsed
    element, staff or Skirmishers through any friend; mounted and artillery through
    unentrenched foot facing the same way; anyone through artillery or friends manning a
    redoubt facing the same or the opposite way."""
    mover = troop_type(m["type"]).category
    if repulsed or mover == "staff" or m["type"] == "SK":
        return True
    turn = round(abs(((m["heading"] - o["heading"] + 180) % 360) - 180))
    work = _work(st, o)
    if troop_type(o["type"]).category == "artillery" or work == "redoubt":
        return turn in (0, 180)
    return (mover in ("mounted", "artillery") and not m["dismounted"] and turn == 0
            and troop_type(o["type"]).category == "foot" and not o["dismounted"]
            and work not in ("entrenchment", "linear_feature"))


def _about_face(e: dict) -> None:
    """Turn ``e`` 180 degrees where it stands: its rear edge becomes its front."""
    e["heading"] = (e["heading"] + 180) % 360
    _place(e, _rect(e).moved(e["depth"]))


def _rout_move(st: State, e: dict, log: EventLog, *, again: bool = False) -> None:
    """Rout ``e`` its ``rout_distance`` (L318-321), turning 180 degrees first unless it routs
    on (``again``): straight back (a rout's path along a road, river bank or terrain edge is
    not built), passing through every friend it meets, who may rout in turn
    (:func:`_contagion`), and bursting through enemy Skirmishers (:func:`_burst_through`).
    It stops at the near side of a ford it reaches (:func:`rules.hfg.water.ford_ahead`), or
    short of a friend it would end on there. Elsewhere, if
    it would end on an element it passed through it goes on until clear, just beyond it
    (L256): "The element moving furthest ends in front" (L319), and a friend it swept away
    routing the same way can end under it only having moved less (a friend routing across
    its way is read the same). It is destroyed if an enemy front edge touches its rear as it
    starts (:func:`_caught`), or if it reaches enemy other than Skirmishers or ground it
    cannot cross (L320-321); off the table it is lost (L329)."""
    if _caught(st, e):
        e["state"] = "destroyed"
        log("outcome", f"{_name(st, e)} cannot get away and is destroyed.")
        return
    if not again:
        _about_face(e)
    r = _rect(e)
    dist = e["rout_distance"]
    ford = water.ford_ahead(st, e, r, dist)
    if ford is not None:
        dist = ford[0]
    way, d = _rout_way(st, e, r, 0, dist)
    while True:
        _contagion(st, e, rout.swept(r, d), log)
        if way != "clear" or not _blocked(st, e, r.moved(d)):
            break
        if ford is not None and d >= ford[0]:  # it may not go on past the near side: it
            d = next((x for x in range(d - STEP, 0, -STEP)  # ends just short of the friend
                      if not _blocked(st, e, r.moved(x))), 0)
            break
        way, d = _rout_way(st, e, r, d, None)
    if way == "off":
        e["state"] = "off_table"
        _burst_through(st, e, r, r.moved(d), r.heading, log)
        log("outcome", f"{_name(st, e)} flees off the field.")
        return
    if way != "clear":
        e["state"] = "destroyed"
        log("outcome", f"{_name(st, e)} {way} and is destroyed.")
        return
    _place(e, r.moved(d))
    _burst_through(st, e, r, r.moved(d), r.heading, log)
    text = f"{_name(st, e)} {'routs on' if again else 'routs'} {d} paces"
    if ford is not None and d == ford[0]:
        t = ford[1]
        text += " and stops at the ford over " + (
            t["name"] if t["name"] != t["kind"] else "the " + t["kind"])
    log("outcome", text + ".")


def _rout_way(st: State, e: dict, r: Rect, d: int, dist: int | None) -> tuple[str, int]:
    """Step the rout of ``e`` on from ``d`` paces ahead of ``r`` to ``dist`` paces, or with
    ``dist`` None until it stands clear of every element. Returns how far it got and the
    way: ``"clear"``, ``"off"`` (it leaves the table) or what stops it (enemy other than
    Skirmishers, ground it cannot cross), as the log says it."""
    everyone = tuple(o["id"] for o in _live(st))
    foes = [o for o in _live(st, _enemy(st, e["side"])) if o["type"] != "SK"]
    while dist is None or d < dist:
        d = d + STEP if dist is None else min(d + STEP, dist)
        p = r.moved(d)
        if _off_table(st, p):
            return "off", d
        if _blocked(st, e, p, ignore=everyone):
            return "reaches ground it cannot cross", d
        if any(overlaps(p.corners(), _rect(o).corners()) for o in foes):
            return "runs into the enemy", d
        if dist is None and not _blocked(st, e, p):
            break
    return "clear", d


def _contagion(st: State, e: dict, path: tuple, log: EventLog) -> None:
    """Friends the router ``e`` passed through on ``path`` rout their own full tactical move
    (:mod:`rules.hfg.rout`, L319), each in the order of the setup, and may panic others."""
    reading = st["settings"].get("hfg_rout_contagion", "book")
    for o in _live(st, e["side"]):
        if o["state"] != "ok" or o["type"] in ("SUP", "SPG") or not rout.met(path, _rect(o)):
            continue
        holds = bool(_in(st, o, "bua") or _in(st, o, "strong_point"))
        if not rout.panics(e["type"], e["grade"], o["type"], friend_holds_works=holds,
                           reading=reading):
            continue
        o["state"], o["routed_at"] = "routing", st["bound"]
        o["rout_distance"] = _allow(st, o, _going(st, _rect(o)))
        log("rout.contagion", f"{_name(st, o)} is swept away by the fleeing "
            f"{_name(st, e)}.", {"element": o["id"], "router": e["id"]})
        _rout_move(st, o, log)


def _apply_outcome(st: State, e: dict, foe: dict, out: Any, log: EventLog,
                   source: RandomSource, *, close: bool) -> None:
    """``e`` carries out its outcome ``out`` of a combat with ``foe`` (close, or with
    ``close`` false distant): set afire, destroyed or spent, or its move (L311-328). An
    element recoiled by the shooting of enemy directly to its rear first turns to face
    them (L315-316: :func:`rules.hfg.works.shot_from`)."""
    if e["state"] not in ON_TABLE:
        return
    if out.afire:
        bua = _in(st, e, "bua")
        if bua and bua["id"] not in st["afire"]:
            st["afire"].append(bua["id"])
            log("afire", f"{bua['name']} is set afire.")
    k = out.kind
    if k in ("destroyed", "spent"):
        e["state"] = k
        log("outcome", f"{_name(st, e)} is {'destroyed' if k == 'destroyed' else 'spent'}.")
    elif k == "recoil":
        if not close and works.shot_from(_rect(e), _rect(foe)) == "rear":
            _about_face(e)
            log("outcome", f"{_name(st, e)} turns to face {_name(st, foe)}.")
        _back(st, e, out.distance[0], log, "recoils")
        if out.disabled and e["state"] == "ok":
            e["disabled"] = True
            log("outcome", f"{_name(st, e)} is disabled.")
    elif k == "repulsed":
        e["repulsed"] = True
        _back(st, e, out.distance[0], log, "is repulsed", repulse=True)
    elif k == "routed":
        e["state"], e["routed_at"], e["rout_distance"] = "routing", st["bound"], \
            out.distance[0]
        _rout_move(st, e, log)
    elif k == "pursue":
        r = _rect(e)
        d = 300
        while d > 0 and _blocked(st, e, r.moved(d)):
            d -= STEP
        if d:
            _place(e, r.moved(d))
            log("outcome", f"{_name(st, e)} pursues {d} paces.")
    elif k == "charge":
        if foe["state"] == "ok" and in_corridor(_rect(e), _rect(foe)) and \
                _gap(st, e, foe) <= 600 and _front_enemy(st, foe) is None:
            nr = opposite(_rect(foe), e["width"], e["depth"])
            if not _blocked(st, e, nr, ignore=(foe["id"],)):
                _place(e, nr)
                log("outcome", f"{_name(st, e)} charges {_name(st, foe)}.")
    elif k == "press_forward":
        _press_forward(st, e, foe, log)


def _press_forward(st: State, e: dict, foe: dict, log: EventLog) -> None:
    """The standing choice: press forward only when the 200p bring the element into the
    beaten enemy's front, or against a town or strong point it holds onto the edge facing
    the element (:mod:`rules.hfg.assault`; close combat follows this bound after shooting,
    L323); else halt. The log says which."""
    post = _press_post(st, e, foe)
    if post is None:
        log("outcome", f"{_name(st, e)} halts.")
        return
    nr, town = post
    _place(e, nr)
    log("outcome", f"{_name(st, e)} presses forward into {_name(st, foe)}"
        + (f" at the edge of {town['name']}." if town else "."))


def _press_post(st: State, e: dict, foe: dict) -> tuple[Rect, dict | None] | None:
    """Where ``e`` pressing forward against ``foe`` would stand, and the town it assaults
    (None in the open); ``None`` where it halts instead (:func:`_press_forward`)."""
    if foe["state"] != "ok" or _front_enemy(st, foe) is not None or _front_enemy(st, e):
        return None
    town = _town(st, foe)
    if not in_corridor(_rect(e), _rect(foe), spread=0) or (
            town is None and _gap(st, e, foe) > 200):
        return None
    if town is None:
        nr = opposite(_rect(foe), e["width"], e["depth"])
    else:
        box = _town_box(town)
        nr = assault.post(box, assault.nearest_edge(box, _rect(e).center()), e["width"],
                          e["depth"])
    if move_distance(_rect(e), nr) <= 200 + EPS and not _blocked(st, e, nr,
                                                                  ignore=(foe["id"],)):
        return nr, town
    return None


# --- the engine ----------------------------------------------------------------------------


def _commander(st: State, side: str) -> str:
    return str(st["sides"][side]["commander"])


class HfgEngine:
    """The ``hfg`` encounter engine (:class:`rules.engine.Engine`); see the module
    docstring for the setup, the orders and what is not modelled."""

    name = ENGINE_NAME
    title = "Horse, Foot and Guns: a land battle"
    wargame = True
    """Offered by the campaign's "New wargame" page (``combat.wargames``)."""
    round_word = "Bound"
    """What the log calls a round: a side's bound."""

    def validate_setup(self, setup: dict) -> dict:
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        st = _initial_state(validate_setup(setup))
        if st["setup"]["terrain"] == "dice":
            st["terrain"] = dice_terrain(source, st["table"]["w"], st["table"]["d"], [
                _rect(e) for e in st["elements"].values() if e["state"] != "waiting"])
        events: list[Event] = []
        log = EventLog(events)
        sides = "; ".join(f"{st['sides'][s]['name']}: {len(_live(st, s))} elements"
                          for s in st["side_ids"])
        log("game.start", f"{st['setup']['title']}. {sides}. "
            f"{st['sides'][st['attacker']]['name']} attacks.", {})
        _begin_bound(st, source, log)
        return st, events

    def participants(self, state: State) -> dict[str, str]:
        return {state["sides"][s]["commander"]: state["sides"][s]["name"]
                for s in state["side_ids"]}

    def pending(self, state: State) -> list[Decision]:
        if state["result"] is not None or not state["awaiting"]:
            return []
        side = state["phasing"]
        opts = order_options(state)
        options = tuple(Option(k, f"{label} ({c} PIP{'s' if c != 1 else ''})" if c else label,
                               order_group(state, k))
                        for k, label, c in opts)
        pips = _pips_text(state)
        with _still(state):
            default = choose(state, opts)
        return [Decision(_commander(state, side), "hfg.orders",
                         f"Bound {state['bound']}: your orders (PIPs left: {pips})", options,
                         default)]

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        if state["result"] is not None:
            raise IllegalAction(f"the battle is over: {state['result']['summary']}")
        if not state["awaiting"] or actor != _commander(state, state["phasing"]):
            raise IllegalAction(f"{actor} has no orders to give now")
        if not isinstance(choice, str):
            raise IllegalAction("an order is text")
        st = _copy(state)
        events: list[Event] = []
        log = EventLog(events)
        if choice == "end":
            _end_moves(st, source, log)
        else:
            apply_order(st, choice, log, source)
        return st, events

    def auto_start(self, setup: dict, source: RandomSource) -> State:
        """The state :meth:`start` returns, drawn the same, without building its events (the
        Monte Carlo's start, ``rules.montecarlo``)."""
        st = _initial_state(validate_setup(setup))
        _begin_bound(st, source, EventLog(None))
        return st

    def auto_play(self, state: State, source: RandomSource) -> State:
        """The final state of ``state`` played to its end with the default policy: where
        :func:`rules.engine.play_out` ends, drawn the same, on one copy of the state
        changed in place, without decisions or events (the Monte Carlo's play)."""
        st = _copy(state)
        log = EventLog(None)
        while st["result"] is None and st["awaiting"]:
            with _still(st):
                options = _order_options(st, VERBS)
                key = choose(st, options)
            if key == "end":
                _end_moves(st, source, log)
            else:
                _carry_out(st, key, next(c for k, _, c in options if k == key), log, source)
        return st

    def default_choice(self, state: State, decision: Decision) -> str:
        return decision.default

    def outcome(self, state: State) -> Outcome | None:
        r = state["result"]
        if r is None:
            return None
        win = r["winner"]
        return Outcome(state["sides"][win]["name"] if win else None, r["result"],
                       r["summary"], {"rounds": r["bound"], "winner_side": win})

    def view(self, state: State, participant: str) -> dict:
        """The table as ``participant`` may see it: everything but the other side's delayed
        commands not yet on and concealed elements (:func:`rules.hfg.arrivals.hide`,
        :func:`rules.hfg.sight.hide`); the GM sees all."""
        return self.joint_view(state, [participant])

    def joint_view(self, state: State, participants: list[str]) -> dict:
        """:meth:`view` for one person who plays every one of ``participants`` (a player
        whose two characters command two sides): each of their sides' commands and elements
        in full; ``you`` is the first of them."""
        v = copy.deepcopy(state)
        v["you"] = participants[0]
        v["my_sides"] = list(state["side_ids"]) if GM in participants else [
            s for s in state["side_ids"] if state["sides"][s]["commander"] in participants]
        others = [s for s in state["side_ids"] if s not in v["my_sides"]]
        arrivals.hide(v, others)
        sight.hide(v, others)
        return v

    def scenarios(self) -> dict[str, Scenario]:
        return load_scenarios("rules.hfg")


ENGINE = register(HfgEngine())
