"""A vessel's orders for a turn: what it may do, in words, and the checks (``rules/viking.md``
§3, §5; V-L5-L163).

An order key is ``[<ORDER>>]<action>``: the optional prefix changes the vessel's standing
order first (phase 1, once a game, the flagship within 16 inches, V-L21), then the action:

* ``<LEVEL>@<inches>[/L<facing>|/R<facing>]``: row (or sail, with the sail up) at the
  declared level (``FULL``, ``PACED``, ``SLOW``, ``DIW``) that distance, using that many
  facing inches to the left or right (``PACED@4.5/L2``); ``<LEVEL>-back@...`` backs;
* ``oars`` (ship or set out the oars: one complete turn, V-L163), ``raise`` / ``lower``
  (the sail, V-L159-L161), ``drift`` (no oars out, no sail: slow one level);
* grappled to an enemy (house rules): ``fight`` or ``break`` (try to break off).

A vessel raising or lowering its sail does nothing else (A8): it is given ``auto``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from math import ceil, floor, hypot
from typing import Any

from rules.engine import Decision, Field, FieldErrors, Option
from rules.viking import movement as mv
from rules.viking.data import (
    DIW,
    FACING,
    FULL,
    LEVEL_NAMES,
    LEVEL_OF,
    LEVEL_WORDS,
    LOWER_TURNS,
    ORDER_CHANGE_RANGE,
    ORDER_NAMES,
    ORDERS,
    PACED,
    SPEED,
)

HANDLING = ("oars", "raise", "lower", "drift", "fight", "break", "auto")
_MOVE = re.compile(r"^(FULL|PACED|SLOW|DIW)(-back)?@(\d+(?:\.\d+)?)(?:/([LR])(\d+(?:\.\d+)?))?$")
EPS = 1e-6
KEY_ROUNDING = 0.005 + EPS
"""A key's inches are rounded to hundredths (:func:`move_key`): a backing karfi's 0.375 in
is ``@0.38``, and is that distance."""


class OrderError(ValueError):
    """An order the rules do not allow now; the message says why."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A parsed order key: ``change`` the new standing order or ``None``; ``action`` one of
    :data:`HANDLING` or ``"move"``; for a move its ``level`` (0-3), ``backward``,
    ``distance`` (inches, >= 0) and ``facing`` (inches, negative to the left)."""

    change: str | None
    action: str
    level: int = DIW
    backward: bool = False
    distance: float = 0.0
    facing: float = 0.0


def parse(key: str) -> Plan:
    """The :class:`Plan` of ``key``; ``OrderError`` if it is not an order's shape."""
    if not isinstance(key, str):
        raise OrderError("an order is text")
    change = None
    if ">" in key:
        change, key = key.split(">", 1)
        if change not in ORDERS:
            raise OrderError(f"{change!r} is not an order ({', '.join(ORDERS)})")
    if key in HANDLING:
        return Plan(change, key)
    m = _MOVE.match(key)
    if not m:
        raise OrderError(f"{key!r} is not an order")
    facing = float(m.group(5) or 0) * (-1 if m.group(4) == "L" else 1)
    return Plan(change, "move", LEVEL_OF[m.group(1)], bool(m.group(2)), float(m.group(3)),
                facing)


def _num(x: float) -> str:
    return f"{round(x, 2):g}"


def span(lo: float, hi: float) -> str:
    """A distance or a range of them in words: ``"1.5 in"``, ``"6 to 8 in"``."""
    return f"{_num(lo)} in" if lo == hi else f"{_num(lo)} to {_num(hi)} in"


def move_key(level: int, distance: float, facing: float, backward: bool = False,
             change: str | None = None) -> str:
    """The key of a move (:func:`parse` reads it back)."""
    key = f"{LEVEL_NAMES[level]}{'-back' if backward else ''}@{_num(distance)}"
    if abs(facing) > EPS:
        key += f"/{'L' if facing < 0 else 'R'}{_num(abs(facing))}"
    return f"{change}>{key}" if change else key


def describe(key: str, vessel: dict | None = None) -> str:
    """An order in words; given the ``vessel`` it is for (before it is carried out), the
    oars' handling says which way it works them."""
    p = parse(key)
    first = f"change the order to {ORDER_NAMES[p.change]}, then " if p.change else ""
    oars = ("work the oars (ship or set them out)" if vessel is None else
            "ship the oars" if vessel["oars_out"] else "set out the oars")
    words = {"oars": oars, "raise": "raise the sail",
             "lower": "lower the sail", "drift": "drift", "fight": "fight on",
             "break": "try to break off", "auto": "carry on with the sail"}
    if p.action != "move":
        return first + words[p.action]
    how = "back" if p.backward else "go"
    turn = (f", facing {_num(abs(p.facing))} in to the {'left' if p.facing < 0 else 'right'}"
            if abs(p.facing) > EPS else ", straight on")
    return f"{first}{how} {LEVEL_WORDS[p.level]}, {_num(p.distance)} in{turn}"


# --- what a vessel may do ----------------------------------------------------------------


def mode(v: dict) -> str:
    """How the vessel moves this turn: ``"grappled"``, ``"busy"`` (raising or lowering the
    sail), ``"sail"`` (sail up), ``"oars"`` (oars out) or ``"none"``."""
    if v["grappled"]:
        return "grappled"
    if v["sail"] in ("RAISING", "LOWERING"):
        return "busy"
    if v["sail"] == "UP":
        return "sail"
    return "oars" if v["oars_out"] else "none"


def levels(st: dict, v: dict) -> list[tuple[int, bool]]:
    """(level, backward) pairs the vessel may declare this turn (§5.2, §5.4, §5.8)."""
    first = st["turn"] == 1
    out = []
    m = mode(v)
    if m == "oars":
        for back in (False, True):
            for lvl in range(DIW, FULL + 1):
                if back and lvl == DIW:
                    continue
                try:
                    mv.check_level(v["level"], lvl, first_turn=first, backward_now=v["backward"],
                                   backward=back)
                except mv.MoveError:
                    continue
                out.append((lvl, back))
    elif m == "sail":
        top = mv.sail_max(v["cls"], st["wind"]["speed"], v["heading"], st["wind"]["from"])
        top = DIW if top is None else top
        low = DIW if first else max(DIW, v["level"] - 1)
        high = top if first else min(top, v["level"] + 1)
        out = [(lvl, False) for lvl in range(low, max(low, high) + 1)]
    return out


def crew_of(v: dict) -> str:
    """The vessel's crew state (:func:`rules.viking.movement.crew_state`)."""
    return mv.crew_state(v["crew"], v["crew_full"], v["crew_minimum"])


def move_shape(st: dict, v: dict, plan: Plan) -> dict[str, Any]:
    """The move of ``plan`` as :func:`rules.viking.movement.simulate` takes it."""
    model = st["settings"]["viking_facing_inch"]
    crew = crew_of(v)
    if plan.action == "move":
        level, dist, facing = plan.level, plan.distance, plan.facing
        paid = mv.paid_facing(level, dist, abs(facing), crew=crew)
        sign = -1 if facing < 0 else 1
        turn = sign * mv.facing_degrees(paid, v["length"], model)
        rest = sign * mv.facing_degrees(abs(facing) - paid, v["length"], model)
        dist = -dist if plan.backward else dist
    else:
        level, turn, rest = coast_level(st, v, plan), 0.0, 0.0
        dist = 0.0 if plan.action in ("fight", "break") else mv.speed_range(
            v["cls"], level, backward=v["backward"], crew=crew, doubled=st["doubled"])[0]
        dist = -dist if v["backward"] else dist
    return {"id": v["id"], "x": v["x"], "y": v["y"], "heading": v["heading"],
            "length": v["length"], "beam": v["beam"], "distance": dist, "turn": turn,
            "turn_in_place": rest, "level": level}


def coast_level(st: dict, v: dict, plan: Plan) -> int:
    """The level of a vessel that does not row or sail this turn: it slows one level (A8,
    errata VK-3); grappled it is dead in the water."""
    if plan.action in ("fight", "break"):
        return DIW
    return max(DIW, v["level"] - 1)


def end_of(st: dict, v: dict, plan: Plan) -> dict[str, float]:
    """Where the vessel would end this turn if nothing touched it."""
    x, y, heading = mv.glide(move_shape(st, v, plan), st["board"]["w"], st["board"]["h"])
    return {"x": x, "y": y, "heading": heading}


def raw_options(st: dict, v: dict, change: str | None = None, every_inch: bool = False
                ) -> list[str]:
    """Orders the book allows the vessel now (before its standing order's limits): the
    moves at each level at the top of their range with none, half or all of the facing to
    either side, and the handling it may start. With ``every_inch`` also the moves at the
    bottom of each range and at each whole inch inside it (A1: any distance in the range),
    straight on or with all the facing that distance allows to either side."""
    m = mode(v)
    if m == "grappled":
        return ["fight", "break"]
    if m == "busy":
        return ["auto"]
    crew = crew_of(v)
    lenient = st["settings"]["viking_facing"] == "lenient"
    want = aim(st, v)
    keys: list[str] = []
    for lvl, back in levels(st, v):
        ranges = mv.bands(v["cls"], lvl, backward=back, crew=crew, doubled=st["doubled"])
        hi = ranges[-1][1]
        inches = {x for a, b in ranges for x in (a, b, *range(ceil(a), floor(b) + 1))
                  } if every_inch else set()
        for dist in sorted(inches | {hi}):
            allow = mv.max_facing(v["cls"], lvl, dist, lenient=lenient, crew=crew,
                                  doubled=dist > ranges[0][1] + KEY_ROUNDING)
            facings = {0.0, allow, -allow} | ({allow / 2, -allow / 2} if dist == hi else set())
            if want is not None:
                need = mv.turn_toward(v["heading"], want) / mv.facing_degrees(
                    1, v["length"], st["settings"]["viking_facing_inch"])
                facings.add(round(max(-allow, min(allow, need)), 2))
            for f in sorted(facings):
                keys.append(move_key(lvl, dist, f, back, change))
    handling = []
    if m in ("oars", "none") and v["sail"] == "DOWN":
        handling.append("oars")
    if m == "none":
        handling.append("drift")
        if v["sail"] == "DOWN":
            handling.append("raise")
    if m == "sail" and (st["settings"]["viking_sail_lowering"] == "keep_dropping"
                        or v["level"] <= LOWER_TURNS[v["viking"]]):
        handling.append("lower")
    keys += [f"{change}>{h}" if change else h for h in handling]
    return keys


def aim(st: dict, v: dict) -> float | None:
    """The heading the vessel's choices include a turn toward: a follower's (Move as
    Flagship) the flagship's last known heading, or once the flagship is engaged the bearing
    of the enemy most easily reached (V-L31, A6); any other vessel's that bearing too."""
    side = st["sides"][v["side"]]
    flag = st["vessels"].get(side["flagship"] or "")
    if (v["order"] == "FLAGSHIP" and flag is not None and flag["id"] != v["id"]
            and not side["engaged"]):
        return float(flag["last_heading"])
    target = easiest_enemy(st, v)
    return None if target is None else mv.bearing(v["x"], v["y"], target["x"], target["y"])


def may_change(st: dict, v: dict) -> list[str]:
    """The standing orders the vessel may change to now: once a game, with its flagship
    within 16 inches (the flagship itself at distance 0) (V-L21, §3.1)."""
    if v["order_changed"] or mode(v) in ("busy", "grappled"):
        return []
    flag = st["vessels"].get(st["sides"][v["side"]]["flagship"] or "")
    if flag is None or flag["sunk"] or flag["struck"]:
        return []
    if hypot(flag["x"] - v["x"], flag["y"] - v["y"]) > ORDER_CHANGE_RANGE + EPS:
        return []
    return [o for o in ORDERS
            if o != v["order"] and not (o == "FLAGSHIP" and flag["id"] == v["id"])]


def _with_order(v: dict, order: str) -> dict:
    return {**v, "order": order}


def limit_reason(st: dict, v: dict, plan: Plan, options: list[Plan],
                 ends: dict[Plan, dict[str, float]] | None = None) -> str | None:
    """Why the vessel's standing order forbids ``plan`` (``None`` if it does not), among the
    plans ``options`` the book allows: a sector order keeps the midpoint inside its region,
    or brings it closer at paced or faster when it can (A5, V-L33); Move as Flagship keeps
    the flagship's last known speed or one below and heads as near its heading as facing
    allows, or once the flagship is engaged steers for the enemy most easily reached at
    paced or faster (V-L31, A6)."""
    order = v["order"]
    moves = [p for p in options if p.action == "move"]
    if plan.action != "move" or not moves:
        return None
    if ends is None:
        ends = {}

    def end(p: Plan) -> dict[str, float]:
        if p not in ends:
            ends[p] = end_of(st, v, p)
        return ends[p]

    if order in ("LEFT", "CENTER", "RIGHT"):
        base = st["sides"][v["side"]]["baseline"]
        w = st["board"]["w"]
        before = mv.sector_gap(order, v["x"], base, w)
        after = mv.sector_gap(order, end(plan)["x"], base, w)
        if before <= EPS:
            return None if after <= EPS else (
                f"the order {ORDER_NAMES[order]} keeps her inside her part of the table")
        need = min(PACED, max(p.level for p in moves if not p.backward) if any(
            not p.backward for p in moves) else DIW)
        if after >= before - EPS or plan.level < need or plan.backward:
            return (f"out of her part of the table, the order {ORDER_NAMES[order]} sends her "
                    "toward it at paced speed or faster")
        return None
    if order != "FLAGSHIP":
        return None
    side = st["sides"][v["side"]]
    flag = st["vessels"].get(side["flagship"] or "")
    if flag is None or flag["id"] == v["id"]:
        return None
    if side["engaged"]:
        target = easiest_enemy(st, v)
        if target is None:
            return None
        want = mv.bearing(v["x"], v["y"], target["x"], target["y"])
        need = min(PACED, max(p.level for p in moves))
        if plan.level < need or plan.backward:
            return "the flagship is engaged: she must hurry to engage the nearest enemy"
    else:
        want = flag["last_heading"]
        allowed = {flag["last_level"], max(DIW, flag["last_level"] - 1)}
        reach = {p.level for p in moves}
        if allowed & reach:
            if plan.level not in allowed or plan.backward:
                return ("moving as flagship: the flagship's last speed or one below, never "
                        "faster")
        elif plan.level != min(reach, key=lambda lv: abs(lv - flag["last_level"])):
            return "moving as flagship: as near the flagship's speed as she can come"
    best = min((mv.angle_between(end(p)["heading"], want) for p in moves
                if p.level == plan.level and p.backward == plan.backward), default=0.0)
    if mv.angle_between(end(plan)["heading"], want) > best + 0.5:
        return ("the order keeps her heading as near the flagship's as she can turn"
                if not side["engaged"] else "she must steer for the nearest enemy")
    return None


def easiest_enemy(st: dict, v: dict) -> dict | None:
    """The enemy most easily reached (A6): fewest turns to reach at full speed, turning at
    the full-speed facing allowance; ties to the nearer."""
    best = None
    for e in map(st["vessels"].get, st["vessel_ids"]):
        if e["side"] == v["side"] or e["sunk"] or e["struck"]:
            continue
        key = (turns_to_reach(st, v, e), hypot(e["x"] - v["x"], e["y"] - v["y"]))
        if best is None or key < best[0]:
            best = (key, e)
    return None if best is None else best[1]


def turns_to_reach(st: dict, v: dict, e: dict) -> float:
    """About how many turns ``v`` needs to reach ``e`` (A6): the distance at full speed and
    the turn toward it at the full-speed facing allowance."""
    d = hypot(e["x"] - v["x"], e["y"] - v["y"])
    off = mv.angle_between(v["heading"], mv.bearing(v["x"], v["y"], e["x"], e["y"]))
    per_turn = mv.facing_degrees(FACING[v["cls"]][FULL], v["length"],
                                 st["settings"]["viking_facing_inch"])
    return d / SPEED[v["cls"]][FULL][1] + off / max(per_turn, 1.0)


def options(st: dict, v: dict, every_inch: bool = False) -> list[str]:
    """The orders offered to the vessel's commander this turn: the book's choices under its
    standing order's limits, then those after each order change it may make (keys prefixed
    with the new order). Never empty. The default policy chooses among the moves at the top
    of each range; ``every_inch`` adds the other distances a commander may choose (see
    :func:`raw_options`), each one :func:`check` accepts."""
    out = _limited(st, v, None, every_inch)
    for order in may_change(st, v):
        out += _limited(st, _with_order(v, order), order, every_inch)
    return out


def _limited(st: dict, v: dict, change: str | None, every_inch: bool) -> list[str]:
    keys = raw_options(st, v, change)
    plans = [parse(k) for k in keys]
    ends: dict[Plan, dict[str, float]] = {}
    kept = [k for k, p in zip(keys, plans) if limit_reason(st, v, p, plans, ends) is None]
    if not every_inch:
        return kept or keys
    # the limits weigh each move against the same choices as check() does
    every = raw_options(st, v, change, every_inch=True)
    return [k for k in every if limit_reason(st, v, parse(k), plans, ends) is None] \
        if kept else every


def group(key: str) -> str:
    """The heading an order is listed under on the page: its move's level and direction,
    after the order change if any (``"Go paced"``), ``""`` for the handling orders."""
    p = parse(key)
    if p.action != "move":
        return ""
    first = f"change the order to {ORDER_NAMES[p.change]}, then " if p.change else ""
    text = f"{first}{'back' if p.backward else 'go'} {LEVEL_WORDS[p.level]}"
    return text[:1].upper() + text[1:]


def check(st: dict, v: dict, key: str) -> Plan:
    """The plan of ``key`` if the rules allow it for ``v`` now, else ``OrderError`` with the
    reason: an order change not allowed, a level out of reach (one step a turn, backing from
    DIW, at most paced backing, the sail's maximum), a distance outside the level's range, more
    facing than the allowance (A4), or what the standing order forbids."""
    plan = parse(key)
    if key in options(st, v):
        return plan
    if plan.change is not None:
        if plan.change not in may_change(st, v):
            raise OrderError(f"{v['name']} may not change her order now (once a game, the "
                             "flagship within 16 in)")
        v = _with_order(v, plan.change)
    keys = raw_options(st, v, plan.change)
    plans = [parse(k) for k in keys]
    if plan.action != "move":
        if key not in keys:
            raise OrderError(f"{v['name']} cannot {describe(key).split(', then ')[-1]} now")
        return plan
    if mode(v) not in ("oars", "sail"):
        raise OrderError(f"{v['name']} has neither oars out nor sail up")
    if (plan.level, plan.backward) not in levels(st, v):
        try:
            mv.check_level(v["level"], plan.level, first_turn=st["turn"] == 1,
                           backward_now=v["backward"], backward=plan.backward)
        except mv.MoveError as exc:
            raise OrderError(str(exc)) from None
        raise OrderError(f"{v['name']} cannot make {LEVEL_WORDS[plan.level]} now")
    crew = crew_of(v)
    ranges = mv.bands(v["cls"], plan.level, backward=plan.backward, crew=crew,
                      doubled=st["doubled"])
    if not any(lo - KEY_ROUNDING <= plan.distance <= hi + KEY_ROUNDING for lo, hi in ranges):
        raise OrderError(f"at {LEVEL_WORDS[plan.level]} {v['name']} moves "
                         + ", or doubled, ".join(span(lo, hi) for lo, hi in ranges))
    allow = mv.max_facing(v["cls"], plan.level, plan.distance,
                          lenient=st["settings"]["viking_facing"] == "lenient", crew=crew,
                          doubled=plan.distance > ranges[0][1] + KEY_ROUNDING)
    if abs(plan.facing) > allow + KEY_ROUNDING:
        raise OrderError(f"moving {_num(plan.distance)} in at {LEVEL_WORDS[plan.level]} "
                         f"{v['name']} may face at most {_num(allow)} in")
    ends: dict[Plan, dict[str, float]] = {}
    limited = [p for p in plans if limit_reason(st, v, p, plans, ends) is None]
    if limited:
        reason = limit_reason(st, v, plan, plans, ends)
        if reason:
            raise OrderError(reason)
    return plan


# --- a move typed in ----------------------------------------------------------------------


def fields(st: dict, v: dict) -> tuple[Field, ...]:
    """The inputs of a move typed in rather than picked from the list (A1: any distance in a
    level's range): the level (each with its distances and facing), the distance and facing
    inches, the side to face to, and the order change if one is allowed. None for a vessel
    that cannot row or sail this turn. :func:`typed_key` turns the answer into an order key,
    which :func:`check` judges like any other."""
    if mode(v) not in ("oars", "sail"):
        return ()
    crew = crew_of(v)
    lenient = st["settings"]["viking_facing"] == "lenient"
    choices, most, turn_most = [], 0.0, 0.0
    for lvl, back in levels(st, v):
        ranges = mv.bands(v["cls"], lvl, backward=back, crew=crew, doubled=st["doubled"])
        face = mv.max_facing(v["cls"], lvl, ranges[-1][1], lenient=lenient, crew=crew,
                             doubled=len(ranges) > 1)
        most, turn_most = max(most, ranges[-1][1]), max(turn_most, face)
        words = f"{'back' if back else 'go'} {LEVEL_WORDS[lvl]}: " + ", or doubled, ".join(
            span(lo, hi) for lo, hi in ranges) + f"; facing up to {_num(face)} in"
        choices.append(Option(f"{LEVEL_NAMES[lvl]}{'-back' if back else ''}",
                              words[:1].upper() + words[1:]))
    if not choices:
        return ()
    out = [Field("level", "Speed", "choice", tuple(choices), required=True),
           Field("distance", "Distance (inches)", "decimal", minimum=0, maximum=most,
                 required=True, help="Any distance the speed allows (see each speed's range)."),
           Field("facing", "Facing (inches)", "decimal", minimum=0, maximum=turn_most,
                 help="Left empty or 0: straight on. The move pays for it: 2 in forward for "
                      "each inch at full speed, 1 at paced, 1/2 at slow, none dead in the "
                      "water."),
           Field("side", "Face to", "choice", (Option("L", "the left"),
                                              Option("R", "the right")))]
    changes = may_change(st, v)
    if changes:
        out.append(Field("change", "First change her order to", "choice",
                         tuple(Option(o, ORDER_NAMES[o]) for o in changes)))
    return tuple(out)


def typed_key(st: dict, v: dict, choice: str) -> str:
    """The order key of a move typed in (the JSON of :func:`fields`' answers), checked
    (:func:`check`). :class:`rules.engine.FieldErrors` naming the field at fault: a value
    of the wrong shape, a distance or facing the speed does not allow, facing without a
    side, or what the standing order forbids."""
    typed = Decision("", "", f"Orders for {v['name']}", (), "", fields(st, v))
    if not typed.fields:
        raise FieldErrors({"": f"{v['name']} cannot row or sail this turn: pick her order "
                               "from the list."})
    values = typed.parse(choice)
    level, _, back = values["level"].partition("-")
    facing = values["facing"] or 0.0
    if facing > EPS and values["side"] is None:
        raise FieldErrors({"side": "Face to: the left or the right, please."})
    key = move_key(LEVEL_OF[level], values["distance"], -facing if values["side"] == "L"
                   else facing, bool(back), values.get("change"))
    try:
        check(st, v, key)
    except OrderError as exc:
        where = ("distance" if "moves" in str(exc) else "facing" if "face at most" in str(exc)
                 else "")
        raise FieldErrors({where: str(exc)[:1].upper() + str(exc)[1:] + "."}) from None
    return key
