"""The default HFG commander (digest A29, errata F21), deterministic: it picks the next
order of a bound from :func:`rules.hfg.engine.order_options`.

Posture (:func:`posture`): the attacker attacks; the defender holds its ground until the
attacker has lost a quarter of its army, then counterattacks. In order, while PIPs last:

1. rally routers (the most valuable first); bring on a delayed command's elements as soon
   as they may arrive;
2. strike: contacts, and assaults on a town or strong point the enemy holds (against its
   garrison), whose expected value over the 36 dice pairs (:func:`expected_value`) is worth
   it, the best first (so it concentrates on the weakest enemy); a holding army's foot does
   not leave its line to strike;
3. holding, foot take the nearest town or wood (uses terrain);
4. the move that most improves its elements' standing (:func:`standing`): an element is
   worth the fire it gives from where it would stand less the fire it would take there
   (:func:`exchange`, one exchange's expected losses in EE, with the close combat a press
   forward brings), so shooters stand off where they outrange their target and keep out of
   the guns' arc; a general is worth the troops within his easy command distance less
   three times the fire on him (keeps the general safe); attacking, each pace nearer the
   enemy (measured 400p ahead, so turning to face counts) is worth a little, more and more
   as the time limit nears. Holding, only generals move and the rest only turn to face (the
   line stays). A line's move counts all of it and a little more (holds a line).

Then the bound ends. Distances in paces, values in element equivalents (EE).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import product

from rules.engine import State
from rules.hfg.combat import Fighter, Outcome, fight
from rules.hfg.command import easy_command_distance
from rules.hfg.data import troop_type
from rules.hfg.geometry import Rect
from rules.hfg.losses import Unit, lost_ee, original_ee
from rules.random import ScriptedSource

VALUE = {"destroyed": 1.0, "routed": 0.8, "spent": 0.5, "repulsed": 0.2, "recoil": 0.1}
"""What an outcome costs its element, in its element equivalents (A29)."""
STRIKE = 0.15
"""The least expected gain (EE) for which an attacking element goes into contact."""
HOLD_STRIKE = 0.3
"""The same for a holding army's mounted troops."""
GENERAL_CARE = 3.0
"""How many times a general weighs the fire on him."""
COMMANDED = 0.15
"""What a general is worth for each element of his within his easy command distance."""
PROGRESS = 0.05
"""What an attacking element gains for each 1,000p nearer the nearest enemy in the first
bound; it grows with the square of the time gone, to nine times this in the last bound
(an attack that has not won by then loses on time)."""
LINE = 0.05
"""What keeping a line together is worth, for each element of it."""
GAIN = 0.02
"""The least improvement worth an order."""
STAFF = ("HQ", "CP", "NP")
LOOK = 400
"""How far ahead of an element its nearness to the enemy is measured (so facing counts)."""
VERBS = ("rally", "arrive", "attack", "flank", "assault", "occupy", "advance", "retire",
         "face", "line")
"""The orders :func:`choose` may take, besides ``end``: it passes over every other (march,
road, ford, lead, swap), so the Monte Carlo's play does not list them."""


def _loss(o: Outcome, ee: int) -> float:
    return VALUE.get(o.kind, 0.0) * ee


def _ee(e: dict) -> int:
    return 2 if e["grade"] == "E" else troop_type(e["type"]).ee


@lru_cache(maxsize=16384)
def _mean_losses(fa: Fighter, fb: Fighter, ea: int, eb: int, close: bool, back: bool,
                 distance: int, phasing: str, settings: tuple) -> tuple[float, float, float]:
    """The mean losses in EE of ``fa`` and ``fb`` (worth ``ea`` and ``eb``) over the 36 dice
    pairs of one combat (:func:`rules.hfg.combat.fight` with the same arguments), and the
    chance that ``fa`` presses forward."""
    la = lb = press = 0.0
    for da, db in product(range(1, 7), repeat=2):
        rolls = [da, db] if phasing == "a" else [db, da]
        r = fight(fa, fb, ScriptedSource(rolls=rolls), close=close, phasing=phasing,
                  distance=distance, b_shoots_back=back, settings=dict(settings))
        la += _loss(r.outcomes[0], ea)
        lb += _loss(r.outcomes[1], eb)
        press += r.outcomes[0].kind == "press_forward"
    return la / 36, lb / 36, press / 36


def expected_value(st: State, attacker: dict, target: dict, how: str = "front") -> float:
    """The expected gain of ``attacker`` fighting ``target`` hand to hand in its own bound
    (``target``'s flank if ``how`` names one): the enemy's loss less its own, in EE, over
    all 36 dice pairs."""
    from rules.hfg import engine as eng

    fa = eng._fighter(st, attacker, target, close=True)
    fb = eng._fighter(st, target, attacker, close=True)
    if how != "front":
        fb = replace(fb, flank_contact=True, contacted_in_flank=True)
    la, lb, _ = _mean_losses(fa, fb, _ee(attacker), _ee(target), True, True, 0, "a",
                             tuple(sorted(st["settings"].items())))
    return lb - la


def exchange(st: State, shooter: dict, target: dict, *, back: bool) -> tuple[float, float]:
    """The expected losses in EE of ``shooter`` and ``target`` when ``shooter`` shoots at
    ``target`` this bound (``back``: the target answers), as the engine resolves it; a
    phasing shooter within 200p straight ahead of its target also counts the close combat
    its pressing forward would bring (L298-299, L323), at its chance."""
    from rules.hfg import engine as eng

    fa = eng._fighter(st, shooter, target, close=False)
    fb = eng._fighter(st, target, shooter, close=False)
    gap = eng._gap(st, shooter, target)
    # only the 400p line (smoothbore canister, Rifles' long shots) matters to the outcome
    phasing = "a" if shooter["side"] == st["phasing"] else "b"
    la, lb, press = _mean_losses(fa, fb, _ee(shooter), _ee(target), False, back,
                                 400 if gap <= 400 else 401, phasing,
                                 tuple(sorted(st["settings"].items())))
    if press and gap <= 200 + eng.EPS and eng.in_corridor(eng._rect(shooter), eng._rect(target),
                                                          spread=0):
        gain = expected_value(st, shooter, target)
        la, lb = la + press * max(-gain, 0.0), lb + press * max(gain, 0.0)
    return la, lb


@lru_cache(maxsize=1024)
def _long_range(code: str, year: int, grade: str | None, dismounted: bool, settings: tuple
                ) -> int | None:
    """:func:`rules.hfg.shooting.shooting_range` at its longest (a long target), the
    settings as sorted items."""
    from rules.hfg import engine as eng

    return eng.shooting_range(code, year=year, grade=grade, dismounted=dismounted,
                              long_target=True, settings=dict(settings))


def posture(st: State, side: str) -> str:
    """``attack`` for the attacker; ``hold`` for the defender until the attacker's losses
    reach a quarter of its army, then ``counterattack``."""
    if side == st["attacker"]:
        return "attack"
    foe = [Unit(e["type"], e["grade"], e["command"], e["state"])
           for e in st["elements"].values() if e["side"] == st["attacker"]]
    return "counterattack" if 4 * lost_ee(foe) >= original_ee(foe) else "hold"


def primaries(st: State, side: str) -> dict[str, tuple[float, dict] | None]:
    """Each ``side`` element's primary target now (its distance key and the element, or
    None), as :func:`rules.hfg.engine._targets` orders them."""
    from rules.hfg import engine as eng

    return {o["id"]: (ts[0] if (ts := eng._targets(st, o)) else None)
            for o in eng._live(st, side)}


def standing(st: State, e: dict, stance: str,
             base: dict[str, tuple[float, dict] | None] | None = None) -> float:
    """What ``e`` is worth where it stands in ``st`` this bound, in EE (see the module
    docstring): the fire it gives less the fire it takes; for a general, his troops in
    command less three times the fire on him; otherwise, attacking or counterattacking,
    less :data:`PROGRESS` (times the urgency) for each 1,000p from the nearest enemy,
    measured :data:`LOOK` ahead of it. ``base``: the enemy's :func:`primaries` before
    ``e`` moved there, which spares asking an enemy whose present target is nearer than
    ``e`` and still in the clear (the answer is the same)."""
    from rules.hfg import engine as eng

    if e["state"] != "ok":
        return 0.0
    mine = eng._targets(st, e)
    worth = 0.0
    aimed = mine[0][1] if mine else None
    if aimed is not None:
        back = any(o["id"] == e["id"] for _, o in eng._targets(st, aimed))
        lost, dealt = exchange(st, e, aimed, back=back)
        worth += dealt - lost
    ex, ey = e["x"], e["y"]
    here = eng._rect(e)
    fx, fy = here.forward()
    ahead = (ex + LOOK * fx, ey + LOOK * fy)
    nearest = None
    settings = tuple(sorted(st["settings"].items()))
    for o in eng._live(st, eng._enemy(st, e["side"])):
        d2 = (o["x"] - ex) ** 2 + (o["y"] - ey) ** 2
        a2 = (o["x"] - ahead[0]) ** 2 + (o["y"] - ahead[1]) ** 2
        if nearest is None or a2 < nearest:
            nearest = a2
        if o is aimed or o["state"] != "ok":
            continue
        reach = _long_range(o["type"], st["year"], o["grade"], o["dismounted"], settings)
        if not reach or d2 > (reach + 900) ** 2 or not (
                troop_type(o["type"]).any_edge or eng._in(st, o, "bua")
                or eng.in_corridor(eng._rect(o), here)):
            continue
        cur = base.get(o["id"]) if base is not None else None
        if cur is not None and cur[1]["id"] != e["id"]:
            cx, cy = here.center()
            if (cx - o["x"]) ** 2 + (cy - o["y"]) ** 2 > cur[0] and eng.segment_gap(
                    (o["x"], o["y"]), eng._rect(cur[1]).center(), here.corners()) > 0:
                continue
        theirs = eng._targets(st, o)
        if theirs and theirs[0][1]["id"] == e["id"]:
            dealt, lost = exchange(st, o, e, back=any(t is o for _, t in mine))
            worth += dealt - lost
    if e["type"] in STAFF:
        reach = easy_command_distance(e["type"]) ** 2
        near = sum(1 for m in eng._live(st, e["side"]) if m["command"] == e["command"]
                   and m is not e and (m["x"] - ex) ** 2 + (m["y"] - ey) ** 2 <= reach)
        return GENERAL_CARE * min(worth, 0.0) + COMMANDED * near
    if stance != "hold" and nearest is not None:
        urgency = 1 + 8 * min(st["bound"] / (2 * st["max_bounds"]), 1) ** 2
        worth -= PROGRESS * urgency * nearest ** 0.5 / 1000
    return worth


def _after(st: State, moved: dict[str, dict]) -> State:
    """``st`` with the elements in ``moved`` (id: new element) replaced, nothing copied
    deeper: the engine's predicates read it, nothing writes to it."""
    return {**st, "elements": {**st["elements"], **moved}}


def _moves(st: State, key: str) -> dict[str, dict]:
    """Where the order ``key`` would put the elements it moves (id: the moved element), as
    :func:`rules.hfg.engine.apply_order` would."""
    from rules.hfg import engine as eng

    parts = key.split(":")
    e = st["elements"][parts[1]]
    verb = parts[0]
    rects: dict[str, Rect | None]
    if verb == "line":
        line = eng._line_of(st, e)
        d = eng._straight(st, e, 1, line)
        rects = {m["id"]: eng._rect(m).moved(d) for m in line}
    elif verb == "advance":
        rects = {e["id"]: eng._rect(e).moved(eng._straight(st, e, 1))}
    elif verb == "retire":
        rects = {e["id"]: eng._rect(e).moved(-eng._straight(st, e, -1))}
    elif verb == "face":
        rects = {e["id"]: eng._face_rect(st, e, st["elements"][parts[2]])}
    else:  # occupy
        t = next(t for t in st["terrain"] if t["id"] == parts[2])
        rects = {e["id"]: eng._occupy_rect(st, e, t)}
    out = {}
    for i, r in rects.items():
        assert r is not None  # an order offered has its footprint
        m = dict(st["elements"][i], moved=True)
        eng._place(m, r)
        out[i] = m
    return out


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
    arrivals = [k for k in keys if k.startswith("arrive:")]
    if arrivals:  # a delayed command comes on as soon as it may (L210-215), in its order
        place = {e: i for i, e in enumerate(st["order"])}
        return min(arrivals, key=lambda k: (place[k.split(":")[1]], k))
    strikes = []
    towns = {t["id"]: t for t in st["terrain"]}
    for k in keys:
        if k.startswith(("attack:", "flank:", "assault:")):
            parts = k.split(":")
            a = els[parts[1]]
            # an assault is fought against the town's garrison, at its edge (L175-176)
            t = eng._held(st, towns[parts[2]]) if parts[0] == "assault" else els[parts[2]]
            mounted = troop_type(a["type"]).category == "mounted" and not a["dismounted"]
            if t is None or (stance == "hold" and not mounted):
                continue
            ev = expected_value(st, a, t, parts[3] if parts[0] == "flank" else "front")
            if ev > (HOLD_STRIKE if stance == "hold" else STRIKE):
                strikes.append((ev, k))
    if strikes:
        return max(strikes)[1]
    if stance == "hold":
        occupy = [k for k in keys if k.startswith("occupy:")]
        if occupy:
            return occupy[0]
    now: dict[str, float] = {}
    base = primaries(st, eng._enemy(st, side))
    best, choice = GAIN, "end"
    tried: set[tuple] = set()
    for k in keys:
        if not k.startswith(("advance:", "retire:", "face:", "occupy:", "line:")):
            continue
        if stance == "hold" and not k.startswith("face:") and \
                els[k.split(":")[1]]["type"] not in STAFF:
            continue
        moved = _moves(st, k)
        # an order that puts its elements where an earlier one did gains the same: not more
        to = (k.startswith("line:"), *((i, m["x"], m["y"], m["heading"]) for i, m in moved.items()))
        if to in tried:
            continue
        tried.add(to)
        after = _after(st, moved)
        gain = 0.0
        for i in moved:
            if i not in now:
                now[i] = standing(st, els[i], stance)
        with eng._still(after, st, moved):
            for i, m in moved.items():
                gain += standing(after, m, stance, base) - now[i]
        if k.startswith("line:"):
            gain += LINE * len(moved)
        if gain > best:
            best, choice = gain, k
    return choice
