"""The phases the source names but does not define, as **house rules** (not in the source).

The movement instalment's sequence of play (V-L35-L43) has seven phases; it defines only
the first two and promises "Impact and Melees" for the next issue (V-L165). So that a game
can be played to its end (errata VK-1), each missing phase is a resolver here, kept in a
small registry by phase and name (:data:`RESOLVERS`) and chosen in the setup's
``"house_rules"`` (``{phase: name or null}``; default every phase's ``"house"`` resolver).
A table with the real rules adds its resolver under another name. Every log line a house
rule writes carries :data:`MARK`.

State the resolvers read and change (a vessel of ``rules.viking.engine``): ``crew``,
``crew_full``, ``crew_minimum``, ``hull`` (hull points; ``hull_max``), ``missiles`` (hand
missile volleys left), ``hand_missiles_used``, ``grappled`` (ids), ``ram`` (the bonus a bow-on
ram gives its first melee), ``struck``, ``sunk``, ``captured_by``. All dice are d10 or d6
through the injected random source.

The set-up needs two things the instalment names and does not give, and they are house
rules in the same registry (errata VK-1, issue 14): ``"wind_dice"``, the dice for the
wind's direction and speed "diced for during game set up" (V-L139; the re-dice check on 9-10
is the source's, the table it dices again on is not), and ``"crew"``, the full and minimum
crew of each class that the crew rules halve and stop by (V-L73-L75, A7). Without them a
setup gives the wind and every vessel's crew figures itself.
"""

from __future__ import annotations

from collections.abc import Callable
from math import radians, sin
from typing import Any

from rules.dice import roll
from rules.random import RandomSource
from rules.viking.data import HEAVY, LIGHT, MODERATE, ZERO

MARK = "house rule (not in the source)"
"""Written on every log line and page that uses a house rule."""

PHASES = ("impact", "missiles", "melee", "fitness", "break_off")
PHASE_NAMES = {"impact": "impact results", "missiles": "distance weapons",
               "melee": "proximity weapons (grappling and melee)",
               "fitness": "fitness to continue", "break_off": "break-offs"}
SETUP_RULES = ("wind_dice", "crew")
"""The set-up's house rules (module docstring), beside the phases' in :data:`RESOLVERS`."""
RULES = (*PHASES, *SETUP_RULES)
RULE_NAMES = {**PHASE_NAMES, "wind_dice": "the set-up wind dice", "crew": "crew figures"}

HULL = {"DRAGONSHIP": 12, "LONGSHIP": 10, "KARFI": 8, "KAUPSHIP": 10}
"""Hull points by class (house rule)."""
WEIGHT = {"DRAGONSHIP": 4, "LONGSHIP": 3, "KARFI": 2, "KAUPSHIP": 3}
"""How hard a class strikes and how well it takes a blow (house rule)."""
MISSILES = 3
"""Hand-missile volleys a vessel carries (house rule; the source counts them, V-L18)."""
MISSILE_RANGE = 6.0
"""Inches within which rocks and spears are thrown (house rule)."""

CREW = {"DRAGONSHIP": (60, 30), "LONGSHIP": (40, 20), "KARFI": (24, 12), "KAUPSHIP": (12, 6)}
"""(full, minimum) crew by class (house rule: the earlier instalment has them, A7)."""

Log = Callable[..., None]
Vessels = dict[str, dict[str, Any]]


def _d(source: RandomSource, sides: int, purpose: str) -> int:
    return roll(source, 1, sides, purpose)[0]


def _name(v: dict) -> str:
    return str(v["name"])


def wind_speed_for(die: int) -> int:
    """The wind's speed for a d10 (house rule, the digest's A9): 1 none, 2-4 light, 5-8
    moderate, 9-10 heavy."""
    return ZERO if die == 1 else LIGHT if die <= 4 else MODERATE if die <= 8 else HEAVY


def house_wind_dice(source: RandomSource, what: str) -> float:
    """The set-up wind dice (house rule): ``what`` ``"direction"``, a d8 for the eight
    points of the compass (degrees the wind comes from, 0 north, clockwise); ``"speed"``,
    a d10 on :func:`wind_speed_for` (0-3). Also the table the 9-10 re-dice check dices again
    on (V-L139)."""
    if what == "direction":
        return (roll(source, 1, 8, "wind direction")[0] - 1) * 45.0
    return wind_speed_for(roll(source, 1, 10, "wind speed")[0])


def house_crew(cls: str) -> tuple[int, int]:
    """A class's (full, minimum) crew (house rule, :data:`CREW`)."""
    return CREW[cls]


def afloat(v: dict) -> bool:
    """Still in the fight: neither sunk nor struck."""
    return not v["sunk"] and not v["struck"]


def impact_damage(level: int, striker: str, target: str, point: str, angle: float,
                  die: int) -> int:
    """Hull points a bow-on strike does (house rule): the striker's declared speed level
    (0-3) x the contact angle (a blow on the side counts by the sine of the angle between
    the headings, at least a quarter; bow to bow or on the stern, half) x the classes'
    weights (striker / target) x a d6 / 2, rounded."""
    factor = max(0.25, abs(sin(radians(angle)))) if point == "side" else 0.5
    return int(level * factor * WEIGHT[striker] / WEIGHT[target] * die / 2 + 0.5)


def house_impact(vessels: Vessels, contacts: list[dict], source: RandomSource,
                 log: Log) -> None:
    """Impact results (house rule): a vessel whose bow meets another damages it
    (:func:`impact_damage`, a d6 each); a bow-on strike at paced or faster gives the
    striker +2 on its first melee with that vessel."""
    for c in contacts:
        for me, other, lvl, my_point, their_point in (
                (c["a"], c["b"], c["a_level"], c["a_point"], c["b_point"]),
                (c["b"], c["a"], c["b_level"], c["b_point"], c["a_point"])):
            if my_point != "bow":
                continue
            s, t = vessels[me], vessels[other]
            die = _d(source, 6, f"impact {me} on {other}")
            dmg = impact_damage(lvl, s["cls"], t["cls"], their_point, c["angle"], die)
            t["hull"] = max(0, t["hull"] - dmg)
            if lvl >= 2:
                s["ram"] = 2
            log("impact", f"{_name(s)} rams {_name(t)} on the {their_point} (d6 {die}): "
                f"{dmg} hull damage, {t['hull']} of {t['hull_max']} left [{MARK}].",
                {"striker": me, "target": other, "damage": dmg, "die": die,
                 "house_rule": True})


def house_missiles(vessels: Vessels, enemies_of: Callable[[str], list[str]],
                   distance: Callable[[str, str], float], source: RandomSource,
                   log: Log) -> None:
    """Distance weapons (house rule): every vessel in the fight, not grappled, with volleys
    left and an enemy within :data:`MISSILE_RANGE` throws at the nearest (a standing
    choice): a d10 of 6 or more kills (die - 5) x its crew / 40 of the target's crew
    (rounded, at least 1). Each volley counts on the vessel's record (V-L18)."""
    for vid in sorted(vessels):
        v = vessels[vid]
        if not afloat(v) or v["grappled"] or v["missiles"] <= 0:
            continue
        near = sorted((distance(vid, e), e) for e in enemies_of(vid))
        if not near or near[0][0] > MISSILE_RANGE:
            continue
        t = vessels[near[0][1]]
        v["missiles"] -= 1
        v["hand_missiles_used"] += 1
        die = _d(source, 10, f"missiles {vid} at {t['id']}")
        kills = max(1, round((die - 5) * v["crew"] / 40)) if die >= 6 else 0
        kills = min(kills, t["crew"])
        t["crew"] -= kills
        log("missiles", f"{_name(v)} throws rocks and spears at {_name(t)} (d10 {die}): "
            + (f"{kills} of her crew fall" if kills else "no harm done")
            + f" [{MARK}].", {"vessel": vid, "target": t["id"], "die": die, "kills": kills,
                             "house_rule": True})


def house_melee(vessels: Vessels, contacts: list[dict], source: RandomSource,
                log: Log) -> None:
    """Grappling and melee (house rule). Two vessels that touched this turn and are not
    grappled throw grapnels: a d10 of 4 or more (3 with a Viking crew aboard either) binds
    them. Then every grappled pair fights: each rolls a d10 (+1 a Viking crew, + a ram's
    bonus once) and kills its crew x the roll / 50 of the other's (rounded, at least 1); a
    vessel bound to several enemies shares its crew out evenly among them."""
    for c in contacts:
        a, b = vessels[c["a"]], vessels[c["b"]]
        if not (afloat(a) and afloat(b)) or b["id"] in a["grappled"]:
            continue
        die = _d(source, 10, f"grapple {a['id']} {b['id']}")
        need = 3 if a["viking"] or b["viking"] else 4
        if die >= need:
            a["grappled"].append(b["id"])
            b["grappled"].append(a["id"])
        log("grapple", f"Grapnels fly between {_name(a)} and {_name(b)} (d10 {die}): "
            + ("they are bound together" if die >= need else "they miss")
            + f" [{MARK}].", {"a": a["id"], "b": b["id"], "die": die,
                             "grappled": die >= need, "house_rule": True})
    done: set[str] = set()
    for vid in sorted(vessels):
        v = vessels[vid]
        for oid in sorted(v["grappled"]):
            if oid in done or not (afloat(v) and afloat(vessels[oid])):
                continue
            o = vessels[oid]
            rolls = {}
            for x in (v, o):
                rolls[x["id"]] = _d(source, 10, f"melee {x['id']}") + (
                    1 if x["viking"] else 0) + x["ram"]
            losses = {}
            for x, y in ((v, o), (o, v)):
                share = x["crew"] / len(x["grappled"])
                losses[y["id"]] = min(y["crew"], max(1, round(share * rolls[x["id"]] / 50)))
            for x in (v, o):
                x["crew"] -= losses[x["id"]]
                x["ram"] = 0
            log("melee", f"Melee between {_name(v)} and {_name(o)} (totals {rolls[vid]} and "
                f"{rolls[oid]}): {_name(v)} loses {losses[vid]}, {_name(o)} loses "
                f"{losses[oid]} [{MARK}].", {"a": vid, "b": oid, "rolls": rolls,
                                              "losses": losses, "house_rule": True})
        done.add(vid)


def fitness(v: dict, die: int | None) -> str:
    """``"sunk"`` at no hull left, ``"struck"`` with under half the minimum crew or when a
    vessel under its minimum rolls 1-4 on a d10 (``die``), else ``"continue"`` (house
    rule)."""
    if v["hull"] <= 0:
        return "sunk"
    if v["crew"] * 2 < v["crew_minimum"]:
        return "struck"
    if v["crew"] < v["crew_minimum"] and die is not None and die <= 4:
        return "struck"
    return "continue"


def house_fitness(vessels: Vessels, source: RandomSource, log: Log) -> None:
    """Fitness to continue (house rule, :func:`fitness`): a vessel under its minimum crew
    rolls a d10; one that strikes is captured by the vessel grappled to it, if any, and
    the grapples on a struck or sunk vessel are let go."""
    for vid in sorted(vessels):
        v = vessels[vid]
        if not afloat(v):
            continue
        die = (_d(source, 10, f"fitness {vid}")
               if v["hull"] > 0 and v["crew_minimum"] <= v["crew"] * 2 < 2 * v["crew_minimum"]
               else None)
        verdict = fitness(v, die)
        if verdict == "continue":
            if die is not None:
                log("fitness", f"{_name(v)} is under her minimum crew and fights on (d10 "
                    f"{die}) [{MARK}].", {"vessel": vid, "die": die, "house_rule": True})
            continue
        if verdict == "sunk":
            v["sunk"] = True
            text = f"{_name(v)} is holed and sinks"
        else:
            v["struck"] = True
            by = [o for o in v["grappled"] if afloat(vessels[o])]
            v["captured_by"] = by[0] if by else None
            text = (f"{_name(v)}'s crew gives up the fight: she surrenders"
                    + (f", taken by {_name(vessels[by[0]])}" if by else "")
                    + (f" (d10 {die})" if die else ""))
        for o in v["grappled"]:
            vessels[o]["grappled"].remove(vid)
        v["grappled"] = []
        log("fitness", f"{text} [{MARK}].", {"vessel": vid, "verdict": verdict, "die": die,
                                            "house_rule": True})


def house_break_off(vessels: Vessels, wants: set[str], source: RandomSource,
                    log: Log) -> None:
    """Break-offs (house rule): a grappled vessel whose orders were to break off cuts the
    grapnels on a d10 of 6 or more (+2 if it has more crew than the vessel it is bound to;
    success for both when both want it)."""
    for vid in sorted(wants):
        v = vessels[vid]
        for oid in sorted(v["grappled"]):
            o = vessels[oid]
            if oid in wants:
                ok, die = True, 0
            else:
                die = _d(source, 10, f"break off {vid}")
                ok = die + (2 if v["crew"] > o["crew"] else 0) >= 6
            if ok:
                v["grappled"].remove(oid)
                o["grappled"].remove(vid)
            log("break_off", f"{_name(v)} tries to break away from {_name(o)}"
                + (f" (d10 {die})" if die else "") + (": she is free" if ok else ": held fast")
                + f" [{MARK}].", {"vessel": vid, "from": oid, "die": die, "free": ok,
                                 "house_rule": True})


RESOLVERS: dict[str, dict[str, Callable[..., Any]]] = {
    "impact": {"house": house_impact},
    "missiles": {"house": house_missiles},
    "melee": {"house": house_melee},
    "fitness": {"house": house_fitness},
    "break_off": {"house": house_break_off},
    "wind_dice": {"house": house_wind_dice},
    "crew": {"house": house_crew},
}
"""Phase (or set-up rule) -> resolver name -> function. A table with the missing
instalments' rules adds its own name here and names it in the setup."""


def normalise(value: object) -> dict[str, str | None]:
    """A setup's ``"house_rules"`` as ``{phase or set-up rule: resolver name or None}``
    (:data:`RULES`): ``True`` or absent is every one's ``"house"``, ``False`` none (the
    source's rules only), a dict names some (the rest ``"house"``). ``ValueError`` for an
    unknown phase or resolver."""
    if value is None or value is True:
        return {p: "house" for p in RULES}
    if value is False:
        return {p: None for p in RULES}
    if not isinstance(value, dict):
        raise ValueError("house_rules is true, false or {phase: resolver or null}")
    out: dict[str, str | None] = {p: "house" for p in RULES}
    for phase, name in value.items():
        if phase not in RESOLVERS:
            raise ValueError(f"house_rules: no phase {phase!r}; the phases are "
                             f"{', '.join(RULES)}")
        if name is not None and name not in RESOLVERS[phase]:
            raise ValueError(f"house_rules: no resolver {name!r} for {phase}")
        out[phase] = name
    return out
