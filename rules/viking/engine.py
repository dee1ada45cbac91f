"""The ``viking`` encounter engine: a Viking-era sea fight (:mod:`rules.engine`;
``rules/viking.md``, ``rules/errata/brethren_viking_bvp.md``).

A turn follows the sequence of play (V-L35-L43): first each side's commander says whether
he asks for the wind's speed to be diced again (a d10, 9-10 re-dices, V-L139, A9); then he
writes every vessel's orders (:mod:`rules.viking.orders`), kept hidden from the other side
until all are in, and then (1) the order changes are made, (2) all vessels move together
(:func:`rules.viking.movement.simulate`; doubled when the sides are 24 in apart), and the
phases the source does not define follow, each by its resolver from the setup's
``house_rules`` (:mod:`rules.viking.house`): (3) impact results, (4) distance weapons,
(5) proximity weapons, (6) fitness to continue, (7) break-offs. With a phase's resolver off
the log says it is not defined in the source. The game ends when one side has no vessel
left in the fight, or at the turn limit (with the house rules, the side that did the more
harm wins; with the source's rules only, unresolved, since they cannot decide it,
errata VK-1).

Setup (:func:`validate_setup`)::

    {"title": str, "board": {"w": inches, "h": inches}, "turn_limit": 2-40,
     "wind": {"from": degrees or null, "speed": 0-3 or null},
         # null: diced at the start by the house rule "wind_dice" (refused without it)
     "settings": {campaign settings},
     "house_rules": true | false | {phase or set-up rule: name or null},  # rules.viking.house
     "sides": [{"id", "name", "commander": "pc:<pk>" | "side:<id>",
                "baseline": "south" | "north"}, x2],
     "vessels": [{"id", "name", "side", "class", "x", "y", "heading", "order",
                  "flagship": bool, "viking": bool, "crew", "crew_full", "crew_minimum",
                  "level", "oars_out", "sail": "DOWN" | "UP"}]}
         # crew_full and crew_minimum left out: the house rule "crew" gives them

Participants: each side's ``commander``. Everything on the table is public; the orders of
a turn are seen by their commander (and the GM) only, until revealed.
"""

from __future__ import annotations

import copy
import random
from math import hypot
from typing import Any

from rules.btq.settings import SettingError, resolve
from rules.dice import roll
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
from rules.random import RandomSource
from rules.viking import ai, house
from rules.viking import movement as mv
from rules.viking import orders as od
from rules.viking.data import (
    BEAM_RATIO,
    CLASS_NAMES,
    CLASSES,
    DIW,
    DOUBLE_MOVE_GAP,
    FULL,
    HULL_LENGTH,
    LEVEL_OF,
    LEVEL_WORDS,
    LOWER_TURNS,
    OAR_TURNS,
    ORDER_NAMES,
    ORDERS,
    RAISE_TURNS,
    WIND_NAMES,
    ZERO,
)
from rules.words import agree, plural_flag

ENGINE_NAME = "viking"
MAX_VESSELS = 16
_SETUP_KEYS = {"title", "board", "turn_limit", "wind", "settings", "house_rules", "sides",
               "vessels", "notes"}
_VESSEL_KEYS = {"id", "name", "side", "class", "x", "y", "heading", "order", "flagship",
                "viking", "crew", "crew_full", "crew_minimum", "level", "oars_out", "sail",
                "crew_house"}


def _num(value, what, low, high) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(f"{what} must be a number from {low} to {high}")
    return float(value)


def _int(value, what, low, high) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}")
    return value


def _text(value, what) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 80:
        raise ValueError(f"{what} must be a short text")
    return value.strip()


def validate_setup(setup: dict) -> dict:
    """``setup`` checked and normalised (see the module docstring); ``ValueError`` with the
    reason. Unknown keys, two sides or more than two, vessels off the board, a side without
    a vessel or with more than one flagship, crews that do not fit are all refused."""
    if not isinstance(setup, dict):
        raise ValueError("a setup is a JSON object")
    unknown = sorted(set(setup) - _SETUP_KEYS)
    if unknown:
        raise ValueError(f"unknown setup key {unknown[0]!r}")
    board = setup.get("board") or {}
    if not isinstance(board, dict):
        raise ValueError("board is {w, h} in inches")
    w = _num(board.get("w", 72), "the board's width", 24, 240)
    h = _num(board.get("h", 48), "the board's depth", 24, 240)
    wind_in = setup.get("wind") or {}
    if not isinstance(wind_in, dict):
        raise ValueError("wind is {from, speed}")
    wind = {"from": None if wind_in.get("from") is None else _num(
        wind_in["from"], "the wind's direction", 0, 360) % 360.0,
        "speed": None if wind_in.get("speed") is None else _int(
            wind_in["speed"], "the wind's speed", 0, 3)}
    try:
        settings = resolve(setup.get("settings") or {})
    except SettingError as exc:
        raise ValueError(str(exc)) from None
    rules = house.normalise(setup.get("house_rules"))
    if rules["wind_dice"] is None and None in wind.values():
        raise ValueError("the source's set-up wind dice are in an earlier instalment: give "
                         "the wind's direction and speed, or play with the house rule for "
                         "the wind dice")
    sides_in = setup.get("sides")
    if not isinstance(sides_in, list) or len(sides_in) != 2:
        raise ValueError("a Viking sea fight has two sides")
    sides = []
    for i, sd in enumerate(sides_in, 1):
        if not isinstance(sd, dict):
            raise ValueError(f"side {i} is an object")
        sid = _text(sd.get("id"), f"side {i}'s id")
        commander = sd.get("commander") or f"side:{sid}"
        if not isinstance(commander, str) or not commander.startswith(("pc:", "side:")):
            raise ValueError(f"side {sid}'s commander is pc:<id> or side:<id>")
        base = sd.get("baseline", "south" if i == 1 else "north")
        if base not in ("south", "north"):
            raise ValueError(f"side {sid}'s baseline is south or north")
        sides.append({"id": sid, "name": _text(sd.get("name", sid), f"side {sid}'s name"),
                      "plural": plural_flag(sd, f"side {sid}"), "commander": commander,
                      "baseline": base})
    if sides[0]["id"] == sides[1]["id"] or sides[0]["commander"] == sides[1]["commander"]:
        raise ValueError("the two sides need their own ids and commanders")
    vessels_in = setup.get("vessels")
    if not isinstance(vessels_in, list) or not 2 <= len(vessels_in) <= MAX_VESSELS:
        raise ValueError(f"a game has 2 to {MAX_VESSELS} vessels")
    vessels, seen = [], set()
    side_ids = [s["id"] for s in sides]
    for i, vin in enumerate(vessels_in, 1):
        if not isinstance(vin, dict):
            raise ValueError(f"vessel {i} is an object")
        extra = sorted(set(vin) - _VESSEL_KEYS)
        if extra:
            raise ValueError(f"vessel {i}: unknown key {extra[0]!r}")
        vid = _text(vin.get("id"), f"vessel {i}'s id")
        if vid in seen:
            raise ValueError(f"two vessels are called {vid!r}")
        seen.add(vid)
        cls = vin.get("class")
        if cls not in CLASSES:
            raise ValueError(f"vessel {vid}: class is one of {', '.join(CLASSES)}")
        if vin.get("side") not in side_ids:
            raise ValueError(f"vessel {vid}: side is one of {', '.join(side_ids)}")
        figures = "crew_full" in vin and "crew_minimum" in vin
        if rules["crew"] is None and not figures:
            raise ValueError(f"vessel {vid}: the source gives no crew figures (an earlier "
                             "instalment has them): give her crew_full and crew_minimum, or "
                             "play with the house rule for crews")
        full_default, min_default = (0, 0) if figures else \
            house.RESOLVERS["crew"][rules["crew"] or ""](cls)
        crew_full = _int(vin.get("crew_full", full_default), f"vessel {vid}'s full crew", 1, 200)
        crew_min = _int(vin.get("crew_minimum", min_default), f"vessel {vid}'s minimum crew",
                        1, crew_full)
        order = vin.get("order", "CENTER")
        if order not in ORDERS:
            raise ValueError(f"vessel {vid}: order is one of {', '.join(ORDERS)}")
        sail = vin.get("sail", "DOWN")
        if sail not in ("DOWN", "UP"):
            raise ValueError(f"vessel {vid}: sail is DOWN or UP")
        level = vin.get("level", "DIW")
        if level not in LEVEL_OF:
            raise ValueError(f"vessel {vid}: level is FULL, PACED, SLOW or DIW")
        oars = vin.get("oars_out", sail == "DOWN")
        if not isinstance(oars, bool) or (oars and sail == "UP"):
            raise ValueError(f"vessel {vid}: oars out is true or false, and not with sail up")
        vessels.append({
            "id": vid, "name": _text(vin.get("name", vid), f"vessel {vid}'s name"),
            "side": vin["side"], "class": cls,
            "x": _num(vin.get("x"), f"vessel {vid}'s x", 0, w),
            "y": _num(vin.get("y"), f"vessel {vid}'s y", 0, h),
            "heading": _num(vin.get("heading", 0), f"vessel {vid}'s heading", 0, 360) % 360.0,
            "order": order, "flagship": bool(vin.get("flagship", False)),
            "viking": bool(vin.get("viking", True)),
            "crew": _int(vin.get("crew", crew_full), f"vessel {vid}'s crew", 0, crew_full),
            "crew_full": crew_full, "crew_minimum": crew_min,
            "crew_house": not figures or bool(vin.get("crew_house")),
            "level": level,
            "oars_out": oars, "sail": sail})
    for s in side_ids:
        mine = [v for v in vessels if v["side"] == s]
        if not mine:
            raise ValueError(f"side {s} has no vessel")
        if sum(v["flagship"] for v in mine) > 1:
            raise ValueError(f"side {s} has more than one flagship")
    out = {"title": str(setup.get("title", ""))[:200], "board": {"w": w, "h": h},
           "turn_limit": _int(setup.get("turn_limit", 16), "the turn limit", 2, 40),
           "wind": wind, "settings": settings, "house_rules": rules, "sides": sides,
           "vessels": vessels}
    if "notes" in setup:
        out["notes"] = str(setup["notes"])[:2000]
    return out


def _new_vessel(v: dict) -> dict:
    length = HULL_LENGTH[v["class"]]
    return {
        "id": v["id"], "name": v["name"], "side": v["side"], "cls": v["class"],
        "x": v["x"], "y": v["y"], "heading": v["heading"], "length": length,
        "beam": length / BEAM_RATIO, "level": LEVEL_OF[v["level"]], "backward": False,
        "oars_out": v["oars_out"], "sail": v["sail"], "busy_turns": 0,
        "crew": v["crew"], "crew_full": v["crew_full"], "crew_minimum": v["crew_minimum"],
        "crew_house": v["crew_house"], "viking": v["viking"], "order": v["order"],
        "order_initial": v["order"],
        "order_changed": False, "full_speed_moves": 0, "hand_missiles_used": 0,
        "missiles": house.MISSILES, "hull": house.HULL[v["class"]],
        "hull_max": house.HULL[v["class"]], "grappled": [], "ram": 0, "struck": False,
        "sunk": False, "captured_by": None, "last_level": LEVEL_OF[v["level"]],
        "last_heading": v["heading"], "aground": False,
    }


def _initial_state(setup: dict, source: RandomSource, log: EventLog) -> State:
    wind = dict(setup["wind"])
    diced = []
    dice = house.RESOLVERS["wind_dice"].get(setup["house_rules"]["wind_dice"] or "")
    for key, what in (("from", "direction"), ("speed", "speed")):
        if wind[key] is None and dice is not None:  # validate_setup: given or diced
            wind[key] = dice(source, what)
            diced.append(what)
    st: State = {
        "engine": ENGINE_NAME, "title": setup["title"], "board": dict(setup["board"]),
        "turn": 0, "turn_limit": setup["turn_limit"], "settings": dict(setup["settings"]),
        "house_rules": dict(setup["house_rules"]), "wind": wind, "wind_house": bool(diced),
        "doubled": False,
        "side_ids": [s["id"] for s in setup["sides"]],
        "sides": {s["id"]: {**s, "flagship": next(
            (v["id"] for v in setup["vessels"] if v["side"] == s["id"] and v["flagship"]),
            None), "engaged": False} for s in setup["sides"]},
        "vessel_ids": [v["id"] for v in setup["vessels"]],
        "vessels": {v["id"]: _new_vessel(v) for v in setup["vessels"]},
        "phase": "wind", "wind_checks": {}, "orders": {}, "awaiting": [], "result": None,
        "harm": {s["id"]: 0 for s in setup["sides"]},
    }
    sides = "; ".join(
        f"{st['sides'][s]['name']}: " + ", ".join(
            f"{v['name']} ({CLASS_NAMES[v['cls']]}, {ORDER_NAMES[v['order']]})"
            for v in map(st["vessels"].get, st["vessel_ids"]) if v["side"] == s)
        for s in st["side_ids"])
    log("game.start", f"{st['title'] or 'A Viking sea fight'}. {sides}. The wind: "
        f"{describe_wind(wind)}" + (f" (its {' and '.join(diced)} diced, {house.MARK})"
                                    if diced else "") + ".",
        {"wind": dict(wind), "diced": diced, "house_rule": bool(diced)})
    on = house_rules_used(st)
    off = undefined_phases(st)
    if on:
        log("game.rules", f"Played with house rules for {', '.join(on)}: "
            f"{house.MARK}.", {"house_rules": on, "house_rule": True})
    if off:
        log("game.rules", f"Not defined in the source, so not played: {', '.join(off)}. "
            "The game ends at its turn limit" + (" unresolved." if len(off) == len(
                house.PHASES) else "."), {"undefined": off})
    return st


def house_rules_used(st: State) -> list[str]:
    """The names of the house rules this game plays with: its phases', then its set-up's
    (the wind dice, the crew figures of a vessel given none)."""
    out = [house.PHASE_NAMES[p] for p in house.PHASES if st["house_rules"][p]]
    if st["house_rules"]["wind_dice"]:
        out.append(house.RULE_NAMES["wind_dice"])
    if any(v["crew_house"] for v in st["vessels"].values()):
        out.append(house.RULE_NAMES["crew"])
    return out


def undefined_phases(st: State) -> list[str]:
    """The names of the phases this game plays without a resolver (not defined in the
    source, none chosen)."""
    return [house.PHASE_NAMES[p] for p in house.PHASES if not st["house_rules"][p]]


def describe_wind(wind: dict) -> str:
    """The wind in words: its speed and the point it blows from."""
    if wind["speed"] == ZERO:
        return "no wind"
    points = ("north", "north-east", "east", "south-east", "south", "south-west", "west",
              "north-west")
    return f"{WIND_NAMES[wind['speed']]} from the {points[round(wind['from'] / 45) % 8]}"


def _fighting(st: State, side: str | None = None) -> list[dict]:
    return [st["vessels"][i] for i in st["vessel_ids"] if house.afloat(st["vessels"][i])
            and (side is None or st["vessels"][i]["side"] == side)]


def _commander(st: State, side: str) -> str:
    return str(st["sides"][side]["commander"])


def _gap(st: State) -> float:
    a, b = st["side_ids"]
    return min((hypot(u["x"] - w["x"], u["y"] - w["y"]) for u in _fighting(st, a)
                for w in _fighting(st, b)), default=0.0)


def _begin_turn(st: State, log: EventLog) -> None:
    st["turn"] += 1
    st["phase"], st["wind_checks"], st["orders"], st["awaiting"] = "wind", {}, {}, []
    log("turn.begin", f"Turn {st['turn']} of {st['turn_limit']}. The wind: "
        f"{describe_wind(st['wind'])}.", {"turn": st["turn"]})


def _wind_phase(st: State, source: RandomSource, log: EventLog) -> None:
    """The wind re-dice checks (V-L139, A9): each side that asked rolls a d10; 9-10 dices
    the wind's speed again, on the set-up wind dice of the house rule (the source's are in
    an earlier instalment: without the house rule the wind stays as it is)."""
    dice = house.RESOLVERS["wind_dice"].get(st["house_rules"]["wind_dice"] or "")
    for side in st["side_ids"]:
        if st["wind_checks"].get(side) != "redice":
            continue
        die = roll(source, 1, 10, f"wind check {side}")[0]
        asks = f"{st['sides'][side]['name']} {agree(st['sides'][side], 'asks', 'ask')}"
        if die >= 9 and dice is not None:
            st["wind"]["speed"], st["wind_house"] = int(dice(source, "speed")), True
            log("wind.redice", f"{asks} for the wind: d10 {die}, "
                f"the wind is diced again ({house.MARK}): "
                f"{describe_wind(st['wind'])}.", {"side": side, "die": die,
                                                  "wind": dict(st["wind"]),
                                                  "house_rule": True})
        elif die >= 9:
            log("wind.redice", f"{asks} for the wind: d10 {die}, "
                "the wind is to be diced again, but the set-up wind dice are not in the "
                "source: it stays as it is.", {"side": side, "die": die})
        else:
            log("wind.redice", f"{asks} for the wind: d10 {die}, "
                "no change.", {"side": side, "die": die})
    st["phase"] = "orders"
    st["doubled"] = _gap(st) >= DOUBLE_MOVE_GAP
    if st["doubled"]:
        log("move.doubled", f"The sides are {_gap(st):.0f} in apart: every move may be "
            "doubled this turn.", {"gap": round(_gap(st), 1)})
    for v in _fighting(st):
        if od.mode(v) == "busy":
            st["orders"][v["id"]] = "auto"
        else:
            st["awaiting"].append(v["id"])


def _resolve_turn(st: State, source: RandomSource, log: EventLog) -> None:
    if st["awaiting"]:
        words = "; ".join(f"{st['vessels'][i]['name']}: "
                          f"{od.describe(st['orders'][i], st['vessels'][i])}"
                          for i in st["vessel_ids"] if i in st["orders"]
                          and i in st["awaiting"])
        log("orders.revealed", f"The orders are revealed. {words}.",
            {"orders": {i: st["orders"][i] for i in st["awaiting"]}})
    plans = {i: od.parse(k) for i, k in st["orders"].items()}
    for i in st["vessel_ids"]:  # phase 1: change orders
        v, p = st["vessels"][i], plans.get(i)
        if p and p.change:
            v["order"], v["order_changed"] = p.change, True
            log("order.change", f"{v['name']} changes her order to {ORDER_NAMES[p.change]}.",
                {"vessel": i, "order": p.change})
    _movement(st, plans, source, log)
    contacts = st["contacts"]
    for c in contacts:  # "engaged" (A6): the flagship has touched an enemy
        for vid in (c["a"], c["b"]):
            side = st["sides"][st["vessels"][vid]["side"]]
            if side["flagship"] == vid:
                side["engaged"] = True
    vessels = st["vessels"]
    before = {i: (v["crew"], v["hull"]) for i, v in vessels.items()}
    rules = st["house_rules"]
    if rules["impact"]:
        house.RESOLVERS["impact"][rules["impact"]](vessels, contacts, source, log)
    if rules["missiles"]:
        house.RESOLVERS["missiles"][rules["missiles"]](
            vessels, lambda vid: [e["id"] for e in _fighting(st) if
                                  e["side"] != vessels[vid]["side"]],
            lambda a, b: hypot(vessels[a]["x"] - vessels[b]["x"],
                               vessels[a]["y"] - vessels[b]["y"]), source, log)
    if rules["melee"]:
        house.RESOLVERS["melee"][rules["melee"]](vessels, contacts, source, log)
    if rules["fitness"]:
        house.RESOLVERS["fitness"][rules["fitness"]](vessels, source, log)
    if rules["break_off"]:
        wants = {i for i in st["vessel_ids"] if i in plans and plans[i].action == "break"
                 and vessels[i]["grappled"] and house.afloat(vessels[i])}
        house.RESOLVERS["break_off"][rules["break_off"]](vessels, wants, source, log)
    off = undefined_phases(st)
    if off:
        log("phases.undefined", f"Not defined in the source, so not played this turn: "
            f"{', '.join(off)}.", {"undefined": off})
    for i, v in vessels.items():
        lost = before[i][0] - v["crew"] + before[i][1] - v["hull"]
        st["harm"][_other(st, v["side"])] += lost
    for side in st["side_ids"]:
        flag = st["sides"][side]["flagship"]
        if flag and (vessels[flag]["grappled"] or not house.afloat(vessels[flag])):
            st["sides"][side]["engaged"] = True
    del st["contacts"]
    _end_check(st, log)


def _other(st: State, side: str) -> str:
    a, b = st["side_ids"]
    return b if side == a else a


def _movement(st: State, plans: dict[str, od.Plan], source: RandomSource, log: EventLog) -> None:
    """Phase 2: every vessel's move at once (A2), then each one's record: speed, way,
    handling turns, full-speed moves (V-L17)."""
    moves = []
    for i in st["vessel_ids"]:
        v = st["vessels"][i]
        if not house.afloat(v):
            continue
        moves.append(od.move_shape(st, v, plans.get(i, od.Plan(None, "drift"))))
    enemies = {frozenset((m["id"], n["id"])) for m in moves for n in moves
               if st["vessels"][m["id"]]["side"] < st["vessels"][n["id"]]["side"]}
    ends, contacts = mv.simulate(moves, enemies, st["board"]["w"], st["board"]["h"])
    stopped = {c["a"] for c in contacts} | {c["b"] for c in contacts}
    words = []
    for m in moves:
        v = st["vessels"][m["id"]]
        p = plans.get(v["id"], od.Plan(None, "drift"))
        moved = hypot(ends[v["id"]]["x"] - v["x"], ends[v["id"]]["y"] - v["y"])
        v.update(ends[v["id"]])
        v["level"] = m["level"]
        if p.action == "move":
            v["backward"] = p.backward
            if p.level == FULL and not p.backward:
                v["full_speed_moves"] += 1
        elif v["level"] == DIW:
            v["backward"] = False
        _handling(st, v, p, log)
        if v["id"] in stopped:
            v["level"], v["backward"] = DIW, False
        v["last_level"], v["last_heading"] = v["level"], v["heading"]
        words.append(f"{v['name']} {moved:.1f} in")
    log("movement", "The vessels move: " + ", ".join(words) + ".",
        {"positions": {i: {k: round(e[k], 2) for k in ("x", "y", "heading")}
                       for i, e in ends.items()}})
    for c in contacts:
        a, b = st["vessels"][c["a"]], st["vessels"][c["b"]]
        log("contact", f"{a['name']} and {b['name']} meet ({a['name']}'s {c['a_point']}, "
            f"{b['name']}'s {c['b_point']}; {LEVEL_WORDS[c['a_level']]} and "
            f"{LEVEL_WORDS[c['b_level']]}).", dict(c))
    st["contacts"] = contacts


def _handling(st: State, v: dict, p: od.Plan, log: EventLog) -> None:
    """Sail and oar handling (table 2.5, V-L159-L163, A8): raising takes 2 turns (Vikings)
    or 3, lowering 1 or 2, the oars one complete turn; the vessel slows meanwhile."""
    if p.action == "oars":
        v["oars_out"] = not v["oars_out"]
        log("oars", f"{v['name']} {'sets out' if v['oars_out'] else 'ships'} her oars "
            f"({OAR_TURNS} turn).", {"vessel": v["id"], "oars_out": v["oars_out"]})
    elif p.action in ("raise", "lower"):
        turns = (RAISE_TURNS if p.action == "raise" else LOWER_TURNS)[v["viking"]]
        v["sail"], v["busy_turns"] = ("RAISING" if p.action == "raise" else "LOWERING"), turns
        log("sail", f"{v['name']} begins to {p.action} her sail ({turns} turn"
            f"{'s' if turns > 1 else ''}).", {"vessel": v["id"], "sail": v["sail"]})
    if v["sail"] in ("RAISING", "LOWERING"):
        v["busy_turns"] -= 1
        if v["busy_turns"] <= 0:
            v["sail"] = "UP" if v["sail"] == "RAISING" else "DOWN"
            v["busy_turns"] = 0
            log("sail", f"{v['name']}'s sail is {'up' if v['sail'] == 'UP' else 'down'}.",
                {"vessel": v["id"], "sail": v["sail"]})


def _end_check(st: State, log: EventLog) -> None:
    left = {s: _fighting(st, s) for s in st["side_ids"]}
    alive = [s for s in st["side_ids"] if left[s]]
    if len(alive) < 2:
        win = alive[0] if alive else None
        _finish(st, log, win, "fleet_taken" if win else "mutual",
                "one side has no vessel left in the fight" if win else
                "no vessel is left in the fight")
    elif st["turn"] >= st["turn_limit"]:
        if not any(st["house_rules"][p] for p in house.PHASES):
            _finish(st, log, None, "unresolved_rules_missing",
                    f"the turn limit ({st['turn_limit']}) is reached; the source does not "
                    "define the phases that would decide it")
            return
        a, b = st["side_ids"]
        ha, hb = st["harm"][a], st["harm"][b]
        win = a if ha > hb else b if hb > ha else None
        _finish(st, log, win, "turn_limit" if win else "draw",
                f"the turn limit ({st['turn_limit']}) is reached; harm done {ha} to {hb} "
                f"[{house.MARK}]")


def _finish(st: State, log: EventLog, win: str | None, result: str, why: str) -> None:
    side = st["sides"][win] if win else None
    summary = f"The fight ends: {why}. " + (
        f"{side['name']} {agree(side, 'wins', 'win')}." if side else "Nobody wins.")
    st["result"] = {"winner": win, "result": result, "summary": summary,
                    "turn": st["turn"], "harm": dict(st["harm"])}
    st["phase"], st["awaiting"] = "over", []
    log("game.end", summary, {"winner": win, "result": result})


def _run(st: State, source: RandomSource, log: EventLog) -> None:
    """Play on until a commander must decide, or the game ends."""
    while st["result"] is None:
        if st["phase"] == "wind":
            if len(st["wind_checks"]) < len(st["side_ids"]):
                return
            _wind_phase(st, source, log)
        if st["phase"] == "orders":
            if any(i not in st["orders"] for i in st["awaiting"]):
                return
            _resolve_turn(st, source, log)
            if st["result"] is None:
                _begin_turn(st, log)


def _decision(st: State, vid: str) -> Decision:
    v = st["vessels"][vid]
    keys = od.options(st, v)
    opts = tuple(Option(k, (words := od.describe(k, v))[:1].upper() + words[1:], od.group(k))
                 for k in od.options(st, v, every_inch=True))
    return Decision(_commander(st, v["side"]), f"orders:{vid}",
                    f"Orders for {v['name']} this turn", opts, ai.choose(st, vid, keys),
                    od.fields(st, v))


WIND_OPTIONS = (Option("keep", "Leave the wind as it is"),
                Option("redice", "Ask for the wind's speed to be diced again (9-10 on a d10)"))


class VikingEngine:
    """The ``viking`` encounter engine (:class:`rules.engine.Engine`); see the module
    docstring."""

    name = ENGINE_NAME
    title = "Viking sea fight"
    wargame = True
    """Offered by the campaign's "New wargame" page (``combat.wargames``)."""
    round_word = "Turn"
    """What the log calls a round: the game's turn."""

    def validate_setup(self, setup: dict) -> dict:
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        events: list[Event] = []
        log = EventLog(events)
        st = _initial_state(validate_setup(setup), source, log)
        _begin_turn(st, log)
        return st, events

    def participants(self, state: State) -> dict[str, str]:
        return {state["sides"][s]["commander"]: state["sides"][s]["name"]
                for s in state["side_ids"]}

    def pending(self, state: State) -> list[Decision]:
        """The wind check of each side that has not given it; then, for each commander, the
        orders of his first vessel still without them."""
        if state["result"] is not None:
            return []
        if state["phase"] == "wind":
            return [Decision(_commander(state, s), f"wind:{s}",
                             f"The wind is {describe_wind(state['wind'])}. Ask for it to be "
                             "diced again?",
                             WIND_OPTIONS, ai.wind_choice(state, s))
                    for s in state["side_ids"] if s not in state["wind_checks"]]
        out, seen = [], set()
        for vid in state["awaiting"]:
            who = _commander(state, state["vessels"][vid]["side"])
            if vid in state["orders"] or who in seen:
                continue
            seen.add(who)
            out.append(_decision(state, vid))
        return out

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """``actor``'s ``choice`` for the decision :meth:`pending` asks of him; the turn is
        played once every choice is in. ``IllegalAction`` with the reason, state unchanged."""
        if state["result"] is not None:
            raise IllegalAction(f"the game is over: {state['result']['summary']}")
        if not isinstance(choice, str):
            raise IllegalAction("a choice is text")
        st = copy.deepcopy(state)
        events: list[Event] = []
        log = EventLog(events)
        if st["phase"] == "wind":
            mine = [s for s in st["side_ids"] if _commander(st, s) == actor
                    and s not in st["wind_checks"]]
            if not mine:
                raise IllegalAction(f"{actor} has nothing to decide now")
            if choice not in ("keep", "redice"):
                raise IllegalAction("the wind check is keep or redice")
            st["wind_checks"][mine[0]] = choice
        else:
            waiting = [i for i in st["awaiting"] if i not in st["orders"]
                       and _commander(st, st["vessels"][i]["side"]) == actor]
            if not waiting:
                raise IllegalAction(f"{actor} has no orders to give now")
            v = st["vessels"][waiting[0]]
            if choice.lstrip().startswith("{"):  # a move typed in (od.fields)
                choice = od.typed_key(st, v, choice)
            try:
                od.check(st, v, choice)
            except od.OrderError as exc:
                raise IllegalAction(str(exc)) from None
            st["orders"][v["id"]] = choice
            log("orders.given", f"Orders for {v['name']}: {od.describe(choice, v)}.",
                {"vessel": v["id"], "order": choice}, visible={actor})
            side = st["sides"][v["side"]]
            log("orders.in", f"{side['name']} {agree(side, 'has', 'have')} given {v['name']}'s "
                "orders.", {"vessel": v["id"]})
        _run(st, source, log)
        return st, events

    def default_choice(self, state: State, decision: Decision) -> str:
        """The default policy's choice (:mod:`rules.viking.ai`), which :meth:`pending` has
        already put in the decision's ``default``."""
        return decision.default

    def random_choice(self, state: State, decision: Decision, rng: random.Random) -> str:
        """A legal choice picked at random (the baseline the default policy is measured
        against)."""
        return rng.choice(decision.options).key

    def outcome(self, state: State) -> Outcome | None:
        r = state["result"]
        if r is None:
            return None
        return Outcome(r["winner"], r["result"], r["summary"],
                       {"rounds": r["turn"], "harm": dict(r["harm"])})

    def view(self, state: State, participant: str) -> dict[str, Any]:
        """Everything on the table for everyone; of this turn's orders, a commander sees his
        own and only whether the others' are in (the GM sees them all)."""
        return self.joint_view(state, [participant])

    def joint_view(self, state: State, participants: list[str]) -> dict[str, Any]:
        """:meth:`view` for one person who plays every one of ``participants`` (a player
        whose two characters command two sides): the orders of each of their sides;
        ``you`` is the first of them."""
        v = copy.deepcopy(state)
        mine = [s for s in state["side_ids"] if GM in participants
                or state["sides"][s]["commander"] in participants]
        v["orders"] = {i: (k if state["vessels"][i]["side"] in mine else "given")
                       for i, k in state["orders"].items() if i in state["awaiting"]}
        v["you"], v["my_sides"] = participants[0], mine
        v["house_rule_phases"] = [house.PHASE_NAMES[p] for p in house.PHASES
                                  if state["house_rules"][p]]
        v["house_rules_used"] = house_rules_used(state)
        v["undefined_phases"] = undefined_phases(state)
        v["house_mark"] = house.MARK
        return v

    def scenarios(self) -> dict[str, Scenario]:
        """Set-ups of two small fleets, from ``rules/viking/scenarios/*.json``."""
        return load_scenarios("rules.viking", "scenarios")


ENGINE = register(VikingEngine())
