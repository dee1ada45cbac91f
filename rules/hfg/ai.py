"""The default HFG commander (digest A29, errata F21), deterministic: it picks the next
order of a bound from :func:`rules.hfg.engine.order_options`.

Posture: the attacker attacks; the defender holds its ground until the attacker has lost
half of what breaks it, then counterattacks. In order, while PIPs last: rally routers (the
most valuable first); strike: contacts whose expected value over the 36 dice pairs
(:func:`expected_value`) is worth it, the best first (concentrating on the weakest enemy);
guns and shooters with no target turn to face the nearest enemy; holding, foot take the
nearest town or wood (uses terrain) and the line stays; attacking, lines advance together
(holds a line) until any of them has a target, then stand and shoot (closer than that
only brings canister on them); single elements the same, guns and Skirmishers never to
within 100p of enemy musketry's reach; then the bound ends.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from rules.engine import State
from rules.hfg.combat import Outcome, fight
from rules.hfg.data import troop_type
from rules.hfg.losses import Unit, lost_ee, original_ee
from rules.random import ScriptedSource

VALUE = {"destroyed": 1.0, "routed": 0.8, "spent": 0.5, "repulsed": 0.2, "recoil": 0.1}
"""What an outcome costs its element, in its element equivalents (A29)."""
STRIKE = 0.15
HOLD_STRIKE = 0.3


def _loss(o: Outcome, ee: int) -> float:
    return VALUE.get(o.kind, 0.0) * ee


def expected_value(st: State, attacker: dict, target: dict, how: str = "front") -> float:
    """The expected gain of ``attacker`` fighting ``target`` hand to hand (its flank if
    ``how`` names one): the enemy's loss less its own, in EE, over all 36 dice pairs."""
    from rules.hfg import engine as eng

    fa = eng._fighter(st, attacker, target, close=True)
    fb = eng._fighter(st, target, attacker, close=True)
    if how != "front":
        fb = replace(fb, flank_contact=True, contacted_in_flank=True)
    ea = 2 if attacker["grade"] == "E" else troop_type(attacker["type"]).ee
    eb = 2 if target["grade"] == "E" else troop_type(target["type"]).ee
    total = 0.0
    for da, db in product(range(1, 7), repeat=2):
        r = fight(fa, fb, ScriptedSource(rolls=[da, db]), close=True,
                  settings=st["settings"])
        total += _loss(r.outcomes[1], eb) - _loss(r.outcomes[0], ea)
    return total / 36


def posture(st: State, side: str) -> str:
    """``attack`` for the attacker; ``hold`` for the defender until the attacker's losses
    reach half its break point, then ``counterattack``."""
    if side == st["attacker"]:
        return "attack"
    foe = [Unit(e["type"], e["grade"], e["command"], e["state"])
           for e in st["elements"].values() if e["side"] == st["attacker"]]
    return "counterattack" if 4 * lost_ee(foe) >= original_ee(foe) else "hold"


def choose(st: State, options: list[tuple[str, str, int]]) -> str:
    """The key of the order to take next among ``options`` (key, label, PIPs)."""
    from rules.hfg import engine as eng

    side = st["phasing"]
    stance = posture(st, side)
    keys = [k for k, _, _ in options]
    els = st["elements"]
    rallies = [k for k in keys if k.startswith("rally:")]
    if rallies:
        return max(rallies, key=lambda k: (troop_type(els[k.split(":")[1]]["type"]).ee, k))
    strikes = []
    for k in keys:
        if k.startswith(("attack:", "flank:")):
            parts = k.split(":")
            a, t = els[parts[1]], els[parts[2]]
            mounted = troop_type(a["type"]).category == "mounted" and not a["dismounted"]
            if stance == "hold" and not mounted:
                continue
            ev = expected_value(st, a, t, "front" if parts[0] == "attack" else parts[3])
            if ev > (HOLD_STRIKE if stance == "hold" else STRIKE):
                strikes.append((ev, k))
    if strikes:
        return max(strikes)[1]
    if stance == "hold":
        occupy = [k for k in keys if k.startswith("occupy:")]
        if occupy:
            return occupy[0]
    else:
        for k in keys:
            if k.startswith("line:") and not any(
                    eng._targets(st, m) for m in eng._line_of(st, els[k.split(":")[1]])):
                return k
    in_lines = {m for k in keys if k.startswith("line:")
                for m in (x["id"] for x in eng._line_of(st, els[k.split(":")[1]]))}
    for k in keys:
        if k.startswith("face:"):
            e, o = els[k.split(":")[1]], els[k.split(":")[2]]
            reach = eng.shooting_range(e["type"], year=st["year"], dismounted=e["dismounted"])
            nearest = _nearest(st, e)
            if e["id"] in in_lines or nearest is None or nearest["id"] != o["id"] or \
                    eng._targets(st, e):
                continue
            if (reach and eng._gap(st, e, o) <= reach) or (
                    stance != "hold" and e["type"] not in ("HQ", "CP", "NP")
                    and not eng.in_corridor(eng._rect(e), eng._rect(o))):
                return k
    if stance != "hold":
        for k in keys:
            if k.startswith("advance:"):
                e = els[k.split(":")[1]]
                if (not eng._targets(st, e) and e["id"] not in in_lines and _safe(st, e)
                        and e["type"] not in ("HQ", "CP", "NP", "LAA")):
                    return k
    return "end"


def _safe(st: State, e: dict) -> bool:
    """Whether advancing keeps guns and Skirmishers more than 100p beyond the reach of every
    enemy foot element (A29: they do not walk into musketry); other troops always may."""
    from rules.hfg import engine as eng

    if troop_type(e["type"]).category != "artillery" and e["type"] != "SK":
        return True
    end = eng._rect(e).moved(eng._straight(st, e, 1))
    for o in st["elements"].values():
        if o["side"] == e["side"] or o["state"] != "ok":
            continue
        reach = eng.shooting_range(o["type"], year=st["year"], dismounted=o["dismounted"])
        if reach and troop_type(o["type"]).category == "foot" and \
                eng.segment_gap(*eng._rect(o).front(), end.corners()) <= reach + 100:
            return False
    return True


def _nearest(st: State, e: dict) -> dict | None:
    """The enemy element nearest ``e``'s front (ties by the battle's order)."""
    foes = [o for o in st["elements"].values() if o["side"] != e["side"]
            and o["state"] in ("ok", "routing")]
    if not foes:
        return None
    return min(foes, key=lambda o: ((o["x"] - e["x"]) ** 2 + (o["y"] - e["y"]) ** 2,
                                    st["order"].index(o["id"])))
