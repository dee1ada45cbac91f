"""The board of a British vs Pirates game (engine ``bvp``), drawn as SVG from the engine's
view for the viewer (``rules.bvp.engine.BvpEngine.view``): every hex of the sea tiles
(pointy-topped, axial coordinates as ``rules.bvp.hexes`` documents; SVG's y runs down, so
north is up), land, the merchants' goal half-hexes, the Wind Vane with the wind's arrow,
and each ship as a hull pointing along her heading in her side's colour, with her Structure
D6 and a mark for every side shot away."""

from __future__ import annotations

from math import cos, radians, sin, sqrt

from django import template

from rules.bvp import hexes

register = template.Library()

SIDE_COLOURS = ("#1f4e9c", "#b22222", "#2e7d32", "#8e44ad")
SIDE_WORDS = ("bow", "starboard", "stern", "port")


def _f(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _xy(q: int, r: int) -> tuple[float, float]:
    return sqrt(3) * (q + r / 2), 1.5 * r


def _corners(q: int, r: int, scale: float = 1.0) -> str:
    cx, cy = _xy(q, r)
    return " ".join(f"{_f(cx + scale * cos(radians(30 + 60 * i)))},"
                    f"{_f(cy - scale * sin(radians(30 + 60 * i)))}" for i in range(6))


@register.inclusion_tag("combat/engines/_bvp_board.html")
def bvp_board(view: dict) -> dict:
    """The board's drawing data from ``view`` (a ``bvp`` view)."""
    colours = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(view["side_ids"])}
    cells = hexes.board_cells(view["tiles"])
    land = hexes.land_cells(view["tiles"])
    wind_tile = {(t["q"], t["r"]) for t in view["tiles"] if t["wind"]}
    goals = {tuple(h) for hs in view["goals"].values() for h in hs}
    shown = cells | goals
    xs = [_xy(*h)[0] for h in shown]
    ys = [_xy(*h)[1] for h in shown]
    left, top = min(xs) - 1.2, min(ys) - 1.2
    hex_list = [{"points": _corners(*h, 0.98), "kind": "land" if h in land else "sea",
                 "wind": any(hexes.distance(h, c) <= hexes.TILE_RADIUS for c in wind_tile)}
                for h in sorted(cells)]
    goal_list = [{"points": _corners(*h, 0.9)} for h in sorted(goals)]
    ships = []
    for sid in view["ship_ids"]:
        s = view["ships"][sid]
        if s["sunk"] or s["arrived"]:
            continue
        cx, cy = _xy(s["q"], s["r"])
        lost = [k for k in SIDE_WORDS if s["dice"][k] is None]
        ships.append({
            "id": sid, "name": s["name"], "side": s["side"], "colour": colours[s["side"]],
            "cx": _f(cx), "cy": _f(cy), "rotate": _f(-60 * s["heading"]),
            "structure": s["dice"]["structure"], "lost": lost,
            "merchant": s["merchant"], "heading": hexes.DIRECTION_NAMES[s["heading"]],
            "dice": ", ".join(f"{k} {s['dice'][k] if s['dice'][k] is not None else 'gone'}"
                              for k in (*SIDE_WORDS, "structure"))})
    vane = None
    if view["wind"] is not None:
        vx, vy = _xy(*view["vane"])
        a = radians(60 * view["wind"])
        vane = {"x1": _f(vx - 0.7 * cos(a)), "y1": _f(vy + 0.7 * sin(a)),
                "x2": _f(vx + 0.7 * cos(a)), "y2": _f(vy - 0.7 * sin(a)),
                "toward": hexes.DIRECTION_NAMES[view["wind"]], "from": wind_from(view["wind"])}
    return {"left": _f(left), "top": _f(top), "w": _f(max(xs) + 1.2 - left),
            "h": _f(max(ys) + 1.2 - top), "hexes": hex_list, "goals": goal_list,
            "ships": ships, "vane": vane,
            "sides": [{"name": view["sides"][s]["name"], "colour": colours[s]}
                      for s in view["side_ids"]]}


@register.filter
def die(value) -> str:
    """A D6 counter's face, or "—" once it is removed."""
    return "—" if value is None else str(value)


def wind_from(toward: int) -> str:
    """Where the wind comes from, in words, for the engine's ``wind`` (0-5, the hex direction
    it blows toward: ``rules.bvp.movement``): the opposite direction, as sailors name a
    wind."""
    return hexes.DIRECTION_NAMES[(toward + 3) % 6]


@register.filter
def wind_words(value) -> str:
    """The wind as a sailor says it, with the way it blows: "from the south-east, blowing
    toward the north-west" (``value`` the engine's wind, 0-5 toward, or ``None``)."""
    if value is None:
        return "not set yet"
    return f"from the {wind_from(value)}, blowing toward the {hexes.DIRECTION_NAMES[value]}"

