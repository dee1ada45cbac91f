"""HFG field works on the table: redoubts, entrenchments and strong points (digest 3.3 and
10.2; HFG seed ``002_a94228d927715433.txt`` L192-196, L226, L289).

The rules:

- L194-195: "REDOUBT, representing open-backed earthwork redoubt/s protecting an artillery
  or foot element from shooting by enemy not directly to their rear. Prevents artillery
  moving or turning. ... Up to 3 can be used, placed anywhere in the defender's deployment
  zone except within 200p of a previously placed redoubt."
- L195-196: "ENTRENCHMENT, representing 1,200p of straight trench or breastwork ... to
  protect foot or dismounted from shooting by enemy not directly to their flank or rear.
  Occupiers cannot turn unless they first move back or recoil. ... Up to 3 can be used".
- L192-193: "STRONG POINT up to 250p square, consisting of a strong stone building ... Its
  garrison of 1 or more detached companies is represented by a single foot figure. Its
  walls aid defence but prevent escape. ... Only 1 can be used".
- L196-198: "EXPLOITABLE LINEAR FEATURE, up to 1,200p long, such as a railway embankment
  or cutting or a hedge-banked or sunken road. Provides the same protection as an
  entrenchment. ... only 1 can be used" (whether the defender gets one is
  :func:`rules.hfg.prebattle.exploitable_feature`'s roll).
- L289: "+3 if shot at while protected in a redoubt or entrenchment."
- L226: 1 extra PIP for "a tactical move by ... troops in entrenchments".

Model: each work is a terrain feature (an axis-aligned rectangle in paces, kinds
``redoubt``, ``entrenchment``, ``linear_feature``, ``strong_point``); an element is in a
work when its centre is. A redoubt is at most 500p either way (one element and its
parapet), an entrenchment or an exploitable linear feature a straight line at most 1,200p
long and 300p deep (the feature protects as an entrenchment does, and nothing more; that it
lies on a road is not checked: roads are not on the table), a strong point at most 250p
square, held
by the SP garrison element (type ``SPG``; its +2 and its destruction when it loses a close
combat are the combat table's, :mod:`rules.hfg.combat`). Where a shooter stands is read
from the target's frame: ``rear`` directly behind (within the target's width, behind its
rear edge), ``flank`` directly to a flank (beside it, within its depth; A8), else
``front``. The deployment zone the works must stand in is not checked (scenarios are placed
as given).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rules.engine import IllegalAction
from rules.hfg.data import troop_type
from rules.hfg.geometry import EPS, Rect

KINDS = ("redoubt", "entrenchment", "linear_feature", "strong_point")
LIMITS = {"redoubt": 3, "entrenchment": 3, "linear_feature": 1, "strong_point": 1}
"""How many of each a battle may have (L193-198)."""
LINES = ("entrenchment", "linear_feature")
REDOUBT_SIZE = 500
ENTRENCHMENT_LENGTH = 1200
ENTRENCHMENT_DEPTH = 300
STRONG_POINT_SIZE = 250
REDOUBT_SPACING = 200
"""No redoubt within 200p of another (L195)."""


def _gap(a: dict, b: dict) -> float:
    dx = max(a["x"] - (b["x"] + b["w"]), b["x"] - (a["x"] + a["w"]), 0)
    dy = max(a["y"] - (b["y"] + b["h"]), b["y"] - (a["y"] + a["h"]), 0)
    return float((dx * dx + dy * dy) ** 0.5)


def check_works(features: Iterable[dict]) -> None:
    """IllegalAction naming the first work in ``features`` (terrain dicts with ``id``,
    ``kind``, ``x``, ``y``, ``w``, ``h`` in paces; other kinds are ignored) that breaks the
    rules: more than 3 redoubts or entrenchments or more than 1 linear feature or strong
    point, a redoubt larger than 500p or within 200p of another, an entrenchment or linear
    feature longer than 1,200p or deeper than 300p, a strong point larger than 250p
    square."""
    works = [f for f in features if f["kind"] in KINDS]
    for kind, n in Counter(f["kind"] for f in works).items():
        if n > LIMITS[kind]:
            raise IllegalAction(f"a battle may have at most {LIMITS[kind]} of "
                                f"{kind.replace('_', ' ')}s, not {n}")
    for f in works:
        long, short = max(f["w"], f["h"]), min(f["w"], f["h"])
        if f["kind"] == "redoubt" and long > REDOUBT_SIZE:
            raise IllegalAction(f"redoubt {f['id']}: a redoubt holds one element, at most "
                                f"{REDOUBT_SIZE} paces either way")
        if f["kind"] in LINES and (long > ENTRENCHMENT_LENGTH or short > ENTRENCHMENT_DEPTH):
            what = f["kind"].replace("_", " ")
            raise IllegalAction(f"{what} {f['id']}: it is a straight line at most "
                                f"{ENTRENCHMENT_LENGTH} paces long and {ENTRENCHMENT_DEPTH} "
                                "deep")
        if f["kind"] == "strong_point" and long > STRONG_POINT_SIZE:
            raise IllegalAction(f"strong point {f['id']}: a strong point is at most "
                                f"{STRONG_POINT_SIZE} paces square")
    redoubts = [f for f in works if f["kind"] == "redoubt"]
    for i, a in enumerate(redoubts):
        for b in redoubts[:i]:
            if _gap(a, b) < REDOUBT_SPACING:
                raise IllegalAction(f"redoubt {a['id']} is within {REDOUBT_SPACING} paces "
                                    f"of redoubt {b['id']}")


def shot_from(target: Rect, shooter: Rect) -> str:
    """Where ``shooter`` (its front-edge midpoint) stands seen from ``target``: ``"rear"``
    directly behind it, ``"flank"`` directly to a flank (A8), else ``"front"``."""
    u, v = target.local((shooter.x, shooter.y))
    if v < -target.depth - EPS and abs(u) <= target.width / 2 + EPS:
        return "rear"
    if abs(u) > target.width / 2 - EPS and -target.depth - EPS <= v <= EPS:
        return "flank"
    return "front"


def protects(kind: str | None, code: str, *, dismounted: bool, shooter_at: str) -> bool:
    """Whether a work of ``kind`` (None: none) protects an element of type ``code`` from a
    shooter standing at ``shooter_at`` (:func:`shot_from`): a redoubt an artillery or foot
    element from all but directly behind (L194), an entrenchment foot or dismounted from all
    but directly to a flank or behind (L195-196), and so does an exploitable linear feature
    (L197); a strong point gives no +3 (its garrison's +2 is the combat table's)."""
    cat = troop_type(code).category
    if kind == "redoubt":
        return cat in ("artillery", "foot") and not dismounted and shooter_at != "rear"
    if kind in LINES:
        return (cat == "foot" or dismounted) and shooter_at == "front"
    return False


def holds_in_place(kind: str | None, code: str) -> bool:
    """Whether an element of type ``code`` in a work of ``kind`` may neither move nor turn:
    artillery in a redoubt (L194)."""
    return kind == "redoubt" and troop_type(code).category == "artillery"


def may_turn(kind: str | None) -> bool:
    """Whether an element in a work of ``kind`` may turn in a tactical move: not out of an
    entrenchment (L196; it may move back, straight, first)."""
    return kind != "entrenchment"


def garrison_error(code: str, work: str | None, *, defender: bool) -> str | None:
    """Why an element of type ``code`` standing in a work of kind ``work`` (None: none) may
    not be set up there, in plain words, or None: an SP garrison stands in a strong point
    and is the defender's (L192-193, A20); nothing else garrisons a strong point; the works
    are the defender's, so no attacker starts in one (the attacker buys only concealment
    and bridges, L191-192; in play it may take one)."""
    if work is not None and not defender:
        return "the field works are the defender's: the attacker cannot start in one"
    if code == "SPG":
        if work != "strong_point":
            return "an SP garrison stands in a strong point"
    elif work == "strong_point":
        return "a strong point is held by its SP garrison"
    return None
