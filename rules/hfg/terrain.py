"""HFG terrain diced for (digest 4.1 and A16, A28 step 3; ``002_a94228d927715433.txt``
L147-183): the setup's ``"terrain": "dice"`` has the engine lay out the battlefield at the
start, every die through the battle's random source.

The book's procedure (L150-153): "Each short edge of the battlefield and each half of each
long edge are numbered clockwise from 1 to 6. Features are now diced for and placed in the
order in which they are listed": Waterways (1 die), Streams (2 dice), Rivers (one Stream
upgraded), Marshes, Hills, Roads (2 dice; "if both scores are the same, it runs to the
orthagonally opposite section"), Railways, BUA, Woods, Slow going (1 die each), with at
least 2 Roads and 2 BUA, at most 1 Waterway and 1 River, 4 features more than 1,000p across,
6 of a type and 20 in all. Sections follow A16: 1 the west short edge, 2 and 3 the north
edge's west and east halves, 4 the east short edge, 5 and 6 the south edge's east and west
halves.

The book leaves the counts and sizes to the defender; the engine (the defender's choices,
A28) dices them too: 0-1 Waterway (on a 5-6), 1 Stream (a River on a 5-6), 2-3 Hills
(difficult on a 5-6), 2-3 Roads (good on a 4-6), 2-3 BUA, 1-3 Woods, 0-2 Slow going; an
area feature is 500p plus 500p a pip beyond the first across each way (500-3,000p), never
more than 1,000p once four larger ones are down. Where a feature goes: an area feature's
centre 1d6 x 1/8 of the table's depth in from the middle of its section, shifted along the
edge by (1d6 - 3.5) x 1/8 of the section; a Waterway 1,000p plus 200p a pip beyond the
first deep along its section; a Stream runs straight across from its section to the
opposite one (the engine's features are straight strips, so it takes one section die, not
the book's two), 1d6 setting it 100-300p clear of the line the roads take, to one side or
the other, so that no road runs along it; a Road runs in from the middle of each of its
two sections to the table's east-west centre line and along it between them and the
table's centre, where all roads meet (a connected net, L169). A feature that would overlap
an earlier area feature, or
(water, towns) an element of the setup, is diced again, at most 5 times, and left out
after that. Marshes, Gullies and Railways are not diced for; the attacker's one feature
is not offered; ships need a Waterway given in the setup, so a diced table is for land
battles.
"""

from __future__ import annotations

from rules.dice import d6
from rules.hfg.geometry import Rect, overlaps
from rules.random import RandomSource

SECTIONS = (1, 2, 3, 4, 5, 6)
OPPOSITE = {1: 4, 4: 1, 2: 6, 6: 2, 3: 5, 5: 3}
"""The section orthogonally opposite each (A16)."""
ROAD_WIDTH = 100
STREAM_WIDTH = 200
TRIES = 5
LARGE = 1000
MAX_LARGE = 4


def section_middle(section: int, w: float, d: float) -> tuple[float, float]:
    """The middle of a section on the table's edge (A16)."""
    return {1: (0, d / 2), 2: (w / 4, d), 3: (3 * w / 4, d), 4: (w, d / 2),
            5: (3 * w / 4, 0), 6: (w / 4, 0)}[section]


def _inward(section: int) -> tuple[int, int]:
    return {1: (1, 0), 4: (-1, 0), 2: (0, -1), 3: (0, -1), 5: (0, 1), 6: (0, 1)}[section]


def _box(t: dict) -> tuple:
    x, y, w, h = t["x"], t["y"], t["w"], t["h"]
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _section(source: RandomSource, what: str) -> int:
    return d6(source, f"terrain {what} section")


def generate(source: RandomSource, w: int, d: int, elements: list[Rect]) -> list[dict]:
    """The diced battlefield for a ``w`` x ``d`` table whose elements stand at
    ``elements``: terrain entries as the setup takes them (module docstring)."""
    out: list[dict] = []
    large = [0]

    def clash(t: dict, avoid_elements: bool) -> bool:
        box = _box(t)
        if any(o["kind"] not in ("road", "stream", "river") and overlaps(box, _box(o))
               for o in out):
            return True
        return avoid_elements and any(overlaps(box, r.corners()) for r in elements)

    def add(t: dict, avoid_elements: bool) -> bool:
        t = {**t, "x": round(max(0, t["x"])), "y": round(max(0, t["y"]))}
        t["w"], t["h"] = round(min(t["w"], w - t["x"])), round(min(t["h"], d - t["y"]))
        if t["w"] < 100 or t["h"] < 100 or clash(t, avoid_elements):
            return False
        out.append(t)
        if max(t["w"], t["h"]) > LARGE and t["kind"] not in ("road", "stream", "river"):
            large[0] += 1
        return True

    def size(what: str) -> int:
        s = 500 + 500 * (d6(source, f"terrain {what} size") - 1)
        return s if large[0] < MAX_LARGE else min(s, LARGE)

    def area(kind: str, n: int, square: int | None = None) -> None:
        for _ in range(TRIES):
            sec = _section(source, f"{kind} {n}")
            fw, fh = (square, square) if square else (size(f"{kind} {n}"),
                                                      size(f"{kind} {n}"))
            mx, my = section_middle(sec, w, d)
            ix, iy = _inward(sec)
            deep = d6(source, f"terrain {kind} {n} depth") * d / 8
            along = (d6(source, f"terrain {kind} {n} along") - 3.5) * (
                d if sec in (1, 4) else w / 2) / 8
            cx = mx + ix * deep + (along if iy else 0)
            cy = my + iy * deep + (along if ix else 0)
            t = {"id": f"{kind}-{n}", "kind": kind, "x": cx - fw / 2, "y": cy - fh / 2,
                 "w": fw, "h": fh, "name": f"{kind.replace('_', ' ')} {n}"}
            if add(t, kind == "bua"):
                return

    if d6(source, "terrain waterway") >= 5:
        for _ in range(TRIES):
            sec = _section(source, "waterway")
            deep = 1000 + 200 * (d6(source, "terrain waterway depth") - 1)
            x0 = {1: 0, 4: w - deep, 2: 0, 6: 0, 3: w / 2, 5: w / 2}[sec]
            y0 = {1: 0, 4: 0, 2: d - deep, 3: d - deep, 5: 0, 6: 0}[sec]
            ww, hh = (deep, d) if sec in (1, 4) else (w / 2, deep)
            if add({"id": "waterway", "kind": "waterway", "x": x0, "y": y0, "w": ww,
                    "h": hh, "name": "the waterway"}, True):
                break
    river = d6(source, "terrain river") >= 5
    for _ in range(TRIES):
        sec = _section(source, "stream")
        kind = "river" if river else "stream"
        wide = 200 + 100 * d6(source, "terrain river width") if river else STREAM_WIDTH
        mx, _ = section_middle(sec, w, d)
        die = d6(source, f"terrain {kind} offset")
        off = (1 if die >= 4 else -1) * (wide / 2 + 100 + 100 * ((die - 1) % 3))
        t = ({"x": 0, "y": d / 2 + off - wide / 2, "w": w, "h": wide} if sec in (1, 4) else
             {"x": mx + off - wide / 2, "y": 0, "w": wide, "h": d})
        if add({"id": kind, "kind": kind, **t, "name": f"the {kind}"}, True):
            break
    for n in range(2 + (d6(source, "terrain hills") >= 4)):
        area("difficult_hill" if d6(source, f"terrain hill {n + 1} kind") >= 5 else "hill",
             n + 1)
    for n in range(2 + (d6(source, "terrain roads") >= 4)):
        a, b = _section(source, f"road {n + 1}"), _section(source, f"road {n + 1} end")
        if a == b:
            b = OPPOSITE[a]
        quality = "good" if d6(source, f"terrain road {n + 1} quality") >= 4 else "bad"
        _road(out, n + 1, a, b, quality, w, d)
    for n in range(2 + (d6(source, "terrain towns") >= 4)):
        area("bua", n + 1, square=500)
    for n in range((d6(source, "terrain woods") + 1) // 2):
        area("wood", n + 1)
    for n in range((d6(source, "terrain slow going") - 1) // 2):
        area("slow", n + 1)
    return out


def _road(out: list[dict], n: int, a: int, b: int, quality: str, w: int, d: int) -> None:
    """Road ``n`` from section ``a`` to ``b``: a leg in from each section's middle to the
    table's east-west centre line and the stretch of that line between the legs and the
    table's centre, where every road meets."""
    spine = d / 2
    feet = []
    for k, sec in enumerate((a, b)):
        mx, my = section_middle(sec, w, d)
        if sec in (1, 4):
            x0 = 0 if sec == 1 else 3 * w / 4
            out.append({"id": f"road-{n}-{k + 1}", "kind": "road", "x": x0,
                        "y": spine - ROAD_WIDTH / 2, "w": w / 4, "h": ROAD_WIDTH})
            feet.append(w / 4 if sec == 1 else 3 * w / 4)
        else:
            y0, h = (spine, d - spine) if my > 0 else (0, spine)
            out.append({"id": f"road-{n}-{k + 1}", "kind": "road", "x": mx - ROAD_WIDTH / 2,
                        "y": y0, "w": ROAD_WIDTH, "h": h})
            feet.append(mx)
    lo, hi = min(*feet, w / 2), max(*feet, w / 2)
    if hi - lo >= ROAD_WIDTH:
        out.append({"id": f"road-{n}-3", "kind": "road", "x": lo - ROAD_WIDTH / 2,
                    "y": spine - ROAD_WIDTH / 2, "w": hi - lo + ROAD_WIDTH, "h": ROAD_WIDTH})
    mine = [t for t in out if t["id"].startswith(f"road-{n}-")]
    for t in mine:
        out.remove(t)
        t.update(x=round(t["x"]), y=round(t["y"]), w=round(t["w"]), h=round(t["h"]),
                 quality=quality, name=f"the {'pike' if quality == 'good' else 'lane'} {n}")
        if not any(o["kind"] == "road" and all(o[k] == t[k] for k in "xywh") for o in out):
            out.append(t)  # a stretch another road already has is not drawn twice
